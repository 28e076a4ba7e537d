/**
 * Run errors and the runner's exit status on the command line (docs/design.md "Run errors"):
 * `parse` names them (text and --json), `publish` fails its gate on them (exit 1) and says so in
 * text and --json, and `--runner-exit-code` (or TESTCYCLE_RUNNER_EXIT_CODE) is heard.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleRoot } from '../helpers/samples.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

const JEST = 'samples/jest/reports/run-errors/jest.json';
const VITEST_SILENT = 'samples/vitest/reports/run-errors/unhandled-junit.xml';

test('parse names each run error on its line and counts them beside the tests', async () => {
  const { code, out } = await runCli(['parse', '--report', JEST], {});
  expect(code).toBe(0);
  expect(out).toMatch(
    /^run error samples\/jest\/reports\/run-errors\/jest\.json: \S+\/load-error\.test\.js: Test suite failed to run: Cannot find module '\.\/no-such-module' from 'load-error\.test\.js'$/m,
  );
  expect(out).toContain('3 runs of 3 tests, 0 flaky, 2 run errors (no tests)');
});

test('parse --json: run errors per file and in totals, and what a report tells of a partial run', async () => {
  const { out } = await runCli(
    [
      'parse',
      '--report',
      JEST,
      '--report',
      'samples/playwright/reports/run-errors/playwright.json',
      '--json',
    ],
    {},
  );
  const parsed = JSON.parse(out) as {
    files: { runErrors: { file?: string; message: string }[]; selection?: object }[];
    totals: { runErrors: number; total: number };
  };
  expect(parsed.files.map((f) => [f.runErrors.length, f.selection])).toEqual([
    [2, undefined],
    [0, { shard: '1/2', filter: '--grep @cart' }],
  ]);
  expect(parsed.totals).toMatchObject({ total: 7, runErrors: 2 });
});

describe('publish', () => {
  const env = async (extra: Record<string, string> = {}) => {
    const emu = await emulator({ seed: caseSeed(0), rateLimit: '1000/1m' });
    return { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, ...extra };
  };
  const publish = (report: string, flags: string[], vars: Record<string, string>) =>
    runCli(
      [
        'publish',
        '--report',
        report,
        '--cycle-name',
        'CI',
        '--create-missing-cases',
        '--workspace',
        sampleRoot(report),
        ...flags,
      ],
      vars,
    );

  test('a run error fails the gate: exit 1, named in the text, the log and the reasons', async () => {
    const { code, out, err } = await publish(JEST, [], await env());
    expect(code).toBe(1);
    expect(out).toContain('run errors in the reports (no tests): 2');
    expect(out).toMatch(/gate: FAILED\n {2}- run error \(on-run-error: fail\): /);
    expect(err).toMatch(/^warn: run error: samples\/jest\/reports\/run-errors\/jest\.json: /m);
  });

  test('--json holds runErrors and the gate; --on-run-error warn lets the thresholds decide', async () => {
    const vars = await env();
    const failed = await publish(JEST, ['--json'], vars);
    const result = JSON.parse(failed.out) as {
      runErrors: { report: string; file: string; message: string }[];
      gate: { outcome: string };
    };
    expect(result.gate.outcome).toBe('failed');
    expect(result.runErrors.map((e) => e.file.split('/').at(-1))).toEqual([
      'after-all.test.js',
      'load-error.test.js',
    ]);
    const warned = await publish(JEST, ['--on-run-error', 'warn', '--max-failed', '0'], vars);
    expect(warned.code).toBe(0);
  });

  test.each([
    ['--runner-exit-code 1', ['--runner-exit-code', '1'], {}, 1],
    ['TESTCYCLE_RUNNER_EXIT_CODE=2', [], { TESTCYCLE_RUNNER_EXIT_CODE: '2' }, 1],
    ['--runner-exit-code 0', ['--runner-exit-code', '0'], {}, 0],
  ])(
    '%s with a report that shows nothing of the failure',
    async (_name, flags, vars: Record<string, string>, exit) => {
      const { code, out } = await publish(VITEST_SILENT, flags, await env(vars));
      expect(code).toBe(exit);
      if (exit)
        expect(out).toMatch(
          /gate: FAILED\n {2}- the runner failed \(runner-exit-code: [12]\), but its reports show no failed test and no run error/,
        );
    },
  );

  test('a runner exit status that is no number is a usage error before any request', async () => {
    const { code, err } = await publish(VITEST_SILENT, ['--runner-exit-code', 'red'], {
      TESTCYCLE_BASE_URL: 'http://127.0.0.1:9',
      TESTCYCLE_TOKEN: RW,
    });
    expect(code).toBe(2);
    expect(err).toContain('--runner-exit-code: "red" is not a whole number');
  });

  test('--summary-file masks the token in what the reports say (a run error, a failure message), as every output does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-summary-token-'));
    try {
      const report = join(dir, 'junit.xml');
      writeFileSync(
        report,
        `<testsuites><testsuite name="Boot" errors="1" tests="0"><error message="connect refused: Bearer ${RW}"/></testsuite>` +
          `<testsuite name="Api"><testcase classname="Api" name="calls"><failure message="401 for token ${RW}"/></testcase></testsuite></testsuites>`,
      );
      const summary = join(dir, 'summary.md');
      const { code, out, err } = await publish(
        report,
        ['--summary-file', summary, '--workspace', dir],
        await env(),
      );
      expect(code).toBe(1);
      const written = readFileSync(summary, 'utf8');
      expect(written).toContain('connect refused: Bearer');
      expect(written).toContain('401 for token');
      expect([written, out, err].filter((text) => text.includes(RW))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
