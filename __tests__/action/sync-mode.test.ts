/** Action mode sync through the bundle (dist/index.js): outputs and the job summary. */
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';

afterEach(closeEmulators);

test('mode sync creates the cases of a Cucumber messages report, with outputs and a job summary', async () => {
  const emu = await emulator({ seed: testSeed(), rateLimit: '1000/1m' });
  const run = await runAction({
    mode: 'sync',
    'base-url': emu.url,
    token: RW,
    reports: 'samples/cucumber-js/reports/messages.ndjson',
    'rate-limit': '1000/1m',
  });
  expect(run.code).toBe(0);
  const cases = [...emu.service.store.all('test_cases')];
  expect(Number(run.outputs['cases-created'])).toBe(cases.length);
  expect(cases.length).toBeGreaterThan(5);
  expect(run.outputs['cases-archived']).toBe('0');
  expect(run.summary).toContain('Test cases synced');
  expect(run.summary).toContain(`| created | ${cases.length} |`);
});

test('mode publish with sync puts what sync did in the job summary, before the results', async () => {
  const emu = await emulator({ seed: testSeed(), rateLimit: '1000/1m' });
  const run = await runAction({
    mode: 'publish',
    'base-url': emu.url,
    token: RW,
    reports: 'samples/cucumber-js/reports/messages.ndjson',
    'cycle-name': 'Nightly',
    sync: 'true',
    'rate-limit': '1000/1m',
    // The sample's undefined step is a run error (docs/design.md "Run errors"): named, not failed on here.
    'on-run-error': 'warn',
  });
  expect(run.code).toBe(0);
  expect(run.summary).toContain('### Run errors (1)');
  const cases = [...emu.service.store.all('test_cases')];
  expect(cases.length).toBeGreaterThan(5);
  expect(run.summary).toContain('### Test cases synced (publish --sync)');
  expect(run.summary).toContain(
    `${cases.length} created, 0 renamed, 0 re-keyed, 0 updated, 0 restored, 0 unchanged.`,
  );
  // The first five named, by their new keys; the rest counted.
  const line = run.summary.split('\n').find((l) => l.startsWith('- created: '))!;
  expect(line.split('; ').filter((c) => /^(- created: )?\S+-T\d+ /.test(c))).toHaveLength(5);
  expect(line).toContain(`… and ${cases.length - 5} more`);
});
