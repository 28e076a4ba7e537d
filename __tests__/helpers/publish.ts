/** Building blocks for publish tests: seeded Spaces, in-memory reports, default options. */
import { ServiceClient } from '../../src/client/client.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { publishSettings, settingsFrom, type PublishOptions } from '../../src/publish/index.js';
import type { Outcome, ParsedReport, TestResult } from '../../src/parsers/base/model.js';
import { closeEmulators, emulator as startEmulator, RW, testSeed } from './emulator.js';

export const FAST_RETRY = {
  retryBaseMs: 2,
  rateLimitBaseMs: 20,
  maxBackoffMs: 200,
  maxAttempts: 8,
  maxRateLimitAttempts: 30,
};

export function caseSeed(n: number, name = (i: number) => `Suite.test${i}`) {
  return testSeed({
    testCases: Array.from({ length: n }, (_, i) => ({
      name: `case ${i}`,
      automationKey: name(i),
      status: 'ACTIVE',
    })),
  });
}

export function testOf(
  classname: string,
  name: string,
  outcome: Outcome,
  extra: Partial<TestResult> = {},
): TestResult {
  return {
    suite: [classname],
    classname,
    name,
    outcome,
    attempts: [{ outcome }],
    properties: {},
    ...extra,
  };
}

export function report(tests: TestResult[], file = 'report.xml'): ParsedReport {
  return { file, format: 'junit', tests };
}

/** N tests named Suite.test{i}; outcome by index. */
export function reportOf(
  n: number,
  outcome: (i: number) => Outcome = () => 'passed',
): ParsedReport {
  return report(Array.from({ length: n }, (_, i) => testOf('Suite', `test${i}`, outcome(i))));
}

export function options(
  reports: ParsedReport[],
  extra: Partial<PublishOptions> = {},
): PublishOptions {
  // `testcycle publish --cycle-name "CI run"`: every other setting at its default.
  return { ...publishSettings(settingsFrom({ 'cycle-name': 'CI run' }), {}), reports, ...extra };
}

const clients: ServiceClient[] = [];
export function clientOf(
  emu: RunningEmulator,
  extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {},
): ServiceClient {
  const c = new ServiceClient({
    baseUrl: emu.url,
    token: RW,
    rateLimit: '100000/1m',
    retry: FAST_RETRY,
    ...extra,
  });
  clients.push(c);
  return c;
}
export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.close()));
}

/** The cycle's executions as the emulator holds them: case automationKey -> results. */
export function executionsOf(emu: RunningEmulator, cycleName: string): Map<string, string[]> {
  const store = emu.service.store;
  const cycle = [...store.all('test_cycles')].find((c) => c.attributes.name === cycleName);
  const out = new Map<string, string[]>();
  if (!cycle) return out;
  for (const e of store.byForeignKey('test_case_executions', 'testCycleId', cycle.id)) {
    const tc = store.get('test_cases', String(e.attributes.testCaseId));
    const key = String(tc?.attributes.automationKey ?? tc?.id);
    out.set(key, [...(out.get(key) ?? []), String(e.attributes.result)]);
  }
  return out;
}

export function cyclesNamed(emu: RunningEmulator, name: string): number {
  return [...emu.service.store.all('test_cycles')].filter((c) => c.attributes.name === name).length;
}

/** Publish tests measure requests, not the limit: a high limit unless a test sets one. */
export const publishEmulator = (opts: Parameters<typeof startEmulator>[0] = {}) =>
  startEmulator({ rateLimit: '100000/1m', ...opts });

/** afterEach of publish tests: clients, then emulators. */
export async function closeAll(): Promise<void> {
  await closeClients();
  await closeEmulators();
}
