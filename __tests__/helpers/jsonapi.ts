/**
 * The structural rules of a JSON:API 1.1 document (jsonapi.org/format/1.1, "Document Structure"),
 * as a list of violations: top-level members, resource objects, relationship objects, links,
 * error objects, unique resources and full linkage of compound documents.
 */

type Json = Record<string, unknown>;

const TOP_LEVEL = ['data', 'errors', 'meta', 'links', 'included', 'jsonapi'];
const RESOURCE = ['type', 'id', 'lid', 'attributes', 'relationships', 'links', 'meta'];
/** docs/service-api.md 2.2 names a notification attribute `type`; kept as the spec has it. */
const SPEC_ATTRIBUTES_NAMED_TYPE = new Set(['notifications']);

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function linkViolations(links: unknown, where: string): string[] {
  if (links === undefined) return [];
  if (!isObject(links)) return [`${where}: links must be an object`];
  const out: string[] = [];
  for (const [name, link] of Object.entries(links)) {
    if (link === null || typeof link === 'string') continue;
    if (!isObject(link) || typeof link.href !== 'string')
      out.push(`${where}.links.${name}: a link is a string, null or an object with href`);
  }
  return out;
}

function linkageViolations(data: unknown, where: string): string[] {
  const one = (d: unknown, w: string) =>
    isObject(d) && typeof d.type === 'string' && typeof d.id === 'string'
      ? Object.keys(d)
          .filter((k) => !['type', 'id', 'meta'].includes(k))
          .map((k) => `${w}: linkage member ${k}`)
      : [`${w}: linkage must be {type, id}`];
  if (data === null) return [];
  if (Array.isArray(data)) return data.flatMap((d, i) => one(d, `${where}[${i}]`));
  return one(data, where);
}

function resourceViolations(r: unknown, where: string): string[] {
  if (!isObject(r)) return [`${where}: a resource object must be an object`];
  const out: string[] = [];
  if (typeof r.type !== 'string') out.push(`${where}.type must be a string`);
  if (typeof r.id !== 'string') out.push(`${where}.id must be a string`);
  for (const k of Object.keys(r)) if (!RESOURCE.includes(k)) out.push(`${where}: member ${k}`);
  const fields: string[] = [];
  if (r.attributes !== undefined) {
    if (!isObject(r.attributes)) out.push(`${where}.attributes must be an object`);
    else fields.push(...Object.keys(r.attributes));
  }
  if (r.relationships !== undefined) {
    if (!isObject(r.relationships)) out.push(`${where}.relationships must be an object`);
    else
      for (const [name, rel] of Object.entries(r.relationships)) {
        fields.push(name);
        const w = `${where}.relationships.${name}`;
        if (!isObject(rel) || !['links', 'data', 'meta'].some((m) => m in rel)) {
          out.push(`${w}: needs links, data or meta`);
          continue;
        }
        if ('data' in rel) out.push(...linkageViolations(rel.data, `${w}.data`));
        out.push(...linkViolations(rel.links, w));
        if (isObject(rel.links) && !('self' in rel.links) && !('related' in rel.links))
          out.push(`${w}.links: needs self or related`);
      }
  }
  const reserved = fields.filter(
    (f) =>
      f === 'id' ||
      f === 'relationships' ||
      f === 'links' ||
      (f === 'type' && !SPEC_ATTRIBUTES_NAMED_TYPE.has(String(r.type))),
  );
  for (const f of reserved) out.push(`${where}: field named ${f}`);
  if (new Set(fields).size !== fields.length)
    out.push(`${where}: an attribute and a relationship share a name`);
  out.push(...linkViolations(r.links, where));
  return out;
}

function errorViolations(errors: unknown): string[] {
  if (!Array.isArray(errors) || errors.length === 0) return ['errors must be a non-empty array'];
  return errors.flatMap((e, i) => {
    const w = `errors[${i}]`;
    if (!isObject(e)) return [`${w} must be an object`];
    const out: string[] = [];
    for (const k of ['status', 'code', 'title', 'detail'])
      if (k in e && typeof e[k] !== 'string') out.push(`${w}.${k} must be a string`);
    if ('source' in e) {
      if (!isObject(e.source)) out.push(`${w}.source must be an object`);
      else if ('pointer' in e.source && typeof e.source.pointer !== 'string')
        out.push(`${w}.source.pointer must be a string`);
    }
    return out;
  });
}

/** Every rule the document breaks (empty: a valid JSON:API document). */
export function jsonApiViolations(doc: unknown, options: { sparse?: boolean } = {}): string[] {
  if (!isObject(doc)) return ['a document must be an object'];
  const out: string[] = [];
  for (const k of Object.keys(doc)) if (!TOP_LEVEL.includes(k)) out.push(`top-level member ${k}`);
  if (!['data', 'errors', 'meta'].some((m) => m in doc)) out.push('needs data, errors or meta');
  if ('data' in doc && 'errors' in doc) out.push('data and errors together');
  if ('included' in doc && !('data' in doc)) out.push('included without data');
  if ('errors' in doc) out.push(...errorViolations(doc.errors));
  out.push(...linkViolations(doc.links, 'document'));
  if (!('data' in doc)) return out;
  const primary = doc.data === null ? [] : Array.isArray(doc.data) ? doc.data : [doc.data];
  primary.forEach((r, i) => out.push(...resourceViolations(r, `data[${i}]`)));
  const included = doc.included ?? [];
  if (!Array.isArray(included)) return [...out, 'included must be an array'];
  included.forEach((r, i) => out.push(...resourceViolations(r, `included[${i}]`)));
  const all = [...primary, ...included].filter(isObject);
  const keys = all.map((r) => `${String(r.type)}/${String(r.id)}`);
  if (new Set(keys).size !== keys.length) out.push('a resource appears twice');
  if (!options.sparse)
    out.push(...fullLinkageViolations(primary.filter(isObject), included.filter(isObject)));
  return out;
}

/** Every included resource is reached from primary data through relationship linkage. */
function fullLinkageViolations(primary: Json[], included: Json[]): string[] {
  const byKey = new Map(included.map((r) => [`${String(r.type)}/${String(r.id)}`, r]));
  const reached = new Set<string>();
  const queue = [...primary];
  while (queue.length) {
    const r = queue.shift()!;
    for (const rel of Object.values(isObject(r.relationships) ? r.relationships : {})) {
      const data = isObject(rel) ? rel.data : undefined;
      for (const d of Array.isArray(data) ? data : data ? [data] : []) {
        const key = `${String((d as Json).type)}/${String((d as Json).id)}`;
        const target = byKey.get(key);
        if (target && !reached.has(key)) {
          reached.add(key);
          queue.push(target);
        }
      }
    }
  }
  return [...byKey.keys()].filter((k) => !reached.has(k)).map((k) => `included ${k} is not linked`);
}
