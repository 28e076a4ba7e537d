/** Descriptions generated from the tables, never written by hand: /openapi.json and /filter-reference. */
import {
  type AttrSpec,
  isLinked,
  RESOURCES,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';
import {
  COMPARE_OPERATORS,
  FUNCTIONS,
  KEYWORDS,
  QUANTIFIERS,
  TIME_UNITS,
} from '../filtrql/reference.js';
import {
  type ResourceRoute,
  type Route,
  type RouteKind,
  unknownRouteKind,
} from '../model/routes.js';
import {
  AGGREGATE_FUNCTIONS,
  AGGREGATE_PARAMS,
  DEFAULT_PAGE_SIZE,
  LIST_PARAMS,
  MAX_INCLUDE_DEPTH,
  MAX_PAGE_SIZE,
  ONE_PARAMS,
} from '../data/query.js';
import type { Role } from '../model/seed.js';

type Schema = Record<string, unknown>;

const JSON_API = 'application/vnd.api+json';
const uri = { type: 'string', format: 'uri' } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: Schema) => ({ anyOf: [schema, { type: 'null' }] });
const closed = (properties: Record<string, unknown>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

/** The JSON Schema of one attribute; `null` joins the enum of a nullable one. */
function attributeSchema(name: string, a: AttrSpec, type: ResourceType): Schema {
  const base: Schema =
    a.kind === 'uuid'
      ? { type: 'string', format: 'uuid' }
      : a.kind === 'date-time'
        ? { type: 'string', format: 'date-time' }
        : a.kind === 'string[]'
          ? { type: 'array', items: { type: 'string' } }
          : a.kind === 'any'
            ? {}
            : { type: a.kind };
  if (a.enum) base.enum = a.nullable ? [...a.enum, null] : [...a.enum];
  if (a.nullable && base.type) base.type = [base.type, 'null'];
  if (a.serverSet) base.readOnly = true;
  if (type === 'notifications' && name === 'type')
    base.description =
      'Named `type` by the service (docs/service-api.md 2.2), though JSON:API reserves the name; kept as the service has it.';
  return base;
}

/** Query parameters by their name in the URL (docs/service-api.md 4.1, 4.3). */
const PARAMETERS: Record<string, Schema> = {
  filter: {
    schema: { type: 'string' },
    description: 'FiltrQL expression (GET /filter-reference).',
  },
  sort: {
    schema: { type: 'string' },
    description: 'Comma-separated fields; a minus prefix sorts descending.',
  },
  'page[number]': { schema: { type: 'integer', minimum: 1 }, description: 'Page, from 1.' },
  'page[size]': {
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
  'page[after]': {
    schema: { type: 'string' },
    description: 'Cursor mode: empty first, then the value in links.next, verbatim.',
  },
  include: {
    schema: { type: 'string' },
    description: `Comma-separated to-one relation paths, up to ${MAX_INCLUDE_DEPTH} levels (a.b.c).`,
  },
  fields: {
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    description: 'fields[<type>]=a,b: the attributes and relations to keep per type.',
  },
  withDeleted: { schema: { type: 'boolean', default: false } },
  'aggregations[count]': { schema: { type: 'boolean' } },
  'aggregations[groupBy][]': {
    schema: { type: 'array', items: { type: 'string' } },
    style: 'form',
    explode: true,
    description: 'One group per distinct value of the column.',
  },
  ...Object.fromEntries(
    AGGREGATE_FUNCTIONS.map((fn) => [
      `aggregations[${fn}]`,
      { schema: { type: 'string' }, description: `A numeric column: its ${fn}.` },
    ]),
  ),
};

/** The query parameters each kind of route accepts (the service answers 400 to any other). */
function queryParameters(kind: RouteKind): string[] {
  switch (kind) {
    case 'list':
    case 'related':
    case 'schema':
      return [...LIST_PARAMS, 'fields'];
    case 'get':
    case 'relatedToOne':
      return [...ONE_PARAMS, 'fields'];
    case 'aggregate':
      return [...AGGREGATE_PARAMS, ...AGGREGATE_FUNCTIONS.map((f) => `aggregations[${f}]`)];
    case 'create':
    case 'update':
    case 'delete':
    case 'restore':
    case 'relationship':
    case 'linkage':
    case 'link':
    case 'unlink':
    case 'openapi':
    case 'filterReference':
      return [];
    default:
      return unknownRouteKind(kind);
  }
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Unknown parameter, field or relation; unparsable filter, body or cursor',
  401: 'The token is revoked',
  403: 'No token, or an expired, malformed or other-region token; a read-only token writing',
  404: 'No such record in this Space',
  406: 'Accept does not allow application/vnd.api+json (JSON:API 1.1 rules)',
  409: 'Conflicts with existing data: duplicate, missing reference, type or id mismatch',
  412: 'If-Match is stale: read again and retry',
  413: 'The body is over the size limit',
  415: 'Content-Type is not application/vnd.api+json without parameters but ext/profile',
  422: 'Invalid value, missing required or server-set attribute, unknown custom field',
  428: 'Version-locked record and no If-Match',
  429: 'Rate limit reached',
};

/** The error statuses a route can answer with (docs/service-api.md 5, 7, 8). */
function errorStatuses(route: Route): number[] {
  const statuses = [401, 403, 406, 429];
  const service = route.kind !== 'openapi' && route.kind !== 'filterReference';
  if (service) statuses.push(400);
  if (route.pattern.includes(':id')) statuses.push(404);
  if (route.write) statuses.push(400, 413, 415);
  if (['create', 'update', 'link', 'unlink'].includes(route.kind)) statuses.push(409, 422);
  if (route.kind === 'restore') statuses.push(409);
  const locked = route.type && resourceSpec(route.type).versionLocked;
  if (locked && ['update', 'delete', 'restore'].includes(route.kind)) statuses.push(412, 428);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/** Types an include path can reach from `type` (to-one relations, up to the depth limit). */
function includable(type: ResourceType): ResourceType[] {
  const found = new Set<ResourceType>();
  let level: ResourceType[] = [type];
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH; depth++) {
    const next: ResourceType[] = [];
    for (const t of level)
      for (const rel of Object.values(resourceSpec(t).toOne ?? {})) {
        if (!found.has(rel.type)) next.push(rel.type);
        found.add(rel.type);
      }
    level = next;
  }
  return [...found];
}

/** components.schemas, each built once, on first use (so a trimmed document holds only its own). */
class Schemas {
  readonly all: Record<string, Schema> = {};

  use(name: string, build: () => Schema): { $ref: string } {
    if (!(name in this.all)) {
      this.all[name] = {};
      this.all[name] = build();
    }
    return ref(name);
  }

  /** A resource identifier; `meta` is what the client that made a link sent with it (JSON:API 1.1). */
  linkage(type: ResourceType) {
    return this.use(`${type}.linkage`, () =>
      closed({ type: { const: type }, id: { type: 'string' }, meta: { type: 'object' } }, [
        'type',
        'id',
      ]),
    );
  }

  /** The linkage document of a linked relation: GET, and the answer to POST and DELETE. */
  linkageDocument(target: ResourceType) {
    return this.use(`${target}.linkageList`, () =>
      closed(
        { links: this.relationshipLinks(), data: { type: 'array', items: this.linkage(target) } },
        ['links', 'data'],
      ),
    );
  }

  /** The body of POST and DELETE on a linked relationship route. */
  linkageRequest(target: ResourceType) {
    return this.use(`${target}.linkageRequest`, () =>
      closed({ data: { type: 'array', items: this.linkage(target) } }, ['data']),
    );
  }

  relationshipLinks() {
    return this.use('RelationshipLinks', () =>
      closed({ self: uri, related: uri }, ['self', 'related']),
    );
  }

  resource(type: ResourceType) {
    return this.use(`${type}.resource`, () => {
      const spec = resourceSpec(type);
      const relationships: Record<string, unknown> = {};
      for (const [name, rel] of Object.entries(spec.toOne ?? {}))
        relationships[name] = closed(
          { links: this.relationshipLinks(), data: nullable(this.linkage(rel.type)) },
          ['links', 'data'],
        );
      for (const [name, rel] of Object.entries(spec.toMany ?? {}))
        relationships[name] = isLinked(rel)
          ? closed(
              {
                links: this.relationshipLinks(),
                data: { type: 'array', items: this.linkage(rel.type) },
              },
              ['links', 'data'],
            )
          : closed({ links: closed({ related: uri }, ['related']) }, ['links']);
      return closed(
        {
          type: { const: type },
          id: { type: 'string' },
          attributes: this.use(`${type}.attributes`, () =>
            closed(
              Object.fromEntries(
                Object.entries(spec.attributes)
                  .filter(([name]) => name !== 'id')
                  .map(([name, a]) => [name, attributeSchema(name, a, type)]),
              ),
            ),
          ),
          ...(Object.keys(relationships).length ? { relationships: closed(relationships) } : {}),
          ...(spec.operations.includes('get') ? { links: closed({ self: uri }, ['self']) } : {}),
        },
        ['type', 'id', 'attributes'],
      );
    });
  }

  /** `included` of a compound document whose primary data is of `type`. */
  included(type: ResourceType): Record<string, unknown> {
    const types = includable(type);
    if (!types.length) return {};
    return {
      included: { type: 'array', items: { anyOf: types.map((t) => this.resource(t)) } },
    };
  }

  document(type: ResourceType) {
    return this.use(`${type}.document`, () =>
      closed(
        {
          links: closed({ self: uri }),
          data: this.resource(type),
          ...this.included(type),
        },
        ['data'],
      ),
    );
  }

  list(type: ResourceType) {
    return this.use(`${type}.list`, () =>
      closed(
        {
          data: { type: 'array', items: this.resource(type) },
          ...this.included(type),
          meta: this.use('ListMeta', () =>
            closed({ totalCount: { type: 'integer', minimum: 0 } }, ['totalCount']),
          ),
          links: this.use('PageLinks', () =>
            closed({ self: uri, first: uri, last: uri, prev: uri, next: uri }, ['first']),
          ),
        },
        ['data', 'meta', 'links'],
      ),
    );
  }

  emptyResource(type: ResourceType) {
    return this.use(`${type}.identifier`, () =>
      closed(
        {
          type: { const: type },
          id: { type: 'string' },
          attributes: { type: 'object', maxProperties: 0 },
        },
        ['type', 'id', 'attributes'],
      ),
    );
  }

  writeRequest(type: ResourceType, kind: 'create' | 'update') {
    const spec = resourceSpec(type);
    const writable = Object.entries(spec.attributes).filter(([, a]) => !a.serverSet);
    const required =
      kind === 'create' ? writable.filter(([, a]) => a.required).map(([name]) => name) : [];
    return this.use(`${type}.${kind}Request`, () =>
      closed(
        {
          data: {
            type: 'object',
            properties: {
              type: { const: type },
              ...(kind === 'update' ? { id: { type: 'string' } } : {}),
              attributes: closed(
                Object.fromEntries(
                  writable.map(([name, a]) => [name, attributeSchema(name, a, type)]),
                ),
                required,
              ),
            },
            required: kind === 'update' ? ['type', 'id'] : ['type', 'attributes'],
          },
        },
        ['data'],
      ),
    );
  }

  aggregate(type: ResourceType) {
    return this.use(`${type}.aggregate`, () => {
      const item = closed(
        {
          type: { const: `${type}_aggregate` },
          id: { type: 'string' },
          attributes: {
            type: 'object',
            properties: { count: { type: 'integer', minimum: 0 } },
            required: ['count'],
            description: 'count, the groupBy columns, and {sum|avg|min|max: {column: value}}',
          },
        },
        ['type', 'id', 'attributes'],
      );
      return closed(
        {
          data: { anyOf: [item, { type: 'array', items: item }] },
          meta: closed({ count: { type: 'integer', minimum: 0 } }, ['count']),
        },
        ['data', 'meta'],
      );
    });
  }

  errors() {
    return this.use('ErrorDocument', () =>
      closed(
        {
          errors: {
            type: 'array',
            minItems: 1,
            items: closed(
              {
                status: { type: 'string', pattern: '^[45][0-9][0-9]$' },
                title: { type: 'string' },
                code: { type: 'string' },
                detail: { type: 'string' },
                source: closed({ pointer: { type: 'string' }, parameter: { type: 'string' } }),
              },
              ['status', 'title', 'code', 'detail'],
            ),
          },
        },
        ['errors'],
      ),
    );
  }
}

const jsonApi = (schema: unknown) => ({ [JSON_API]: { schema } });

/** The success answer of a route: status, schema, and whether it carries an ETag. */
function success(
  route: ResourceRoute,
  s: Schemas,
): { status: string; schema: unknown; etag: boolean } {
  const { type } = route;
  const spec = resourceSpec(type);
  switch (route.kind) {
    case 'list':
      return { status: '200', schema: s.list(type), etag: false };
    case 'related':
      return { status: '200', schema: s.list(spec.toMany![route.relation!]!.type), etag: false };
    case 'schema':
      return {
        status: '200',
        schema: s.use(`${type}.schemaList`, () =>
          closed(
            {
              data: { type: 'array', items: s.emptyResource(type) },
              meta: ref('ListMeta'),
              links: ref('PageLinks'),
            },
            ['data', 'meta', 'links'],
          ),
        ),
        etag: false,
      };
    case 'aggregate':
      return { status: '200', schema: s.aggregate(type), etag: false };
    case 'create':
      return { status: '201', schema: s.document(type), etag: true };
    case 'delete':
      if (!spec.softDelete)
        return {
          status: '200',
          schema: s.use(`${type}.deleted`, () => closed({ data: s.emptyResource(type) }, ['data'])),
          etag: false,
        };
      return { status: '200', schema: s.document(type), etag: true };
    case 'relationship': {
      const target = spec.toOne![route.relation!]!.type;
      return {
        status: '200',
        schema: closed({ links: s.relationshipLinks(), data: nullable(s.linkage(target)) }, [
          'links',
          'data',
        ]),
        etag: false,
      };
    }
    case 'linkage':
    case 'link':
    case 'unlink':
      return {
        status: '200',
        schema: s.linkageDocument(spec.toMany![route.relation!]!.type),
        etag: false,
      };
    case 'relatedToOne': {
      const target = spec.toOne![route.relation!]!.type;
      return {
        status: '200',
        schema: closed(
          {
            links: closed({ self: uri }, ['self']),
            data: nullable(s.resource(target)),
            ...s.included(target),
          },
          ['links', 'data'],
        ),
        etag: false,
      };
    }
    case 'get':
    case 'update':
    case 'restore':
      return { status: '200', schema: s.document(type), etag: true };
    default:
      return unknownRouteKind(route.kind);
  }
}

const FILTER_REFERENCE: Schema = closed(
  {
    links: closed({ self: uri }, ['self']),
    data: closed(
      {
        type: { const: 'filter_reference' },
        id: { const: 'filtrql' },
        attributes: {
          type: 'object',
          required: ['operators', 'keywords', 'functions', 'fields'],
          properties: {
            operators: { type: 'object' },
            keywords: { type: 'array', items: { type: 'string' } },
            functions: { type: 'object', additionalProperties: { type: 'string' } },
            fields: { type: 'object' },
          },
        },
      },
      ['type', 'id', 'attributes'],
    ),
  },
  ['data'],
);

function operation(route: Route, s: Schemas): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: `${route.kind}_${route.type ?? 'meta'}${route.relation ? `_${route.relation}` : ''}`,
    summary: route.name,
  };
  const parameters: unknown[] = [];
  if (route.pattern.includes(':id')) parameters.push({ $ref: '#/components/parameters/id' });
  for (const name of queryParameters(route.kind))
    parameters.push({ $ref: `#/components/parameters/${parameterKey(name)}` });
  const locked = route.type && resourceSpec(route.type).versionLocked;
  if (locked && ['update', 'delete', 'restore'].includes(route.kind))
    parameters.push({ $ref: '#/components/parameters/If-Match' });
  if (parameters.length) op.parameters = parameters;
  if (route.type && (route.kind === 'create' || route.kind === 'update'))
    op.requestBody = {
      required: true,
      content: jsonApi(s.writeRequest(route.type, route.kind)),
    };
  if (route.type && (route.kind === 'link' || route.kind === 'unlink'))
    op.requestBody = {
      required: true,
      content: jsonApi(s.linkageRequest(resourceSpec(route.type).toMany![route.relation!]!.type)),
    };
  const responses: Record<string, unknown> = {};
  if (route.kind === 'openapi') {
    responses['200'] = {
      description: 'This document, trimmed to what the token may do',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  } else if (route.kind === 'filterReference') {
    responses['200'] = {
      description: 'The filter language',
      content: jsonApi(s.use('FilterReference', () => FILTER_REFERENCE)),
    };
  } else {
    const ok = success(route, s);
    responses[ok.status] = {
      description: ok.status === '201' ? 'Created' : 'OK',
      ...(ok.etag ? { headers: { ETag: { $ref: '#/components/headers/ETag' } } } : {}),
      content: jsonApi(ok.schema),
    };
  }
  for (const status of errorStatuses(route))
    responses[String(status)] = { $ref: `#/components/responses/${status}` };
  responses.default = {
    description: 'Any other error (405, 421, 500; 503 under --chaos)',
    content: jsonApi(s.errors()),
  };
  op.responses = responses;
  return op;
}

const parameterKey = (name: string) => name.replace(/[[\]]+/g, '.').replace(/\.$/, '');

/**
 * OpenAPI 3.1 of the routes this token may call (docs/service-api.md 4.4: trimmed to what it may do),
 * generated from the schema table: JSON:API documents, request bodies, parameters, ETag and
 * If-Match, and the error document of every status each operation can answer with.
 */
export function openApiDocument(
  routes: Route[],
  role: Role,
  base: string,
): Record<string, unknown> {
  const s = new Schemas();
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<number>();
  for (const route of routes) {
    if (route.write && role === 'read-only') continue;
    const path = '/' + route.pattern.map((p) => (p === ':id' ? '{id}' : p)).join('/');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, s);
    for (const status of errorStatuses(route)) used.add(status);
  }
  const errorDocument = s.errors();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Test-Management REST API (testcycle emulator)',
      version: 'v1',
      description:
        'JSON:API 1.1 (application/vnd.api+json). Generated from the schema table, trimmed to what the token may do.',
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: s.all,
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        'If-Match': {
          name: 'If-Match',
          in: 'header',
          required: true,
          description: 'The ETag of the last read; missing gives 428, stale 412.',
          schema: { type: 'string' },
        },
        ...Object.fromEntries(
          Object.entries(PARAMETERS).map(([name, p]) => [
            parameterKey(name),
            { name, in: 'query', required: false, ...p },
          ]),
        ),
      },
      headers: {
        ETag: {
          description: 'Strong, quoted, new on every write; send it back as If-Match.',
          schema: { type: 'string' },
        },
      },
      responses: Object.fromEntries(
        [...used]
          .sort((a, b) => a - b)
          .map((status) => [
            String(status),
            { description: ERROR_TEXT[status], content: jsonApi(errorDocument) },
          ]),
      ),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
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
        const spec = resourceSpec(t);
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
