/**
 * jest's `--json` output (`--outputFile`), and vitest's `--reporter=json`, which writes the same
 * shape: test files in testResults[], their tests in assertionResults[].
 */
import type { ReportFormat } from '../format.js';
import { withRetries, type Outcome, type TestResult } from '../model.js';
import { arr, num, obj, str } from './json-util.js';

const STATUS: Record<string, Outcome> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
  focused: 'passed',
};

export const jestJson: ReportFormat = {
  id: 'jest-json',
  label: 'Jest JSON (jest --json, vitest --reporter=json)',
  kind: 'json',
  detect: (s) => /"num(Total|Failed|Passed)Test(s|Suites)"\s*:/.test(s.head),
  parse(doc) {
    const root = obj(doc);
    if (!Array.isArray(root.testResults))
      throw new Error('testResults is missing: not a jest or vitest JSON report');
    // vitest writes jest's shape without jest's wasInterrupted and numRuntimeErrorTestSuites.
    const vitest = !('wasInterrupted' in root) && !('numRuntimeErrorTestSuites' in root);
    const tests: TestResult[] = [];
    for (const fileValue of arr(root.testResults)) {
      const file = obj(fileValue);
      const path = str(file.name);
      for (const value of arr(file.assertionResults)) {
        const a = obj(value);
        const status = str(a.status) ?? '';
        const failures = arr(a.failureMessages).filter((m): m is string => typeof m === 'string');
        const outcome = STATUS[status] ?? 'error';
        const suite = arr(a.ancestorTitles).filter((t): t is string => typeof t === 'string');
        const title = str(a.title);
        const details = outcome === 'passed' ? undefined : failures.join('\n\n') || undefined;
        const location = obj(a.location);
        // jest-circus lists the failures of the runs before the final one in retryReasons; vitest
        // keeps them in failureMessages of a test that passed in the end.
        const reasons = Array.isArray(a.retryReasons)
          ? arr(a.retryReasons)
          : outcome === 'passed'
            ? failures
            : [];
        const earlier = reasons.map((reason) => ({
          outcome: 'failed' as const,
          message: typeof reason === 'string' ? reason.split('\n')[0] : undefined,
        }));
        tests.push(
          withRetries(
            {
              suite,
              classname: suite.join(' ') || undefined,
              name: title ?? str(a.fullName) ?? '',
              file: path,
              fullName: fullNameOf(vitest, suite, title, str(a.fullName)),
              line: num(location.line),
              durationMs: num(a.duration),
              outcome,
              message: details?.split('\n')[0],
              details,
              properties: {},
            },
            earlier,
          ),
        );
      }
    }
    // Retries are marked (retryReasons); test.each cases carry their values in their titles.
    return tests;
  },
};

/**
 * The runner's name of a test, as every reporter of that runner writes it: jest's fullName joins
 * the describe path and title with spaces (jest-junit and jest's CTRF reporter write that string);
 * vitest's reporters (junit, CTRF) join them with " > ".
 */
function fullNameOf(
  vitest: boolean,
  suite: string[],
  title: string | undefined,
  fullName: string | undefined,
): string | undefined {
  if (title === undefined) return fullName;
  if (vitest) return [...suite, title].join(' > ');
  return fullName ?? [...suite, title].join(' ');
}
