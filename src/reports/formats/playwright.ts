/** Playwright JSON reporter: one test per spec and project, retries as attempts. */
import type { ReportFormat } from '../format.js';
import type { Attempt, Outcome, TestResult } from '../model.js';
import { arr, num, obj, str, type Json } from './json-util.js';

const RESULT: Record<string, Outcome> = {
  passed: 'passed',
  failed: 'failed',
  timedOut: 'failed',
  interrupted: 'error',
  skipped: 'skipped',
};

export const playwright: ReportFormat = {
  id: 'playwright',
  label: 'Playwright JSON (--reporter=json)',
  kind: 'json',
  detect: (s) =>
    /"config"\s*:/.test(s.head) &&
    /"suites"\s*:/.test(s.head) &&
    /"(rootDir|configFile|projects)"\s*:/.test(s.head),
  parse(doc) {
    const tests: TestResult[] = [];
    for (const suite of arr(obj(doc).suites)) walk(obj(suite), [], tests);
    return tests;
  },
};

function walk(suite: Json, path: string[], out: TestResult[]): void {
  const title = str(suite.title);
  const here = title ? [...path, title] : path;
  for (const specValue of arr(suite.specs)) {
    const spec = obj(specValue);
    for (const testValue of arr(spec.tests)) {
      const test = obj(testValue);
      const expected = str(test.expectedStatus) ?? 'passed';
      const attempts: Attempt[] = arr(test.results).map((r) => {
        const result = obj(r);
        const status = str(result.status) ?? '';
        return {
          // test.fail(): a run that failed as expected passed.
          outcome:
            status === expected && status !== 'skipped' ? 'passed' : (RESULT[status] ?? 'error'),
          durationMs: num(result.duration),
          message: str(obj(result.error).message),
        };
      });
      const status = str(test.status);
      const outcome: Outcome =
        status === 'skipped' || str(test.expectedStatus) === 'skipped'
          ? 'skipped'
          : status === 'expected' || status === 'flaky'
            ? 'passed'
            : (attempts.at(-1)?.outcome ?? 'failed') === 'passed'
              ? 'failed'
              : (attempts.at(-1)?.outcome ?? 'failed');
      const project = str(test.projectName);
      const last = attempts.at(-1);
      const name = `${str(spec.title) ?? ''}${project ? ` [${project}]` : ''}`;
      out.push({
        suite: here,
        classname: here.join(' › ') || undefined,
        name,
        // Playwright's title path without the file (the top suite, relative to its testDir).
        fullName: [...here.slice(1), name].join(' › '),
        file: str(spec.file) ?? str(suite.file),
        line: num(spec.line),
        durationMs: attempts.reduce((s, a) => s + (a.durationMs ?? 0), 0),
        outcome,
        message: last?.message,
        attempts: attempts.length ? attempts : [{ outcome }],
        properties: Object.fromEntries(
          arr(spec.tags)
            .filter((t): t is string => typeof t === 'string')
            .map((t) => [t, 'tag']),
        ),
        ...stepsAndLabels(test),
      });
    }
  }
  for (const child of arr(suite.suites)) walk(obj(child), here, out);
}

/**
 * The final run's `test.step`s (the JSON reporter lists only those, nested ones inside) and the
 * test's annotations (type -> description), for sync (docs/design.md "Sync").
 */
function stepsAndLabels(test: Json): Pick<TestResult, 'steps' | 'labels'> {
  const steps = arr(obj(arr(test.results).at(-1)).steps)
    .map((s) => str(obj(s).title))
    .filter((t): t is string => !!t)
    .map((action) => ({ action }));
  const labels: Record<string, string> = {};
  for (const a of arr(test.annotations).map(obj)) {
    const type = str(a.type);
    if (type && !Object.hasOwn(labels, type)) labels[type] = str(a.description) ?? '';
  }
  return {
    ...(steps.length ? { steps } : {}),
    ...(Object.keys(labels).length ? { labels } : {}),
  };
}
