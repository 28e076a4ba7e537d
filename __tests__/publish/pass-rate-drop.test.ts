/**
 * max-pass-rate-drop: the gate compares the cycle's pass rate with the previous cycle of its
 * series (the cycles whose names the cycle-name template renders), by rank.
 */
import { ConfigError } from '../../src/shared/errors.js';
import type { Outcome } from '../../src/parsers/base/model.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  gateSettings,
  publish,
  publishSettings,
  RankRangeError,
  settingsFrom,
} from '../../src/publish/index.js';
import { runCli } from '../helpers/cli.js';
import { RW, testSeed } from '../helpers/emulator.js';
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

test('the first cycle of a series has nothing to compare with: passed, and it says so', async () => {
  const emu = await publishEmulator({ seed: caseSeed(10) });
  const first = await nightly(emu, '1', 2, 0);
  expect(first.gate).toEqual({
    passed: true,
    evaluated: true,
    reasons: [],
    notes: [
      'no previous cycle: trend not checked (DEMO-R1 (rank 1) is the first cycle of the series "Nightly {run_number}")',
    ],
  });
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

describe('ranks at 2^53: the trend gate is never skipped without a word', () => {
  const TOP = 2 ** 53; // rank + 1 === rank from here on

  test('a new cycle after a cycle ranked 2^53: an error naming the rank, before any write', async () => {
    const emu = await publishEmulator({
      seed: { ...caseSeed(10), testCycles: [{ name: 'Nightly 1', rank: TOP, status: 'ACTIVE' }] },
    });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RUN_NUMBER: '2' };
    const dir = mkdtempSync(join(tmpdir(), 'rank-'));
    writeFileSync(
      join(dir, 'r.xml'),
      `<testsuite name="s">${Array.from({ length: 10 }, (_, i) => `<testcase classname="Suite" name="test${i}"/>`).join('')}</testsuite>`,
    );
    const run = await runCli(
      [
        'publish',
        '--report',
        join(dir, 'r.xml'),
        '--cycle-name',
        'Nightly {run_number}',
        '--max-pass-rate-drop',
        '10',
      ],
      env,
    );
    expect(run.code).toBe(3);
    expect(run.err).toContain(
      `the highest test cycle rank in this Space is ${TOP}; a new test cycle would need ranks past 9007199254740991 (2^53 - 1)`,
    );
    expect(emu.stats().byMethod.POST ?? 0).toBe(0);
    expect(emu.service.store.count('test_cycles')).toBe(1);
  });

  test('test cases created by publish: the same check, for all of them at once', async () => {
    const emu = await publishEmulator({
      seed: testSeed({ testCases: [{ name: 'old', rank: Number.MAX_SAFE_INTEGER - 1 }] }),
    });
    const attempt = publish(clientOf(emu), {
      ...publishSettings(settingsFrom({ 'cycle-name': 'CI', 'create-missing-cases': true }), {}),
      reports: [reportOf(2)],
    });
    await expect(attempt).rejects.toThrow(RankRangeError);
    await expect(attempt).rejects.toThrow(
      /2 new test cases would need ranks past 9007199254740991/,
    );
    expect(emu.service.store.count('test_cases')).toBe(1);
  });

  test('cycles that share a rank (made before this check): gating on the drop fails, naming why', async () => {
    const emu = await publishEmulator({ seed: caseSeed(10) });
    await nightly(emu, '1', 100); // 90%
    await nightly(emu, '2', 1); // 0%: a drop of 90 points
    for (const cycle of emu.service.store.all('test_cycles'))
      emu.service.store.write(cycle, { rank: TOP });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RUN_NUMBER: '2' };
    const args = ['gate', '--cycle-name', 'Nightly {run_number}'];
    const gated = await runCli([...args, '--max-pass-rate-drop', '10'], env);
    expect(gated.code).toBe(1);
    expect(gated.out).toContain(
      `no previous cycle found in the series, so the pass rate drop (at most 10 allowed) was not checked: 1 other cycle(s) of the series "Nightly {run_number}" cannot be ordered against DEMO-R2 (rank ${TOP})`,
    );
    // Not asked to gate on the trend: nothing to fail.
    expect((await runCli([...args, '--max-failed', '100'], env)).code).toBe(0);
  });

  test('the oldest cycle of a series, gated after newer ones: no previous cycle, passed with a note', async () => {
    const emu = await publishEmulator({ seed: caseSeed(10) });
    await nightly(emu, '1', 1);
    await nightly(emu, '2', 100);
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RUN_NUMBER: '1' };
    const run = await runCli(
      ['gate', '--cycle-name', 'Nightly {run_number}', '--max-pass-rate-drop', '10', '--json'],
      env,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).gate).toEqual({
      outcome: 'passed',
      passed: true,
      reasons: [],
      notes: [
        'no previous cycle: trend not checked (DEMO-R1 (rank 1) is ranked before every other cycle of the series "Nightly {run_number}")',
      ],
    });
  });
});
