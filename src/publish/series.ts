/**
 * A series of cycles named by one pattern: `Nightly *`, or a cycle-name template such as
 * `Nightly {date}`, where `*` and each placeholder stand for any text and the rest is literal.
 * The trend gate (previous cycle of the series) and the report read series through these, so
 * both always agree on which cycles belong together.
 */
import { f, isEvaluated, type Filter } from '../api/filter.js';

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
