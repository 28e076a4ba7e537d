/**
 * Names a pull request can shape (branch and test names) never become FiltrQL the service
 * evaluates, and never redirect results. Against the emulator, which evaluates
 * `{$...}` inside string literals as docs/service-api.md 4.2 says.
 */
import { ConfigError } from '../../src/shared/errors.js';
import { gateSettings, publish, publishSettings, settingsFrom } from '../../src/publish/index.js';
import {
  caseSeed,
  clientOf,
  closeAll,
  cyclesNamed,
  executionsOf,
  options,
  publishEmulator,
  report,
  testOf,
} from '../helpers/publish.js';

const emulator = publishEmulator;

afterEach(closeAll);

/** `testcycle publish --cycle-name TEMPLATE` on a branch named `branch`. */
function onBranch(template: string, branch: string, extra: Record<string, unknown> = {}) {
  return publishSettings(settingsFrom({ 'cycle-name': template, ...extra }), {
    GITHUB_REF_NAME: branch,
  });
}

test('a branch named {$"main"} publishes into its own cycle: the cycle named main keeps its FAILED result', async () => {
  const emu = await emulator({ seed: caseSeed(1) });
  const failing = report([testOf('Suite', 'test0', 'failed')]);
  const passing = report([testOf('Suite', 'test0', 'passed')]);
  await publish(clientOf(emu), { ...onBranch('{branch}', 'main'), reports: [failing] });

  const hostile = await publish(clientOf(emu), {
    ...onBranch('{branch}', '{$"main"}', { 'min-pass-rate': '100' }),
    reports: [passing],
  });

  expect(hostile.cycle.name).toBe('{$"main"}');
  expect(executionsOf(emu, 'main').get('Suite.test0')).toEqual(['FAILED']);
  expect(executionsOf(emu, '{$"main"}').get('Suite.test0')).toEqual(['PASSED']);
  expect(cyclesNamed(emu, 'main')).toBe(1);
});

test.each(['x{$startOfDay()}', '{$currentUser()}', 'a{${$"b"}}'])(
  'a cycle named from branch %s publishes three times into one cycle',
  async (branch) => {
    const emu = await emulator({ seed: caseSeed(2) });
    const reports = [
      report([testOf('Suite', 'test0', 'passed'), testOf('Suite', 'test1', 'failed')]),
    ];
    for (let run = 0; run < 3; run++) {
      const result = await publish(clientOf(emu), { ...onBranch('PR {branch}', branch), reports });
      expect(result.cycle.name).toBe(`PR ${branch}`);
      expect(result.writes.created).toBe(run === 0 ? 2 : 0);
    }
    expect(cyclesNamed(emu, `PR ${branch}`)).toBe(1);
  },
);

test('test names holding {$...} create their cases once and publish idempotently, beside ordinary names', async () => {
  const emu = await emulator({ seed: caseSeed(1) });
  const names = ['test0', 'embed {$currentUser()}', 'embed {$123}', 'x {$"test0"}', 'trail {$'];
  const reports = [report(names.map((n) => testOf('Suite', n, 'failed')))];
  const created: number[] = [];
  // A new cycle each run, so every run looks its cases up (a re-run into one cycle reads them from it).
  for (let run = 0; run < 3; run++) {
    const settings = options(reports, {
      match: { ...options([]).match, createMissingCases: true },
      cycle: { ...options([]).cycle, name: `CI run ${run}` },
    });
    const result = await publish(clientOf(emu), settings);
    expect(result.unmatched).toEqual([]);
    created.push(result.writes.casesCreated);
    const state = executionsOf(emu, `CI run ${run}`);
    expect([...state.keys()].sort()).toEqual(names.map((n) => `Suite.${n}`).sort());
    expect([...state.values()].every((results) => results.length === 1)).toBe(true);
  }
  expect(created).toEqual([4, 0, 0]);
});

test('a --gate-filter that closes its own parentheses is refused before any request', () => {
  const attempt = () =>
    gateSettings(settingsFrom({ 'gate-filter': 'result = "PASSED") OR (testCycleId is not null' }));
  expect(attempt).toThrow(ConfigError);
  expect(attempt).toThrow(/^gate-filter: a '\)' closes nothing, found "\)" at character 18/);
});
