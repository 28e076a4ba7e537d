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
 * mocha, Playwright, RSpec titles), a Gherkin line's text (`Scenario: adds`), or, where dots or
 * `::` join them, a declared identifier (`def test_y(`, `class TestX`, `func TestY(`). Every piece
 * must stand: a renamed `describe` leaves its old title nowhere, so its tests are gone. The reading
 * errs towards "declared": a false match keeps a case, it never archives one.
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
}

/** The pieces of a source text that can name a test. */
export function indexSource(text: string, gherkin = false): SourceIndex {
  const strings = new Set<string>();
  const identifiers = new Set<string>();
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
        }
    }
    if (gherkin) {
      const step = GHERKIN_LINE.exec(line);
      if (step) strings.add(step[1]!);
    }
    for (const m of line.matchAll(DECLARED)) identifiers.add(m[1] ?? m[2]!);
  }
  return { strings, identifiers };
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
          : indexSource(readFileSync(this.at(path), 'utf8'), path.endsWith('.feature'));
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
