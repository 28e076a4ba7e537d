/**
 * Validation of write requests against the schema table: the document's shape, each attribute's
 * kind and enum, required and server-set attributes, custom field keys, references, uniqueness
 * among live records (by index), and If-Match on version-locked types.
 */
import {
  type AttrSpec,
  type ResourceSpec,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';
import { ApiError, MESSAGES } from '../model/errors.js';
import { own } from '../model/own.js';
import { type Store, type StoredRecord, uniqueSetsOf } from './store.js';

export function readDocument(
  type: ResourceType,
  body: unknown,
  isUpdate: boolean,
  id?: string,
): { attributes: Record<string, unknown> } {
  const data = (body as { data?: unknown } | undefined)?.data as
    { type?: unknown; id?: unknown; attributes?: unknown } | undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ApiError(
      422,
      'INVALID_DOCUMENT',
      'The body must be {"data": {"type", "attributes"}}.',
      { pointer: '/data' },
    );
  }
  if (data.type !== type) {
    throw new ApiError(409, 'TYPE_MISMATCH', `data.type must be "${type}" on this route.`, {
      pointer: '/data/type',
    });
  }
  if (isUpdate && data.id !== id) {
    throw new ApiError(409, 'ID_MISMATCH', `data.id must be "${id}", the id in the path.`, {
      pointer: '/data/id',
    });
  }
  const attributes = data.attributes ?? {};
  if (typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new ApiError(422, 'INVALID_DOCUMENT', 'data.attributes must be an object.', {
      pointer: '/data/attributes',
    });
  }
  return { attributes: { ...(attributes as Record<string, unknown>) } };
}

export function validateAttributes(
  type: ResourceType,
  input: Record<string, unknown>,
  mode: 'create' | 'update',
  customFields: readonly string[],
): Record<string, unknown> {
  const spec = resourceSpec(type);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const pointer = `/data/attributes/${name}`;
    const attr = own(spec.attributes, name);
    if (!attr) {
      throw new ApiError(
        422,
        'UNKNOWN_ATTRIBUTE',
        `Unknown attribute '${name}' on ${type}. Valid: ${writable(spec).join(', ')}.`,
        { pointer },
      );
    }
    if (attr.serverSet) {
      throw new ApiError(
        422,
        'SERVER_SET_ATTRIBUTE',
        `'${name}' is set by the server; do not send it.`,
        { pointer },
      );
    }
    checkValue(name, value, attr, pointer);
    if (name === 'customFields')
      checkCustomFields(type, value as Record<string, unknown>, customFields);
    out[name] = value;
  }
  if (mode === 'create') {
    for (const [name, attr] of Object.entries(spec.attributes)) {
      if (attr.required && (out[name] === undefined || out[name] === null)) {
        throw new ApiError(422, 'REQUIRED', `'${name}' is required to create ${type}.`, {
          pointer: `/data/attributes/${name}`,
        });
      }
    }
  }
  return out;
}

function checkCustomFields(
  type: ResourceType,
  value: Record<string, unknown>,
  defined: readonly string[],
): void {
  for (const key of Object.keys(value)) {
    if (!defined.includes(key)) {
      throw new ApiError(
        422,
        'UNKNOWN_CUSTOM_FIELD',
        `Unknown custom field '${key}' on ${type}; defined: ${defined.join(', ') || 'none'}.`,
        {
          pointer: `/data/attributes/customFields/${key}`,
        },
      );
    }
  }
}

export function checkReferences(
  store: Store,
  type: ResourceType,
  attributes: Record<string, unknown>,
): void {
  const spec = resourceSpec(type);
  for (const [name, attr] of Object.entries(spec.attributes)) {
    const value = attributes[name];
    if (!attr.references || typeof value !== 'string') continue;
    const target = store.get(attr.references, value);
    const softDeleted =
      target && resourceSpec(attr.references).softDelete && target.attributes.deletedAt != null;
    if (!target || softDeleted) {
      throw new ApiError(
        409,
        'MISSING_REFERENCE',
        `'${name}' refers to no ${attr.references} record in this Space (${value}).`,
        {
          pointer: `/data/attributes/${name}`,
        },
      );
    }
  }
}

export function checkUnique(
  store: Store,
  type: ResourceType,
  attributes: Record<string, unknown>,
  self: StoredRecord | undefined,
  changed?: string[],
): void {
  const spec = resourceSpec(type);
  const isLive = (r: StoredRecord) =>
    r !== self && (!spec.softDelete || r.attributes.deletedAt == null);
  for (const names of uniqueSetsOf(type)) {
    if (changed && !names.some((n) => changed.includes(n))) continue;
    for (const r of store.withSameValues(type, names, attributes)) {
      if (!isLive(r)) continue;
      const detail =
        names.length === 1
          ? `A live ${type} record named ${JSON.stringify(attributes[names[0]!])} exists already (${r.id}).`
          : `A ${type} record with the same ${names.join(' and ')} exists already (${r.id}).`;
      throw new ApiError(409, 'CONFLICT', detail, { pointer: `/data/attributes/${names[0]}` });
    }
  }
}

export function checkEtag(
  type: ResourceType,
  record: StoredRecord,
  ifMatch: string | undefined,
): void {
  if (!resourceSpec(type).versionLocked) return;
  if (!ifMatch) throw new ApiError(428, 'MISSING_IF_MATCH', MESSAGES.missingIfMatch);
  if (ifMatch !== record.etag) throw new ApiError(412, 'PRECONDITION_FAILED', MESSAGES.staleEtag);
}

function writable(spec: ResourceSpec): string[] {
  return Object.entries(spec.attributes)
    .filter(([, a]) => !a.serverSet)
    .map(([n]) => n);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkValue(name: string, value: unknown, attr: AttrSpec, pointer: string): void {
  const bad = (what: string): never => {
    throw new ApiError(422, 'INVALID_VALUE', `'${name}' ${what}.`, { pointer });
  };
  if (value === null) {
    if (!attr.nullable) bad('cannot be null');
    return;
  }
  switch (attr.kind) {
    case 'string':
      if (typeof value !== 'string') bad('must be a string');
      break;
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) bad('must be a uuid');
      break;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) bad('must be an integer');
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) bad('must be a number');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') bad('must be true or false');
      break;
    case 'date-time':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
        bad('must be an ISO 8601 date-time');
      break;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value))
        bad('must be an object of key-value pairs');
      break;
    case 'string[]':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        bad('must be an array of strings');
      break;
    default:
      break;
  }
  if (attr.enum && !attr.enum.includes(value as string))
    bad(`must be one of ${attr.enum.join(', ')}`);
}

// ---------- sorting and cursors ----------

/**
 * The body of POST and DELETE on a linked relationship route (JSON:API 1.1 "Updating To-Many
 * Relationships"): `{data: [{type, id, meta?}]}`, every member of `type` and a live record of the
 * Space; checked whole before any link changes. An empty list changes nothing.
 */
export function readLinkage(
  store: Store,
  type: ResourceType,
  body: unknown,
): { id: string; meta?: Record<string, unknown> }[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data))
    throw new ApiError(
      422,
      'INVALID_DOCUMENT',
      `The body must be {"data": [{"type": "${type}", "id": ...}]}: a list of resource identifiers.`,
      { pointer: '/data' },
    );
  return data.map((item: unknown, i) => {
    const pointer = `/data/${i}`;
    const member = item as { type?: unknown; id?: unknown; meta?: unknown } | null;
    if (!member || typeof member !== 'object' || Array.isArray(member))
      throw new ApiError(422, 'INVALID_DOCUMENT', 'Each member is {"type", "id"}.', { pointer });
    if (member.type !== type)
      throw new ApiError(409, 'TYPE_MISMATCH', `type must be "${type}" on this relationship.`, {
        pointer: `${pointer}/type`,
      });
    if (typeof member.id !== 'string' || !member.id)
      throw new ApiError(422, 'INVALID_DOCUMENT', 'id must be a string.', {
        pointer: `${pointer}/id`,
      });
    const meta = member.meta;
    if (meta !== undefined && (!meta || typeof meta !== 'object' || Array.isArray(meta)))
      throw new ApiError(422, 'INVALID_DOCUMENT', 'meta must be an object.', {
        pointer: `${pointer}/meta`,
      });
    const target = store.get(type, member.id);
    if (!target || (resourceSpec(type).softDelete && target.attributes.deletedAt != null))
      throw new ApiError(
        409,
        'MISSING_REFERENCE',
        `No ${type} record with id ${member.id} in this Space to link.`,
        { pointer: `${pointer}/id` },
      );
    return { id: member.id, ...(meta ? { meta: meta as Record<string, unknown> } : {}) };
  });
}
