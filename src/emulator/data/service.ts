/**
 * The data service behind the routes: generic handlers that read src/schema, never one handler per
 * type. Each concern has its own file (query parameters, paging, aggregates, validation, per-type
 * rules, serialization, seeding); this one puts them in order. HTTP concerns stay in server.ts.
 */
import { isLinked, linkTableOf, resourceSpec, type ResourceType } from '../../schema/resources.js';
import { aggregate } from './aggregate.js';
import { ApiError, MESSAGES } from '../model/errors.js';
import type { FilterEnv } from '../filtrql/evaluator.js';
import { API_PREFIX, pageSize, paginate, sortRecords } from './paging.js';
import { checkParams, flag, LIST_PARAMS, ONE_PARAMS, parseSort, recordFilter } from './query.js';
import { type ResourceRoute, unknownRouteKind } from '../model/routes.js';
import { TYPE_RULES } from './rules.js';
import type { Seed } from '../model/seed.js';
import { type Kept, seedPreferences, seedRecords, seedSpace } from './seeding.js';
import {
  type Fieldsets,
  included,
  type Linkage,
  type LinkageOf,
  parseFieldsets,
  relationshipLinks,
  type Resolve,
  type ResourceObject,
  resourceObject,
  toOneLinkage,
} from './serialize.js';
import { Store, type StoredRecord } from './store.js';
import {
  checkEtag,
  checkReferences,
  checkUnique,
  readDocument,
  readLinkage,
  validateAttributes,
} from './validation.js';

export interface Caller {
  userId: string | null;
  tokenId: string;
}

export interface ServiceRequest {
  route: ResourceRoute;
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

export class EmulatorService {
  readonly store: Store;
  readonly projectId: string;
  readonly organizationId: string;
  private readonly customFieldsByType: Map<ResourceType, string[]>;
  private readonly userRoles: Map<string, string>;
  now: () => number = Date.now;

  constructor(seed: Seed) {
    this.store = new Store(seed.project?.key ?? 'DEMO');
    const space = seedSpace(this.store, seed);
    this.projectId = space.projectId;
    this.organizationId = space.organizationId;
    this.customFieldsByType = space.customFields;
    this.userRoles = space.userRoles;
    const seeder = { userId: null, tokenId: '' };
    seedRecords(
      seed,
      space,
      (type) => this.nextRank(type),
      (type, attributes, kept) => this.createRecord(type, attributes, seeder, kept),
      (type, key) => this.store.claimKey(type, key),
    );
    seedPreferences(seed, space, (type, attributes, kept) =>
      this.createRecord(type, attributes, seeder, kept),
    );
  }

  customFields(type: ResourceType): string[] {
    return this.customFieldsByType.get(type) ?? [];
  }

  nextRank(type: ResourceType): number {
    return this.store.maxRank(type) + 1;
  }

  handle(req: ServiceRequest): ServiceResponse {
    const { route } = req;
    const { type } = route;
    switch (route.kind) {
      case 'list':
        return this.list(type, req, this.store.all(type));
      case 'related': {
        const record = this.mustFind(type, req.id!);
        const rel = resourceSpec(type).toMany![route.relation!]!;
        const source = isLinked(rel)
          ? this.linkedRecords(record, route.relation!).map((l) => l.record)
          : this.store.byForeignKey(rel.type, rel.foreignKey, req.id!);
        return this.list(rel.type, req, source);
      }
      case 'linkage':
        return this.linkage(type, req);
      case 'link':
      case 'unlink':
        return this.changeLinks(type, req);
      case 'relatedToOne':
      case 'relationship':
        return this.toOne(type, req);
      case 'get':
        return this.get(type, req);
      case 'create':
        return this.create(type, req);
      case 'update':
        return this.update(type, req);
      case 'delete':
        return this.remove(type, req);
      case 'restore':
        return this.restore(type, req);
      case 'aggregate':
        return aggregate(type, req.query, this.store.all(type), () => this.filterEnv(req.caller));
      case 'schema': {
        const page = this.list(type, req, this.store.all(type)) as {
          status: number;
          body: { data: { type: string; id: string }[] };
        };
        page.body.data = page.body.data.map((d) => ({ type: d.type, id: d.id, attributes: {} }));
        return page;
      }
      default:
        return unknownRouteKind(route.kind);
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
      linked: (type, relation, id) => {
        const record = this.store.get(type, id);
        return record ? this.linkedRecords(record, relation).map((l) => l.record) : [];
      },
      customFields: (type) => this.customFields(type),
    };
  }

  private list(
    type: ResourceType,
    req: ServiceRequest,
    source: Iterable<StoredRecord>,
  ): ServiceResponse {
    const { query } = req;
    checkParams(query, LIST_PARAMS, type);
    const fields = parseFieldsets(query);
    const size = pageSize(query);
    const sort = parseSort(type, query.get('sort'));
    const match = recordFilter(type, query, () => this.filterEnv(req.caller));
    const matches: StoredRecord[] = [];
    for (const r of source) if (match(r)) matches.push(r);
    const page = paginate(sortRecords(matches, sort), sort, size, req);
    const includes = this.included(type, page.records, req, fields);
    return {
      status: 200,
      body: {
        data: page.records.map((r) => this.serialize(r, req.base, fields)),
        ...(includes ? { included: includes } : {}),
        meta: { totalCount: matches.length },
        links: page.links,
      },
    };
  }

  private get(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, ONE_PARAMS, type);
    const record = this.mustFind(type, req.id!, flag(req.query, 'withDeleted'));
    const fields = parseFieldsets(req.query);
    const includes = this.included(type, [record], req, fields);
    return {
      status: 200,
      body: {
        links: { self: req.base + req.path.slice(API_PREFIX.length) },
        data: this.serialize(record, req.base, fields),
        ...(includes ? { included: includes } : {}),
      },
      etag: record.etag,
    };
  }

  /** /{type}/{id}/{rel} (the related record) and /{type}/{id}/relationships/{rel} (linkage). */
  private toOne(type: ResourceType, req: ServiceRequest): ServiceResponse {
    const relation = req.route.relation!;
    const isLinkage = req.route.kind === 'relationship';
    checkParams(req.query, isLinkage ? [] : ONE_PARAMS, type);
    const record = this.mustFind(type, req.id!);
    const linkage = toOneLinkage(record, relation, this.resolve);
    const links = relationshipLinks(req.base, record, relation);
    if (isLinkage) return { status: 200, body: { links, data: linkage } };
    const target = linkage && this.store.get(linkage.type as ResourceType, linkage.id);
    const fields = parseFieldsets(req.query);
    const includes = target ? this.included(target.type, [target], req, fields) : undefined;
    return {
      status: 200,
      body: {
        links: { self: links.related },
        data: target ? this.serialize(target, req.base, fields) : null,
        ...(includes ? { included: includes } : {}),
      },
    };
  }

  /** GET /{type}/{id}/relationships/{rel} of a linked relation: its linkage, each link's meta. */
  private linkage(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const record = this.mustFind(type, req.id!);
    return { status: 200, body: this.linkageDocument(record, req) };
  }

  private linkageDocument(record: StoredRecord, req: ServiceRequest) {
    const relation = req.route.relation!;
    return {
      links: relationshipLinks(req.base, record, relation),
      data: this.linkageOf(record, relation),
    };
  }

  // ---------- writes ----------

  /**
   * POST and DELETE on a linked relationship route (JSON:API 1.1 "Updating To-Many
   * Relationships"): adding a member that is there, or removing one that is not, changes nothing;
   * the answer is the relation's linkage. Links are no attribute: the records' ETags stay, and no
   * If-Match is asked for (adds and removes of named members cannot lose another writer's change).
   */
  private changeLinks(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const relation = req.route.relation!;
    const record = this.mustFind(type, req.id!);
    const rel = resourceSpec(type).toMany![relation]!;
    const members = readLinkage(this.store, rel.type, req.body);
    const { table } = linkTableOf(type, relation);
    for (const m of members) {
      if (req.route.kind === 'link') this.store.link(table, record.id, m.id, m.meta);
      else this.store.unlink(table, record.id, m.id);
    }
    return { status: 200, body: this.linkageDocument(record, req) };
  }

  private create(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const { attributes } = readDocument(type, req.body, false);
    const record = this.createRecord(type, attributes, req.caller);
    return { status: 201, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  /** A new record; `kept` is what a seed keeps of a real Space (id, key), never a client's. */
  createRecord(
    type: ResourceType,
    input: Record<string, unknown>,
    caller: Caller,
    kept: Kept = {},
  ): StoredRecord {
    const spec = resourceSpec(type);
    const rules = TYPE_RULES[type];
    const attributes = validateAttributes(type, input, 'create', this.customFields(type));
    rules?.checkCreate?.(input);
    checkReferences(this.store, type, attributes);
    checkUnique(this.store, type, attributes, undefined);
    const now = new Date(this.now()).toISOString();
    const defaults: Record<string, unknown> = {};
    for (const [name, a] of Object.entries(spec.attributes)) {
      if (name === 'id') continue;
      if (a.nullable) defaults[name] = null;
    }
    // Notifications and preferences may carry their own id and stamps (docs/service-api.md 2.2, 2.3).
    const explicitId =
      kept.id ?? (typeof attributes.id === 'string' ? (attributes.id as string) : undefined);
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
    if (spec.key)
      stamps[spec.key.attribute] = kept.key
        ? this.store.claimKey(type, kept.key)
        : this.store.nextKey(type);
    const record = this.store.insert(
      type,
      { ...defaults, ...rules?.defaults, ...attributes, ...stamps },
      explicitId,
    );
    rules?.created?.(record, { store: this.store, now });
    if (Object.hasOwn(spec.attributes, 'createdBy') && record.attributes.createdBy == null)
      record.attributes.createdBy = caller.userId;
    return record;
  }

  private update(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const record = this.mustFind(type, req.id!);
    const { attributes } = readDocument(type, req.body, true, req.id);
    checkEtag(type, record, req.ifMatch);
    const changes = validateAttributes(type, attributes, 'update', this.customFields(type));
    checkReferences(this.store, type, changes);
    checkUnique(
      this.store,
      type,
      { ...record.attributes, ...changes },
      record,
      Object.keys(changes),
    );
    const now = new Date(this.now()).toISOString();
    TYPE_RULES[type]?.updating?.(record, changes, { store: this.store, now });
    if (Object.hasOwn(record.attributes, 'updatedAt')) changes.updatedAt = now;
    if (
      Object.hasOwn(resourceSpec(type).attributes, 'updatedBy') &&
      !Object.hasOwn(attributes, 'updatedBy')
    )
      changes.updatedBy = req.caller.userId;
    this.store.write(record, changes);
    return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  private remove(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const spec = resourceSpec(type);
    const record = this.mustFind(type, req.id!);
    checkEtag(type, record, req.ifMatch);
    if (spec.softDelete) {
      this.store.write(record, { deletedAt: new Date(this.now()).toISOString() });
      return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
    }
    this.store.remove(record);
    return { status: 200, body: { data: { type, id: record.id, attributes: {} } } };
  }

  private restore(type: ResourceType, req: ServiceRequest): ServiceResponse {
    checkParams(req.query, [], type);
    const record = this.mustFind(type, req.id!, true);
    if (record.attributes.deletedAt == null) {
      throw new ApiError(
        409,
        'NOT_DELETED',
        `This ${type} record is not deleted; there is nothing to restore.`,
      );
    }
    checkEtag(type, record, req.ifMatch);
    checkUnique(this.store, type, record.attributes, record);
    this.store.write(record, { deletedAt: null });
    return { status: 200, body: { data: this.serialize(record, req.base) }, etag: record.etag };
  }

  // ---------- helpers ----------

  private mustFind(type: ResourceType, id: string, withDeleted = false): StoredRecord {
    const record = this.store.get(type, id);
    const deleted = record && resourceSpec(type).softDelete && record.attributes.deletedAt != null;
    if (!record || (deleted && !withDeleted))
      throw new ApiError(404, 'NOT_FOUND', MESSAGES.notFound(type, id));
    return record;
  }

  /** The record a to-one relation names, if it exists (for linkage). */
  private readonly resolve: Resolve = (type, id) => this.store.get(type, id);

  /** The live records a linked relation of `record` reaches, in the order they were stored. */
  linkedRecords(
    record: StoredRecord,
    relation: string,
  ): { record: StoredRecord; meta?: Record<string, unknown> }[] {
    const rel = resourceSpec(record.type).toMany![relation]!;
    const { table, forward } = linkTableOf(record.type, relation);
    const softDelete = resourceSpec(rel.type).softDelete === true;
    const out: { record: StoredRecord; meta?: Record<string, unknown> }[] = [];
    for (const link of this.store.linked(table, record.id, forward)) {
      const target = this.store.get(rel.type, link.id);
      if (!target || (softDelete && target.attributes.deletedAt != null)) continue;
      out.push({ record: target, ...(link.meta ? { meta: link.meta } : {}) });
    }
    return out.sort((a, b) => a.record.seq - b.record.seq);
  }

  private readonly linkageOf: LinkageOf = (record, relation): Linkage[] =>
    this.linkedRecords(record, relation).map(({ record: r, meta }) => ({
      type: r.type,
      id: r.id,
      ...(meta ? { meta } : {}),
    }));

  private included(
    type: ResourceType,
    records: StoredRecord[],
    req: ServiceRequest,
    fields: Fieldsets,
  ): ResourceObject[] | undefined {
    return included(
      type,
      records,
      req.query.get('include'),
      this.resolve,
      this.linkageOf,
      req.base,
      fields,
    );
  }

  serialize(record: StoredRecord, base: string, fields?: Fieldsets): ResourceObject {
    return resourceObject(record, base, this.resolve, this.linkageOf, fields);
  }
}
