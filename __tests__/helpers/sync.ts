/** Building blocks for sync tests (src/inventory/sync.ts): options, seeds, the Space's cases and steps. */
import type { RunningEmulator } from '../../src/emulator/index.js';
import { settingsFrom, syncSettings, type SyncOptions } from '../../src/publish/index.js';
import type { TestResult } from '../../src/parsers/base/model.js';
import { testSeed } from './emulator.js';
import { report, testOf } from './publish.js';

export const writes = (stats: { byMethod: Record<string, number> }) =>
  (stats.byMethod.POST ?? 0) + (stats.byMethod.PATCH ?? 0) + (stats.byMethod.DELETE ?? 0);

/** `testcycle sync` with these flags: every other setting at its default. */
export function syncOptions(
  tests: TestResult[],
  flags: Record<string, unknown> = {},
  extra: Partial<SyncOptions> = {},
): SyncOptions {
  return { ...syncSettings(settingsFrom(flags), {}), reports: [report(tests)], ...extra };
}

/** N automated cases keyed and named as sync names them (`Suite.test{i}`, no file). */
export function automatedSeed(n: number, extra: Record<string, unknown>[] = []) {
  return testSeed({
    testCases: [
      ...Array.from({ length: n }, (_, i) => ({
        name: `Suite.test${i}`,
        automationKey: `Suite.test${i}`,
        automationStatus: 'AUTOMATED',
        status: 'ACTIVE',
      })),
      ...extra,
    ],
  });
}

export const testsOf = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => testOf('Suite', `test${from + i}`, 'passed'));

export function casesOf(emu: RunningEmulator): ({ id: string } & Record<string, unknown>)[] {
  return [...emu.service.store.all('test_cases')].map((r) => ({ ...r.attributes, id: r.id }));
}

export const byAutomationKey = (emu: RunningEmulator, key: string) =>
  casesOf(emu).find((c) => c.automationKey === key);

/** A case's live steps in order, as the emulator holds them (id, ETag and attributes). */
export function liveSteps(emu: RunningEmulator, caseId: string) {
  return [...emu.service.store.byForeignKey('test_steps', 'testCaseId', caseId)]
    .filter((s) => !s.removed && s.attributes.deletedAt == null)
    .sort((a, b) => Number(a.attributes.sequenceNumber) - Number(b.attributes.sequenceNumber));
}

/** A person edits a record in the service's app: written in place, a new ETag. */
export function editByHand(
  emu: RunningEmulator,
  type: 'test_cases' | 'test_steps',
  id: string,
  changes: Record<string, unknown>,
): void {
  emu.service.store.write(emu.service.store.get(type, id)!, changes);
}
