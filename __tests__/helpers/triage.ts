/** Triage tests: four cases A..D with owners and the quarantine field, and nightlies of them. */
import type { RunningEmulator } from '../../src/emulator/index.js';
import { publish, publishSettings, settingsFrom } from '../../src/publish/index.js';
import type { Outcome } from '../../src/reports/model.js';
import { OTHER_USER, OWNER, testSeed } from './emulator.js';
import { clientOf, reportOf } from './publish.js';

/** The clock of triage tests: quarantines' until is judged against it. */
export const NOW = new Date('2026-11-25T10:00:00Z');
const now = () => NOW;

/** A, B, C, D: Suite.test0..3 (DEMO-T1..T4); A and B owned by Ada, C by Bob, D by Ada. */
export function triageSeed(extra: Parameters<typeof testSeed>[0] = {}) {
  const owners = [OWNER, OWNER, OTHER_USER, OWNER];
  return testSeed({
    customFields: [
      { name: 'component', entity: 'test_cases', type: 'string' },
      { name: 'quarantine', entity: 'test_cases', type: 'string' },
    ],
    testCases: ['A', 'B', 'C', 'D'].map((name, i) => ({
      name,
      automationKey: `Suite.test${i}`,
      status: 'ACTIVE',
      ownerId: owners[i],
    })),
    ...extra,
  });
}

/** One nightly of the four tests: `fail` lists the failing indexes. */
export async function nightly(
  emu: RunningEmulator,
  run: string,
  fail: number[],
  gate: Record<string, unknown> = {},
) {
  const settings = publishSettings(
    settingsFrom({ 'cycle-name': 'Nightly {run_number}', ...gate }),
    { TESTCYCLE_RUN_NUMBER: run },
  );
  const outcome = (i: number): Outcome => (fail.includes(i) ? 'failed' : 'passed');
  const client = clientOf(emu);
  const result = await publish(client, {
    ...settings,
    gate: { ...settings.gate, now },
    reports: [reportOf(4, outcome)],
  });
  return { result, client };
}
