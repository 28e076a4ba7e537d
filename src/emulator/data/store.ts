/**
 * In-memory records of one Space. Ordered by insertion (the keyset for cursors), with indexes for
 * ids, foreign keys of to-many relations and unique attributes (alone or together), and a running
 * maximum rank, so that memory stays proportional to the data and a create costs the same in a
 * Space of 1,000 or 100,000 records.
 */
import { randomUUID } from 'node:crypto';
import {
  isLinked,
  RESOURCE_TYPES,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';

export interface StoredRecord {
  type: ResourceType;
  id: string;
  /** Insertion order: the cursor keyset, stable under inserts and deletes. */
  seq: number;
  attributes: Record<string, unknown>;
  etag: string;
  /** Hard-deleted (notifications, preferences): kept out of every read. */
  removed?: boolean;
}

interface Table {
  byId: Map<string, StoredRecord>;
  /** seq ascending; hard-deleted records are skipped, not spliced. */
  ordered: StoredRecord[];
  /** foreign key attribute -> value -> records, for to-many routes and quantifiers. */
  byForeignKey: Map<string, Map<string, StoredRecord[]>>;
  /** The number of the latest key (SHOP-T17: 17n); exact past 2^53, as keys are text. */
  keyCounter: bigint;
  /** Unique attribute sets (one name, or a uniqueTogether group) -> value key -> records. */
  byValues: Map<string, { attributes: readonly string[]; index: Map<string, Set<StoredRecord>> }>;
  /** Highest rank ever stored: the next rank is one more, whatever was deleted since. */
  maxRank: number;
}

/** The attributes that to-many relations of other types point through, per type. */
function foreignKeysOf(type: ResourceType): string[] {
  const keys = new Set<string>();
  for (const other of RESOURCE_TYPES) {
    for (const rel of Object.values(resourceSpec(other).toMany ?? {})) {
      if (rel.type === type && !isLinked(rel)) keys.add(rel.foreignKey);
    }
  }
  return [...keys];
}

/** The attribute sets whose values must be unique among live records of a type. */
export function uniqueSetsOf(type: ResourceType): (readonly string[])[] {
  const spec = resourceSpec(type);
  const single = Object.entries(spec.attributes)
    .filter(([, a]) => a.unique)
    .map(([name]) => [name]);
  return [...single, ...(spec.uniqueTogether ?? [])];
}

function valuesKey(attributes: Record<string, unknown>, names: readonly string[]): string {
  return JSON.stringify(names.map((n) => attributes[n] ?? null));
}

/** One link of a linked relation, with the `meta` of the identifier that made it (JSON:API 1.1). */
export interface Link {
  id: string;
  meta?: Record<string, unknown>;
}

/**
 * The links of one linked relation (src/schema/resources.ts `linkTableOf`), both ways, each set in
 * the order its links were made: a pair is linked once, whoever adds it again.
 */
class LinkTable {
  readonly forward = new Map<string, Map<string, Link>>();
  readonly backward = new Map<string, Map<string, Link>>();
}

export class Store {
  private readonly tables = new Map<ResourceType, Table>();
  private readonly links = new Map<string, LinkTable>();
  private seq = 0;
  private etagCounter = 0;

  constructor(readonly projectKey: string) {
    for (const type of RESOURCE_TYPES) {
      this.tables.set(type, {
        byId: new Map(),
        ordered: [],
        byForeignKey: new Map(foreignKeysOf(type).map((k) => [k, new Map()])),
        keyCounter: 0n,
        byValues: new Map(
          uniqueSetsOf(type).map((names) => [
            names.join(','),
            { attributes: names, index: new Map<string, Set<StoredRecord>>() },
          ]),
        ),
        maxRank: 0,
      });
    }
  }

  private table(type: ResourceType): Table {
    return this.tables.get(type)!;
  }

  newEtag(): string {
    // Strong and quoted; new on every write (docs/design.md).
    return `"${(++this.etagCounter).toString(36)}-${randomUUID().slice(0, 8)}"`;
  }

  nextKey(type: ResourceType): string | undefined {
    const key = resourceSpec(type).key;
    if (!key) return undefined;
    return `${this.projectKey}-${key.prefix}${++this.table(type).keyCounter}`;
  }

  /**
   * A key given by the seed (a real Space's own, e.g. SHOP-T17): the counter moves past its number
   * when it has this project's shape, so that keys made later never repeat it.
   */
  claimKey(type: ResourceType, key: string): string {
    const spec = resourceSpec(type).key;
    const own =
      spec && new RegExp(`^${escapeRegExp(this.projectKey)}-${spec.prefix}(\\d+)$`).exec(key);
    if (own) {
      const table = this.table(type);
      const n = BigInt(own[1]!);
      if (n > table.keyCounter) table.keyCounter = n;
    }
    return key;
  }

  insert(
    type: ResourceType,
    attributes: Record<string, unknown>,
    id: string = randomUUID(),
  ): StoredRecord {
    const record: StoredRecord = { type, id, seq: ++this.seq, attributes, etag: this.newEtag() };
    const table = this.table(type);
    table.byId.set(id, record);
    table.ordered.push(record);
    for (const [fk, index] of table.byForeignKey) {
      const value = attributes[fk];
      if (typeof value === 'string') {
        const list = index.get(value);
        if (list) list.push(record);
        else index.set(value, [record]);
      }
    }
    this.indexValues(table, record, 1);
    if (typeof attributes.rank === 'number')
      table.maxRank = Math.max(table.maxRank, attributes.rank);
    return record;
  }

  /** Add (1) or drop (-1) a record in its type's unique-value indexes. */
  private indexValues(table: Table, record: StoredRecord, change: 1 | -1): void {
    for (const { attributes, index } of table.byValues.values()) {
      const key = valuesKey(record.attributes, attributes);
      let set = index.get(key);
      if (change === 1) {
        if (!set) index.set(key, (set = new Set()));
        set.add(record);
      } else if (set) {
        set.delete(record);
        if (set.size === 0) index.delete(key);
      }
    }
  }

  get(type: ResourceType, id: string): StoredRecord | undefined {
    const record = this.table(type).byId.get(id);
    return record && !record.removed ? record : undefined;
  }

  /** Write attributes in place (foreign keys are never changed by the API: they are set on create). */
  write(record: StoredRecord, changes: Record<string, unknown>): StoredRecord {
    const table = this.table(record.type);
    this.indexValues(table, record, -1);
    Object.assign(record.attributes, changes);
    this.indexValues(table, record, 1);
    if (typeof changes.rank === 'number') table.maxRank = Math.max(table.maxRank, changes.rank);
    record.etag = this.newEtag();
    return record;
  }

  /** Change only the ETag: the emulator's chaos "concurrent edit". */
  bump(record: StoredRecord): void {
    record.etag = this.newEtag();
  }

  remove(record: StoredRecord): void {
    record.removed = true;
    const table = this.table(record.type);
    table.byId.delete(record.id);
    this.indexValues(table, record, -1);
  }

  /** Every record of a type in seq order (live and soft-deleted; not hard-deleted). */
  *all(type: ResourceType, afterSeq = 0): Generator<StoredRecord> {
    const ordered = this.table(type).ordered;
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ordered[mid]!.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < ordered.length; i++) {
      const record = ordered[i]!;
      if (!record.removed) yield record;
    }
  }

  /** Records of `type` whose `foreignKey` is `value`, in seq order. */
  byForeignKey(type: ResourceType, foreignKey: string, value: string): StoredRecord[] {
    const list = this.table(type).byForeignKey.get(foreignKey)?.get(value) ?? [];
    return list.filter((r) => !r.removed);
  }

  /**
   * Records of `type` (live or soft-deleted) whose `attributes` hold the same values as `values`;
   * `attributes` must be a unique set of the schema (a unique attribute or a uniqueTogether group).
   */
  withSameValues(
    type: ResourceType,
    attributes: readonly string[],
    values: Record<string, unknown>,
  ): Iterable<StoredRecord> {
    const entry = this.table(type).byValues.get(attributes.join(','));
    if (!entry) throw new Error(`no unique index on ${type}(${attributes.join(', ')})`);
    return entry.index.get(valuesKey(values, attributes)) ?? [];
  }

  private linkTable(table: string): LinkTable {
    let t = this.links.get(table);
    if (!t) this.links.set(table, (t = new LinkTable()));
    return t;
  }

  /** Links `from` (the writable side) to `to`; false when they were linked already (kept as made). */
  link(table: string, from: string, to: string, meta?: Record<string, unknown>): boolean {
    const t = this.linkTable(table);
    const targets = t.forward.get(from) ?? new Map<string, Link>();
    if (targets.has(to)) return false;
    t.forward.set(from, targets.set(to, { id: to, ...(meta ? { meta } : {}) }));
    const sources = t.backward.get(to) ?? new Map<string, Link>();
    t.backward.set(to, sources.set(from, { id: from, ...(meta ? { meta } : {}) }));
    return true;
  }

  /** Removes the link; false when there was none. */
  unlink(table: string, from: string, to: string): boolean {
    const t = this.linkTable(table);
    if (!t.forward.get(from)?.delete(to)) return false;
    t.backward.get(to)?.delete(from);
    return true;
  }

  /** The links of `id`, from the writable side (`forward`) or the other, in the order made. */
  linked(table: string, id: string, forward: boolean): Link[] {
    const t = this.linkTable(table);
    return [...((forward ? t.forward : t.backward).get(id)?.values() ?? [])];
  }

  /** The highest rank stored for the type so far (0 when none). */
  maxRank(type: ResourceType): number {
    return this.table(type).maxRank;
  }

  count(type: ResourceType): number {
    return this.table(type).byId.size;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
