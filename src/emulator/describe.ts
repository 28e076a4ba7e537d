/** Descriptions generated from the tables, never written by hand: /openapi.json and /filter-reference. */
import {
  RESOURCES,
  type AttrSpec,
  type ResourceSpec,
  type ResourceType,
} from '../schema/resources.js';
import {
  COMPARE_OPERATORS,
  FUNCTIONS,
  KEYWORDS,
  QUANTIFIERS,
  TIME_UNITS,
} from './filtrql/reference.js';
import type { Route } from './routes.js';
import type { Role } from './seed.js';

function attributeSchema(a: AttrSpec): Record<string, unknown> {
  const base: Record<string, unknown> =
    a.kind === 'uuid'
      ? { type: 'string', format: 'uuid' }
      : a.kind === 'date-time'
        ? { type: 'string', format: 'date-time' }
        : a.kind === 'string[]'
          ? { type: 'array', items: { type: 'string' } }
          : a.kind === 'any'
            ? {}
            : { type: a.kind };
  if (a.enum) base.enum = [...a.enum];
  if (a.nullable && base.type) base.type = [base.type, 'null'];
  if (a.serverSet) base.readOnly = true;
  return base;
}

/** OpenAPI 3.1 of the routes this token may call (SERVICE-API.md 4.4: trimmed to what it may do). */
export function openApiDocument(routes: Route[], role: Role): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.write && role === 'read-only') continue;
    const path = '/' + route.pattern.map((p) => (p === ':id' ? '{id}' : p)).join('/');
    const op: Record<string, unknown> = {
      operationId: `${route.kind}_${route.type ?? 'meta'}${route.relation ? `_${route.relation}` : ''}`,
    };
    if (route.pattern.includes(':id'))
      op.parameters = [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      ];
    if (route.type) {
      const spec = RESOURCES[route.type] as ResourceSpec;
      schemas[route.type] ??= {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(spec.attributes).map(([n, a]) => [n, attributeSchema(a)]),
        ),
        required: Object.entries(spec.attributes)
          .filter(([, a]) => a.required)
          .map(([n]) => n),
      };
      op.responses = {
        [route.kind === 'create' ? '201' : '200']: {
          description: 'JSON:API document',
          content: {
            'application/vnd.api+json': { schema: { $ref: `#/components/schemas/${route.type}` } },
          },
        },
      };
      if (
        spec.versionLocked &&
        (route.kind === 'update' || route.kind === 'delete' || route.kind === 'restore')
      ) {
        op.parameters = [
          ...((op.parameters as unknown[]) ?? []),
          { name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } },
        ];
      }
    } else {
      op.responses = { '200': { description: 'description document' } };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Test-Management REST API (testcycle emulator)', version: 'v1' },
    servers: [{ url: '/api/v1' }],
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  };
}

/**
 * GET /filter-reference as a JSON:API document: one resource (`filter_reference`, id `filtrql`)
 * whose attributes describe the language, so that every /api/v1 answer but openapi.json is JSON:API.
 */
export function filterReference(base: string): Record<string, unknown> {
  const types = Object.keys(RESOURCES) as ResourceType[];
  const attributes = {
    operators: COMPARE_OPERATORS,
    keywords: KEYWORDS,
    lists: { in: 'field in ("a", "b")', 'not in': 'field not in ("a")' },
    nulls: ['field is null', 'field is not null'],
    quantifiers: QUANTIFIERS,
    functions: Object.fromEntries(
      Object.entries(FUNCTIONS).map(([n, f]) => [`${n}(${f.args ? 'role' : ''})`, f.description]),
    ),
    relativeTime: { syntax: 'now - 7d', units: Object.keys(TIME_UNITS) },
    strings:
      'double or single quotes; escapes \\" \\\' \\\\; {$expression} inside a string is replaced by its value',
    fields: Object.fromEntries(
      types.map((t) => {
        const spec = RESOURCES[t] as ResourceSpec;
        return [
          t,
          {
            attributes: Object.keys(spec.attributes),
            toOne: Object.keys(spec.toOne ?? {}),
            toMany: Object.keys(spec.toMany ?? {}),
          },
        ];
      }),
    ),
  };
  return {
    links: { self: `${base}/filter-reference` },
    data: { type: 'filter_reference', id: 'filtrql', attributes },
  };
}
