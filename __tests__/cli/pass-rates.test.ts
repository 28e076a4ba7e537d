/**
 * One cycle, two pass rates: the gate leaves quarantined tests out, `testcycle report` counts
 * every execution. The gate's output says so, with the rate that counts them, so the two agree.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';

afterEach(closeEmulators);

test('publish, gate and their summaries name the quarantined tests left out and the rate with them', async () => {
  const emu = await emulator({
    seed: testSeed({
      customFields: [{ name: 'quarantine', entity: 'test_cases', type: 'string' }],
      testCases: ['a', 'b', 'c'].map((n) => ({
        name: `Suite.${n}`,
        automationKey: `Suite.${n}`,
        status: 'ACTIVE',
      })),
    }),
  });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-rates-'));
  const report = join(dir, 'junit.xml');
  writeFileSync(
    report,
    `<testsuite name="Suite">
  <testcase classname="Suite" name="a"/>
  <testcase classname="Suite" name="b"><failure message="b broke"/></testcase>
  <testcase classname="Suite" name="c"><failure message="flaky"/></testcase>
</testsuite>`,
  );
  const quarantined = await runCli(
    ['quarantine', 'add', '--case', 'DEMO-T3', '--reason', 'flaky'],
    env,
  );
  expect(quarantined.code).toBe(0);
  const summary = join(dir, 'summary.md');
  const args = ['--cycle-name', 'PR 1', '--automation-key', '{classname}.{name}'];
  const published = await runCli(
    ['publish', '--report', report, ...args, '--max-failed', '5', '--summary-file', summary],
    env,
  );
  expect(published.out).toMatch(
    /^results: 1 passed, 1 failed, .* \(2 total\), pass rate 50% \(1 quarantined test left out; 33\.33% counting it, as testcycle report does\)$/m,
  );
  expect(readFileSync(summary, 'utf8')).toContain(
    '**Pass rate** 50% (1 quarantined test left out; 33.33% counting it, as testcycle report does)',
  );
  const gated = await runCli(['gate', '--cycle-name', 'PR 1', '--max-failed', '5', '--json'], env);
  const json = JSON.parse(gated.out) as { passRate: number; passRateWithQuarantined: number };
  expect([json.passRate, json.passRateWithQuarantined]).toEqual([50, 33.33]);
  // What the report shows for the cycle: every execution counted.
  const page = join(dir, 'report.html');
  const reported = await runCli(['report', '--html-file', page], env);
  expect(reported.out).toMatch(/pass rate 33\.33% -> 33\.33%/);
});

test('nothing quarantined: one pass rate, no note', async () => {
  const emu = await emulator({
    seed: testSeed({
      testCases: [{ name: 'Suite.a', automationKey: 'Suite.a', status: 'ACTIVE' }],
    }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-rates-'));
  const report = join(dir, 'junit.xml');
  writeFileSync(
    report,
    '<testsuite name="Suite"><testcase classname="Suite" name="a"/></testsuite>',
  );
  const r = await runCli(
    [
      'publish',
      '--report',
      report,
      '--cycle-name',
      'N',
      '--automation-key',
      '{classname}.{name}',
      '--max-failed',
      '0',
    ],
    { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW },
  );
  expect(r.out).toMatch(/, pass rate 100%$/m);
  expect(r.out).not.toContain('quarantined');
});
