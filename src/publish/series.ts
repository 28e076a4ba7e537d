/**
 * A series of cycles named by one pattern: `Nightly *`, or a cycle-name template such as
 * `Nightly {date}`, where `*` and each placeholder stand for any text and the rest is literal.
 * The trend gate (previous cycle of the series) and the report read series through these, so
 * both always agree on which cycles belong together.
 */
import type { Resource, ServiceClient } from '../api/client.js';
import { f, isEvaluated, type Filter } from '../api/filter.js';
import { oneLine } from '../shared/redact.js';

const WILDCARD = /\*|\{[a-z_0-9]+(?::[A-Za-z_][A-Za-z0-9_]*)?\}/g;

/** The literal parts of a name pattern, in order (`Nightly {date} *` -> ["Nightly ", " "]). */
export function literalParts(pattern: string): string[] {
  return pattern.split(WILDCARD);
}

/** True when `name` is one of the pattern's names: literal parts exact, wildcards any text. */
export function matchesPattern(pattern: string, name: string): boolean {
  const parts = literalParts(pattern);
  if (parts.length === 1) return name === parts[0];
  if (!name.startsWith(parts[0]!)) return false;
  let at = parts[0]!.length;
  // Greedy from the left for the middle parts, the last one anchored at the end: linear, no regex.
  for (let i = 1; i < parts.length - 1; i++) {
    const found = name.indexOf(parts[i]!, at);
    if (found < 0) return false;
    at = found + parts[i]!.length;
  }
  const tail = parts.at(-1)!;
  return name.length - tail.length >= at && name.endsWith(tail);
}

/**
 * The FiltrQL for a name pattern, built with the filter builder: `name ~ "part"` for each literal
 * part (a part holding `{$`, which the service would evaluate, is asked for by the pieces around it).
 */
export function patternFilter(pattern: string): Filter | undefined {
  const pieces = literalParts(pattern)
    .flatMap((part) =>
      isEvaluated(part)
        ? part.split('{$').map((p, i, all) => `${i ? '$' : ''}${p}${i < all.length - 1 ? '{' : ''}`)
        : [part],
    )
    .filter((p) => p.trim() !== '');
  if (pieces.length === 0) return undefined;
  return f.and(...[...new Set(pieces)].map((p) => f.cmp('name', '~', p)));
}

/**
 * No previous cycle to compare with, and why. `first`: the series holds no other cycle, so there
 * is nothing to compare with (the gate passes and says so); otherwise there are others, but none
 * could be placed before this one (the gate fails: the trend it was asked for went unchecked).
 */
export interface NoPreviousCycle {
  first: boolean;
  why: string;
}

/** Pages of cycles looked through for the previous one of a series (newest first). */
const SERIES_PAGES = 3;

/** A cycle as the gate names it. */
export interface CycleRef {
  id: string;
  key: string;
  name: string;
}

/**
 * The cycle of the series ranked just before `cycle`, or why there is none (the trend gate and
 * the new-failure gate's `baseline previous` both find it here, so they always agree).
 */
export async function previousInSeries(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  template: string,
): Promise<CycleRef | NoPreviousCycle> {
  const rank = cycle.attributes.rank;
  const shown = `${String(cycle.attributes.testCycleKey ?? cycle.id)} (rank ${String(rank)})`;
  const series = `"${oneLine(template)}"`;
  // Past 2^53 - 1 ranks are not exact (rank + 1 rounds back to rank): they order nothing.
  const exact = (r: unknown): r is number => typeof r === 'number' && Number.isSafeInteger(r);
  let others = 0;
  /** Other cycles of the series that cannot be placed before or after this one. */
  let unordered = 0;
  let pages = 0;
  for await (const page of client.pages<'test_cycles'>('/test_cycles', {
    filter: patternFilter(template),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank', 'testCycleKey'] },
  })) {
    for (const c of page.data) {
      if (c.id === cycle.id || !matchesPattern(template, String(c.attributes.name ?? ''))) continue;
      others++;
      const theirs = c.attributes.rank;
      if (!exact(rank) || !exact(theirs) || theirs === rank) unordered++;
      else if (theirs < rank)
        return {
          id: c.id,
          key: String(c.attributes.testCycleKey ?? c.id),
          name: String(c.attributes.name ?? ''),
        };
    }
    if (++pages >= SERIES_PAGES)
      return {
        first: false,
        why: `the newest ${SERIES_PAGES} pages of cycles hold ${others} other cycle(s) of the series ${series}, none ranked below ${shown}`,
      };
  }
  if (unordered > 0)
    return {
      first: false,
      why: `${unordered} other cycle(s) of the series ${series} cannot be ordered against ${shown}: the same rank, or one that is not a whole number up to ${Number.MAX_SAFE_INTEGER}`,
    };
  return {
    first: true,
    why: others
      ? `${shown} is ranked before every other cycle of the series ${series}`
      : `${shown} is the first cycle of the series ${series}`,
  };
}
