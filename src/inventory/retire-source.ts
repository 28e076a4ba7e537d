/**
 * The code as evidence (docs/design.md "Sync: what retire-missing archives"): whether a test file
 * still declares a test, read from its source text. A report can lie by omission (JUnit records
 * neither a `pytest -m` deselection nor a file that failed to load), the source does not: a test
 * whose title, or function name, still stands in its file was not run, not deleted.
 *
 * Names are read back from a case's automation key, which joins the runner's describe path and
 * title (`Cart adds an item`, `math › adds`, `tests.test_mod.TestX.test_y`); the key does not say
 * where one title ends and the next begins, so a name is declared when it can be cut, at the
 * runners' separators, into pieces that each stand in the source: a quoted string (jest, vitest,
 * mocha, Playwright, RSpec titles), a Gherkin line's text (`Scenario: adds`), a Robot Framework
 * test case line, or, where dots or `::` join them, a declared identifier (`def test_y(`,
 * `class TestX`, `func TestY(`). A title built at run time stands as its pattern: a template's
 * `${n}`, an each-table's `%i` or `$name`, an outline's `<a>`, a string joined with `+`, and a title
 * that is a variable stands for any piece. Every piece must stand: a renamed `describe` leaves its
 * old title nowhere, so its tests are gone. The reading errs towards "declared": a false match
 * keeps a case, it never archives one.
 */
import { readFileSync, type Stats, statSync } from 'node:fs';
import { posix } from 'node:path';

/** A test file larger than this is not read: its tests are kept, never judged on a part of it. */
const MAX_SOURCE_BYTES = 4_000_000;
/** Quotes looked at per line and kind: a line of a test file holds a few; a data line is skipped. */
const MAX_QUOTES_PER_LINE = 64;

/** What a test file declares: quoted strings, Gherkin lines' text, declared identifiers. */
export interface SourceIndex {
  strings: Set<string>;
  identifiers: Set<string>;
  /**
   * Titles built at run time, each as its literal parts between the holes a value fills
   * (`counts ${n} items` is `["counts ", " items"]`); `["", ""]` stands for any text.
   */
  templates: string[][];
}

/** The pieces of a source text that can name a test; `path` says how the file declares them. */
export function indexSource(text: string, path: string): SourceIndex {
  const strings = new Set<string>();
  const identifiers = new Set<string>();
  const templates = new Map<string, string[]>();
  const template = (parts: string[]) => templates.set(parts.join('\u0000'), parts);
  const gherkin = path.endsWith('.feature');
  const robot = path.endsWith('.robot');
  const script = SCRIPT.test(path);
  let testSection = false;
  for (const line of text.split('\n')) {
    // Every pair of one kind of quote on a line, not only the pairs a parser would make: an
    // apostrophe in a comment then cannot hide a title that follows it (a superset errs towards
    // "declared").
    for (const quote of QUOTES) {
      const at: number[] = [];
      for (let i = line.indexOf(quote); i >= 0; i = line.indexOf(quote, i + 1))
        if (!escaped(line, i)) at.push(i);
      if (at.length > MAX_QUOTES_PER_LINE) continue;
      for (let a = 0; a < at.length; a++)
        for (let b = a + 1; b < at.length; b++) {
          const inner = line.slice(at[a]! + 1, at[b]!);
          strings.add(inner);
          strings.add(inner.replace(/\\(.)/g, '$1'));
          const holes = inner.split(HOLE);
          if (holes.length > 1) template(holes);
          // `'doubles ' + n`, `n + ' items'`: the string is a title's start or end.
          if (plusBeside(line, at[b]!, 1)) template([inner, '']);
          if (plusBeside(line, at[a]!, -1)) template(['', inner]);
        }
    }
    if (gherkin) {
      const step = GHERKIN_LINE.exec(line);
      if (step) {
        strings.add(step[1]!);
        // A Scenario Outline's examples are named with their values: `sums <a> + <b>`.
        const holes = step[1]!.split(OUTLINE_HOLE);
        if (holes.length > 1) template(holes);
      }
    }
    if (robot) {
      // Robot Framework: a test case is named at the start of a line in its section.
      if (line.startsWith('*')) testSection = ROBOT_TESTS.test(line.replace(/\*/g, '').trim());
      else if (testSection) {
        const name = robotName(line);
        if (name) strings.add(name);
      }
    }
    // `it(title, ...)`, `test(c.name)`: a title that is a variable may be any text.
    if (script && DYNAMIC_TITLE.test(line)) template(['', '']);
    for (const m of line.matchAll(DECLARED)) identifiers.add(m[1] ?? m[2]!);
  }
  return { strings, identifiers, templates: [...templates.values()] };
}

/**
 * What a runner fills in when it builds a title: a template literal's `${...}`, an each-table's
 * printf (`%s`, `%i`, `%#`, jest, vitest and mocha's each) and `$name` (jest's tagged template).
 * No nested repetition: linear on any line.
 */
const HOLE = /\$\{[^}]*\}|%[sdifjoOpc#]|\$[\w.]+/;
/** A Scenario Outline's placeholder. */
const OUTLINE_HOLE = /<[^<>]+>/;
/** The files whose test titles are call arguments (JavaScript, TypeScript). */
const SCRIPT = /\.[cm]?[jt]sx?$/;
/** A test or describe call whose title is an expression, not a literal (not `/re/.test(x)`). */
const DYNAMIC_TITLE =
  /(?<![\w$.])(?:describe|context|suite|it|test|specify)(?:\.(?:only|skip|concurrent|serial|parallel|fixme|fails?|failing|todo|describe))*\s*\(\s*[A-Za-z_$]/;
/** Robot Framework's sections of tests: `*** Test Cases ***`, `*** Tasks ***`. */
const ROBOT_TESTS = /^(?:test cases?|tasks?)$/i;

/** A Robot test's name: a line's first cell when the line starts with it (spaces or pipes). */
function robotName(line: string): string | undefined {
  const row = line.startsWith('| ') ? line.slice(2) : line;
  if (!row || /^[\s#]/.test(row) || row.startsWith('...')) return undefined;
  const end = row.search(/ {2}|\t| \|(?: |$)/);
  return (end < 0 ? row : row.slice(0, end)).trim() || undefined;
}

/** Whether a `+` stands next to the quote at `i` (after it, or before it), past blanks. */
function plusBeside(line: string, i: number, step: 1 | -1): boolean {
  let k = i + step;
  while (line[k] === ' ' || line[k] === '\t') k += step;
  return line[k] === '+';
}

/** Whether `text` is one of the template's titles: its literal parts in order, holes between. */
function fits(parts: readonly string[], text: string): boolean {
  const first = parts[0]!;
  const last = parts.at(-1)!;
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

const QUOTES = ["'", '"', '`'] as const;
/** `Scenario: adds`, `Feature: Calculator`, `Szenario: ...`: a keyword, a colon, the name. */
const GHERKIN_LINE = /^\s*[^\s:#|"'@][^:"'|]*:\s*(\S.*?)\s*$/;
/** A called or declared name (`test_y(`, `func TestY(`), or a class (`class TestX`). */
const DECLARED = /\bclass\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*\(/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function escaped(line: string, i: number): boolean {
  let n = 0;
  while (i - n - 1 >= 0 && line[i - n - 1] === '\\') n++;
  return n % 2 === 1;
}

/**
 * Separators the runners join a describe path and title with, longest first; "wordy" ones join
 * titles (which are strings in the source), the others join names (which may be identifiers).
 */
const SEPARATORS: { text: string; wordy: boolean }[] = [
  { text: ' › ', wordy: true },
  { text: ' > ', wordy: true },
  { text: '::', wordy: false },
  { text: ' ', wordy: true },
  { text: '.', wordy: false },
  { text: '/', wordy: false },
  { text: '#', wordy: false },
];

/**
 * Whether `name` (a test's name as its key holds it, without the file) stands in the source.
 * `prefixes`: text a name may start with that is no title (a Python module path, which pytest puts
 * before the class and function).
 */
export function declares(index: SourceIndex, name: string, prefixes: readonly string[]): boolean {
  const trimmed = name.trim();
  // A parameter or project suffix (`test_y[1-2]`, `adds [chromium]`) is the runner's, not the source's.
  const bare = trimmed.replace(/\s*\[[^\]]*\]$/, '');
  const forms = new Set([trimmed, bare]);
  for (const form of [...forms])
    for (const prefix of prefixes)
      for (const sep of ['.', '::'])
        if (prefix && form.startsWith(prefix + sep))
          forms.add(form.slice(prefix.length + sep.length));
  return [...forms].some((form) => form !== '' && segments(index, form));
}

/** The name cut, at separators, into pieces that each stand in the source. */
function segments(index: SourceIndex, name: string): boolean {
  const seen = new Set<string>();
  const from = (i: number, afterWordy: boolean): boolean => {
    const state = `${i}:${afterWordy}`;
    if (seen.has(state)) return false;
    seen.add(state);
    for (let j = i + 1; j <= name.length; j++) {
      const next = j === name.length ? [] : SEPARATORS.filter((s) => name.startsWith(s.text, j));
      if (j < name.length && next.length === 0) continue;
      const piece = name.slice(i, j);
      const wordyNext = next.some((s) => s.wordy);
      const standing =
        index.strings.has(piece) ||
        index.strings.has(piece.replace(/_/g, ' ')) ||
        index.templates.some((t) => fits(t, piece)) ||
        (!afterWordy && !wordyNext && IDENTIFIER.test(piece) && index.identifiers.has(piece));
      if (!standing) continue;
      if (j === name.length) return true;
      for (const sep of next) if (from(j + sep.text.length, sep.wordy)) return true;
    }
    return false;
  };
  return from(0, false);
}

/** Test files of one workspace, read once each: whether they exist, and what they declare. */
export class Workspace {
  private readonly stats = new Map<string, Stats | undefined>();
  private readonly indexes = new Map<string, SourceIndex | string>();
  constructor(readonly root: string) {}

  /**
   * A workspace-relative path as a key holds it, if it is one: relative, `/`-separated, inside the
   * workspace (a key is data from the service: `../` never reads outside), with an extension.
   */
  static pathOf(text: string | undefined): string | undefined {
    if (!text || /^[A-Za-z]:|^[/\\]/.test(text) || text.includes('\\')) return undefined;
    const path = posix.normalize(text);
    if (path.startsWith('../') || path === '..' || !/\.[A-Za-z0-9]+$/.test(path)) return undefined;
    return path;
  }

  has(path: string): boolean {
    return this.stat(path)?.isFile() ?? false;
  }

  private stat(path: string): Stats | undefined {
    if (!this.stats.has(path))
      this.stats.set(path, statSync(this.at(path), { throwIfNoEntry: false }));
    return this.stats.get(path);
  }

  /** What the file declares, or why it cannot be read (the test is then kept). */
  source(path: string): SourceIndex | string {
    let index = this.indexes.get(path);
    if (index !== undefined) return index;
    try {
      const size = this.stat(path)?.size ?? 0;
      index =
        size > MAX_SOURCE_BYTES
          ? `is ${size} bytes, more than the ${MAX_SOURCE_BYTES} a test file is read for`
          : indexSource(readFileSync(this.at(path), 'utf8'), path);
    } catch (error) {
      index = `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    this.indexes.set(path, index);
    return index;
  }

  /**
   * The Python module a dotted name starts with, where that module is a file of the workspace
   * (pytest's default JUnit names `tests.test_mod.test_y` and no file). `whole`: the name may be
   * the module itself (a classname), not only a module and a test within it.
   */
  moduleOf(name: string, whole = false): { file: string; module: string } | undefined {
    const parts = name.replace(/\[[^\]]*\]$/, '').split('.');
    for (let k = whole ? parts.length : parts.length - 1; k >= 1; k--) {
      const file = Workspace.pathOf(`${parts.slice(0, k).join('/')}.py`);
      if (file && this.has(file)) return { file, module: parts.slice(0, k).join('.') };
    }
    return undefined;
  }

  private at(path: string): string {
    return posix.join(this.root.replace(/\\/g, '/'), path);
  }
}

/** The dotted module path of a Python file (`tests/test_mod.py` -> `tests.test_mod`). */
export function modulePathOf(file: string): string | undefined {
  return file.endsWith('.py') ? file.slice(0, -3).split('/').join('.') : undefined;
}
