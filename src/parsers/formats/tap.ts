/**
 * TAP, the Test Anything Protocol (testanything.org, version 14 and the 12 and 13 it extends), as
 * node's test runner (`--test-reporter=tap`), node-tap (`tap --reporter=tap`) and shell and Perl
 * suites write it. One pass over the lines, each looked at once, with no regular expression that
 * can backtrack: linear on any input, subtests nested at most MAX_DEPTH deep.
 *
 * What is a test: a test point with no subtests (what the producers count: node-tap's summary
 * counts its assertions, skips and todos), and a point that node's runner marks `type: 'test'`
 * even when it has subtests (node counts those; its `type: 'suite'` points are describe blocks).
 */
import type { ReportFormat } from '../base/format.js';
import {
  firstLine,
  NO_PROPERTIES,
  withGap,
  type Outcome,
  type ParsedTests,
  type RunError,
  type TestResult,
} from '../base/model.js';

/** Subtests nested deeper are refused: no runner nests that deep (XML_LIMITS.depth is the same). */
export const MAX_DEPTH = 256;

export const tap: ReportFormat = {
  id: 'tap',
  label: 'TAP (Test Anything Protocol 12 to 14: node --test-reporter=tap, node-tap, prove)',
  kind: 'text',
  extensions: ['tap'],
  detect: (s) => {
    const first = s.head.trimStart();
    return (
      // The version line may follow a few lines of a wrapper's own output (npm's `> pkg test`).
      /^TAP version 1[234]\s*$/m.test(s.head) ||
      /^1\.\.\d+\s*(#[^\n]*)?(\n|$)/.test(first) ||
      /^(not )?ok \d+\b/.test(first)
    );
  },
  parse(text) {
    return toTests(readStream(text));
  },
};

/** One test point, with the stream of its subtests. */
interface Point {
  ok: boolean;
  number?: number;
  description: string;
  directive?: 'skip' | 'todo';
  reason?: string;
  /** A directive that is no SKIP or TODO: node-tap writes `# time=20.105ms`. */
  comment?: string;
  yaml?: Yaml;
  /** The YAML block as written, for the details of a failure. */
  yamlText?: string;
  children: Point[];
}

type Yaml = Record<string, string | Record<string, string>>;

/** One level of the stream: the top, or a subtest's indented lines. */
interface Level {
  /** Four spaces of indentation a level. */
  depth: number;
  points: Point[];
  plan?: number;
  /** The name a `# Subtest: name` comment gave the subtest these lines belong to. */
  name?: string;
}

interface Stream {
  top: Point[];
  errors: RunError[];
}

/**
 * The stream's tree of points. Levels follow the indentation (four spaces a level); a level's
 * points become the children of the point that follows it one level up. A level that no point
 * closes (the stream ended, or bailed out) keeps its tests under a container of its own, named by
 * the `# Subtest: name` comment before it where there is one.
 */
function readStream(text: string): Stream {
  const lines = text.split('\n');
  // The open levels, outermost first; a level exists only where lines are (no empty levels
  // between, so a stream that jumps 256 levels deep builds one, not 256).
  const stack: Level[] = [{ depth: 0, points: [] }];
  const errors: RunError[] = [];
  // `# Subtest: name` by the indentation it was written at: node and node-tap write it at the
  // parent's, TAP 14's own example at the subtest's.
  const subtestNames: (string | undefined)[] = [];
  /** Opens the level at `depth`, and the named ones between (their names tell orphans' suites). */
  const open = (depth: number) => {
    const top = stack.at(-1)!.depth;
    for (let k = top + 1; k < depth; k++)
      if (subtestNames[k - 1] !== undefined)
        stack.push({ depth: k, points: [], name: subtestNames[k - 1] });
    if (top < depth)
      stack.push({ depth, points: [], name: subtestNames[depth - 1] ?? subtestNames[depth] });
  };
  /**
   * Closes the levels deeper than `depth`. The shallowest of them holds the subtests of the
   * point at `depth` that closes it, and is returned; unless `orphans` (no point closes it:
   * a plan line, the end of the stream), then it stays in its parent like the deeper ones do: a
   * named level (`# Subtest: name`) as a container of that name, a nameless one as its points.
   */
  const closeBelow = (depth: number, orphans = false): Point[] => {
    let carried: Point[] = [];
    while (stack.at(-1)!.depth > depth) {
      const level = stack.pop()!;
      checkPlan(level, errors);
      const points = level.points;
      for (const p of carried) points.push(p);
      if (!orphans && stack.at(-1)!.depth <= depth) return points;
      carried = level.name ? [{ ok: true, description: level.name, children: points }] : points;
    }
    const parent = stack.at(-1)!.points;
    for (const p of carried) parent.push(p);
    return [];
  };
  let bailed = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const indent = indentOf(raw);
    const line = raw.slice(indent).trimEnd();
    if (!line) continue;
    if (line.startsWith('Bail out!')) {
      errors.push({ message: line });
      bailed = true;
      break;
    }
    const depth = Math.floor(indent / 4);
    if (depth > MAX_DEPTH)
      throw new Error(`line ${i + 1}: subtests are nested more than ${MAX_DEPTH} deep (the limit)`);
    if (line.startsWith('ok') || line.startsWith('not ok')) {
      const point = pointOf(line);
      if (!point) continue;
      point.children = closeBelow(depth);
      open(depth);
      stack.at(-1)!.points.push(point);
      // The point ends the subtest its `# Subtest` comment opened, and any inside it.
      if (subtestNames.length > depth) subtestNames.length = depth;
      // Its YAML block: `---` two spaces in, to `...` (or to the first line less indented).
      const next = lines[i + 1];
      if (next !== undefined && isMarker(next, indent + 2, '---')) {
        const block: string[] = [];
        let j = i + 2;
        for (; j < lines.length; j++) {
          const l = lines[j]!;
          const at = indentOf(l);
          if (at === indent + 2 && isMarker(l, at, '...')) break;
          if (at < indent + 2 && !isBlank(l, at)) {
            j--;
            break;
          }
          block.push(at >= indent + 2 ? l.slice(indent + 2) : '');
        }
        point.yamlText = block.join('\n').trimEnd();
        point.yaml = yamlOf(block);
        i = Math.min(j, lines.length - 1);
      }
    } else if (line.startsWith('1..')) {
      const plan = Number(/^1\.\.(\d+)/.exec(line)?.[1]);
      if (Number.isInteger(plan)) {
        closeBelow(depth, true);
        open(depth);
        stack.at(-1)!.plan = plan;
      }
    } else if (line.startsWith('# Subtest')) {
      subtestNames[depth] = line.replace(/^# Subtest:? ?/, '');
    }
  }
  closeBelow(0, true);
  const top = stack[0]!;
  if (!bailed) {
    if (top.plan === undefined && top.points.length)
      errors.push({
        message: 'the TAP stream has no plan (1..N): it may have ended before its tests did',
      });
    else checkPlan(top, errors);
  }
  return { top: top.points, errors };
}

/** A level's plan against its points: fewer points than planned means tests that never ran. */
function checkPlan(level: Level, errors: RunError[]): void {
  if (level.plan === undefined || level.plan <= level.points.length) return;
  errors.push({
    ...(level.name ? { suite: level.name } : {}),
    message: `planned ${level.plan} tests, ran ${level.points.length}`,
  });
}

/** `---` or `...` at exactly `at` spaces in, nothing but blanks after (no copy of the line). */
function isMarker(line: string, at: number, marker: string): boolean {
  return indentOf(line) === at && line.startsWith(marker, at) && isBlank(line, at + 3);
}

/** Nothing but blanks from `from` on. */
function isBlank(line: string, from: number): boolean {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 0x20) i++;
  return i;
}

/** `ok 1 - description # SKIP reason`: the description is what comes before an unescaped `#`. */
function pointOf(line: string): Point | undefined {
  const ok = line.startsWith('ok');
  let at = ok ? 2 : 6;
  const after = line.charCodeAt(at);
  if (at < line.length && after !== 0x20 && after !== 0x09) return undefined; // "okay", not a point
  while (line.charCodeAt(at) === 0x20) at++;
  let number: number | undefined;
  const digits = at;
  while (line.charCodeAt(at) >= 0x30 && line.charCodeAt(at) <= 0x39) at++;
  if (at > digits) number = Number(line.slice(digits, at));
  while (line.charCodeAt(at) === 0x20) at++;
  if (line.charCodeAt(at) === 0x2d /* - */ && line.charCodeAt(at + 1) === 0x20) at += 2;
  else if (line.charCodeAt(at) === 0x2d && at === line.length - 1) at++;
  // The description ends at the first `#` that no backslash escapes (TAP 14 "Escaping").
  let hash = -1;
  for (let i = at; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x23 /* # */) {
      hash = i;
      break;
    }
  }
  const written = line.slice(at, hash < 0 ? undefined : hash);
  const description = written.includes('\\') ? written.replace(/\\(.)/g, '$1') : written;
  const directive = hash < 0 ? undefined : line.slice(hash + 1).trim();
  const point: Point = { ok, number, description: description.trim(), children: [] };
  if (directive !== undefined) {
    const word = directive.slice(0, 4).toLowerCase();
    if (word === 'skip' || word === 'todo') {
      point.directive = word;
      const space = directive.search(/\s/);
      const reason = space < 0 ? '' : directive.slice(space).trim();
      if (reason) point.reason = reason;
    } else point.comment = directive;
  }
  return point;
}

/**
 * A YAML diagnostics block as TAP producers write it: keys with plain, quoted or block (`|`, `|-`,
 * `>`) scalars, and one level of keys below (node-tap's `at: {fileName, lineNumber}`). Anything
 * else is kept as its text. Lines are relative to the block's indent.
 */
function yamlOf(lines: string[], nested = false): Yaml {
  const out: Yaml = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (indentOf(line) !== 0) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon);
    const rest = line.slice(colon + 1).trim();
    // The lines that belong to this key: those indented below it (blank ones inside included).
    let end = i + 1;
    while (end < lines.length && (isBlank(lines[end]!, 0) || indentOf(lines[end]!) > 0)) end++;
    const body = lines.slice(i + 1, end);
    i = end - 1;
    if (rest.startsWith('|') || rest.startsWith('>')) out[key] = blockScalar(rest, body);
    else if (rest) out[key] = scalar(rest);
    // One level below, no deeper: each line is then read at most twice.
    else if (body.length && !nested) {
      const below = yamlOf(dedent(body), true);
      out[key] = Object.fromEntries(
        Object.entries(below).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    }
  }
  return out;
}

function blockScalar(header: string, body: string[]): string {
  const lines = dedent(body);
  const text =
    header[0] === '>' ? lines.map((l) => l.trim()).join(' ') : lines.join('\n').trimEnd();
  return header.includes('-') || header[0] === '>' ? text.trimEnd() : `${text}\n`;
}

function dedent(lines: string[]): string[] {
  let least = Infinity;
  for (const l of lines) if (!isBlank(l, 0)) least = Math.min(least, indentOf(l));
  return lines.map((l) => l.slice(Math.min(least, indentOf(l))));
}

function scalar(value: string): string {
  if (value.startsWith("'") && value.endsWith("'") && value.length > 1)
    return value.slice(1, -1).replace(/''/g, "'");
  if (value.startsWith('"') && value.endsWith('"') && value.length > 1) {
    try {
      return String(JSON.parse(value));
    } catch {
      return value.slice(1, -1);
    }
  }
  return value;
}

/**
 * The tests of the tree. Node's runner marks each point a test or a suite; node-tap names each
 * test file's subtest by its path.
 */
function toTests(stream: Stream): ParsedTests {
  const tests: TestResult[] = [];
  const node = usesNodeTypes(stream.top);
  // The suite path as a chain of names, made an array once per subtest that holds a test: a
  // copy per level would cost depth² on a stream nested MAX_DEPTH deep.
  interface Path {
    name: string;
    parent?: Path;
    array?: string[];
  }
  const arrayOf = (path: Path | undefined): string[] => {
    if (!path) return [];
    if (!path.array) {
      const names: string[] = [];
      for (let at: Path | undefined = path; at; at = at.parent) names.push(at.name);
      path.array = names.reverse();
    }
    return path.array;
  };
  /** Whether a failure was read at or below the point: a failed test, or a run error. */
  const walk = (
    point: Point,
    path: Path | undefined,
    file: string | undefined,
    depth: number,
  ): boolean => {
    const name = point.description || (point.number === undefined ? '' : String(point.number));
    const kind = node ? point.yaml?.type : undefined;
    const isTest = kind === 'test' || (kind !== 'suite' && point.children.length === 0);
    if (isTest) tests.push(resultOf(point, name, arrayOf(path), file));
    let failed = isTest && isFailed(point);
    const hook = node && kind === 'suite' && point.yaml?.failureType === 'hookFailed';
    const below: Path = { name, parent: path };
    if (depth < MAX_DEPTH)
      for (const child of point.children) if (walk(child, below, file, depth + 1)) failed = true;
    // A point that failed with nothing failing beneath it (a describe whose body threw; node counts
    // no failed test and exits 1) failed outside its tests: a run error, or a red run reads green.
    if (hook || (isFailed(point) && !failed))
      stream.errors.push({
        suite: [...arrayOf(path), name].join(' › '),
        message: firstLine(str(point.yaml?.error)) ?? (hook ? 'a hook failed' : failedAlone(name)),
      });
    return failed || hook || isFailed(point);
  };
  for (const point of stream.top) {
    // node-tap runs each test file as a subtest named by its path (test/math.test.js).
    const file =
      !node && point.children.length && TEST_FILE.test(point.description)
        ? point.description
        : undefined;
    if (!file) {
      walk(point, undefined, undefined, 0);
      continue;
    }
    let failed = false;
    for (const child of point.children) if (walk(child, undefined, file, 1)) failed = true;
    // A file that failed though its points passed (its process exited 1 after them).
    if (isFailed(point) && !failed)
      stream.errors.push({
        file,
        message: firstLine(str(point.yaml?.error)) ?? failedAlone(point.description),
      });
  }
  const parsed: ParsedTests = Object.assign(
    tests,
    stream.errors.length ? { runErrors: stream.errors } : {},
  );
  return withGap(
    parsed,
    tests.some((t) => !t.file)
      ? {
          reporter: node ? "node's TAP reporter" : 'TAP',
          placeholder: '{file}',
          reason: node
            ? "writes no test file (only a failure's location); " +
              "node's junit reporter (--test-reporter=junit) writes it"
            : 'has no place for the test file',
        }
      : undefined,
    (t) => !t.file,
  );
}

/** `not ok` without a SKIP or TODO, which fail nothing. */
function isFailed(point: Point): boolean {
  return !point.ok && !point.directive;
}

const failedAlone = (name: string) => `"${name}" failed, though none of its tests did`;

/** A path without spaces ending in a source file's extension: `test/math.test.js`, `t/basic.t`. */
const TEST_FILE = /^[^\s#]+\.(?:[cm]?[jt]sx?|t|bats|sh|py|rb|pl)$/;

function usesNodeTypes(points: Point[]): boolean {
  return points.some((p) => {
    const type = p.yaml?.type;
    return type === 'test' || type === 'suite';
  });
}

function str(value: Yaml[string] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function resultOf(
  point: Point,
  name: string,
  suite: string[],
  file: string | undefined,
): TestResult {
  const yaml = point.yaml ?? {};
  // TODO and SKIP do not fail a run, whatever the point says (TAP 14 "Directives").
  const outcome: Outcome = point.directive ? 'skipped' : point.ok ? 'passed' : 'failed';
  const error = str(yaml.error) ?? str(yaml.message);
  const message =
    outcome === 'failed' ? (firstLine(error) ?? (point.description || undefined)) : point.reason;
  return {
    suite,
    // The subtest path joined by dots, as node's junit reporter writes classname: one {test}.
    ...(suite.length ? { classname: suite.join('.') } : {}),
    name,
    ...(file ? { file } : {}),
    durationMs: durationOf(point, yaml),
    outcome,
    ...(message ? { message } : {}),
    ...(outcome === 'failed' && point.yamlText ? { details: point.yamlText } : {}),
    properties: NO_PROPERTIES,
  };
}

/** node's `duration_ms` in the YAML, or node-tap's `# time=20.105ms` directive. */
function durationOf(point: Point, yaml: Yaml): number | undefined {
  const ms = Number(str(yaml.duration_ms));
  if (str(yaml.duration_ms) !== undefined && Number.isFinite(ms)) return Math.round(ms);
  const time = point.comment ? /(?:^|\s)time=(\d+(?:\.\d+)?)(ms|s)\b/.exec(point.comment) : null;
  if (!time) return undefined;
  return Math.round(Number(time[1]) * (time[2] === 's' ? 1000 : 1));
}
