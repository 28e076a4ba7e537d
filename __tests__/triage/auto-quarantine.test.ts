/**
 * --auto-quarantine FLIPS/CYCLES and --release-after K, driven through a series of nightlies in
 * the emulator: the rule quarantines a test that flipped, and releases it after clean cycles.
 */
import { flipsOf, parseAutoQuarantine } from '../../src/triage/auto-quarantine.js';
import { parseQuarantine, RULE_BY } from '../../src/triage/quarantine.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { addQuarantine } from '../../src/publish/index.js';
import { clientOf, closeAll, publishEmulator } from '../helpers/publish.js';
import { nightly, NOW, prEnv, publishAs, triageSeed } from '../helpers/triage.js';

afterEach(closeAll);

const quarantineOf = (emu: RunningEmulator, name: string) => {
  const c = [...emu.service.store.all('test_cases')].find((t) => t.attributes.name === name)!;
  return parseQuarantine(
    (c.attributes.customFields as Record<string, unknown> | undefined)?.quarantine,
  );
};
const quarantineOfB = (emu: RunningEmulator) => quarantineOf(emu, 'B');

const RULE = { 'auto-quarantine': '2/10', 'release-after': 3, 'max-failed': 0 };

test('--auto-quarantine 2/10 quarantines a test that flipped twice; --release-after 3 releases it after three clean cycles', async () => {
  const emu = await publishEmulator({ seed: triageSeed() });
  // B: failed, passed, failed: two flips, failing now.
  const first = await nightly(emu, '1', [1], RULE);
  expect(first.result.autoQuarantine?.quarantined).toEqual([]);
  expect(first.result.gate.passed).toBe(false);
  await nightly(emu, '2', [], RULE);
  const third = await nightly(emu, '3', [1], RULE);
  expect(third.result.autoQuarantine?.quarantined).toEqual([
    { caseId: expect.any(String), key: 'DEMO-T2', name: 'B', count: 2 },
  ]);
  expect(quarantineOfB(emu)).toEqual({
    since: '2026-11-25T10:00:00.000Z',
    reason: 'flipped 2 times between pass and fail in the last 10 cycles (auto-quarantine 2/10)',
    by: RULE_BY,
  });
  // Quarantined before the gate: this cycle's failure of B is not counted already.
  expect(third.result.gate).toMatchObject({ passed: true, reasons: [] });
  expect(third.result.counts).toMatchObject({ failed: 0, total: 3 });
  // Two clean cycles: still quarantined; the third releases it.
  for (const run of ['4', '5']) {
    const r = await nightly(emu, run, [], RULE);
    expect(r.result.autoQuarantine?.released).toEqual([]);
    expect(quarantineOfB(emu)).toBeDefined();
  }
  const sixth = await nightly(emu, '6', [], RULE);
  expect(sixth.result.autoQuarantine?.released.map((r) => r.key)).toEqual(['DEMO-T2']);
  expect(quarantineOfB(emu)).toBeUndefined();
});

test("a person's quarantine is never released by the rule; a dry run plans the rule's writes and sends none", async () => {
  const emu = await publishEmulator({ seed: triageSeed() });
  await addQuarantine(clientOf(emu), {
    field: 'quarantine',
    caseKey: 'DEMO-T4',
    reason: 'waits for the new API',
    now: () => NOW,
  });
  await nightly(emu, '1', [1], RULE);
  await nightly(emu, '2', [], RULE);
  emu.resetStats();
  const dry = await nightly(emu, '3', [1], { ...RULE, 'dry-run': true });
  const readsSoFar = emu.stats().total;
  expect(dry.result.autoQuarantine).toMatchObject({
    planned: true,
    quarantined: [{ key: 'DEMO-T2', count: 2 }],
    writeRequests: 3,
  });
  expect(emu.stats().byMethod.PATCH ?? 0).toBe(0);
  expect(quarantineOfB(emu)).toBeUndefined();
  emu.resetStats();
  const real = await nightly(emu, '3', [1], RULE);
  expect(real.result.autoQuarantine?.quarantined.map((q) => q.key)).toEqual(['DEMO-T2']);
  expect(dry.result.dryRun!.plannedRequests + readsSoFar).toBe(emu.stats().total);
  // D passed in each of the last three cycles, but a person quarantined it: it stays.
  expect(real.result.autoQuarantine?.released).toEqual([]);
  expect(real.result.triage?.quarantined.map((t) => t.key)).toEqual(['DEMO-T2', 'DEMO-T4']);
});

test("flips count on one branch only: PR 7 failing on two pushes between other PRs' passing runs is no flip; flips within PR 7 are", async () => {
  const emu = await publishEmulator({ seed: triageSeed() });
  const pr = (n: number, sha: string, fail: number[]) =>
    publishAs(emu, 'PR {pr} {sha7}', prEnv(n, `branch-${n}`, sha), fail, RULE);
  await pr(5, 'aaaaaaa5', []);
  await pr(7, '1bbbbbb', [0]); // PR 7 broke A
  await pr(6, 'ccccccc6', []);
  const second = await pr(7, '2bbbbbb', [0]);
  // Across PRs A went P, F, P, F: three flips; on PR 7 it failed twice, no flip.
  expect(second.result.autoQuarantine?.quarantined).toEqual([]);
  expect(quarantineOf(emu, 'A')).toBeUndefined();
  expect(second.result.gate.reasons).toEqual(['1 failed, more than 0 allowed']);
  // A flaky on PR 7 itself (F, F, P, F): two flips there, quarantined.
  await pr(7, '3bbbbbb', []);
  const flaky = await pr(7, '4bbbbbb', [0]);
  expect(flaky.result.autoQuarantine?.quarantined.map((q) => q.key)).toEqual(['DEMO-T1']);
});

test("a PR's run on a series whose names record no branch, PR or commit counts no flips, and says why", async () => {
  const emu = await publishEmulator({ seed: triageSeed() });
  const run = (n: string, env: Record<string, string>, fail: number[]) =>
    publishAs(emu, 'CI {run_number}', { TESTCYCLE_RUN_NUMBER: n, ...env }, fail, RULE);
  await run('1', {}, [0]);
  await run('2', {}, []);
  const third = await run('3', prEnv(7, 'feature', 'bbbbbbb1'), [0]);
  expect(third.result.autoQuarantine?.quarantined).toEqual([]);
  expect(third.result.warnings).toContainEqual(
    expect.stringMatching(
      /^auto-quarantine: nothing quarantined or released: this is a pull request's run, and the names of its series "CI \{run_number\}" record no branch, PR or commit/,
    ),
  );
  // The same flips on a run that is no PR's (a nightly of one branch): quarantined.
  const fourth = await run('4', {}, [0]);
  expect(fourth.result.autoQuarantine?.quarantined.map((q) => q.key)).toEqual(['DEMO-T1']);
});

test('flips count changes between pass and fail only; FLIPS/CYCLES is checked before any request', () => {
  expect(flipsOf(['FAILED', 'PASSED', 'SKIPPED', 'BLOCKED', undefined, 'PASSED'])).toBe(3);
  expect(flipsOf(['PASSED', 'PASSED', 'NOT_EXECUTED'])).toBe(0);
  expect(parseAutoQuarantine('2/10')).toEqual({ flips: 2, cycles: 10 });
  expect(() => parseAutoQuarantine('10/10')).toThrow(
    /^auto-quarantine: "10\/10" is not FLIPS\/CYCLES/,
  );
  expect(() => parseAutoQuarantine('two')).toThrow(/is not FLIPS\/CYCLES/);
});
