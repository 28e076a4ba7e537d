/**
 * Records as JSON:API resource objects: attributes, a relationship object for every relation
 * (to-one: links and data linkage; to-many: a related link, its own paged route) and a self link.
 * Links are absolute, built from the request's origin, as most JSON:API servers send them.
 * Compound documents: the `included` records of include=... .
 */
import {
  isLinked,
  isResourceType,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';
import { ApiError } from '../model/errors.js';
import { own } from '../model/own.js';
import { MAX_INCLUDE_DEPTH } from './query.js';
import type { StoredRecord } from './store.js';

/** fields[<type>] of the request: the member names to keep per type (none: keep all). */
export type Fieldsets = Map<ResourceType, Set<string>>;

export interface Linkage {
  type: string;
  id: string;
  /** What the client that made a link sent with it (JSON:API 1.1 resource identifier `meta`). */
  meta?: Record<string, unknown>;
}

export interface ResourceObject extends Linkage {
  attributes: Record<string, unknown>;
  relationships?: Record<string, RelationshipObject>;
  links?: { self: string };
}

export interface RelationshipObject {
  links: { self?: string; related: string };
  data?: Linkage | Linkage[] | null;
}

/** The member names fields[<type>] accepts: attributes and relations (a relation is a field). */
export function fieldNames(type: ResourceType): string[] {
  const spec = resourceSpec(type);
  return [
    ...Object.keys(spec.attributes),
    ...Object.keys(spec.toOne ?? {}),
    ...Object.keys(spec.toMany ?? {}),
  ];
}

/** fields[<type>]=a,b parameters, checked against the type's attributes and relations. */
export function parseFieldsets(query: URLSearchParams): Fieldsets {
  const out: Fieldsets = new Map();
  for (const [name, value] of query) {
    const m = /^fields\[([^\]]+)\]$/.exec(name);
    if (!m) continue;
    const type = m[1]!;
    if (!isResourceType(type)) {
      throw new ApiError(400, 'UNKNOWN_FIELD', `Unknown type '${type}' in ${name}.`, {
        parameter: name,
      });
    }
    const valid = fieldNames(type);
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const n of names) {
      if (n !== 'id' && !valid.includes(n)) {
        throw new ApiError(
          400,
          'UNKNOWN_FIELD',
          `Unknown field '${n}' in ${name}. Valid names: ${valid.join(', ')}.`,
          { parameter: name },
        );
      }
    }
    out.set(type, new Set(names));
  }
  return out;
}

/** The record a to-one relation points at, if it exists. */
export type Resolve = (type: ResourceType, id: string) => StoredRecord | undefined;

/** The linkage of a linked to-many relation of a record (its links to live records). */
export type LinkageOf = (record: StoredRecord, relation: string) => Linkage[];

export function toOneLinkage(
  record: StoredRecord,
  relation: string,
  resolve: Resolve,
): Linkage | null {
  const rel = resourceSpec(record.type).toOne![relation]!;
  const id = record.attributes[rel.via];
  const target = typeof id === 'string' ? resolve(rel.type, id) : undefined;
  return target ? { type: target.type, id: target.id } : null;
}

export function selfLink(base: string, type: ResourceType, id: string): string {
  return `${base}/${type}/${encodeURIComponent(id)}`;
}

/** A relationship object: `/{type}/{id}/relationships/{rel}` and `/{type}/{id}/{rel}`. */
export function relationshipLinks(
  base: string,
  record: StoredRecord,
  relation: string,
): RelationshipObject['links'] {
  const self = selfLink(base, record.type, record.id);
  return { self: `${self}/relationships/${relation}`, related: `${self}/${relation}` };
}

export function resourceObject(
  record: StoredRecord,
  base: string,
  resolve: Resolve,
  linkage: LinkageOf,
  fields?: Fieldsets,
): ResourceObject {
  const spec = resourceSpec(record.type);
  const only = fields?.get(record.type);
  const keep = (name: string) => !only || only.has(name);
  const attributes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record.attributes))
    if (keep(name)) attributes[name] = value;
  const relationships: Record<string, RelationshipObject> = {};
  for (const name of Object.keys(spec.toOne ?? {})) {
    if (!keep(name)) continue;
    relationships[name] = {
      links: relationshipLinks(base, record, name),
      data: toOneLinkage(record, name, resolve),
    };
  }
  for (const [name, rel] of Object.entries(spec.toMany ?? {})) {
    if (!keep(name)) continue;
    // A linked relation carries its linkage (JSON:API "resource linkage"), so that a list of
    // records tells their links without a request per record; a foreign-key one has its route.
    relationships[name] = isLinked(rel)
      ? { links: relationshipLinks(base, record, name), data: linkage(record, name) }
      : { links: { related: `${selfLink(base, record.type, record.id)}/${name}` } };
  }
  return {
    type: record.type,
    id: record.id,
    attributes,
    ...(Object.keys(relationships).length ? { relationships } : {}),
    ...(spec.operations.includes('get')
      ? { links: { self: selfLink(base, record.type, record.id) } }
      : {}),
  };
}

/**
 * include=a,a.b (to-one only, up to MAX_INCLUDE_DEPTH levels): the `included` array, each related
 * record once; sparse fieldsets apply to included records too (JSON:API).
 */
export function included(
  type: ResourceType,
  records: StoredRecord[],
  text: string | null,
  resolve: Resolve,
  linkage: LinkageOf,
  base: string,
  fields: Fieldsets,
): ResourceObject[] | undefined {
  if (!text) return undefined;
  const seen = new Map<string, StoredRecord>();
  for (const path of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parts = path.split('.');
    if (parts.length > MAX_INCLUDE_DEPTH) {
      throw new ApiError(
        400,
        'INCLUDE_TOO_DEEP',
        `include '${path}' is deeper than ${MAX_INCLUDE_DEPTH} levels.`,
        { parameter: 'include' },
      );
    }
    let current: StoredRecord[] = records;
    let currentType = type;
    for (const part of parts) {
      const rel = own(resourceSpec(currentType).toOne, part);
      if (!rel) {
        const valid = Object.keys(resourceSpec(currentType).toOne ?? {});
        throw new ApiError(
          400,
          'UNKNOWN_FIELD',
          `Unknown to-one relation '${part}' on ${currentType} in include. Valid names: ${valid.join(', ') || 'none'}.`,
          {
            parameter: 'include',
          },
        );
      }
      const next: StoredRecord[] = [];
      for (const r of current) {
        const id = r.attributes[rel.via];
        const target = typeof id === 'string' ? resolve(rel.type, id) : undefined;
        if (target) {
          next.push(target);
          seen.set(`${target.type}/${target.id}`, target);
        }
      }
      current = next;
      currentType = rel.type;
    }
  }
  return [...seen.values()].map((r) => resourceObject(r, base, resolve, linkage, fields));
}
