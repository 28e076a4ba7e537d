/**
 * The normalized result model every parser builds (dorny/test-reporter style): parsers only build
 * the list; counting lives here.
 */

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface Attempt {
  outcome: Outcome;
  durationMs?: number;
  message?: string;
}

export interface TestResult {
  /** Enclosing suites, outermost first. */
  suite: string[];
  classname?: string;
  name: string;
  file?: string;
  line?: number;
  durationMs?: number;
  /** The final outcome (after retries). */
  outcome: Outcome;
  message?: string;
  details?: string;
  /**
   * Every run of this test in the report, in order (retries, reruns); absent when it ran once,
   * which saves an array and an object per test on 100,000-test reports. Read it with runsOf().
   */
  attempts?: Attempt[];
  /** Key-value pairs the format attaches to a test (JUnit <property>, tags), e.g. test case keys. */
  properties: Record<string, string>;
}

/** Shared by every test without properties (most of them); never mutated. */
export const NO_PROPERTIES: Record<string, string> = Object.freeze({}) as Record<string, string>;

export interface ParsedReport {
  file: string;
  format: string;
  tests: TestResult[];
}

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  /** Failed at least once, then passed. */
  flaky: number;
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

export function countTests(tests: readonly TestResult[]): Counts {
  const counts: Counts = { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0, flaky: 0 };
  for (const t of tests) {
    counts.total++;
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
  };
}

const SEVERITY: Record<Outcome, number> = { skipped: 0, passed: 1, failed: 2, error: 3 };

/** The worst of two outcomes: error > failed > passed > skipped (DESIGN.md "Results and merging"). */
export function worst(a: Outcome, b: Outcome): Outcome {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/**
 * The outcome of several runs of one test. Failures followed by a final pass are a retried test
 * that passed (flaky). Any other sequence, such as the invocations of a parameterized test, keeps
 * its worst outcome: a pass before a failure is not a retry and must not hide the failure.
 */
export function outcomeOfRuns(attempts: readonly Attempt[]): Outcome {
  const last = attempts[attempts.length - 1]!.outcome;
  const before = attempts.slice(0, -1);
  if (last === 'passed' && before.every((a) => a.outcome === 'failed' || a.outcome === 'error'))
    return 'passed';
  return attempts.reduce<Outcome>((acc, a) => worst(acc, a.outcome), 'skipped');
}

/**
 * Several entries for one test in one file are runs of that test (retries, reruns, parameterized
 * invocations): one result whose outcome follows outcomeOfRuns, every run kept as an attempt.
 */
export function mergeRetries(tests: TestResult[], keyOf?: (t: TestResult) => string): TestResult[] {
  // Keyed by classname (or suite), then name: no key strings are built for the common case.
  const byGroup = new Map<string, Map<string, TestResult>>();
  const out: TestResult[] = [];
  for (const t of tests) {
    const group = keyOf ? keyOf(t) : (t.classname ?? t.suite.join('\u0001'));
    let names = byGroup.get(group);
    if (!names) byGroup.set(group, (names = new Map()));
    const name = keyOf ? '' : t.name;
    const seen = names.get(name);
    if (!seen) {
      names.set(name, t);
      out.push(t);
      continue;
    }
    seen.attempts = [...runsOf(seen), ...runsOf(t)];
    seen.outcome = outcomeOfRuns(seen.attempts);
    if (t.outcome === seen.outcome) {
      seen.message = t.message ?? seen.message;
      seen.details = t.details ?? seen.details;
    }
    seen.durationMs = (seen.durationMs ?? 0) + (t.durationMs ?? 0);
    if (Object.keys(t.properties).length) seen.properties = { ...seen.properties, ...t.properties };
  }
  return out;
}

/** A report that cannot be read: names the file and, where known, line and column. */
export class ReportError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  constructor(file: string, message: string, position?: { line?: number; column?: number }) {
    const where = position?.line
      ? `:${position.line}${position.column ? `:${position.column}` : ''}`
      : '';
    super(`${file}${where}: ${message}`);
    this.file = file;
    this.line = position?.line;
    this.column = position?.column;
  }
}
