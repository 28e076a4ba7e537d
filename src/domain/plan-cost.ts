/**
 * What the real run's reads cost, counted for a dry run's plan (docs/design.md "Dry run"): a read
 * of n records is ceil(n/100) pages, at least one (docs/service-api.md 4.1), and an `in` read is
 * one such read per chunk (src/client/filter.ts `chunkGroups`). Records the run would create have no
 * id yet: a stand-in id takes their place, as long as a real one, so that chunks come out as the
 * real run's do.
 */
import { chunkGroups, type ChunkOptions } from '../client/index.js';
import { MAX_PAGE_SIZE } from '../schema/limits.js';

/** Requests of a paged read of n records: an empty list is one request too. */
export function pagesOf(n: number): number {
  return Math.max(1, Math.ceil(n / MAX_PAGE_SIZE));
}

/**
 * Requests of `field in (...)` reads over `ids` in chunks (none for no ids): per chunk, the pages
 * of the rows it returns (`rowsOf`: one per id unless said).
 */
export function chunkedReads(
  field: string,
  ids: readonly string[],
  options: ChunkOptions,
  rowsOf: (id: string) => number = () => 1,
): number {
  if (ids.length === 0) return 0;
  return chunkGroups(field, ids, options).reduce(
    (n, chunk) => n + pagesOf(chunk.values.reduce<number>((r, id) => r + rowsOf(String(id)), 0)),
    0,
  );
}

/** Stand-in ids start with `~`: no record of the service has one, and it is not %-encoded. */
const STAND_IN = '~';

/** The n-th stand-in id, as long as `like` (a real id of the same kind), or a UUID's 36. */
export function standInId(n: number, like?: string): string {
  return `${STAND_IN}${n}`.padEnd(like?.length ?? 36, STAND_IN);
}

export function isStandIn(id: string): boolean {
  return id.startsWith(STAND_IN);
}
