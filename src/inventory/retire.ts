/**
 * What `sync --retire-missing` may archive, and the renames it proposes (docs/design.md "Sync:
 * what retire-missing archives"). A case is archived only on evidence that its test is gone:
 *
 * - the run was whole: no report records a shard or a filter, none is empty of tests, none was
 *   skipped as no report, no run error names nothing in particular;
 * - its test file (or, where its key names no file, its suite) ran in this run, and no run error
 *   touched it; a file no longer in the workspace is evidence of its own;
 * - the code no longer declares it: a test whose name still stands in its file (src/publish/
 *   retire-source.ts) was not run, not deleted, whatever the report says;
 * - it is this pipeline's (retire-scope, else keys of files in the folders where this run ran
 *   tests, and of the suites it ran), and the series' newest retire-grace cycles hold no result
 *   for it.
 *
 * The count bound (retire-max) is a last guard. Everything here reads local files and, for the
 * grace only, the series; the writes are the caller's (src/inventory/sync.ts).
 */
import { posix } from 'node:path';
import type { Resource, ServiceClient } from '../client/index.js';
import { chunkIn, f } from '../client/index.js';
import { DEFAULT_RETIRE_MAX_PERCENT } from '../shared/defaults.js';
import { ConfigError, KEY_WORDS, type SettingWords, type Words } from '../shared/errors.js';
import { type Logger, oneLine } from '../shared/redact.js';
import type { ParsedReport, SkippedFile, TestResult } from '../parsers/index.js';
import { workspacePath } from '../domain/index.js';
import { keyBuilder, MAX_FILTER_CHARS } from '../domain/index.js';
import { declares, modulePathOf, Workspace } from './retire-source.js';
import { matchesPattern, patternFilter } from '../domain/index.js';

/** retire-max: a count of cases, or a share of the automated cases in the pipeline's scope. */
export type RetireMax = number | { percent: number };

/** The settings of retirement and renames, as SyncOptions carries them. */
export interface RetireOptions {
  /** Archive the in-scope automated cases whose tests this run proves gone. */
  retireMissing: boolean;
  /** The most one run may archive; absent: DEFAULT_RETIRE_MAX_PERCENT % of the scope, at least 1. */
  retireMax?: RetireMax;
  /** Archive only when the newest N cycles of `retireSeries` hold no result for the case. */
  retireGrace?: number;
  /** The series (a cycle-name template or a pattern) retire-grace reads. */
  retireSeries?: string;
  /** The automation keys retirement and renames may touch; absent: the pipeline's own. */
  retireScope?: RegExp;
  /** A likely rename gives the old case the new key instead of a new case and an archive. */
  followRenames?: boolean;
}

/** One in-scope automated case no test of this run matched, and what becomes of it. */
export interface RetireCandidate {
  /** The test case's key; null when the service gave none. */
  key: string | null;
  /** The test case's name. */
  name: string;
  /** The automation key that ties it to its test. */
  automationKey: string;
  /**
   * gone: this run proves its test gone (archived under retire-missing); kept: not proven gone,
   * or held by the grace; followed: its test was renamed and it follows (follow-renames).
   */
  verdict: 'gone' | 'kept' | 'followed';
  /** Why, in a line (names files and suites as data). */
  reason: string;
}

/** A vanished test and a new test of the same file (or suite) whose names are alike. */
export interface LikelyRename {
  /** The test case's key; null when the service gave none. */
  key: string | null;
  /** The test case's name. */
  name: string;
  /** The case's automation key, and the new test's. */
  from: string;
  /** The new test's automation key. */
  to: string;
  /** The file (or suite) both belong to; `old → new` for the tests of a moved or renamed file. */
  where: string;
  /** How alike the names are, 0 to 1. */
  similarity: number;
  /** The case follows the test (follow-renames): it gets the new key, not a new case. */
  followed: boolean;
}

/** What retire-missing found: the scope, the bound, what blocks it, and each candidate. */
export interface RetireReport {
  /** Automated cases (AUTOMATED, with a key, not ARCHIVED). */
  automated: number;
  /** How many one run may archive. */
  max: number;
  /** Whether retire-missing was asked for (else the report only says what it would do). */
  enabled: boolean;
  /** Automated cases in this pipeline's scope (matched by this run's tests, or candidates). */
  inScope: number;
  /** Automated cases outside it: never touched. */
  outOfScope: number;
  /** Why this run proves nothing gone (a partial run, a broken report); empty when it can. */
  blocked: string[];
  /** Every in-scope case no test matched, and what becomes of it. */
  candidates: RetireCandidate[];
}

export interface Retirement {
  /** The cases to archive. */
  archive: Resource<'test_cases'>[];
  /** New test key -> the automation key of the case that follows it. */
  follow: Map<string, string>;
  renames: LikelyRename[];
  report: RetireReport;
}

/** A test of this run that matched no case: it would be created. */
export interface NewTest {
  key: string;
  test: TestResult;
}

export interface RetireInput extends RetireOptions {
  reports: readonly ParsedReport[];
  /** Every case with an automationKey, as sync read them. */
  cases: readonly Resource<'test_cases'>[];
  /** Ids of the cases this run's tests matched. */
  matched: ReadonlySet<string>;
  /** The tests that matched no case. */
  created: readonly NewTest[];
  automationKey: string;
  workspace?: string;
}

/** The archive bound (docs/design.md "Sync"): evidence wrong as a whole must not archive the suite. */
export class RetireBoundError extends ConfigError {
  constructor(count: number, inScope: number, max: number, explicit: boolean) {
    super(
      'retire-max',
      (w) =>
        `retiring would archive ${count} of the ${inScope} automated test case(s) in this pipeline's scope, more than ${explicit ? `${w.name('retire-max')} (${max})` : `the default bound of ${max} (${DEFAULT_RETIRE_MAX_PERCENT}% of them, at least 1)`}; nothing was written. Each of them was proven gone (their files ran without them and no longer declare them, or are no longer in the workspace): if that many tests were really deleted, widen the bound with ${w.value('retire-max', String(count))}; otherwise check ${w.name('workspace')} is the checkout the tests ran in.`,
      'RETIRE_BOUND',
    );
  }
}

/**
 * retire-max as written: a count (`5`) or a percentage of the in-scope automated cases (`20%`).
 * Anything else is a config error naming the setting, before any request.
 */
export function parseRetireMax(value: string | undefined): RetireMax | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  throw new ConfigError(
    'retire-max',
    `"${oneLine(value)}" is neither a count of test cases (5) nor a percentage of the automated cases in this pipeline's scope (20%, at most 100%).`,
  );
}

/** The bound for this many in-scope cases. */
export function retireBound(max: RetireMax | undefined, inScope: number): number {
  const percent =
    max === undefined ? DEFAULT_RETIRE_MAX_PERCENT : typeof max === 'number' ? -1 : max.percent;
  if (percent < 0) return max as number;
  return percent === 0 ? 0 : Math.max(1, Math.floor((inScope * percent) / 100));
}

/**
 * retire-scope as written: a regular expression over automation keys, checked before any request.
 */
export function parseRetireScope(value: string | undefined): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value);
  } catch (error) {
    throw new ConfigError(
      'retire-scope',
      `is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

/** retire-grace without the series it reads is a config error (before any request). */
export function checkRetireGrace(options: RetireOptions): void {
  if (options.retireGrace && options.retireSeries === undefined)
    throw new ConfigError(
      'retire-grace',
      (w) =>
        `needs ${w.name('retire-series')}: the series of cycles (as your publish step's cycle-name, e.g. "Nightly {date}") whose newest ${options.retireGrace} cycles must hold no result for a case before it is archived.`,
    );
}

const isAutomated = (r: Resource<'test_cases'>) =>
  r.attributes.automationStatus === 'AUTOMATED' &&
  !!r.attributes.automationKey &&
  r.attributes.status !== 'ARCHIVED';

/** Where a key or a test lives: its file in the workspace, else its suite (a key prefix). */
interface Place {
  /** Workspace-relative test file. */
  file?: string;
  /** Text a name may start with that is no title (a Python module path). */
  prefix?: string;
  /** The test's name as its key holds it, without the file. */
  name: string;
  /** A file the key names outside the workspace (`../other/x.test.ts`): its source is not read. */
  outside?: string;
}

/** What this run tells about itself, read once from its reports. */
interface RunFacts {
  /** Test files this run ran (workspace-relative), and their folders. */
  ran: Set<string>;
  folders: Set<string>;
  /** The folders of the Python test files this run ran. */
  pythonFolders: Set<string>;
  /** Key prefixes of the suites this run ran, for keys that name no file: the suites' names. */
  suites: Map<string, Set<string>>;
  /** Of those, the suites whose tests the report places in a test file: one such file each. */
  suiteFiles: Map<string, string>;
  /** Suite names of each file's tests (a run error may name a suite). */
  fileSuites: Map<string, Set<string>>;
  errors: { file?: string; suite?: string; message: string }[];
  blocked: string[];
}

/** The plan of retirement and renames, with the grace read from the series when asked. */
export async function planRetirement(
  client: ServiceClient,
  input: RetireInput,
): Promise<Retirement> {
  const build = keyBuilder(input.automationKey, input.workspace);
  const ws = new Workspace(build.workspace);
  const facts = runFacts(input.reports, build, ws);
  const placeOf = placeReader(input.automationKey, ws, facts);
  const automated = input.cases.filter(isAutomated);
  const candidates: {
    record: Resource<'test_cases'>;
    place: Place;
    c: RetireCandidate;
    gone: boolean;
  }[] = [];
  let outOfScope = 0;
  let matchedAutomated = 0;
  const missingRan = [...facts.ran].filter((file) => !ws.has(file));
  for (const record of automated) {
    if (input.matched.has(record.id)) {
      matchedAutomated++;
      continue;
    }
    const automationKey = String(record.attributes.automationKey);
    const place = placeOf(automationKey);
    if (!inScope(input.retireScope, automationKey, place, facts)) {
      outOfScope++;
      continue;
    }
    const verdict = facts.blocked.length
      ? { gone: false, reason: `this run proves nothing gone: ${facts.blocked[0]!}` }
      : judge(place, automationKey, facts, ws, missingRan);
    candidates.push({
      record,
      place,
      gone: verdict.gone,
      c: {
        key: (record.attributes.testCaseKey as string | undefined) ?? null,
        name: String(record.attributes.name ?? ''),
        automationKey,
        verdict: verdict.gone ? 'gone' : 'kept',
        reason: verdict.reason,
      },
    });
  }
  const gone = candidates.filter((c) => c.gone);
  const renames = likelyRenames(gone, input.created, placeOf, facts, ws, !!input.followRenames);
  const follow = new Map<string, string>();
  const byKey = new Map(gone.map((g) => [g.c.automationKey, g]));
  for (const r of renames)
    if (r.followed) {
      follow.set(r.to, r.from);
      const c = byKey.get(r.from)!;
      c.gone = false;
      c.c.verdict = 'followed';
      c.c.reason = `renamed: follows ${oneLine(r.to)}`;
    }
  const inScopeCount = matchedAutomated + candidates.length;
  const max = retireBound(input.retireMax, inScopeCount);
  let archive = input.retireMissing ? candidates.filter((c) => c.gone) : [];
  if (archive.length && input.retireGrace)
    archive = await withGrace(client, archive, input.retireGrace, input.retireSeries!);
  if (archive.length > max)
    throw new RetireBoundError(archive.length, inScopeCount, max, input.retireMax !== undefined);
  return {
    archive: archive.map((c) => c.record),
    follow,
    renames,
    report: {
      automated: automated.length,
      max,
      enabled: input.retireMissing,
      inScope: inScopeCount,
      outOfScope,
      blocked: facts.blocked,
      candidates: candidates.map((c) => c.c),
    },
  };
}

/**
 * Reads a key back into its file and name, by the automation-key template: `{file} › {test}`
 * gives `src/cart.test.ts` and `Cart adds an item`. A key without a file of the workspace's shape
 * (jest-junit writes none, a Space's older keys) names its Python module where one matches, in the
 * workspace or, deleted, where this run ran Python tests (goneModuleOf).
 */
function placeReader(template: string, ws: Workspace, facts: RunFacts): (key: string) => Place {
  const pieces = template.split(/\{([^}]*)\}/);
  const fileAt = pieces.findIndex((p, i) => i % 2 === 1 && p === 'file');
  let source = '^';
  pieces.forEach((p, i) => {
    if (i % 2 === 0) source += escapeRegExp(p);
    else source += p === 'file' ? '(?<file>.+?)' : '([\\s\\S]*?)';
  });
  const withFile = fileAt >= 0 ? new RegExp(`${source}$`, 'd') : undefined;
  // The literal the key builder drops with an empty {file}: the one after it when it comes first.
  const firstValue = pieces.slice(0, fileAt).every((p, i) => i % 2 === 0 && p === '');
  const joint = firstValue ? (pieces[fileAt + 1] ?? '') : (pieces[fileAt - 1] ?? '');
  return (key) => {
    const m = withFile?.exec(key);
    const text = m?.groups?.file;
    if (m && text !== undefined) {
      const [start, end] = m.indices!.groups!.file!;
      const name = firstValue
        ? key.slice(0, start) + key.slice(end + joint.length)
        : key.slice(0, start - joint.length) + key.slice(end);
      const file = Workspace.pathOf(text);
      if (file) return { file, name, prefix: modulePathOf(file) };
      // A path all the same, but outside the workspace (`../`, absolute): not read, not ours.
      if (Workspace.pathOf(text.replace(/^(?:[A-Za-z]:)?\/+|^(?:\.\.\/)+/, '')))
        return { name, outside: text };
    }
    const module = ws.moduleOf(key) ?? goneModuleOf(key, facts);
    return module ? { file: module.file, name: key, prefix: module.module } : { name: key };
  };
}

/** The names pytest collects test modules by, by default (python_files: test_*.py, *_test.py). */
const TEST_MODULE = /^(?:test_\w+|\w+_test)$/;

/**
 * The Python test module a dotted key names when its file is no longer in the workspace (pytest's
 * default JUnit names `tests.test_mod.test_y` and no file): a module named as pytest collects test
 * modules, in a folder where this run ran Python test files. Found by its file alone, a deleted
 * module's cases would name no file and no suite of the run, and never be proven gone. A key of
 * another scheme (`com.example.CartTest.adds`) names no test module; one of another folder is not
 * this run's.
 */
function goneModuleOf(key: string, facts: RunFacts): { file: string; module: string } | undefined {
  const parts = key.replace(/\[[^\]]*\]$/, '').split('.');
  for (let k = parts.length - 1; k >= 1; k--) {
    if (!TEST_MODULE.test(parts[k - 1]!)) continue;
    const file = Workspace.pathOf(`${parts.slice(0, k).join('/')}.py`);
    if (file && facts.pythonFolders.has(posix.dirname(file)))
      return { file, module: parts.slice(0, k).join('.') };
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function runFacts(
  reports: readonly ParsedReport[],
  build: ReturnType<typeof keyBuilder>,
  ws: Workspace,
): RunFacts {
  const facts: RunFacts = {
    ran: new Set(),
    folders: new Set(),
    pythonFolders: new Set(),
    suites: new Map(),
    suiteFiles: new Map(),
    fileSuites: new Map(),
    errors: [],
    blocked: [],
  };
  const skipped = (reports as { skipped?: SkippedFile[] }).skipped ?? [];
  for (const s of skipped)
    facts.blocked.push(`${oneLine(s.file)} is no test report (${oneLine(s.reason)})`);
  const add = (map: Map<string, Set<string>>, at: string, test: TestResult) => {
    const names = map.get(at) ?? new Set<string>();
    map.set(at, names);
    for (const s of test.suite) names.add(s);
    if (test.classname) names.add(test.classname);
  };
  const modules = new Map<string, string | undefined>();
  const moduleFileOf = (test: TestResult) => {
    const classname = test.classname ?? test.suite.join('.');
    if (!modules.has(classname)) modules.set(classname, ws.moduleOf(classname, true)?.file);
    return modules.get(classname);
  };
  for (const report of reports) {
    const shown = oneLine(report.file);
    if (report.selection?.shard)
      facts.blocked.push(`${shown} is shard ${oneLine(report.selection.shard)} of a run`);
    if (report.selection?.filter)
      facts.blocked.push(`${shown} is a filtered run (${oneLine(report.selection.filter)})`);
    if (report.tests.length === 0) facts.blocked.push(`${shown} holds no test`);
    for (const e of report.runErrors ?? []) {
      const file = e.file
        ? Workspace.pathOf(workspacePath(e.file, build.workspace).path)
        : undefined;
      if (!file && !e.suite)
        facts.blocked.push(
          `${shown} has a run error that names no file or suite: ${oneLine(e.message)}`,
        );
      facts.errors.push({
        ...(file ? { file } : {}),
        ...(e.suite ? { suite: e.suite } : {}),
        message: e.message,
      });
    }
    for (const test of report.tests) {
      const key = build(test);
      const file = test.file
        ? Workspace.pathOf(workspacePath(test.file, build.workspace).path)
        : moduleFileOf(test);
      if (file) {
        facts.ran.add(file);
        facts.folders.add(posix.dirname(file));
        if (file.endsWith('.py')) facts.pythonFolders.add(posix.dirname(file));
        add(facts.fileSuites, file, test);
      }
      // The key up to the test's own name: the prefix every test of its suite shares.
      if (key.length > test.name.length && key.endsWith(test.name)) {
        const suite = key.slice(0, key.length - test.name.length);
        add(facts.suites, suite, test);
        if (file && !facts.suiteFiles.has(suite)) facts.suiteFiles.set(suite, file);
      }
    }
  }
  return facts;
}

/** The longest suite prefix of this run that a key (without a file) starts with. */
function suiteOf(key: string, facts: RunFacts): string | undefined {
  for (let i = key.length - 1; i > 0; i--)
    if (facts.suites.has(key.slice(0, i))) return key.slice(0, i);
  return undefined;
}

/**
 * The pipeline's own cases: retire-scope when given; else a key whose file is in a folder where
 * this run ran tests (the file there or not), or (without a file) whose suite ran in this run.
 * Another team's keys (another scheme, another repository's paths, another pipeline's folders of
 * one repository) are none of these.
 */
function inScope(scope: RegExp | undefined, key: string, place: Place, facts: RunFacts): boolean {
  if (scope) return new RegExp(scope.source, scope.flags.replace(/[gy]/g, '')).test(key);
  if (place.outside !== undefined) return false;
  if (place.file) return facts.folders.has(posix.dirname(place.file));
  return suiteOf(key, facts) !== undefined;
}

/** Whether this run proves the test of one in-scope case gone, and why (a line of data). */
function judge(
  place: Place,
  key: string,
  facts: RunFacts,
  ws: Workspace,
  missingRan: readonly string[],
): { gone: boolean; reason: string } {
  const keep = (reason: string) => ({ gone: false, reason });
  if (place.outside !== undefined)
    return keep(
      `${oneLine(place.outside)} is outside the workspace, so its source cannot be read: set workspace to the folder the tests ran in`,
    );
  if (place.file) {
    const file = oneLine(place.file);
    if (!ws.has(place.file)) {
      if (missingRan.length)
        return keep(
          `${file} is not in the workspace, nor are ${missingRan.length} test file(s) this run ran (e.g. ${oneLine(missingRan[0]!)}): the workspace is not the checkout the tests ran in, so a missing file proves nothing`,
        );
      return { gone: true, reason: `${file} is no longer in the workspace` };
    }
    const error = facts.errors.find(
      (e) =>
        e.file === place.file ||
        (e.suite !== undefined &&
          (e.suite === place.file || facts.fileSuites.get(place.file!)?.has(e.suite))),
    );
    if (error) return keep(`a run error touched ${file}: ${oneLine(error.message)}`);
    if (!facts.ran.has(place.file)) return keep(`${file} did not run in this run`);
    const source = ws.source(place.file);
    if (typeof source === 'string') return keep(`${file} ${source}`);
    // The suite path the run gives the file's tests is no title (Robot's `Tests.Calculator`).
    const prefixes = [
      ...(place.prefix ? [place.prefix] : []),
      ...(facts.fileSuites.get(place.file) ?? []),
    ];
    if (declares(source, place.name, prefixes))
      return keep(
        `${file} still declares it: not run (deselected, filtered or left out by the report), not deleted`,
      );
    return { gone: true, reason: `${file} ran without it and no longer declares it` };
  }
  const suite = suiteOf(key, facts);
  if (suite === undefined) return keep('its key names no file, and no suite of this run holds it');
  // A suite whose tests are in files is no file (a describe title, in a template without {file}):
  // another file under the same name may not have run (a shard, a file that did not load).
  const filed = facts.suiteFiles.get(suite);
  if (filed !== undefined)
    return keep(
      `its key names no file, and its suite's tests in this run are in test files (such as ${oneLine(filed)}), so whether its own file ran is unknown: an automation-key with {file} lets sync read that file`,
    );
  const names = facts.suites.get(suite)!;
  const error = facts.errors.find(
    (e) => !!e.suite && (names.has(e.suite) || key.startsWith(e.suite)),
  );
  if (error) return keep(`a run error touched its suite: ${oneLine(error.message)}`);
  return {
    gone: true,
    reason: `its suite ran without it (its key names no file, so no source was read)`,
  };
}

/** How alike two names are renames: at least this. */
const RENAME_SIMILARITY = 0.6;
/** The same title under a renamed describe path. */
const SAME_TITLE = 0.9;

/**
 * Vanished tests paired with new tests of the same file (or suite) whose names are alike: the same
 * title under another describe path, or a title a few characters apart; and the tests of a file no
 * longer in the workspace with the same tests of a file that took its place (moved to another
 * folder under its name, or renamed in its folder). A pairing that is not the one best for both
 * sides (a tie) is not proposed: a rename is shown, never guessed.
 */
function likelyRenames(
  gone: readonly { record: Resource<'test_cases'>; place: Place; c: RetireCandidate }[],
  created: readonly NewTest[],
  placeOf: (key: string) => Place,
  facts: RunFacts,
  ws: Workspace,
  follow: boolean,
): LikelyRename[] {
  const pairs: { old: (typeof gone)[number]; fresh: NewTest; score: number; where: string }[] = [];
  const fresh = created.map((t) => {
    const place = placeOf(t.key);
    const suite = t.key.endsWith(t.test.name)
      ? t.key.slice(0, t.key.length - t.test.name.length)
      : undefined;
    return { t, place, where: place.file ?? suite };
  });
  for (const old of gone) {
    const where = old.place.file ?? suiteOf(old.c.automationKey, facts);
    const from = old.place.file;
    const moved = from !== undefined && !ws.has(from);
    for (const n of fresh) {
      if (!where) continue;
      if (n.where === where) {
        const score = renameScore(old.place.name, n.place.name, n.t.test.name);
        if (score >= RENAME_SIMILARITY) pairs.push({ old, fresh: n.t, score, where });
      } else if (moved && n.place.file && tookPlaceOf(from, n.place.file)) {
        // The same test in the file that took the old one's place: its name within the file
        // (without a Python module path, which moved with it) unchanged, or alike.
        const [a, b] = [titleOf(old.place), titleOf(n.place)];
        const score = a === b ? 1 : renameScore(a, b, n.t.test.name);
        if (score >= RENAME_SIMILARITY)
          pairs.push({ old, fresh: n.t, score, where: `${from} → ${n.place.file}` });
      }
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const used = new Set<unknown>();
  const out: LikelyRename[] = [];
  for (const p of pairs) {
    if (used.has(p.old) || used.has(p.fresh)) continue;
    // Another pairing as good for one side: a guess, not shown.
    const tie = pairs.some(
      (q) =>
        q !== p &&
        q.score === p.score &&
        (q.old === p.old) !== (q.fresh === p.fresh) &&
        !used.has(q.old) &&
        !used.has(q.fresh),
    );
    used.add(p.old);
    used.add(p.fresh);
    if (tie) continue;
    out.push({
      key: p.old.c.key,
      name: p.old.c.name,
      from: p.old.c.automationKey,
      to: p.fresh.key,
      where: p.where,
      similarity: Math.round(p.score * 100) / 100,
      followed: follow,
    });
  }
  return out;
}

/** A file that may have taken a gone file's place: the same name in another folder, or its folder. */
function tookPlaceOf(gone: string, file: string): boolean {
  return (
    file !== gone &&
    (posix.basename(file) === posix.basename(gone) || posix.dirname(file) === posix.dirname(gone))
  );
}

/** A test's name within its file: a Python module path before it left out. */
function titleOf(place: Place): string {
  return place.prefix && place.name.startsWith(`${place.prefix}.`)
    ? place.name.slice(place.prefix.length + 1)
    : place.name;
}

function renameScore(old: string, fresh: string, title: string): number {
  if (old === fresh) return 0;
  if (
    title &&
    old.length > title.length &&
    old.endsWith(title) &&
    /[\s.›>:]$/.test(old.slice(0, -title.length))
  )
    return SAME_TITLE;
  const path = fresh.endsWith(title) ? fresh.slice(0, fresh.length - title.length) : '';
  if (path && old.startsWith(path)) return dice(old.slice(path.length), title);
  return dice(old, fresh);
}

/** Sørensen–Dice over character pairs, case-insensitive. */
function dice(a: string, b: string): number {
  const pairs = (s: string) => {
    const out = new Map<string, number>();
    const t = s.toLowerCase();
    for (let i = 0; i < t.length - 1; i++)
      out.set(t.slice(i, i + 2), (out.get(t.slice(i, i + 2)) ?? 0) + 1);
    return out;
  };
  const x = pairs(a);
  const y = pairs(b);
  let both = 0;
  for (const [pair, n] of x) both += Math.min(n, y.get(pair) ?? 0);
  const total = Math.max(0, a.length - 1) + Math.max(0, b.length - 1);
  return total ? (2 * both) / total : 0;
}

/**
 * The grace (retire-grace N): a case is archived only when the newest N cycles of the series hold
 * no result for it (NOT_EXECUTED is none), so the Space remembers the runs and sync keeps no state.
 * One page of the series' cycles, then the candidates' executions in them, 100 cases a request.
 */
async function withGrace<T extends { record: Resource<'test_cases'>; c: RetireCandidate }>(
  client: ServiceClient,
  archive: T[],
  grace: number,
  series: string,
): Promise<T[]> {
  const page = await client.page<'test_cycles'>('/test_cycles', {
    filter: patternFilter(series),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank', 'testCycleKey'] },
  });
  const cycles = page.data
    .filter((c) => matchesPattern(series, String(c.attributes.name ?? '')))
    .slice(0, grace);
  const shown = `"${oneLine(series)}"`;
  if (cycles.length < grace) {
    for (const a of archive) {
      a.c.verdict = 'kept';
      a.c.reason = `retire-grace ${grace}: the series ${shown} holds ${cycles.length} cycle(s), fewer than the ${grace} that must show it gone`;
    }
    return [];
  }
  const names = new Map(
    cycles.map((c) => [c.id, String(c.attributes.testCycleKey ?? c.attributes.name ?? c.id)]),
  );
  const ran = new Map<string, string>();
  const ids = cycles.map((c) => c.id);
  for (const filter of chunkIn(
    'testCaseId',
    archive.map((a) => a.record.id),
    {
      maxItems: 100,
      maxEncodedLength: MAX_FILTER_CHARS - 40 * ids.length,
      wrapChunk: (chunk) => f.and(f.in('testCycleId', ids), f.ne('result', 'NOT_EXECUTED'), chunk),
    },
  ))
    for await (const e of client.iterate<'test_case_executions'>('/test_case_executions', {
      filter,
      fields: { test_case_executions: ['testCaseId', 'testCycleId'] },
    }))
      ran.set(String(e.attributes.testCaseId), names.get(String(e.attributes.testCycleId)) ?? '');
  return archive.filter((a) => {
    const cycle = ran.get(a.record.id);
    if (cycle === undefined) return true;
    a.c.verdict = 'kept';
    a.c.reason = `retire-grace ${grace}: it has a result in ${oneLine(cycle)}, one of the newest ${grace} cycles of ${shown}`;
    return false;
  });
}

/** The hint that goes with a likely rename, in an adapter's words. */
const followHint: Words = (w) =>
  `sync follows a rename with ${w.value('follow-renames', true)} (the case takes the new key and keeps its history), or put the case key in the test's name`;

/** The run's lines about retirement and renames, before any write. */
export function logRetirement(
  retirement: Retirement,
  options: RetireOptions,
  logger: Logger,
  warn: (text: string | Words) => void,
): void {
  const { report, renames } = retirement;
  if (options.retireMissing && report.blocked.length)
    warn(
      `retire-missing archives nothing: this run cannot prove a test gone: ${report.blocked.slice(0, 5).join('; ')}${report.blocked.length > 5 ? `; and ${report.blocked.length - 5} more` : ''}.`,
    );
  for (const r of renames.filter((r) => !r.followed))
    logger.info(
      (w) =>
        `likely rename: ${r.key ? `${oneLine(r.key)} ` : ''}"${oneLine(r.from)}" -> "${oneLine(r.to)}" (${oneLine(r.where)}, ${Math.round(r.similarity * 100)}% alike): ${followHint(w)}.`,
    );
}

/** The lines a sync's text output gives retirement and renames (what is kept and why). */
export function describeRetire(
  r: { retire: RetireReport; renames: LikelyRename[]; dryRun: boolean },
  words: SettingWords = KEY_WORDS,
): string[] {
  const lines: string[] = [];
  const list = <T>(items: T[], line: (item: T) => string) => [
    ...items.slice(0, SHOWN).map(line),
    ...(items.length > SHOWN ? [`  ... and ${items.length - SHOWN} more`] : []),
  ];
  const { retire } = r;
  if (retire.enabled) {
    if (retire.blocked.length)
      lines.push(
        'retirement blocked: this run cannot prove a test gone',
        ...list(retire.blocked, (b) => `  ${b}`),
      );
    const kept = retire.candidates.filter((c) => c.verdict === 'kept');
    if (kept.length)
      lines.push(
        `kept (not proven gone): ${kept.length}`,
        ...list(kept, (c) => `  ${oneLine(c.key ?? '')} ${oneLine(c.name)}: ${c.reason}`),
      );
    lines.push(
      `retire scope: ${retire.inScope} automated case(s) in this pipeline's scope, ${retire.outOfScope} outside it (never touched); at most ${retire.max} archived in one run`,
    );
  }
  const proposed = r.renames.filter((x) => !x.followed);
  const followed = r.renames.filter((x) => x.followed);
  const rename = (x: LikelyRename) =>
    `  ${oneLine(x.key ?? '')} "${oneLine(x.from)}" -> "${oneLine(x.to)}" (${oneLine(x.where)}, ${Math.round(x.similarity * 100)}% alike)`;
  if (followed.length)
    lines.push(
      `renames ${r.dryRun ? 'to follow' : 'followed'}: ${followed.length}`,
      ...list(followed, rename),
    );
  if (proposed.length)
    lines.push(
      `likely renames: ${proposed.length}; ${followHint(words)}`,
      ...list(proposed, rename),
    );
  return lines;
}

const SHOWN = 10;

/**
 * Why this run cannot prove that a test no longer declares what its report leaves out, the
 * evidence retirement asks before an archive (above): the run was whole, no run error touched the
 * test's file or suite, and the test passed (a test that failed or was skipped may have stopped
 * before it recorded what it declares). Undefined: the test ran in full. sync --trace removes a
 * link on it (src/traceability/links.ts).
 */
export function declarationEvidence(
  reports: readonly ParsedReport[],
  automationKey: string,
  workspace?: string,
): (test: TestResult) => string | undefined {
  const build = keyBuilder(automationKey, workspace);
  const ws = new Workspace(build.workspace);
  const facts = runFacts(reports, build, ws);
  return (test) => {
    if (facts.blocked.length) return `this run proves nothing gone: ${facts.blocked[0]!}`;
    if (test.outcome !== 'passed')
      return `the test ${test.outcome === 'skipped' ? 'did not run' : 'did not pass'} in this run`;
    const file = test.file
      ? Workspace.pathOf(workspacePath(test.file, build.workspace).path)
      : undefined;
    const error = facts.errors.find(
      (e) => (file !== undefined && e.file === file) || (e.suite && test.suite.includes(e.suite)),
    );
    return error ? `a run error touched it: ${oneLine(error.message)}` : undefined;
  };
}
