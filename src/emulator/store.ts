/**
 * In-memory records of one Space. Ordered by insertion (the keyset for cursors), with indexes for
 * ids, foreign keys of to-many relations and unique attributes, so memory stays proportional to the
 * data and no request scans more than it must.
 */
import { randomUUID } from 'node:crypto';
import {
  type ResourceSpec,
  type ResourceType,
  RESOURCES,
  RESOURCE_TYPES,
} from '../schema/resources.js';

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
  keyCounter: number;
}

/** The attributes that to-many relations of other types point through, per type. */
function foreignKeysOf(type: ResourceType): string[] {
  const keys = new Set<string>();
  for (const other of RESOURCE_TYPES) {
    for (const rel of Object.values((RESOURCES[other] as ResourceSpec).toMany ?? {})) {
      if (rel.type === type) keys.add(rel.foreignKey);
    }
  }
  return [...keys];
}

export class Store {
  private readonly tables = new Map<ResourceType, Table>();
  private seq = 0;
  private etagCounter = 0;

  constructor(readonly projectKey: string) {
    for (const type of RESOURCE_TYPES) {
      this.tables.set(type, {
        byId: new Map(),
        ordered: [],
        byForeignKey: new Map(foreignKeysOf(type).map((k) => [k, new Map()])),
        keyCounter: 0,
      });
    }
  }

  private table(type: ResourceType): Table {
    return this.tables.get(type)!;
  }

  newEtag(): string {
    // Strong and quoted; new on every write (DESIGN.md).
    return `"${(++this.etagCounter).toString(36)}-${randomUUID().slice(0, 8)}"`;
  }

  nextKey(type: ResourceType): string | undefined {
    const key = (RESOURCES[type] as ResourceSpec).key;
    if (!key) return undefined;
    return `${this.projectKey}-${key.prefix}${++this.table(type).keyCounter}`;
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
    return record;
  }

  get(type: ResourceType, id: string): StoredRecord | undefined {
    const record = this.table(type).byId.get(id);
    return record && !record.removed ? record : undefined;
  }

  /** Write attributes in place (foreign keys are never changed by the API: they are set on create). */
  write(record: StoredRecord, changes: Record<string, unknown>): StoredRecord {
    Object.assign(record.attributes, changes);
    record.etag = this.newEtag();
    return record;
  }

  /** Change only the ETag: the emulator's chaos "concurrent edit". */
  bump(record: StoredRecord): void {
    record.etag = this.newEtag();
  }

  remove(record: StoredRecord): void {
    record.removed = true;
    this.table(record.type).byId.delete(record.id);
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

  isIndexed(type: ResourceType, attribute: string): boolean {
    return this.table(type).byForeignKey.has(attribute);
  }

  count(type: ResourceType): number {
    return this.table(type).byId.size;
  }
}
