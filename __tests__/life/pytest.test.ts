/**
 * A pytest project's life, replayed: samples/pytest-life/steps holds, for each commit, the project's
 * files and the junit.xml the real pytest wrote (samples/pytest-life/regenerate.sh), since pytest
 * cannot be installed where the suite runs. After each step the report is synced (`sync
 * --retire-missing --follow-renames`, its source check reading that step's files) and published
 * (the README's threshold and `--runner-exit-code` from pytest's exit code) through the CLI, on two
 * Spaces (__tests__/life/life.ts), and each Space is checked against pytest's own counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closeEmulators, testSeed } from '../helpers/emulator.js';
import {
  checkSpace,
  cli,
  LANES,
  startLane,
  type Lane,
  type Result,
  type RunnerRun,
} from './life.js';

const STEPS = resolve('samples/pytest-life/steps');
/** A step replays a report into two Spaces: a second or two, not the default 30 s cap. */
const STEP_MS = 60_000;

/** What pytest said of one step: its exit code, its closing counts, and each test it reported. */
function pytestRun(step: string): RunnerRun & { junit: string; workspace: string } {
  const dir = join(STEPS, step);
  const { exitCode } = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as {
    exitCode: number;
  };
  // pytest's own counts, from its closing line: "== 1 failed, 3 passed, 1 deselected in 0.03s ==".
  const closing = readFileSync(join(dir, 'console.txt'), 'utf8').trim().split('\n').at(-1)!;
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(closing)?.[1] ?? 0);
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  // Each <testcase> of a module (a collection error has no classname: it is no test).
  const tests = [
    ...junit.matchAll(
      /<testcase classname="([^"]+)" name="([^"]+)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g,
    ),
  ].map((m) => ({
    key: `${m[1]}.${m[2]}`,
    result: (/<failure|<error/.test(m[4] ?? '')
      ? 'FAILED'
      : /<skipped/.test(m[4] ?? '')
        ? 'SKIPPED'
        : 'PASSED') as Result,
  }));
  return {
    exitCode,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    tests,
    junit: join(dir, 'junit.xml'),
    workspace: join(dir, 'workspace'),
  };
}

const lanes: Lane[] = [];
beforeAll(async () => {
  for (const name of LANES) lanes.push(await startLane(name, testSeed(), 11));
});
afterAll(async () => {
  for (const lane of lanes) await lane.close();
  await closeEmulators();
});

const steps = readdirSync(STEPS).sort();

/** Sync, then publish, on every lane, then each Space against pytest. */
async function replay(step: string, change: Parameters<typeof checkSpace>[3] = {}) {
  const run = pytestRun(step);
  const out = [];
  for (const lane of lanes) {
    const common = ['--report', run.junit, '--workspace', run.workspace];
    const sync = await cli(lane, ['sync', ...common, '--retire-missing', '--follow-renames']);
    expect([lane.name, step, sync.code]).toEqual([lane.name, step, 0]);
    const publish = await cli(lane, [
      'publish',
      ...common,
      '--cycle-name',
      `Pytest ${step}`,
      '--min-pass-rate',
      '95',
      '--runner-exit-code',
      String(run.exitCode),
    ]);
    // Red exactly when pytest was red.
    expect([lane.name, step, publish.code]).toEqual([lane.name, step, run.exitCode === 0 ? 0 : 1]);
    checkSpace(lane, run, `Pytest ${step}`, change);
    out.push({ lane, sync, publish });
  }
  return { run, out };
}

const key = (module: string, test: string) => `tests.${module}.${test}`;

test('the recorded steps are the life this test replays', () => {
  expect(steps).toEqual([
    '01-add',
    '02-deselect',
    '03-collection-error',
    '04-collection-error-continued',
    '05-rename',
    '06-delete',
    '07-same-names',
  ]);
});

test(
  "01 add: every test one case, the cycle holds pytest's results",
  async () => {
    const { run, out } = await replay('01-add');
    expect(run).toMatchObject({ exitCode: 0, passed: 8, failed: 0 });
    for (const { sync } of out) expect(sync.json.created).toHaveLength(8);
  },
  STEP_MS,
);

test(
  '02 -m "not slow": the deselected test is not in the report, and its case is kept (its function still stands)',
  async () => {
    const { run, out } = await replay('02-deselect');
    expect(run).toMatchObject({ exitCode: 0, passed: 7 });
    for (const { sync } of out)
      expect(sync.json.retire.candidates).toEqual([
        expect.objectContaining({
          automationKey: key('test_cart', 'test_checks_out_slowly'),
          verdict: 'kept',
          reason: expect.stringMatching(/still declares it/),
        }),
      ]);
  },
  STEP_MS,
);

test(
  '03 a collection error, pytest stopped (exit 2): the report holds no test; sync and publish refuse it before any request',
  async () => {
    const run = pytestRun('03-collection-error');
    expect(run).toMatchObject({ exitCode: 2, tests: [] });
    for (const lane of lanes) {
      const common = ['--report', run.junit, '--workspace', run.workspace];
      const sync = await cli(lane, ['sync', ...common, '--retire-missing']);
      const publish = await cli(lane, [
        'publish',
        ...common,
        '--cycle-name',
        'Pytest 03-collection-error',
        '--runner-exit-code',
        '2',
      ]);
      expect([sync.code, sync.requests, publish.code, publish.requests]).toEqual([4, 0, 4, 0]);
      expect(publish.err).toContain('collection failure: ModuleNotFoundError');
    }
  },
  STEP_MS,
);

test(
  "04 a collection error, pytest went on (exit 1): red, the module's cases kept, the rest recorded",
  async () => {
    const { run, out } = await replay('04-collection-error-continued');
    expect(run).toMatchObject({ exitCode: 1, passed: 6, failed: 0 });
    for (const { sync } of out)
      expect(
        (sync.json.retire.candidates as { automationKey: string; verdict: string }[])
          .map((c) => [c.automationKey, c.verdict])
          .sort(),
      ).toEqual([
        [key('test_price', 'test_formats_a_currency'), 'kept'],
        [key('test_price', 'test_rounds_half_up'), 'kept'],
      ]);
  },
  STEP_MS,
);

test(
  '05 rename a test function: its case follows, with its history',
  async () => {
    await replay('05-rename', {
      renamed: [
        [key('test_cart', 'test_removes_an_item'), key('test_cart', 'test_removes_one_item')],
      ],
    });
    for (const lane of lanes) {
      const id = lane.ids.get(key('test_cart', 'test_removes_one_item'))!;
      // 01, 02, 04 and 05: every cycle it ran in (03 wrote none).
      expect(
        lane.emu.service.store.byForeignKey('test_case_executions', 'testCaseId', id),
      ).toHaveLength(4);
    }
  },
  STEP_MS,
);

test(
  '06 delete a test and a module: exactly their cases are archived',
  async () => {
    await replay('06-delete', {
      deleted: [
        key('test_cart', 'test_adds_an_item'),
        key('test_price', 'test_rounds_half_up'),
        key('test_price', 'test_formats_a_currency'),
      ],
    });
  },
  STEP_MS,
);

test(
  '07 the same function name in two modules: two tests, two cases, the failure counted',
  async () => {
    const { run } = await replay('07-same-names');
    expect(run).toMatchObject({ exitCode: 1, passed: 6, failed: 1 });
  },
  STEP_MS,
);
