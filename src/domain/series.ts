/**
 * A series of cycles named by one pattern: `Nightly *`, or a cycle-name template such as
 * `Nightly {date}`, where `*` stands for any text, each placeholder for what it stands for
 * (`{date}` a date, `{sha7}` seven hexadecimal digits, `{pr}` a number: PLACEHOLDER_SHAPES), and
 * the rest is literal. The trend gate (previous cycle of the series), the baselines of the
 * new-failure gate, the automatic quarantine rule and the report read series through these, so
 * they always agree on which cycles belong together.
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { f, isEvaluated, type Filter } from '../client/index.js';
import { ConfigError } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';

const WILDCARD = /\*|\{[a-z_0-9]+(?::[A-Za-z_][A-Za-z0-9_]*)?\}/g;

/** The literal parts of a name pattern, in order (`Nightly {date} *` -> ["Nightly ", " "]). */
export function literalParts(pattern: string): string[] {
  return pattern.split(WILDCARD);
}

/** One character a placeholder takes, and how often: once, at most once, once or more, any times. */
interface Shape {
  test: (c: string) => boolean;
  repeat: 'one' | 'opt' | 'plus' | 'star';
}

const is = (re: RegExp) => (c: string) => re.test(c);
const DIGIT = is(/^[0-9]$/);
const HEX = is(/^[0-9a-fA-F]$/);
/** Run ids and numbers: GitHub's and GitLab's digits, CircleCI's uuid, Azure's 20261125.1. */
const ID = is(/^[0-9A-Za-z._-]$/);
/** What a git branch name may hold (git check-ref-format): no space, control code, ~ ^ : ? * [ \. */
const BRANCH = is(/^[^\s\p{Cc}~^:?*[\\]$/u);
const ANY = () => true;
const times = (n: number, shape: Shape): Shape[] => Array.from({ length: n }, () => shape);
const one = (test: (c: string) => boolean): Shape => ({ test, repeat: 'one' });
const char = (c: string) => one((x) => x === c);
const date = [
  ...times(4, one(DIGIT)),
  char('-'),
  ...times(2, one(DIGIT)),
  char('-'),
  ...times(2, one(DIGIT)),
];

/**
 * What each placeholder of docs/design.md `--cycle-name` stands for in a pattern, as its values are
 * rendered (src/domain/context.ts): a date is not any text, so a branch named like a nightly is not
 * one of the nightlies. A placeholder this table does not know stands for any text.
 */
const PLACEHOLDER_SHAPES: Record<string, Shape[]> = {
  date,
  datetime: [...date, char(' '), ...times(2, one(DIGIT)), char(':'), ...times(2, one(DIGIT))],
  // A commit id: 7 hexadecimal digits or more (a full sha1 is 40, a sha256 64).
  sha: [...times(7, one(HEX)), { test: HEX, repeat: 'star' }],
  sha7: times(7, one(HEX)),
  pr: [{ test: DIGIT, repeat: 'plus' }],
  run_id: [{ test: ID, repeat: 'plus' }],
  run_number: [{ test: ID, repeat: 'plus' }],
  branch: [{ test: BRANCH, repeat: 'plus' }],
};
const ANY_TEXT: Shape[] = [{ test: ANY, repeat: 'plus' }];

/**
 * A pattern a setting gives (`baseline-series`, `baseline-cycle`): not empty, and each placeholder
 * one that stands for something, checked before any request.
 */
export function checkPatternPlaceholders(pattern: string, key: string): void {
  if (!pattern.trim())
    throw new ConfigError(
      key,
      'is empty: give a cycle name or a pattern such as "Nightly {date}".',
    );
  for (const m of pattern.matchAll(WILDCARD)) {
    const name = m[0].slice(1, -1).split(':')[0]!;
    if (m[0] !== '*' && name !== 'env' && !(name in PLACEHOLDER_SHAPES))
      throw new ConfigError(
        key,
        `unknown placeholder ${m[0]} in "${oneLine(pattern)}"; use * or ${Object.keys(
          PLACEHOLDER_SHAPES,
        )
          .map((k) => `{${k}}`)
          .join(' ')} or {env:NAME}.`,
      );
  }
}

/** The placeholders that say where a cycle was run: its branch (or PR) and its commit. */
export type IdentityPlaceholder = 'branch' | 'pr' | 'sha' | 'sha7';

/** A pattern as pieces: literal text, and holes named by their placeholder (`*` is `*`). */
type Piece = { text: string } | { hole: string };

function piecesOf(pattern: string, fixed: Partial<Record<string, string>>): Piece[] {
  const pieces: Piece[] = [];
  const literal = (text: string) => {
    const last = pieces.at(-1);
    if (last && 'text' in last) last.text += text;
    else if (text) pieces.push({ text });
  };
  let at = 0;
  for (const m of pattern.matchAll(WILDCARD)) {
    literal(pattern.slice(at, m.index));
    const hole = m[0] === '*' ? '*' : m[0].slice(1, -1).split(':')[0]!;
    const value = fixed[hole];
    if (value !== undefined) literal(value);
    else pieces.push({ hole });
    at = m.index + m[0].length;
  }
  literal(pattern.slice(at));
  return pieces;
}

type Instr =
  | { op: 'char'; test: (c: string) => boolean }
  | { op: 'split'; to: [number, number] }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'match' };

/** A name pattern, ready to match names and to say what each placeholder held. */
export interface NamePattern {
  /** The pattern as written. */
  source: string;
  /** The placeholders given a value (compilePattern's `fixed`). */
  fixed: Partial<Record<string, string>>;
  /** The literal text between the holes (placeholders given a value are literal). */
  literals: string[];
  /** Holes, in order (`*` for a star), each with two capture slots. */
  holes: string[];
  program: Instr[];
}

/**
 * The pattern compiled for a linear-time match (a Pike VM: every name is read once, whatever the
 * pattern; a name comes from the server and is data). `fixed` gives some placeholders a value, so
 * they match only that text (`{branch}` of this run: one branch's cycles of the series).
 */
export function compilePattern(
  pattern: string,
  fixed: Partial<Record<string, string>> = {},
): NamePattern {
  const pieces = piecesOf(pattern, fixed);
  const program: Instr[] = [];
  const holes: string[] = [];
  const emit = (shape: Shape) => {
    const at = program.length;
    if (shape.repeat === 'one') program.push({ op: 'char', test: shape.test });
    else if (shape.repeat === 'opt')
      program.push({ op: 'split', to: [at + 1, at + 2] }, { op: 'char', test: shape.test });
    else if (shape.repeat === 'plus')
      program.push({ op: 'char', test: shape.test }, { op: 'split', to: [at, at + 2] });
    else
      program.push(
        { op: 'split', to: [at + 1, at + 3] },
        { op: 'char', test: shape.test },
        { op: 'jump', to: at },
      );
  };
  for (const piece of pieces) {
    if ('text' in piece) {
      for (const c of piece.text) emit(char(c));
      continue;
    }
    const shapes =
      piece.hole === '*'
        ? [{ test: ANY, repeat: 'star' } as Shape]
        : (PLACEHOLDER_SHAPES[piece.hole] ?? ANY_TEXT);
    program.push({ op: 'save', slot: 2 * holes.length });
    shapes.forEach(emit);
    program.push({ op: 'save', slot: 2 * holes.length + 1 });
    holes.push(piece.hole);
  }
  program.push({ op: 'match' });
  return {
    source: pattern,
    fixed: Object.fromEntries(Object.entries(fixed).filter(([k]) => pattern.includes(`{${k}}`))),
    literals: pieces.flatMap((p) => ('text' in p ? [p.text] : [])),
    holes,
    program,
  };
}

/** Names longer than this are no cycle name of a series (a hostile server's megabyte name is not read). */
const MAX_NAME_CHARS = 4096;

/** The capture slots of the first way (greedy, left to right) the whole name matches, or undefined. */
function run(p: NamePattern, name: string): (number | undefined)[] | undefined {
  const chars = Array.from(name);
  if (chars.length > MAX_NAME_CHARS) return undefined;
  interface Thread {
    pc: number;
    saved: (number | undefined)[];
  }
  const add = (list: Thread[], seen: Set<number>, t: Thread, pos: number): void => {
    if (seen.has(t.pc)) return;
    seen.add(t.pc);
    const ins = p.program[t.pc]!;
    if (ins.op === 'jump') add(list, seen, { ...t, pc: ins.to }, pos);
    else if (ins.op === 'split') for (const to of ins.to) add(list, seen, { ...t, pc: to }, pos);
    else if (ins.op === 'save') {
      const saved = [...t.saved];
      saved[ins.slot] = pos;
      add(list, seen, { pc: t.pc + 1, saved }, pos);
    } else list.push(t);
  };
  let threads: Thread[] = [];
  add(threads, new Set(), { pc: 0, saved: [] }, 0);
  for (let i = 0; i < chars.length && threads.length; i++) {
    const next: Thread[] = [];
    const seen = new Set<number>();
    for (const t of threads) {
      const ins = p.program[t.pc]!;
      if (ins.op === 'char' && ins.test(chars[i]!))
        add(next, seen, { pc: t.pc + 1, saved: t.saved }, i + 1);
    }
    threads = next;
  }
  const done = threads.find((t) => p.program[t.pc]!.op === 'match');
  if (!done) return undefined;
  // Slots count characters (code points): back to the name's own offsets.
  const offsets = [0];
  for (const c of chars) offsets.push(offsets.at(-1)! + c.length);
  return done.saved.map((s) => (s === undefined ? undefined : offsets[s]));
}

const compiled = (pattern: string | NamePattern) =>
  typeof pattern === 'string' ? compilePattern(pattern) : pattern;

/** True when `name` is one of the pattern's names: literal text exact, each hole what it stands for. */
export function matchesPattern(pattern: string | NamePattern, name: string): boolean {
  return run(compiled(pattern), name) !== undefined;
}

/**
 * What each placeholder held in `name` (the first occurrence of each), or undefined when the name
 * is not one of the pattern's: `PR {pr} {sha7}` and "PR 7 0a1b2c3" give {pr: "7", sha7: "0a1b2c3"}.
 */
export function placeholderValues(
  pattern: string | NamePattern,
  name: string,
): Record<string, string> | undefined {
  const p = compiled(pattern);
  const slots = run(p, name);
  if (!slots) return undefined;
  const out: Record<string, string> = {};
  p.holes.forEach((hole, i) => {
    const [from, to] = [slots[2 * i], slots[2 * i + 1]];
    if (hole !== '*' && !(hole in out) && from !== undefined && to !== undefined)
      out[hole] = name.slice(from, to);
  });
  return out;
}

/**
 * The FiltrQL for a name pattern, built with the filter builder: `name ~ "part"` for each literal
 * part (a part holding `{$`, which the service would evaluate, is asked for by the pieces around it).
 */
export function patternFilter(pattern: string | NamePattern): Filter | undefined {
  const pieces = compiled(pattern)
    .literals.flatMap((part) =>
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
export const SERIES_PAGES = 3;

const BRANCH_PLACEHOLDERS = ['branch', 'pr'] as const;
const COMMIT_PLACEHOLDERS = ['sha', 'sha7'] as const;

/**
 * One branch's cycles of a series (docs/design.md "Triage": like with like): the template with its
 * `{branch}` and `{pr}` given the values the cycle's own name holds, so PR 7's previous cycle is
 * PR 7's, never PR 6's. With `commit`, a template that names no branch or PR but a commit (`{sha}`,
 * `{sha7}`) gives that commit's cycles. A template that names none of them is the series itself.
 */
export function laneOf(template: string, name: string, commit = false): NamePattern {
  const values = placeholderValues(template, name) ?? {};
  const pick = (keys: readonly string[]) =>
    Object.fromEntries(keys.flatMap((k) => (values[k] === undefined ? [] : [[k, values[k]]])));
  const branch = pick(BRANCH_PLACEHOLDERS);
  return compilePattern(
    template,
    Object.keys(branch).length || !commit ? branch : pick(COMMIT_PLACEHOLDERS),
  );
}

/** Which of a branch (or PR) and a commit the names of a series record. */
export function recordsOf(template: string): { branch: boolean; commit: boolean } {
  const holes = new Set(compilePattern(template).holes);
  return {
    branch: BRANCH_PLACEHOLDERS.some((h) => holes.has(h)),
    commit: COMMIT_PLACEHOLDERS.some((h) => holes.has(h)),
  };
}

/** `"PR {pr} {sha7}" (pr 7)`: a series as messages name it, with the values it was narrowed to. */
export function describeSeries(pattern: string | NamePattern): string {
  const p = compiled(pattern);
  const fixed = Object.entries(p.fixed).map(([k, v]) => `${k} ${oneLine(String(v))}`);
  return `"${oneLine(p.source)}"${fixed.length ? ` (${fixed.join(', ')})` : ''}`;
}

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
  template: string | NamePattern,
): Promise<CycleRef | NoPreviousCycle> {
  const pattern = compiled(template);
  const rank = cycle.attributes.rank;
  const shown = `${String(cycle.attributes.testCycleKey ?? cycle.id)} (rank ${String(rank)})`;
  const series = describeSeries(pattern);
  // Past 2^53 - 1 ranks are not exact (rank + 1 rounds back to rank): they order nothing.
  const exact = (r: unknown): r is number => typeof r === 'number' && Number.isSafeInteger(r);
  let others = 0;
  /** Other cycles of the series that cannot be placed before or after this one. */
  let unordered = 0;
  let pages = 0;
  for await (const page of client.pages<'test_cycles'>('/test_cycles', {
    filter: patternFilter(pattern),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank', 'testCycleKey'] },
  })) {
    for (const c of page.data) {
      if (c.id === cycle.id || !matchesPattern(pattern, String(c.attributes.name ?? ''))) continue;
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
