/**
 * jest's `--json` output (`--outputFile`), and vitest's `--reporter=json`, which writes the same
 * shape: test files in testResults[], their tests in assertionResults[].
 */
import type { ReportFormat } from '../base/format.js';
import {
  runErrorMessage,
  withRetries,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
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
  extensions: ['json'],
  detect: (s) => /"num(Total|Failed|Passed)Test(s|Suites)"\s*:/.test(s.head),
  parse(doc) {
    const root = obj(doc);
    if (!Array.isArray(root.testResults))
      throw new Error('testResults is missing: not a jest or vitest JSON report');
    // vitest writes jest's shape without jest's wasInterrupted and numRuntimeErrorTestSuites.
    const vitest = !('wasInterrupted' in root) && !('numRuntimeErrorTestSuites' in root);
    const tests: TestResult[] = [];
    const runErrors: RunError[] = [];
    for (const fileValue of arr(root.testResults)) {
      const file = obj(fileValue);
      const path = str(file.name);
      let failed = 0;
      for (const value of arr(file.assertionResults)) {
        const a = obj(value);
        const status = str(a.status) ?? '';
        // jest-junit's reportTestSuiteErrors adds to a file that failed to run a result with
        // status "error" and no title, in the results Jest shares with every reporter, so Jest's
        // --json has it too (samples/jest/reports/run-errors/jest-suite-errors.json): no test.
        if (status === 'error' && a.title === undefined && a.fullName === undefined) continue;
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
        // jest.retryTimes without logErrorsBeforeRetry lists no retryReasons: `invocations`
        // (runs of the test) is then the only mark of the runs before the final one.
        const invocations = num(a.invocations) ?? 1;
        for (let run = earlier.length + 1; run < invocations; run++)
          earlier.push({ outcome: 'failed', message: undefined });
        if (outcome === 'failed' || outcome === 'error') failed++;
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
      const error = fileError(file, failed);
      if (error) runErrors.push({ ...(path ? { file: path } : {}), message: error });
    }
    // Retries are marked (retryReasons, invocations); test.each cases carry their values in their titles.
    return withRunErrors(tests, [...runErrors, ...runLevelErrors(root, tests, runErrors)]);
  },
};

/**
 * A test file Jest or vitest failed while none of its tests failed (docs/design.md "Run errors"):
 * it did not load ("Test suite failed to run", no tests), or a hook outside the tests threw
 * (afterAll). Jest writes why in `message` (`testExecError` before Jest 27); vitest writes a
 * file that did not load with its error in `message`, an afterAll with none.
 */
function fileError(file: Record<string, unknown>, failed: number): string | undefined {
  if (str(file.status) !== 'failed' || failed > 0) return undefined;
  const exec = obj(file.testExecError);
  return runErrorMessage(
    str(exec.message) ?? str(file.message) ?? str(file.failureMessage),
    'the runner failed this file though none of its tests failed, and its report says not why (a hook outside the tests, such as afterAll, may have thrown)',
  );
}

/**
 * What the whole run says beyond its files: Jest's count of files that failed to run when it is
 * more than the report names, and a run the runner calls unsuccessful (`success: false`) where
 * no test failed and nothing else explains it.
 */
function runLevelErrors(
  root: Record<string, unknown>,
  tests: readonly TestResult[],
  found: readonly RunError[],
): RunError[] {
  const counted = num(root.numRuntimeErrorTestSuites) ?? 0;
  if (counted > found.length)
    return [
      {
        message: `Jest counts ${counted} test file(s) that failed to run (numRuntimeErrorTestSuites), the report names ${found.length}`,
      },
    ];
  const failing = tests.some((t) => t.outcome === 'failed' || t.outcome === 'error');
  if (root.success === false && !failing && found.length === 0)
    return [
      { message: 'the runner reports the run failed (success: false), though no test failed' },
    ];
  return [];
}

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
