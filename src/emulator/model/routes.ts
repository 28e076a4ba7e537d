/**
 * The API as data: routes are compiled once from src/schema (stripe-mock style). Fixed paths match
 * before parameterised ones.
 */
import {
  isLinked,
  RESOURCE_TYPES,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';

/** The routes of a resource type, answered by the data service (src/emulator/data/service.ts). */
export type ResourceRouteKind =
  | 'list'
  | 'aggregate'
  | 'schema'
  | 'get'
  | 'create'
  | 'update'
  | 'delete'
  | 'restore'
  | 'related'
  | 'relatedToOne'
  | 'relationship'
  | 'linkage'
  | 'link'
  | 'unlink';

/** The routes that describe the API, answered by the server (src/emulator/http/server.ts). */
export type DocumentRouteKind = 'openapi' | 'filterReference';

export type RouteKind = ResourceRouteKind | DocumentRouteKind;

interface RouteBase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string[];
  /** For stats and the OpenAPI document: `GET /test_cases/{id}`. */
  name: string;
  write: boolean;
}

/** A route of a resource type: its kind, type and, for a relation's routes, the relation. */
export interface ResourceRoute extends RouteBase {
  kind: ResourceRouteKind;
  type: ResourceType;
  relation?: string;
}

/** A route that describes the API, one member per kind (so that a test of `kind` narrows). */
export type DocumentRoute = {
  [K in DocumentRouteKind]: RouteBase & { kind: K; type?: undefined; relation?: undefined };
}[DocumentRouteKind];

/**
 * Every route, told apart by its kind: a switch on `kind` that misses a case fails the type check
 * (`unknownRouteKind`), so a new kind cannot fall through to a 404.
 */
export type Route = ResourceRoute | DocumentRoute;

/**
 * The end of an exhaustive switch on a route's kind: the type check fails when a case is missing.
 */
export function unknownRouteKind(kind: never): never {
  throw new Error(`no case for the route kind ${String(kind)}`);
}

function base(method: Route['method'], pattern: string[]): RouteBase {
  return {
    method,
    pattern,
    name: `${method} /${pattern.map((p) => (p === ':id' ? '{id}' : p)).join('/')}`,
    write: method !== 'GET',
  };
}

function route(
  method: Route['method'],
  pattern: string[],
  kind: ResourceRouteKind,
  type: ResourceType,
  relation?: string,
): ResourceRoute {
  return { ...base(method, pattern), kind, type, ...(relation ? { relation } : {}) };
}

function documentRoute(path: string, kind: DocumentRouteKind): DocumentRoute {
  return { ...base('GET', [path]), kind };
}

export function compileRoutes(): Route[] {
  const routes: Route[] = [
    documentRoute('openapi.json', 'openapi'),
    documentRoute('filter-reference', 'filterReference'),
  ];
  for (const type of RESOURCE_TYPES) {
    const spec = resourceSpec(type);
    const ops = new Set(spec.operations);
    if (ops.has('list')) routes.push(route('GET', [type], 'list', type));
    if (ops.has('aggregate')) routes.push(route('GET', [type, 'aggregate'], 'aggregate', type));
    if (ops.has('schema')) routes.push(route('GET', [type, 'schema'], 'schema', type));
    if (ops.has('create')) routes.push(route('POST', [type], 'create', type));
    if (ops.has('get')) routes.push(route('GET', [type, ':id'], 'get', type));
    if (ops.has('update')) routes.push(route('PATCH', [type, ':id'], 'update', type));
    if (ops.has('delete')) routes.push(route('DELETE', [type, ':id'], 'delete', type));
    if (spec.softDelete)
      routes.push(route('POST', [type, ':id', 'actions', 'restore'], 'restore', type));
    for (const [rel, many] of Object.entries(spec.toMany ?? {})) {
      routes.push(route('GET', [type, ':id', rel], 'related', type, rel));
      if (!isLinked(many)) continue;
      // A linked relation's linkage, and on its writable side the JSON:API 1.1 updates of it.
      const linkage = [type, ':id', 'relationships', rel];
      routes.push(route('GET', linkage, 'linkage', type, rel));
      if (many.writable) {
        routes.push(route('POST', linkage, 'link', type, rel));
        routes.push(route('DELETE', linkage, 'unlink', type, rel));
      }
    }
    // docs/service-api.md 4.5 lists these for notifications and preferences; every to-one relation of a
    // readable type has them here, so that each relationship object's links resolve.
    if (ops.has('get')) {
      for (const rel of Object.keys(spec.toOne ?? {})) {
        routes.push(route('GET', [type, ':id', rel], 'relatedToOne', type, rel));
        routes.push(route('GET', [type, ':id', 'relationships', rel], 'relationship', type, rel));
      }
    }
  }
  // Fixed segments first: /test_cases/aggregate before /test_cases/{id}.
  return routes.sort((a, b) => paramCount(a) - paramCount(b));
}

function paramCount(r: Route): number {
  return r.pattern.filter((p) => p === ':id').length;
}

export interface RouteMatch {
  route: Route;
  id?: string;
}

/** The route for a method and path, or the methods that path allows (for 405), or nothing (404). */
export function matchRoute(
  routes: Route[],
  method: string,
  segments: string[],
): RouteMatch | { allowed: string[] } | undefined {
  const allowed: string[] = [];
  for (const r of routes) {
    if (r.pattern.length !== segments.length) continue;
    let id: string | undefined;
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      if (r.pattern[i] === ':id') id = segments[i];
      else if (r.pattern[i] !== segments[i]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (r.method === method) return { route: r, id };
    allowed.push(r.method);
  }
  return allowed.length ? { allowed: [...new Set(allowed)] } : undefined;
}
