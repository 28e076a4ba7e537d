/** CTRF JSON (Common Test Report Format), with retry attempts. */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  withGap,
  withRetries,
  type Attempt,
  type Outcome,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str } from './json-util.js';

const STATUS: Record<string, Outcome> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'skipped',
  other: 'skipped',
};

export const ctrf: ReportFormat = {
  id: 'ctrf',
  label: 'CTRF JSON',
  kind: 'json',
  extensions: ['json'],
  detect: (s) =>
    /"results"\s*:/.test(s.head) &&
    (/"tool"\s*:/.test(s.head) || /"reportFormat"\s*:\s*"CTRF"/.test(s.head)),
  parse(doc) {
    const results = obj(obj(doc).results);
    if (!Array.isArray(results.tests))
      throw new Error('results.tests is missing: not a CTRF report');
    const tool = str(obj(results.tool).name)?.toLowerCase();
    const tests = arr(results.tests).map((value): TestResult => {
      const t = obj(value);
      const outcome = STATUS[str(t.status) ?? ''] ?? 'error';
      const durationMs = num(t.duration);
      const message = str(t.message);
      const earlier = earlierRuns(t, outcome);
      const { properties, labels } = extrasOf(t.extra);
      const tags = arr(t.tags).filter((x): x is string => typeof x === 'string');
      if (tags.length) properties.tags = tags.join(',');
      const suite = arr(t.suite).filter((x): x is string => typeof x === 'string');
      const name = str(t.name) ?? '';
      const runner = runnerIdentity(tool, suite.length ? suite : str(t.suite), name);
      return withRetries(
        {
          suite: suite.length ? suite : str(t.suite) ? [str(t.suite)!] : [],
          classname: str(t.suite) ?? undefined,
          name,
          file: runner?.file ?? str(t.filePath),
          ...(runner ? { fullName: runner.fullName } : {}),
          line: num(t.line),
          durationMs,
          outcome,
          message,
          details: str(t.trace),
          properties,
          ...(labels ? { labels } : {}),
        },
        earlier,
      );
    });
    // Retries are marked (retries, retryAttempts, flaky): repeated entries are invocations.
    const noSuite = tool === 'vitest' && !arr(results.tests).some((t) => obj(t).suite);
    return withGap(
      tests,
      noSuite
        ? {
            reporter: 'vitest-ctrf-json-reporter',
            placeholder: '{test}',
            reason: "writes each test's title without its describe path",
          }
        : undefined,
    );
  },
};

/**
 * The test as its runner names it (docs/architecture.md "Test identity"), from what each runner's CTRF
 * reporter writes: jest's, vitest's and mocha's write the full name (mocha's full title) as `name`; Playwright's writes the
 * title as `name` and `file > describe > ...` as `suite`, the file relative to Playwright's
 * testDir as Playwright's other reporters write it.
 */
function runnerIdentity(
  tool: string | undefined,
  suite: string | string[] | undefined,
  name: string,
): { file?: string; fullName: string } | undefined {
  if (tool === 'jest' || tool === 'vitest' || tool === 'mocha') return { fullName: name };
  if (tool !== 'playwright') return undefined;
  const path = typeof suite === 'string' ? suite.split(' > ') : (suite ?? []);
  return { file: path[0], fullName: [...path.slice(1), name].join(' › ') };
}

/**
 * The runs before the final one. retryAttempts lists them (the Playwright CTRF reporter lists only
 * the earlier failed runs; a writer that also lists the final run lists `retries` + 1); without
 * it, `retries` failed runs, or one when the test is marked flaky.
 */
function earlierRuns(t: Record<string, unknown>, outcome: Outcome): Attempt[] {
  const retries = Math.min(num(t.retries) ?? 0, 1000);
  const listed = arr(t.retryAttempts).map(obj);
  if (listed.length)
    return listed
      .slice(0, retries > 0 && listed.length > retries ? retries : listed.length)
      .map((a) => ({
        outcome: STATUS[str(a.status) ?? ''] ?? 'error',
        durationMs: num(a.duration),
        message: str(a.message),
      }));
  const failed = retries || (t.flaky === true && outcome === 'passed' ? 1 : 0);
  return Array.from({ length: failed }, () => ({ outcome: 'failed' as const }));
}

/**
 * A test's `extra` (CTRF's place for a reporter's own metadata): its text, number and true/false
 * entries, and lists of them, as properties; the Playwright reporter's `annotations`
 * ({type, description}) as labels, as the Playwright JSON's are. Nested objects are left out.
 */
function extrasOf(extra: unknown): Pick<TestResult, 'properties' | 'labels'> {
  const properties: Record<string, string> = {};
  const labels: Record<string, string> = {};
  const scalar = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : undefined;
  for (const [name, value] of Object.entries(obj(extra))) {
    if (name === 'annotations' && Array.isArray(value)) {
      for (const a of value.map(obj))
        if (str(a.type)) addNamed(labels, str(a.type)!, str(a.description) ?? '');
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      const text = scalar(one);
      if (text !== undefined) addNamed(properties, name, text);
    }
  }
  return { properties, ...(Object.keys(labels).length ? { labels } : {}) };
}
