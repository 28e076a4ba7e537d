/** Action mode sync through the bundle (dist/index.js): outputs and the job summary. */
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runAction } from '../helpers/action.js';

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
