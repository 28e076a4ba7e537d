/**
 * The normalized result model every parser builds (dorny/test-reporter style): parsers only build
 * the list; counting lives here.
 */
import { render, TestcycleError, type Words } from '../../shared/errors.js';

/**
 * A test's result as the report gives it: `error` is a failure outside an assertion (a crash, a
 * timeout).
 */
export type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

/** One run of a test that its runner retried: its outcome, duration and first line of message. */
export interface Attempt {
  /** The run's outcome. */
  outcome: Outcome;
  /** How long the run took, when the report says. */
  durationMs?: number;
  /** The first line of its failure message. */
  message?: string;
}

/** One test of a report, as every format gives it: its identity, outcome and runs. */
export interface TestResult {
  /** Enclosing suites, outermost first. */
  suite: string[];
  /** The class or group the format names (JUnit classname). */
  classname?: string;
  /** The test's name. */
  name: string;
  /**
   * The source file of the test, where the format says, as the reporter wrote it (absolute or
   * relative); keys make it relative to the workspace (src/domain/match.ts).
   */
  file?: string;
  /** The line of the test in its file, where the format says. */
  line?: number;
  /**
   * The parameters of this invocation, where the format has them (TestNG data providers, Allure
   * and Cucumber examples), in a stable display form such as `[1, "a"]`.
   */
  params?: string;
  /** How long it took (its final run). */
  durationMs?: number;
  /** The final outcome (after retries). */
  outcome: Outcome;
  /** The first line of its failure or skip message. */
  message?: string;
  /** The rest of it: a stack trace, an output. */
  details?: string;
  /**
   * Every run of this test in the report, in order (retries, reruns); absent when it ran once,
   * which saves an array and an object per test on 100,000-test reports. Read it with runsOf().
   */
  attempts?: Attempt[];
  /** Key-value pairs the format attaches to a test (JUnit <property>, tags), e.g. test case keys. */
  properties: Record<string, string>;
  /**
   * The runner's own name of the test within its file, where the adapter knows the runner and it
   * differs from `classname.name` (docs/architecture.md "Test identity"): jest's fullName (describe path and
   * title joined by spaces), vitest's (joined by " > "), Playwright's describe path and title
   * joined by " › " with the project. `{test}` in a key; absent, `{test}` is `classname.name`.
   */
  fullName?: string;
  /**
   * The test's steps in order, where the format records them (Cucumber steps, Allure steps,
   * Playwright test.step): sync makes them the case's test steps. Absent: the format tells none.
   */
  steps?: TestStep[];
  /**
   * Named values the runner attaches that are not properties: Allure labels (owner, severity),
   * Playwright annotations (type -> description). Sync maps them to case fields (`label:NAME`).
   */
  labels?: Record<string, string>;
  /**
   * Links the runner attaches to a test, as the format gives them (Allure's `issue`, `tms` and
   * link types of the user's own): absent when it has none.
   */
  links?: TestLink[];
  /**
   * Which element of its report holds it, set only where two elements of one report carry the
   * same suite path (jest-junit writes a `<testsuite>` per test file, named by its first describe,
   * and no file): entries of one identity in two such elements are two tests, never a retry, and
   * share a key only as a collision (docs/design.md "Results and merging").
   */
  container?: number;
}

/** A link attached to a test: its type (`issue`), the name it shows (`PROJ-123`) and its address. */
export interface TestLink {
  /** What the link is to, as the format names it: `issue`, `tms`, or a type of the user's own. */
  type?: string;
  /** The text it shows: a tracker's key (`allure.issue("PROJ-123")`) where it has one. */
  name?: string;
  /** Its address. */
  url?: string;
}

/** One step of a test as its report names it (Gherkin: keyword and text). */
export interface TestStep {
  action: string;
  expectedResult?: string;
}

/**
 * What the reporter that wrote a report leaves out of its tests' identity, where the adapter
 * recognises it (jest-junit writes no test file): publish warns once per report, naming it.
 */
export interface IdentityGap {
  /** The reporter, as users know it: `jest-junit`. */
  reporter: string;
  /** The key placeholder it cannot fill: `{file}`. */
  placeholder: string;
  /** What is missing and, where there is one, the reporter's option that writes it. */
  reason: string;
  /** How many of the report's tests lack it (mocha-junit-reporter: those outside any describe). */
  tests: number;
}

/**
 * A failure of the run that is no test's result (docs/design.md "Run errors"): a test file that
 * failed to load, a collection error, a build failure, a panic outside any test, an undefined
 * step. The tests it stopped are absent from the report, so the gate fails on it by default and
 * sync never retires a case of the file or suite it names.
 */
export interface RunError {
  /** The test file it concerns, as the report writes it (keys make it workspace-relative). */
  file?: string;
  /** The suite (JUnit testsuite, go package, feature) it concerns, where the report says. */
  suite?: string;
  /** What the runner said, first line first. */
  message: string;
}

/**
 * What a report tells of the run being partial (a shard, a name or tag filter): such a run
 * cannot prove a test gone. Absent: the report tells nothing either way.
 */
export interface RunSelection {
  /** The shard, as the runner writes it (`2/3`). */
  shard?: string;
  /** A filter on names, tags or markers the runner recorded (`--grep`, `-t`). */
  filter?: string;
}

/** A parser's tests, with what their reporter cannot tell (set by the adapter that knows). */
export type ParsedTests = TestResult[] & {
  gap?: IdentityGap;
  runErrors?: RunError[];
  selection?: RunSelection;
};

/** The tests with the run errors their report names, each once (none: the tests as they are). */
export function withRunErrors(tests: TestResult[], runErrors: readonly RunError[]): ParsedTests {
  if (runErrors.length === 0) return tests;
  const seen = new Set<string>();
  const once = runErrors.filter((e) => {
    const id = JSON.stringify([e.file, e.suite, e.message]);
    return !seen.has(id) && !!seen.add(id);
  });
  return Object.assign(tests, { runErrors: once });
}

/**
 * What a runner said of a failure outside the tests, as one line to name it by: its first line,
 * and the line after a bare heading (jest's "● Test suite failed to run", then the reason).
 */
export function runErrorMessage(text: string | undefined, fallback: string): string {
  const lines = (text ?? '')
    .split('\n', 200)
    .map((l) => l.trim().replace(/^● /, ''))
    .filter(Boolean);
  const [first, second] = lines;
  if (!first) return fallback;
  return second && /^Test suite failed to run$/.test(first) ? `${first}: ${second}` : first;
}

/** The tests with the identity gap of their reporter attached, counting the tests that lack it. */
export function withGap(
  tests: TestResult[],
  gap: Omit<IdentityGap, 'tests'> | undefined,
  lacks: (test: TestResult) => boolean = () => true,
): ParsedTests {
  return gap ? Object.assign(tests, { gap: { ...gap, tests: tests.filter(lacks).length } }) : tests;
}

/**
 * A named value added to properties or labels. A name the format gives twice (two JUnit
 * `<property name="requirement">`, two xUnit.net traits or Playwright annotations of one type)
 * keeps every value, joined by commas as a list property is (NUnit's, `tags`), never only the
 * first or the last. A value the name already holds is not added again: pytest-rerunfailures
 * writes each `record_property` of a rerun test once more, and `component=cart` twice is still
 * `cart`.
 */
export function addNamed(values: Record<string, string>, name: string, value: string): void {
  const had = Object.hasOwn(values, name) ? values[name]! : '';
  if (!had) values[name] = value;
  else if (value && !`,${had},`.includes(`,${value},`)) values[name] = `${had},${value}`;
}

/**
 * A test's tags as the parsers keep them: a `tags` list property (Cucumber, CTRF, Robot, Open
 * Test Reporting, TestNG groups), keys valued `tag` (Playwright), the `category` list of NUnit
 * and TRX, and Allure's `tag` labels.
 */
export function tagsOf(test: TestResult): string[] {
  const tags = test.properties.tags?.split(',') ?? [];
  for (const [k, v] of Object.entries(test.properties)) if (v === 'tag') tags.push(k);
  if (test.properties.category) tags.push(...test.properties.category.split(','));
  if (test.labels && Object.hasOwn(test.labels, 'tag')) tags.push(...test.labels.tag!.split(','));
  return tags;
}

/** Shared by every test without properties (most of them); never mutated. */
export const NO_PROPERTIES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** One report read: its file, the format it was read as, and its tests. */
export interface ParsedReport {
  /** The report's path (a directory for a format that writes one file per test). */
  file: string;
  /** The id of the format it was read as. */
  format: string;
  /** Its tests, in the report's order. */
  tests: TestResult[];
  /** What the reporter cannot tell of its tests' identity (jest-junit: the file). */
  gap?: IdentityGap;
  /** Failures of the run that are no test's result (a file that failed to load). */
  runErrors?: RunError[];
  /** What the report tells of the run being partial (a shard, a filter). */
  selection?: RunSelection;
}

/** The tests of a report by outcome (countTests); `total` is their sum. */
export interface Counts {
  /** Tests, each counted once whatever its runs. */
  total: number;
  /** Tests that passed (a retried test by its outcome). */
  passed: number;
  /** Tests that failed an assertion. */
  failed: number;
  /** Tests that errored outside an assertion (a crash, a timeout). */
  errors: number;
  /** Tests skipped. */
  skipped: number;
  /** Failed at least once, then passed. */
  flaky: number;
  /** Runs of these tests: each retry counted (what a runner that counts attempts reports). */
  runs: number;
}

/** Zero of everything, to add counts to. */
export function noCounts(): Counts {
  return { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0, flaky: 0, runs: 0 };
}

/** Every run of a test, the final one last. */
export function runsOf(test: TestResult): Attempt[] {
  return (
    test.attempts ?? [{ outcome: test.outcome, durationMs: test.durationMs, message: test.message }]
  );
}

/** Failed, then passed on a retry. */
export function isFlaky(test: TestResult): boolean {
  return (
    test.outcome === 'passed' &&
    (test.attempts?.some((a) => a.outcome === 'failed' || a.outcome === 'error') ?? false)
  );
}

/** The tests counted by outcome: the one place the parsers' results are counted. */
export function countTests(tests: readonly TestResult[]): Counts {
  const counts = noCounts();
  for (const t of tests) {
    counts.total++;
    counts.runs += t.attempts?.length ?? 1;
    if (t.outcome === 'passed') counts.passed++;
    else if (t.outcome === 'failed') counts.failed++;
    else if (t.outcome === 'error') counts.errors++;
    else counts.skipped++;
    if (isFlaky(t)) counts.flaky++;
  }
  return counts;
}

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    total: a.total + b.total,
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    errors: a.errors + b.errors,
    skipped: a.skipped + b.skipped,
    flaky: a.flaky + b.flaky,
    runs: a.runs + b.runs,
  };
}

const SEVERITY: Record<Outcome, number> = { skipped: 0, passed: 1, failed: 2, error: 3 };

/** The worst of two outcomes: error > failed > passed > skipped (docs/design.md "Results and merging"). */
export function worst(a: Outcome, b: Outcome): Outcome {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/**
 * The outcome of the runs of one test (a first run and its retries): the final run decides, so
 * failures followed by a pass are a flaky pass. A final run that was skipped decides nothing: the
 * worst earlier run stands, so a skipped retry never hides a failure.
 */
export function outcomeOfRuns(attempts: readonly Attempt[]): Outcome {
  const last = attempts[attempts.length - 1]!.outcome;
  if (last !== 'skipped') return last;
  return attempts.reduce<Outcome>((acc, a) => worst(acc, a.outcome), 'skipped');
}

/**
 * A test's identity (docs/design.md "Results and merging"): its source file, suite path, classname,
 * name, parameters and, where the format gives one, its line. Publish uses it to tell distinct
 * tests that produce one test-case key (a key collision) from runs of one test. The report file
 * is not part of it: one test in two report files (matrix legs, a re-run job) is one test run
 * twice, which publish merges by docs/design.md's rule.
 */
export function testIdentity(test: TestResult): string {
  return JSON.stringify([
    test.file ?? '',
    test.suite,
    test.classname ?? '',
    test.name,
    test.params ?? '',
    test.line ?? 0,
  ]);
}

/**
 * The tests of one report file whose format does not mark retries (JUnit without Surefire's rerun
 * elements, NUnit, xUnit, TRX, Go, RSpec, Dart, Cucumber JSON). Entries with one identity
 * (testIdentity) are repeats, read by their sequence:
 *
 * - a repeat after a failed or errored run is a retry of it: folded into that test as its next
 *   attempt (flaky when the retries end in a pass), as Surefire, gotestsum --rerun-fails,
 *   pytest-rerunfailures and rspec-retry run them;
 * - a repeat after a passed or skipped run is a new invocation (go test -count, a parameterized
 *   test whose parameters the format does not show): a test of its own, counted again.
 *
 * Entries with different identities (another file, suite, class or parameters) are never merged,
 * nor entries of two report elements that carry one suite path (`container`: jest-junit's two
 * `<testsuite name="cart">` of two test files are two tests, whatever their order).
 * Formats that mark retries build their attempts from the marks and do not call this.
 */
export function foldRepeats(tests: TestResult[]): TestResult[] {
  // Only a test whose latest run failed takes the next repeat as its retry, so only those are
  // kept: by suite path (a suite's tests share one path array, joined once per suite), then by
  // name. A passing test needs a lookup and no entry, and identity strings are built only where
  // a failed test's name comes again.
  const failingByPath = new Map<string, Map<string, TestResult[]>>();
  let path: readonly string[] | undefined;
  let pathKey = '';
  let failing: Map<string, TestResult[]> | undefined;
  const out: TestResult[] = [];
  for (const t of tests) {
    if (t.suite !== path && !(path && sameStrings(t.suite, path))) {
      path = t.suite;
      pathKey = JSON.stringify(path);
      failing = failingByPath.get(pathKey);
    }
    const candidates = failing?.get(t.name);
    if (candidates) {
      const identity = repeatIdentity(t);
      const at = candidates.findIndex((c) => repeatIdentity(c) === identity);
      if (at >= 0) {
        const latest = candidates[at]!;
        addRun(latest, t);
        if (!isFailed(latest)) candidates.splice(at, 1);
        continue;
      }
    }
    out.push(t);
    if (!isFailed(t)) continue;
    if (!failing) failingByPath.set(pathKey, (failing = new Map()));
    if (candidates) candidates.push(t);
    else failing.set(t.name, [t]);
  }
  return out;
}

/** The identity repeats share: a test's, and the report element that holds it where that tells. */
function repeatIdentity(test: TestResult): string {
  const identity = testIdentity(test);
  return test.container === undefined ? identity : `${identity}#${test.container}`;
}

function isFailed(test: TestResult): boolean {
  return test.outcome === 'failed' || test.outcome === 'error';
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A retry of `test`: its runs appended, the outcome, message and duration updated. */
function addRun(test: TestResult, retry: TestResult): void {
  test.attempts = [...runsOf(test), ...runsOf(retry)];
  test.outcome = outcomeOfRuns(test.attempts);
  if (retry.outcome === test.outcome) {
    test.message = retry.message ?? test.message;
    test.details = retry.details ?? test.details;
  }
  test.durationMs = (test.durationMs ?? 0) + (retry.durationMs ?? 0);
  if (Object.keys(retry.properties).length)
    test.properties = { ...test.properties, ...retry.properties };
}

/** Attempts from a format's own retry marks: the earlier runs it lists, then the final run. */
export function withRetries(test: TestResult, earlier: readonly Attempt[]): TestResult {
  if (earlier.length === 0) return test;
  test.attempts = [
    ...earlier,
    { outcome: test.outcome, durationMs: test.durationMs, message: test.message },
  ];
  return test;
}

/** The first non-empty line of a text, trimmed (a message from a body without one). */
export function firstLine(text: string | undefined): string | undefined {
  if (!text) return undefined;
  for (const line of text.split('\n', 50)) if (line.trim()) return line.trim();
  return undefined;
}

/** A report that cannot be read: names the file and, where known, line and column. */
export class ReportError extends TestcycleError {
  /** The report's path. */
  readonly file: string;
  /** What is wrong, without the file's name (the message is `file: reason`). */
  readonly reason: string;
  /** The line of the fault, when known. */
  readonly line?: number;
  /** The column of the fault, when known. */
  readonly column?: number;
  constructor(file: string, reason: string | Words, position?: { line?: number; column?: number }) {
    const where = position?.line
      ? `:${position.line}${position.column ? `:${position.column}` : ''}`
      : '';
    super((w) => `${file}${where}: ${render(reason, w)}`, 'REPORT_ERROR', 'report');
    this.file = file;
    this.reason = render(reason);
    this.line = position?.line;
    this.column = position?.column;
  }
}

/**
 * A file that is recognisably no test report (binary, or text, XML or JSON in no known format):
 * in directory mode it is skipped and listed instead of failing the run.
 */
export class NotAReportError extends ReportError {}

/** A file a directory pattern found that is no test report, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}
