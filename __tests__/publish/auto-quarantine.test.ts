/**
 * --auto-quarantine FLIPS/CYCLES and --release-after K, driven through a series of nightlies in
 * the emulator: the rule quarantines a test that flipped, and releases it after clean cycles.
 */
import { flipsOf, parseAutoQuarantine } from '../../src/publish/auto-quarantine.js';
import { parseQuarantine, RULE_BY } from '../../src/publish/quarantine.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { addQuarantine } from '../../src/publish/index.js';
import { clientOf, closeAll, publishEmulator } from '../helpers/publish.js';
import { nightly, NOW, triageSeed } from '../helpers/triage.js';

afterEach(closeAll);

const quarantineOfB = (emu: RunningEmulator) => {
  const b = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'B')!;
  return parseQuarantine(
    (b.attributes.customFields as Record<string, unknown> | undefined)?.quarantine,
  );
};

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

test('flips count changes between pass and fail only; FLIPS/CYCLES is checked before any request', () => {
  expect(flipsOf(['FAILED', 'PASSED', 'SKIPPED', 'BLOCKED', undefined, 'PASSED'])).toBe(3);
  expect(flipsOf(['PASSED', 'PASSED', 'NOT_EXECUTED'])).toBe(0);
  expect(parseAutoQuarantine('2/10')).toEqual({ flips: 2, cycles: 10 });
  expect(() => parseAutoQuarantine('10/10')).toThrow(
    /^auto-quarantine: "10\/10" is not FLIPS\/CYCLES/,
  );
  expect(() => parseAutoQuarantine('two')).toThrow(/is not FLIPS\/CYCLES/);
});
