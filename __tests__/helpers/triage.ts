/** Triage tests: four cases A..D with owners and the quarantine field, and nightlies of them. */
import type { RunningEmulator } from '../../src/emulator/index.js';
import { publish, publishSettings, settingsFrom } from '../../src/publish/index.js';
import type { Outcome } from '../../src/parsers/base/model.js';
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

/** One publish of the four tests into the cycle `template` names in `env`: `fail` lists the failing indexes. */
export async function publishAs(
  emu: RunningEmulator,
  template: string,
  env: Record<string, string>,
  fail: number[],
  gate: Record<string, unknown> = {},
) {
  const settings = publishSettings(settingsFrom({ 'cycle-name': template, ...gate }), env);
  const outcome = (i: number): Outcome => (fail.includes(i) ? 'failed' : 'passed');
  const client = clientOf(emu);
  const result = await publish(client, {
    ...settings,
    gate: { ...settings.gate, now },
    reports: [reportOf(4, outcome)],
  });
  return { result, client };
}

/** One nightly of the four tests: `fail` lists the failing indexes. */
export function nightly(
  emu: RunningEmulator,
  run: string,
  fail: number[],
  gate: Record<string, unknown> = {},
) {
  return publishAs(emu, 'Nightly {run_number}', { TESTCYCLE_RUN_NUMBER: run }, fail, gate);
}

/** A pull request's run on GitHub: PR `pr` from `branch` into main, at commit `sha`. */
export const prEnv = (pr: number, branch: string, sha: string) => ({
  GITHUB_REF: `refs/pull/${pr}/merge`,
  GITHUB_HEAD_REF: branch,
  GITHUB_BASE_REF: 'main',
  GITHUB_SHA: sha,
});
