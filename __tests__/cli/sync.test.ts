/** `testcycle sync` on the command line: the plan, JSON, the retire bound's exit code. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

afterEach(closeEmulators);

/** A JUnit report of tests Suite.test0 .. test{n-1}. */
function junit(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-sync-'));
  const file = join(dir, 'junit.xml');
  const cases = Array.from(
    { length: n },
    (_, i) => `<testcase classname="Suite" name="test${i}"/>`,
  );
  writeFileSync(file, `<testsuite name="Suite" tests="${n}">${cases.join('')}</testsuite>`);
  return file;
}

const seed = (n: number) =>
  testSeed({
    testCases: Array.from({ length: n }, (_, i) => ({
      name: `Suite.test${i}`,
      automationKey: `Suite.test${i}`,
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    })),
  });

test('sync --dry-run --json: the plan as JSON, no write', async () => {
  const emu = await emulator({ seed: seed(10), rateLimit: '1000/1m' });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const { code, out } = await runCli(
    ['sync', '--report', junit(11), '--retire-missing', '--dry-run', '--json'],
    env,
  );
  expect(code).toBe(0);
  const result = JSON.parse(out);
  expect(result).toMatchObject({
    dryRun: true,
    created: [{ key: null, name: 'Suite.test10' }],
    archived: [],
    unchanged: 10,
    plannedRequests: 2,
  });
  expect(emu.stats().byMethod.POST ?? 0).toBe(0);
  expect(emu.stats().byMethod.PATCH ?? 0).toBe(0);
});

test('sync --retire-missing over the bound exits 2, names --retire-max, writes nothing; a percentage is a share of the scope', async () => {
  const emu = await emulator({ seed: seed(10), rateLimit: '1000/1m' });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const { code, err } = await runCli(['sync', '--report', junit(4), '--retire-missing'], env);
  expect(code).toBe(2);
  expect(err).toContain(
    "testcycle sync: --retire-max: retiring would archive 6 of the 10 automated test case(s) in this pipeline's scope, more than the default bound of 5",
  );
  expect(err).toContain('widen the bound with --retire-max 6');
  expect(emu.stats().byMethod.PATCH ?? 0).toBe(0);
  const share = await runCli(
    ['sync', '--report', junit(4), '--retire-missing', '--retire-max', '50%', '--dry-run'],
    env,
  );
  expect(share.code).toBe(2);
  const human = await runCli(
    ['sync', '--report', junit(4), '--retire-missing', '--retire-max', '60%'],
    env,
  );
  expect(human.code).toBe(0);
  expect(human.out).toContain('6 archived');
});

test('--retire-max junk is a config error before any request; without --retire-missing it warns that it does nothing', async () => {
  const emu = await emulator({ seed: seed(3), rateLimit: '1000/1m' });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const junk = await runCli(
    ['sync', '--report', junit(3), '--retire-missing', '--retire-max', 'ten%'],
    env,
  );
  expect(junk.code).toBe(2);
  expect(junk.err).toContain(
    '--retire-max: "ten%" is neither a count of test cases (5) nor a percentage',
  );
  expect(emu.stats().total).toBe(0);
  const idle = await runCli(['sync', '--report', junit(3), '--retire-max', '5', '--dry-run'], env);
  expect(idle.code).toBe(0);
  expect(idle.err).toContain(
    '--retire-max 5 has no effect without --retire-missing; it is ignored.',
  );
});

test('a name a person wrote: kept by default (the dry run shows both names and the flag), renamed by --case-names replace, never listed under keep; TESTCYCLE_CASE_NAMES does the same; a bad value names the flag or variable before any request', async () => {
  const emu = await emulator({
    seed: testSeed({
      testCases: [
        {
          name: 'Zero, named by hand',
          automationKey: 'Suite.test0',
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        },
      ],
    }),
    rateLimit: '1000/1m',
  });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const report = junit(1);
  const byDefault = await runCli(['sync', '--report', report, '--dry-run'], env);
  expect(byDefault.out).toContain('0 would be renamed');
  expect(byDefault.out).toContain(
    'name kept: 1\n  DEMO-T1 Zero, named by hand (its key would name it Suite.test0)',
  );
  expect(byDefault.err).toContain('--case-names replace names every matched case after its key');
  const byKey = await runCli(
    ['sync', '--report', report, '--dry-run', '--case-names', 'replace'],
    env,
  );
  expect(byKey.out).toContain('would be renamed: 1\n  DEMO-T1 Zero, named by hand → Suite.test0');
  const keep = await runCli(['sync', '--report', report, '--dry-run', '--case-names', 'keep'], env);
  expect(keep.code).toBe(0);
  expect(keep.out).toContain('0 would be renamed');
  expect(keep.out).not.toContain('kept');
  const fromEnv = await runCli(['sync', '--report', report, '--dry-run'], {
    ...env,
    TESTCYCLE_CASE_NAMES: 'keep',
  });
  expect(fromEnv.out).toContain('0 would be renamed');
  emu.resetStats();
  const bad = await runCli(['sync', '--report', report, '--case-names', 'manual'], env);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('--case-names: "manual" is not one of key, keep, replace');
  const badEnv = await runCli(['publish', '--report', report, '--cycle-name', 'n', '--sync'], {
    ...env,
    TESTCYCLE_CASE_NAMES: 'Keep',
  });
  expect(badEnv.code).toBe(2);
  expect(badEnv.err).toContain('TESTCYCLE_CASE_NAMES: "Keep" is not one of key, keep, replace');
  expect(emu.stats().total).toBe(0);
});
