/**
 * The runner's verdict is the floor of the gate (docs/design.md "Run errors"), on reports real
 * runners wrote (samples/*\/reports/run-errors, samples/jest/reports/same-names): a run error fails
 * the gate with or without thresholds, a runner that failed while its reports show nothing fails
 * it, a failed test the cycle does not hold fails it too, and none costs a request.
 */
import { sampleRoot } from '../helpers/samples.js';
import { publish, publishSettings, renderSummary, settingsFrom } from '../../src/publish/index.js';
import { readReports, type ParsedReport } from '../../src/parsers/index.js';
import {
  clientOf,
  closeAll,
  executionsOf,
  options,
  publishEmulator,
  report,
  testOf,
} from '../helpers/publish.js';

afterEach(closeAll);

const JEST_RUN_ERRORS = 'samples/jest/reports/run-errors/jest.json';
/** The README's recipe: jest-junit with its defaults, which writes nothing of a file that failed to load. */
const JEST_JUNIT_SAME_NAMES = 'samples/jest/reports/same-names/junit.xml';
/** vitest exited 1 on an unhandled error; its reports say nothing of it. */
const VITEST_UNHANDLED = 'samples/vitest/reports/run-errors/unhandled-junit.xml';

/** publish --cycle-name "CI run" --create-missing-cases, and the flags given. */
async function run(files: string[], flags: Record<string, unknown> = {}) {
  const emu = await publishEmulator();
  const reports: ParsedReport[] = await readReports(files);
  const settings = publishSettings(
    settingsFrom({
      'cycle-name': 'CI run',
      'create-missing-cases': true,
      workspace: sampleRoot(files[0]!),
      ...flags,
    }),
    {},
  );
  const client = clientOf(emu);
  const result = await publish(client, { ...settings, reports });
  return { result, emu, requests: client.stats.total };
}

describe('run errors fail the gate by default', () => {
  test('a jest run whose tests all passed while a file failed to load and an afterAll threw: --max-failed 0 fails, naming both', async () => {
    const { result, emu } = await run([JEST_RUN_ERRORS], { 'max-failed': 0 });
    expect(result.counts).toMatchObject({ passed: 3, failed: 0 });
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      expect.stringMatching(
        /^run error \(on-run-error: fail\): samples\/jest\/reports\/run-errors\/jest\.json: \S+\/after-all\.test\.js: Test suite failed to run: could not close the session$/,
      ),
      expect.stringMatching(
        /load-error\.test\.js: Test suite failed to run: Cannot find module '\.\/no-such-module' from 'load-error\.test\.js'$/,
      ),
    ]);
    expect(result.runErrors?.map((e) => e.file?.split('/').at(-1))).toEqual([
      'after-all.test.js',
      'load-error.test.js',
    ]);
    // The tests that ran are written all the same; the run errors are no test cases.
    expect([...executionsOf(emu, 'CI run').values()].flat()).toEqual([
      'PASSED',
      'PASSED',
      'PASSED',
    ]);
  });

  test('without a threshold too: the cycle cannot hold a run error, so the publish fails on it', async () => {
    const { result } = await run([JEST_RUN_ERRORS]);
    expect(result.gate).toMatchObject({ passed: false, evaluated: true });
    expect(result.gate.reasons).toHaveLength(2);
  });

  test('on-run-error warn: named and warned of, the thresholds decide', async () => {
    const { result } = await run([JEST_RUN_ERRORS], { 'max-failed': 0, 'on-run-error': 'warn' });
    expect(result.gate).toMatchObject({ passed: true, reasons: [] });
    expect(result.runErrors).toHaveLength(2);
    expect(result.warnings).toContainEqual(
      '2 run error(s) in the reports, not counted against the gate (on-run-error: warn)',
    );
  });

  test('a run error costs no request: the same publish with and without one sends as many', async () => {
    const { result, requests } = await run([JEST_RUN_ERRORS], { 'max-failed': 0 });
    const clean = (await readReports([JEST_RUN_ERRORS])).map(
      ({ runErrors: _runErrors, ...report }) => report,
    );
    const emu = await publishEmulator();
    const client = clientOf(emu);
    const settings = publishSettings(
      settingsFrom({
        'cycle-name': 'CI run',
        'create-missing-cases': true,
        'max-failed': 0,
        workspace: sampleRoot(JEST_RUN_ERRORS),
      }),
      {},
    );
    const passed = await publish(client, { ...settings, reports: clean });
    expect([result.gate.passed, passed.gate.passed]).toEqual([false, true]);
    expect(requests).toBe(client.stats.total);
  });

  test('a dry run names them and says the gate would fail; it evaluates none', async () => {
    const { result } = await run([JEST_RUN_ERRORS], { 'max-failed': 0, 'dry-run': true });
    expect(result.gate).toMatchObject({ passed: true, evaluated: false });
    expect(result.runErrors).toHaveLength(2);
    expect(
      result.warnings.filter((w) => w.startsWith('the gate would fail: run error')),
    ).toHaveLength(2);
  });
});

describe("the runner's exit status", () => {
  test('vitest exited 1 on an unhandled error its reports do not hold: the gate fails with a line that says which', async () => {
    const { result } = await run([VITEST_UNHANDLED], {
      'max-failed': 0,
      'runner-exit-code': 1,
    });
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      'the runner failed (runner-exit-code: 1), but its reports show no failed test and no run error: it failed for a reason they do not hold (a test file that did not load, an error outside the tests, a crash); see its log',
    ]);
    expect(result.runner).toEqual({ outcome: 'failure', setting: 'runner-exit-code', value: '1' });
  });

  test.each([
    ['runner-outcome failure, no threshold', { 'runner-outcome': 'failure' }, false],
    ['runner-outcome cancelled', { 'runner-outcome': 'cancelled', 'max-failed': 0 }, false],
    [
      'runner-outcome success changes nothing',
      { 'runner-outcome': 'success', 'max-failed': 0 },
      true,
    ],
    ['exit code 0 changes nothing', { 'runner-exit-code': 0, 'max-failed': 0 }, true],
    ['not given: the reports alone tell', { 'max-failed': 0 }, true],
  ])('%s', async (_name, flags, passed) => {
    const { result } = await run([VITEST_UNHANDLED], flags);
    expect(result.gate.passed).toBe(passed);
  });

  test('skipped: a warning, the verdict unchanged', async () => {
    const { result } = await run([VITEST_UNHANDLED], {
      'runner-outcome': 'skipped',
      'max-failed': 0,
    });
    expect(result.gate.passed).toBe(true);
    expect(result.warnings).toContainEqual(expect.stringMatching(/^runner-outcome: skipped: /));
  });

  test('a failed runner whose reports show a failure: the failure explains it, and the thresholds decide', async () => {
    const { result } = await run(['samples/jest/reports/same-names/jest.json'], {
      'runner-exit-code': 1,
      'min-pass-rate': 60,
    });
    expect(result.gate).toMatchObject({ passed: true, reasons: [] });
  });

  test.each([
    [
      { 'runner-outcome': 'failed' },
      /runner-outcome: "failed" is not one of success, failure, cancelled, skipped, timed_out/,
    ],
    [{ 'runner-exit-code': 'one' }, /runner-exit-code: "one" is not a whole number/],
    [
      { 'runner-outcome': 'failure', 'runner-exit-code': 1 },
      /runner-outcome: and runner-exit-code both say how the runner ended; give one of them/,
    ],
  ])('%j is refused before anything is read', (flags, message) => {
    expect(() => publishSettings(settingsFrom({ 'cycle-name': 'CI run', ...flags }), {})).toThrow(
      message,
    );
  });
});

describe('failed tests the cycle does not hold', () => {
  test("jest-junit's two testsuites of one name: two tests that collide, never a flaky pass; --max-failed 0 fails", async () => {
    const { result, emu } = await run([JEST_JUNIT_SAME_NAMES], { 'max-failed': 0 });
    expect(result.collided?.map((c) => c.test)).toEqual([
      'cart totals › cart totals',
      'cart totals › cart totals',
    ]);
    expect(result.warnings.join('\n')).toContain(
      "have the reporter write each test's file (jest-junit: addFileAttribute)",
    );
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      '1 test(s) failed in the reports but are not in the cycle (1 left out for a key collision), so no threshold counted them',
    ]);
    expect(executionsOf(emu, 'CI run').get('cart totals')).toBeUndefined();
  });

  test('an unmatched failed test fails a gate with thresholds; on-unmatched ignore leaves it out', async () => {
    const files = ['samples/jest/reports/same-names/jest.json'];
    const warned = await run(files, { 'max-failed': 0, 'create-missing-cases': false });
    expect(warned.result.gate.reasons).toEqual([
      '1 test(s) failed in the reports but are not in the cycle (1 match no test case), so no threshold counted them',
    ]);
    const ignored = await run(files, {
      'max-failed': 0,
      'create-missing-cases': false,
      'on-unmatched': 'ignore',
    });
    expect(ignored.result.gate.passed).toBe(true);
  });

  test("without thresholds too (the README's matrix legs, whose gate job reads only the cycle): a failed test the cycle does not hold fails the step", async () => {
    const files = ['samples/jest/reports/same-names/jest.json'];
    // jest exited 1 for that failure; its reports show it, so the runner's verdict alone passes.
    const { result } = await run(files, {
      'create-missing-cases': false,
      'runner-outcome': 'failure',
    });
    expect(result.gate).toMatchObject({
      passed: false,
      reasons: [
        '1 test(s) failed in the reports but are not in the cycle (1 match no test case), so no threshold counted them',
      ],
    });
    const ignored = await run(files, { 'create-missing-cases': false, 'on-unmatched': 'ignore' });
    expect(ignored.result.gate.passed).toBe(true);
  });
});

test("jest's own retry mark: a test jest.retryTimes retried into a pass (only `invocations` says so) is flaky; --flaky failed records it FAILED", async () => {
  const file = 'samples/jest/reports/same-names/jest.json';
  const key = 'checkout is flaky: fails first, passes on retry';
  const result = (flaky: string) =>
    run([file], { flaky, 'automation-key': '{test}' }).then(({ emu }) =>
      executionsOf(emu, 'CI run').get(key),
    );
  expect(await result('passed')).toEqual(['PASSED']);
  expect(await result('failed')).toEqual(['FAILED']);
});

test('the summary names run errors as data: no Markdown, HTML, link or mention from the report', async () => {
  const emu = await publishEmulator();
  const reports: ParsedReport[] = [
    {
      ...report([testOf('cart', 'adds', 'passed')], 'junit.xml'),
      runErrors: [
        {
          file: 'src/a|b.test.js',
          message:
            '| x | <img src=x onerror=alert(1)> @octocat see https://evil.example\n## Heading',
        },
      ],
    },
  ];
  const result = await publish(clientOf(emu), options(reports));
  const summary = renderSummary(result, reports);
  expect(summary).toContain('### Run errors (1)');
  const row = summary.split('\n').find((l) => l.startsWith('| src/a'))!;
  expect(row).toBe(
    '| src/a\\|b.test.js | junit.xml | \\| x \\| \\<img src=x onerror=alert(1)\\> @\u200boctocat see https\u200b://evil.example↵## Heading |',
  );
});

test('library callers that set none of the new options: run errors fail', async () => {
  const emu = await publishEmulator();
  const reports = await readReports([JEST_RUN_ERRORS]);
  const { onRunError: _onRunError, ...rest } = options(reports);
  const result = await publish(clientOf(emu), {
    ...rest,
    match: { ...rest.match, createMissingCases: true, workspace: sampleRoot(JEST_RUN_ERRORS) },
  });
  expect(result.gate.passed).toBe(false);
});
