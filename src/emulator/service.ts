/**
 * The data service behind the routes: generic handlers that read src/schema, never one handler per
 * type. HTTP concerns (auth, media types, rate limit, chaos) stay in server.ts.
 */
import { randomUUID } from 'node:crypto';
import {
  type AttrSpec,
  RESOURCES,
  type ResourceSpec,
  type ResourceType,
} from '../schema/resources.js';
import { ApiError, MESSAGES } from './errors.js';
import {
  compileFilter,
  compareValues,
  type FilterEnv,
  FilterFieldError,
} from './filtrql/evaluator.js';
import { FilterSyntaxError } from './filtrql/lexer.js';
import type { Route } from './routes.js';
import type { Seed } from './seed.js';
import {
  type Fieldsets,
  parseFieldsets,
  relationshipLinks,
  type Resolve,
  type ResourceObject,
  resourceObject,
  toOneLinkage,
} from './serialize.js';
import { Store, type StoredRecord, uniqueSetsOf } from './store.js';

export const DEFAULT_PAGE_SIZE = 25;
export const API_PREFIX = '/api/v1';
export const MAX_PAGE_SIZE = 100;
export const MAX_INCLUDE_DEPTH = 3;

export interface Caller {
  userId: string | null;
  tokenId: string;
}

export interface ServiceRequest {
  route: Route;
  id?: string;
  query: URLSearchParams;
  body?: unknown;
  ifMatch?: string;
  caller: Caller;
  /** Path of the request without the query, for building links. */
  path: string;
  /** Absolute base of links, from the request's Host: `http://HOST/api/v1`. */
  base: string;
}

export interface ServiceResponse {
  status: number;
  body: unknown;
  etag?: string;
}

export const LIST_PARAMS = [
  'filter',
  'sort',
  'page[number]',
  'page[size]',
  'page[after]',
  'include',
  'withDeleted',
];
export const ONE_PARAMS = ['include', 'withDeleted'];
export const AGGREGATE_PARAMS = [
  'filter',
  'aggregations[count]',
  'aggregations[groupBy][]',
  'withDeleted',
];
export const AGGREGATE_FUNCTIONS = ['sum', 'avg', 'min', 'max'] as const;

/** Significance from complexity and impact (SERVICE-API.md 2.8; the formula is the emulator's choice). */
const LEVEL = { LOW: 1, MEDIUM: 2, HIGH: 3 } as Record<string, number>;
function significance(complexity: unknown, impact: unknown): string | null {
  const c = LEVEL[String(complexity)];
  const i = LEVEL[String(impact)];
  if (!c || !i) return null;
  const score = c * i;
  return score >= 9 ? 'CRITICAL' : score >= 6 ? 'HIGH' : score >= 3 ? 'MEDIUM' : 'LOW';
}

export class EmulatorService {
  readonly store: Store;
  readonly projectId: string;
  readonly organizationId: string;
  private readonly customFieldsByType = new Map<ResourceType, string[]>();
  private readonly userRoles = new Map<string, string>();
  now: () => number = Date.now;

  constructor(seed: Seed) {
    this.store = new Store(seed.project?.key ?? 'DEMO');
    this.projectId = seed.project?.id ?? randomUUID();
    this.organizationId = seed.organization?.id ?? randomUUID();
    const stamp = new Date().toISOString();
    this.store.insert(
      'organizations',
      { name: seed.organization?.name ?? 'Demo Org' },
      this.organizationId,
    );
    this.store.insert(
      'projects',
      { name: seed.project?.name ?? 'Demo', key: seed.project?.key ?? 'DEMO' },
      this.projectId,
    );
    for (const user of seed.users ?? []) {
      const rec = this.store.insert(
        'users',
        { name: user.name ?? null, email: user.email ?? null },
        user.id ?? randomUUID(),
      );
      if (user.role) this.userRoles.set(rec.id, user.role);
    }
    for (const field of seed.customFields ?? []) {
      const type = field.entity as ResourceType;
      this.customFieldsByType.set(type, [...(this.customFieldsByType.get(type) ?? []), field.name]);
      this.store.insert('service_custom_field', {
        name: field.name,
        entity: field.entity,
        fieldType: field.type ?? 'string',
      });
    }
    for (const t of seed.tokens ?? []) {
      this.store.insert('tokens', {
        name: t.name ?? 'token',
        jti: randomUUID(),
        createdAt: stamp,
        expiresAt: t.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString(),
        lastUsedAt: null,
        revokedAt: t.revokedAt ?? null,
        organizationId: this.organizationId,
        ownerId: t.ownerId ?? null,
        ownerType: 'user',
        role: t.role,
        scopes: null,
        mintedBy: null,
        minterRole: null,
        mintScopeBasis: null,
        confinedClaimBasis: null,
        customClaims: null,
        delegationChain: null,
        delegationDepth: 0,
      });
    }
    const seedRecords: [ResourceType, Record<string, unknown>[] | undefined][] = [
      ['test_cases', seed.testCases],
      ['test_cycles', seed.testCycles],
      ['requirements', seed.requirements],
    ];
    for (const [type, records] of seedRecords) {
      for (const attrs of records ?? []) {
        this.createRecord(
          type,
          { projectId: this.projectId, rank: this.nextRank(type), ...attrs },
          { userId: null, tokenId: '' },
        );
      }
    }
  }

  customFields(type: ResourceType): string[] {
    return this.customFieldsByType.get(type) ?? [];
  }

  handle(req: ServiceRequest): ServiceResponse {
    const { route } = req;
    const type = route.type!;
    switch (route.kind) {
      case 'list':
        return this.list(type, req, this.store.all(type));
      case 'related': {
        this.mustFind(type, req.id!);
        const rel = (RESOURCES[type] as ResourceSpec).toMany![route.relation!]!;
        return this.list(rel.type, req, this.store.byForeignKey(rel.type, rel.foreignKey, req.id!));
      }
      case 'relatedToOne':
      case 'relationship': {
        this.checkParams(req.query, route.kind === 'relationship' ? [] : ONE_PARAMS, type);
        const record = this.mustFind(type, req.id!);
        const linkage = toOneLinkage(record, route.relation!, this.resolve);
        const links = relationshipLinks(req.base, record, route.relation!);
        if (route.kind === 'relationship') return { status: 200, body: { links, data: linkage } };
        const target = linkage && this.store.get(linkage.type as ResourceType, linkage.id);
        const fieldsOf = parseFieldsets(req.query);
        const included = target ? this.include(target.type, [target], req, fieldsOf) : undefined;
        return {
          status: 200,
          body: {
            links: { self: links.related },
            data: target ? this.serialize(target, req.base, fieldsOf) : null,
            ...(included ? { included } : {}),
          },
        };
      }
      case 'get': {
        this.checkParams(req.query, ONE_PARAMS, type);
        const withDeleted = this.flag(req.query, 'withDeleted');
        const record = this.mustFind(type, req.id!, withDeleted);
        const fieldsOf = parseFieldsets(req.query);
        const included = this.include(type, [record], req, fieldsOf);
        return {
          status: 200,
          body: {
            links: { self: req.base + req.path.slice(API_PREFIX.length) },
            data: this.serialize(record, req.base, fieldsOf),
            ...(included ? { included } : {}),
          },
          etag: record.etag,
        };
      }
      case 'create':
        return this.create(type, req);
      case 'update':
        return this.update(type, req);
      case 'delete':
        return this.remove(type, req);
      case 'restore':
        return this.restore(type, req);
      case 'aggregate':
        return this.aggregate(type, req);
      case 'schema': {
        const page = this.list(type, req, this.store.all(type)) as {
          status: number;
          body: { data: { type: string; id: string }[] };
        };
        page.body.data = page.body.data.map((d) => ({ type: d.type, id: d.id, attributes: {} }));
        return page;
      }
      default:
        throw new ApiError(404, 'NOT_FOUND', MESSAGES.noRoute(route.method, req.path));
    }
  }

  // ---------- reads ----------

  private filterEnv(caller: Caller): FilterEnv {
    return {
      now: this.now(),
      currentUserId: caller.userId,
      membersOf: (role) => [...this.userRoles].filter(([, r]) => r === role).map(([id]) => id),
      lookup: (type, id) => this.store.get(type, id),
      children: (type, fk, id) => this.store.byForeignKey(type, fk, id),
      customFields: (type) => this.customFields(type),
    };
  }

  private predicate(
    type: ResourceType,
    query: URLSearchParams,
    caller: Caller,
  ): (r: StoredRecord) => boolean {
    const text = query.get('filter');
    const withDeleted = this.flag(query, 'withDeleted');
    const softDelete = (RESOURCES[type] as ResourceSpec).softDelete === true;
    const live = (r: StoredRecord) => withDeleted || !softDelete || r.attributes.deletedAt == null;
    if (text === null || text.trim() === '') return live;
    try {
      const test = compileFilter(text, type, this.filterEnv(caller));
      return (r) => live(r) && test(r);
    } catch (error) {
      if (error instanceof FilterSyntaxError) {
        throw new ApiError(400, 'INVALID_FILTER', `Unparsable filter: ${error.message}`, {
          parameter: 'filter',
        });
      }
      if (error instanceof FilterFieldError) {
        const valid = error.valid.length ? ` Valid names: ${error.valid.join(', ')}.` : '';
        throw new ApiError(400, 'UNKNOWN_FIELD', `${error.message}.${valid}`, {
          parameter: 'filter',
        });
      }
      throw error;
    }
  }

  private list(
    type: ResourceType,
    req: ServiceRequest,
    source: Iterable<StoredRecord>,
  ): ServiceResponse {
    const { query } = req;
    this.checkParams(query, LIST_PARAMS, type);
    const fieldsOf = parseFieldsets(query);
    const hasNumber = query.has('page[number]');
    const hasAfter = query.has('page[after]');
    if (hasNumber && hasAfter) {
      throw new ApiError(
        400,
        'INVALID_PAGINATION',
        'page[number] and page[after] cannot be sent together.',
        { parameter: 'page[after]' },
      );
    }
    const size = this.intParam(query, 'page[size]', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
    const sort = this.parseSort(type, query.get('sort'));
    const match = this.predicate(type, query, req.caller);
    let matches: StoredRecord[] = [];
    for (const r of source) if (match(r)) matches.push(r);
    if (sort.length) matches = [...matches].sort((a, b) => compareBySort(a, b, sort));
    const total = matches.length;

    let page: StoredRecord[];
    const links: Record<string, string | null> = {};
    const base = (extra: [string, string][]) => linkTo(req, extra);
    links.self = linkTo(
      req,
      [...query].filter(([k]) => k === 'page[number]' || k === 'page[after]'),
    );
    if (hasAfter) {
      const after = query.get('page[after]')!;
      let start = 0;
      if (after) {
        const cursor = decodeCursor(after);
        start = upperBound(matches, (r) => compareToCursor(r, cursor, sort) <= 0);
      }
      page = matches.slice(start, start + size);
      links.first = base([['page[after]', '']]);
      const last = page.at(-1);
      if (last && start + size < matches.length)
        links.next = base([['page[after]', encodeCursor(last, sort)]]);
    } else {
      const number = this.intParam(query, 'page[number]', 1, 1, Number.MAX_SAFE_INTEGER);
      page = matches.slice((number - 1) * size, number * size);
      const lastPage = Math.max(1, Math.ceil(total / size));
      links.first = base([['page[number]', '1']]);
      links.last = base([['page[number]', String(lastPage)]]);
      if (number > 1) links.prev = base([['page[number]', String(number - 1)]]);
      if (number < lastPage) links.next = base([['page[number]', String(number + 1)]]);
    }
    const included = this.include(type, page, req, fieldsOf);
    return {
      status: 200,
      body: {
        data: page.map((r) => this.serialize(r, req.base, fieldsOf)),
        ...(included ? { included } : {}),
        meta: { totalCount: total },
        links,
      },
    };
  }

  private aggregate(type: ResourceType, req: ServiceRequest): ServiceResponse {
    const { query } = req;
    const allowed = [...AGGREGATE_PARAMS, ...AGGREGATE_FUNCTIONS.map((f) => `aggregations[${f}]`)];
    this.checkParams(query, allowed, type);
    const match = this.predicate(type, query, req.caller);
    const spec = RESOURCES[type] as ResourceSpec;
    const groupBy = query.getAll('aggregations[groupBy][]');
    for (const column of groupBy) {
      if (!spec.attributes[column] && column !== 'id') {
        throw new ApiError(
          400,
          'UNKNOWN_FIELD',
          `Unknown groupBy column '${column}' on ${type}. Valid names: ${Object.keys(spec.attributes).join(', ')}.`,
          {
            parameter: 'aggregations[groupBy][]',
          },
        );
      }
    }
    const numeric: Partial<Record<(typeof AGGREGATE_FUNCTIONS)[number], string>> = {};
    for (const fn of AGGREGATE_FUNCTIONS) {
      const column = query.get(`aggregations[${fn}]`);
      if (column === null) continue;
      const kind = spec.attributes[column]?.kind;
      if (kind !== 'integer' && kind !== 'number') {
        const valid = Object.entries(spec.attributes)
          .filter(([, a]) => a.kind === 'integer' || a.kind === 'number')
          .map(([n]) => n);
        throw new ApiError(
          400,
          'UNKNOWN_FIELD',
          `aggregations[${fn}] needs a numeric column of ${type}; valid: ${valid.join(', ') || 'none'}.`,
          {
            parameter: `aggregations[${fn}]`,
          },
        );
      }
      numeric[fn] = column;
    }
    const groups = new Map<string, { values: Record<string, unknown>; records: StoredRecord[] }>();
    let count = 0;
    for (const r of this.store.all(type)) {
      if (!match(r)) continue;
      count++;
      const values = Object.fromEntries(
        groupBy.map((c) => [c, c === 'id' ? r.id : (r.attributes[c] ?? null)]),
      );
      const key = groupBy.map((c) => `${c}=${String(values[c])}`).join('&');
      const group = groups.get(key) ?? { values, records: [] };
      group.records.push(r);
      groups.set(key, group);
    }
    const stats = (records: StoredRecord[]) => {
      const out: Record<string, unknown> = { count: records.length };
      for (const [fn, column] of Object.entries(numeric)) {
        const nums = records
          .map((r) => r.attributes[column])
          .filter((v): v is number => typeof v === 'number');
        const sum = nums.reduce((a, b) => a + b, 0);
        const value =
          fn === 'sum'
            ? sum
            : nums.length === 0
              ? null
              : fn === 'avg'
                ? sum / nums.length
                : fn === 'min'
                  ? Math.min(...nums)
                  : Math.max(...nums);
        out[fn] = { [column]: value };
      }
      return out;
    };
    const aggregateType = `${type}_aggregate`;
    if (groupBy.length === 0) {
      const all = groups.get('')?.records ?? [];
      return {
        status: 200,
        body: {
          data: { type: aggregateType, id: 'aggregate', attributes: stats(all) },
          meta: { count },
        },
      };
    }
    const data = [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, g]) => ({
        type: aggregateType,
        id: key,
        attributes: { ...g.values, ...stats(g.records) },
      }));
    return { status: 200, body: { data, meta: { count } } };
  }

  // ---------- writes ----------

  private create(type: ResourceType, req: ServiceRequest): ServiceResponse {
    this.checkParams(req.query, [], type);
    const { attributes } = this.document(type, req.body, false);
    const record = this.createRecord(type, attributes, req.caller);
    return { status: 201, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  createRecord(type: ResourceType, input: Record<string, unknown>, caller: Caller): StoredRecord {
    const spec = RESOURCES[type] as ResourceSpec;
    const attributes = this.validate(type, input, 'create');
    if (type === 'test_case_executions' && 'result' in input) {
      // SERVICE-API.md 3, rule 2: a new execution is created without a client-sent result.
      throw new ApiError(
        422,
        'RESULT_ON_CREATE',
        'A new execution is created without a result; PATCH the result afterwards.',
        {
          pointer: '/data/attributes/result',
        },
      );
    }
    this.checkReferences(type, attributes);
    this.checkUnique(type, attributes, undefined);
    const now = new Date(this.now()).toISOString();
    const defaults: Record<string, unknown> = {};
    for (const [name, a] of Object.entries(spec.attributes)) {
      if (name === 'id') continue;
      if (a.nullable) defaults[name] = null;
    }
    // Notifications and preferences may carry their own id and stamps (SERVICE-API.md 2.2, 2.3).
    const explicitId = typeof attributes.id === 'string' ? (attributes.id as string) : undefined;
    delete attributes.id;
    if (explicitId && this.store.get(type, explicitId)) {
      throw new ApiError(
        409,
        'CONFLICT',
        `A ${type} record with id ${explicitId} exists already.`,
        { pointer: '/data/attributes/id' },
      );
    }
    const stamps: Record<string, unknown> = {};
    if (spec.attributes.createdAt && attributes.createdAt === undefined) stamps.createdAt = now;
    if (spec.attributes.updatedAt && attributes.updatedAt === undefined) stamps.updatedAt = now;
    if (spec.key) stamps[spec.key.attribute] = this.store.nextKey(type);
    const record = this.store.insert(
      type,
      { ...defaults, ...typeDefaults(type), ...attributes, ...stamps },
      explicitId,
    );
    if (type === 'test_case_executions') {
      const testCase = this.store.get('test_cases', String(attributes.testCaseId));
      record.attributes.testCaseVersion = testCase?.attributes.version ?? 1;
      record.attributes.result = 'NOT_EXECUTED';
      record.attributes.executedAt = null;
    }
    if (type === 'requirements')
      record.attributes.significance = significance(
        record.attributes.complexity,
        record.attributes.impact,
      );
    if ('createdBy' in spec.attributes && record.attributes.createdBy == null)
      record.attributes.createdBy = caller.userId;
    return record;
  }

  private update(type: ResourceType, req: ServiceRequest): ServiceResponse {
    this.checkParams(req.query, [], type);
    const record = this.mustFind(type, req.id!);
    const { attributes } = this.document(type, req.body, true, req.id);
    this.checkEtag(type, record, req.ifMatch);
    const changes = this.validate(type, attributes, 'update');
    this.checkReferences(type, changes);
    this.checkUnique(type, { ...record.attributes, ...changes }, record, Object.keys(changes));
    if (type === 'test_case_executions' && 'result' in changes) {
      const cycle = this.store.get('test_cycles', String(record.attributes.testCycleId));
      const status = String(cycle?.attributes.status ?? 'DRAFT');
      // SERVICE-API.md 3, rule 1: results are recorded on ACTIVE cycles only.
      if (status !== 'ACTIVE')
        throw new ApiError(422, 'CYCLE_NOT_ACTIVE', MESSAGES.cycleNotActive(status), {
          pointer: '/data/attributes/result',
        });
      if (record.attributes.executedAt == null && changes.result !== 'NOT_EXECUTED')
        changes.executedAt = new Date(this.now()).toISOString();
    }
    if (type === 'test_cases' && Object.keys(changes).length)
      changes.version = Number(record.attributes.version ?? 1) + 1;
    if (type === 'requirements') {
      const merged = { ...record.attributes, ...changes };
      changes.significance = significance(merged.complexity, merged.impact);
    }
    if ('updatedAt' in record.attributes) changes.updatedAt = new Date(this.now()).toISOString();
    if ('updatedBy' in (RESOURCES[type] as ResourceSpec).attributes && !('updatedBy' in attributes))
      changes.updatedBy = req.caller.userId;
    this.store.write(record, changes);
    return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  private remove(type: ResourceType, req: ServiceRequest): ServiceResponse {
    this.checkParams(req.query, [], type);
    const spec = RESOURCES[type] as ResourceSpec;
    const record = this.mustFind(type, req.id!);
    this.checkEtag(type, record, req.ifMatch);
    if (spec.softDelete) {
      this.store.write(record, { deletedAt: new Date(this.now()).toISOString() });
      return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
    }
    this.store.remove(record);
    return { status: 200, body: { data: { type, id: record.id, attributes: {} } } };
  }

  private restore(type: ResourceType, req: ServiceRequest): ServiceResponse {
    this.checkParams(req.query, [], type);
    const record = this.mustFind(type, req.id!, true);
    if (record.attributes.deletedAt == null) {
      throw new ApiError(
        409,
        'NOT_DELETED',
        `This ${type} record is not deleted; there is nothing to restore.`,
      );
    }
    this.checkEtag(type, record, req.ifMatch);
    this.checkUnique(type, record.attributes, record);
    this.store.write(record, { deletedAt: null });
    return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  // ---------- validation ----------

  private document(
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

  private validate(
    type: ResourceType,
    input: Record<string, unknown>,
    mode: 'create' | 'update',
  ): Record<string, unknown> {
    const spec = RESOURCES[type] as ResourceSpec;
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      const pointer = `/data/attributes/${name}`;
      const attr = spec.attributes[name];
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
      if (name === 'customFields') this.checkCustomFields(type, value as Record<string, unknown>);
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

  private checkCustomFields(type: ResourceType, value: Record<string, unknown>): void {
    const defined = this.customFields(type);
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

  private checkReferences(type: ResourceType, attributes: Record<string, unknown>): void {
    const spec = RESOURCES[type] as ResourceSpec;
    for (const [name, attr] of Object.entries(spec.attributes)) {
      const value = attributes[name];
      if (!attr.references || typeof value !== 'string') continue;
      const target = this.store.get(attr.references, value);
      const softDeleted =
        target &&
        (RESOURCES[attr.references] as ResourceSpec).softDelete &&
        target.attributes.deletedAt != null;
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

  private checkUnique(
    type: ResourceType,
    attributes: Record<string, unknown>,
    self: StoredRecord | undefined,
    changed?: string[],
  ): void {
    const spec = RESOURCES[type] as ResourceSpec;
    const isLive = (r: StoredRecord) =>
      r !== self && (!spec.softDelete || r.attributes.deletedAt == null);
    for (const names of uniqueSetsOf(type)) {
      if (changed && !names.some((n) => changed.includes(n))) continue;
      for (const r of this.store.withSameValues(type, names, attributes)) {
        if (!isLive(r)) continue;
        const detail =
          names.length === 1
            ? `A live ${type} record named ${JSON.stringify(attributes[names[0]!])} exists already (${r.id}).`
            : `A ${type} record with the same ${names.join(' and ')} exists already (${r.id}).`;
        throw new ApiError(409, 'CONFLICT', detail, { pointer: `/data/attributes/${names[0]}` });
      }
    }
  }

  private checkEtag(type: ResourceType, record: StoredRecord, ifMatch: string | undefined): void {
    if (!(RESOURCES[type] as ResourceSpec).versionLocked) return;
    if (!ifMatch) throw new ApiError(428, 'MISSING_IF_MATCH', MESSAGES.missingIfMatch);
    if (ifMatch !== record.etag) throw new ApiError(412, 'PRECONDITION_FAILED', MESSAGES.staleEtag);
  }

  // ---------- helpers ----------

  nextRank(type: ResourceType): number {
    return this.store.maxRank(type) + 1;
  }

  private mustFind(type: ResourceType, id: string, withDeleted = false): StoredRecord {
    const record = this.store.get(type, id);
    const deleted =
      record && (RESOURCES[type] as ResourceSpec).softDelete && record.attributes.deletedAt != null;
    if (!record || (deleted && !withDeleted))
      throw new ApiError(404, 'NOT_FOUND', MESSAGES.notFound(type, id));
    return record;
  }

  private flag(query: URLSearchParams, name: string): boolean {
    const v = query.get(name);
    if (v === null) return false;
    if (v !== 'true' && v !== 'false')
      throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be true or false.`, {
        parameter: name,
      });
    return v === 'true';
  }

  private intParam(
    query: URLSearchParams,
    name: string,
    fallback: number,
    min: number,
    max: number,
  ): number {
    const v = query.get(name);
    if (v === null) return fallback;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) {
      throw new ApiError(
        400,
        'INVALID_PARAMETER',
        `${name} must be a whole number from ${min} to ${max}.`,
        { parameter: name },
      );
    }
    return n;
  }

  /** Unknown query parameters give 400 (DESIGN.md); fields[<type>] is checked in sparseFields. */
  private checkParams(query: URLSearchParams, allowed: string[], type: ResourceType): void {
    for (const name of query.keys()) {
      if (allowed.includes(name)) continue;
      if (
        /^fields\[[^\]]+\]$/.test(name) &&
        (allowed.includes('include') || allowed === LIST_PARAMS)
      )
        continue;
      throw new ApiError(
        400,
        'UNKNOWN_PARAMETER',
        `Unknown query parameter '${name}' on this ${type} route. Valid: ${allowed.join(', ') || 'none'}${allowed.includes('include') ? ', fields[<type>]' : ''}.`,
        {
          parameter: name,
        },
      );
    }
  }

  private parseSort(type: ResourceType, text: string | null): SortKey[] {
    if (!text) return [];
    const attrs = (RESOURCES[type] as ResourceSpec).attributes;
    return text.split(',').map((part) => {
      const desc = part.startsWith('-');
      const name = desc ? part.slice(1) : part;
      if (name !== 'id' && !attrs[name]) {
        throw new ApiError(
          400,
          'UNKNOWN_FIELD',
          `Unknown sort field '${name}' on ${type}. Valid names: id, ${Object.keys(attrs).join(', ')}.`,
          { parameter: 'sort' },
        );
      }
      return { name, desc };
    });
  }

  /** include=a,a.b (to-one only, up to 3 levels): the related records, once each. */
  /** The `included` array; sparse fieldsets apply to included records too (JSON:API). */
  private include(
    type: ResourceType,
    records: StoredRecord[],
    req: ServiceRequest,
    fieldsOf: Fieldsets,
  ): unknown[] | undefined {
    const text = req.query.get('include');
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
        const rel = (RESOURCES[currentType] as ResourceSpec).toOne?.[part];
        if (!rel) {
          const valid = Object.keys((RESOURCES[currentType] as ResourceSpec).toOne ?? {});
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
          const target = typeof id === 'string' ? this.store.get(rel.type, id) : undefined;
          if (target) {
            next.push(target);
            seen.set(`${target.type}/${target.id}`, target);
          }
        }
        current = next;
        currentType = rel.type;
      }
    }
    return [...seen.values()].map((r) => this.serialize(r, req.base, fieldsOf));
  }

  /** The record a to-one relation names, if it exists (for linkage). */
  private readonly resolve: Resolve = (type, id) => this.store.get(type, id);

  serialize(record: StoredRecord, base: string, fieldsOf?: Fieldsets): ResourceObject {
    return resourceObject(record, base, this.resolve, fieldsOf);
  }
}

function writable(spec: ResourceSpec): string[] {
  return Object.entries(spec.attributes)
    .filter(([, a]) => !a.serverSet)
    .map(([n]) => n);
}

function typeDefaults(type: ResourceType): Record<string, unknown> {
  switch (type) {
    case 'test_cases':
      return {
        status: 'DRAFT',
        priority: 'MEDIUM',
        automationStatus: 'MANUAL',
        customFields: {},
        version: 1,
      };
    case 'test_cycles':
      return { status: 'DRAFT', customFields: {} };
    case 'requirements':
      return { status: 'DRAFT', customFields: {} };
    case 'test_collections':
    case 'test_campaigns':
      return { customFields: {} };
    case 'notifications':
      return { isRead: false };
    case 'notification_preferences':
      return { inAppEnabled: true };
    default:
      return {};
  }
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

interface SortKey {
  name: string;
  desc: boolean;
}

function sortValue(r: StoredRecord, name: string): unknown {
  return name === 'id' ? r.id : r.attributes[name];
}

function compareNullable(a: unknown, b: unknown): number {
  if (a == null && b == null) return 0;
  if (a == null) return 1; // nulls last
  if (b == null) return -1;
  return compareValues(a, b);
}

function compareBySort(a: StoredRecord, b: StoredRecord, sort: SortKey[]): number {
  for (const key of sort) {
    const c = compareNullable(sortValue(a, key.name), sortValue(b, key.name));
    if (c !== 0) return key.desc ? -c : c;
  }
  return a.seq - b.seq;
}

interface Cursor {
  s: number;
  v: unknown[];
}

function encodeCursor(r: StoredRecord, sort: SortKey[]): string {
  return Buffer.from(
    JSON.stringify({ s: r.seq, v: sort.map((k) => sortValue(r, k.name)) }),
  ).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.s === 'number' && Array.isArray(c.v)) return c;
  } catch {
    // fall through
  }
  throw new ApiError(
    400,
    'INVALID_CURSOR',
    'page[after] is not a cursor this server issued; take it verbatim from links.next.',
    {
      parameter: 'page[after]',
    },
  );
}

function compareToCursor(r: StoredRecord, cursor: Cursor, sort: SortKey[]): number {
  for (let i = 0; i < sort.length; i++) {
    const key = sort[i]!;
    const c = compareNullable(sortValue(r, key.name), cursor.v[i]);
    if (c !== 0) return key.desc ? -c : c;
  }
  return r.seq - cursor.s;
}

/** First index where `isBefore` is false (records are sorted). */
function upperBound<T>(items: T[], isBefore: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (isBefore(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** An absolute link to this list with its query, the paging parameters replaced by `extra`. */
function linkTo(req: ServiceRequest, extra: [string, string][]): string {
  const params = new URLSearchParams();
  for (const [k, v] of req.query)
    if (k !== 'page[number]' && k !== 'page[after]') params.append(k, v);
  for (const [k, v] of extra) params.append(k, v);
  const text = [...params]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `${req.base}${req.path.slice(API_PREFIX.length)}${text ? `?${text}` : ''}`;
}
