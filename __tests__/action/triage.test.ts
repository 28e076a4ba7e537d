/**
 * The action's triage end to end (the bundle dist/index.js against the emulator): mode quarantine,
 * and a publish whose gate leaves the quarantined test out and fails on a new failure.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';

afterEach(closeEmulators);

const base = (url: string) => ({ 'base-url': url, token: RW, 'rate-limit': '1000/1m' });

function junit(results: [string, 'pass' | 'fail'][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tc-triage-'));
  const file = join(dir, 'junit.xml');
  const cases = results
    .map(([name, r]) =>
      r === 'pass'
        ? `<testcase classname="Suite" name="${name}"/>`
        : `<testcase classname="Suite" name="${name}"><failure message="boom"/></testcase>`,
    )
    .join('');
  writeFileSync(file, `<testsuite name="Suite">${cases}</testsuite>`);
  return file;
}

test('mode quarantine adds, then publish leaves the quarantined test out and fails on the new failure', async () => {
  const emu = await emulator({
    rateLimit: '1000/1m',
    seed: testSeed({
      customFields: [{ name: 'quarantine', entity: 'test_cases', type: 'string' }],
      testCases: ['a', 'b', 'c'].map((name) => ({
        name,
        automationKey: `Suite.${name}`,
        status: 'ACTIVE',
      })),
    }),
  });
  const nightly = (run: string, results: [string, 'pass' | 'fail'][]) =>
    runAction(
      {
        ...base(emu.url),
        reports: junit(results),
        'cycle-name': 'Nightly {run_number}',
        'automation-key': '{classname}.{name}',
        'max-new-failures': '0',
      },
      { GITHUB_RUN_NUMBER: run },
    );
  expect(
    (
      await nightly('1', [
        ['a', 'pass'],
        ['b', 'pass'],
        ['c', 'pass'],
      ])
    ).code,
  ).toBe(0);
  const added = await runAction({
    ...base(emu.url),
    mode: 'quarantine',
    'quarantine-action': 'add',
    'case-key': 'DEMO-T1',
    reason: 'flaky',
  });
  expect(added.code).toBe(0);
  expect(added.outputs.quarantined).toBe('1');
  const run = await nightly('2', [
    ['a', 'fail'],
    ['b', 'fail'],
    ['c', 'pass'],
  ]);
  expect(run.code).toBe(1);
  expect(run.outputs).toMatchObject({
    failed: '1',
    total: '2',
    quarantined: '1',
    'new-failures': 'DEMO-T2',
    fixed: '',
  });
  expect(run.summary).toContain('### New failures against DEMO-R1 Nightly 1 (1)');
  expect(run.summary).toContain('| 🧊 DEMO-T1 a | FAILED | flaky |');
});
