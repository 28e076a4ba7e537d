/**
 * max-pass-rate-drop: the gate compares the cycle's pass rate with the previous cycle of its
 * series (the cycles whose names the cycle-name template renders), by rank.
 */
import { ConfigError } from '../../src/api/errors.js';
import type { Outcome } from '../../src/reports/model.js';
import { gateSettings, publish, publishSettings, settingsFrom } from '../../src/publish/index.js';
import { runCli } from '../helpers/cli.js';
import { RW } from '../helpers/emulator.js';
import { caseSeed, clientOf, closeAll, publishEmulator, reportOf } from '../helpers/publish.js';

afterEach(closeAll);

const every =
  (n: number) =>
  (i: number): Outcome =>
    i % n === 0 ? 'failed' : 'passed';

async function nightly(
  emu: Awaited<ReturnType<typeof publishEmulator>>,
  run: string,
  fail: number,
  drop?: number,
) {
  const settings = publishSettings(
    settingsFrom({
      'cycle-name': 'Nightly {run_number}',
      ...(drop === undefined ? {} : { 'max-pass-rate-drop': drop }),
    }),
    { TESTCYCLE_RUN_NUMBER: run },
  );
  return publish(clientOf(emu), { ...settings, reports: [reportOf(10, every(fail))] });
}

test('a drop of more than POINTS against the previous cycle of the series fails the gate', async () => {
  const emu = await publishEmulator({ seed: caseSeed(10) });
  // Another series between them is not compared with.
  await nightly(emu, '1', 100); // 90% (test0 fails)
  await publish(clientOf(emu), {
    ...publishSettings(settingsFrom({ 'cycle-name': 'Weekly' }), {}),
    reports: [reportOf(10, every(1))],
  });
  const second = await nightly(emu, '2', 2, 30); // 50%: fell 40 points
  expect(second.gate).toEqual({
    passed: false,
    evaluated: true,
    reasons: ['pass rate 50% fell 40 points from 90% in DEMO-R1 "Nightly 1" (at most 30 allowed)'],
  });
  const third = await nightly(emu, '3', 3, 30); // 60%: rose 10 points from the second
  expect(third.gate).toEqual({ passed: true, evaluated: true, reasons: [] });
});

test('the first cycle of a series has nothing to compare with: passed', async () => {
  const emu = await publishEmulator({ seed: caseSeed(10) });
  const first = await nightly(emu, '1', 2, 0);
  expect(first.gate).toEqual({ passed: true, evaluated: true, reasons: [] });
});

test('without a cycle-name template there is no series: a config error naming both settings', () => {
  const attempt = () =>
    gateSettings(settingsFrom({ 'cycle-key': 'DEMO-R1', 'max-pass-rate-drop': 5 }));
  expect(attempt).toThrow(ConfigError);
  expect(attempt).toThrow(/^max-pass-rate-drop: needs cycle-name: its template names the series/);
});

test('the CLI: gate --max-pass-rate-drop', async () => {
  const emu = await publishEmulator({ seed: caseSeed(10) });
  await nightly(emu, '1', 100);
  await nightly(emu, '2', 2);
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RUN_NUMBER: '2' };
  const args = ['gate', '--cycle-name', 'Nightly {run_number}', '--max-pass-rate-drop'];
  const failed = await runCli([...args, '10'], env);
  expect(failed.code).toBe(1);
  expect(failed.out).toContain('pass rate 50% fell 40 points from 90% in DEMO-R1 "Nightly 1"');
  expect((await runCli([...args, '40'], env)).code).toBe(0);
  const wrong = await runCli(['gate', '--cycle-key', 'DEMO-R2', '--max-pass-rate-drop', '10'], env);
  expect(wrong).toMatchObject({
    code: 2,
    err: expect.stringContaining('--max-pass-rate-drop: needs --cycle-name'),
  });
});
