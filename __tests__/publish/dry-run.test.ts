/**
 * The dry run's contract (docs/design.md "Dry run"): the requests it predicts are the requests the
 * real run then sends, for every combination of options. Each row builds two identical Spaces (the
 * same seed, the same history of publishes), runs the dry run on one and the real run on the
 * other, and compares the prediction (what the dry run read plus what it plans) with what the
 * second emulator counted. No faults are injected: a 412 race or a retry costs requests no plan
 * can know of (docs/design.md "Dry run").
 */
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { publishTraced } from '../../src/job/index.js';
import { silentLogger } from '../../src/shared/redact.js';
import { coverageSettings, traceSettings } from '../../src/traceability/index.js';
import {
  addQuarantine,
  publishSettings,
  settingsFrom,
  sync,
  syncSettings,
} from '../../src/publish/index.js';
import type { Outcome, ParsedReport } from '../../src/parsers/base/model.js';
import { OTHER_USER, OWNER, testSeed } from '../helpers/emulator.js';
import { clientOf, closeAll, publishEmulator, report, testOf } from '../helpers/publish.js';
import { NOW } from '../helpers/triage.js';

afterEach(closeAll);

type Settings = Record<string, unknown>;

interface Run {
  settings: Settings;
  /** The CI's run number: `Nightly {run_number}` names the cycles of a series. */
  run?: string;
  reports: ParsedReport[];
}

interface Row {
  name: string;
  seed: Seed;
  /** The Space's history: publishes (and quarantines) made on both Spaces before the plan. */
  before?: (Run | { quarantine: string; by?: 'rule' })[];
  /** The publish planned, then run. */
  publish: Run;
}

/** `count` tests Suite.test{i}; `fail` says which fail, `prefix` renames them (`Other.test{i}`). */
function tests(count: number, fail: (i: number) => boolean = () => false, prefix = 'Suite') {
  const outcome = (i: number): Outcome => (fail(i) ? 'failed' : 'passed');
  return [report(Array.from({ length: count }, (_, i) => testOf(prefix, `test${i}`, outcome(i))))];
}

/** A Space of `count` automated cases Suite.test{i}, owned by Ada and Bob in turn. */
function space(count: number, extra: Partial<Seed> = {}): Seed {
  return testSeed({
    customFields: [
      { name: 'component', entity: 'test_cases', type: 'string' },
      { name: 'quarantine', entity: 'test_cases', type: 'string' },
    ],
    testCases: Array.from({ length: count }, (_, i) => ({
      name: `case ${i}`,
      automationKey: `Suite.test${i}`,
      status: 'ACTIVE',
      ownerId: i % 2 ? OTHER_USER : OWNER,
    })),
    ...extra,
  });
}

const CI = { 'cycle-name': 'CI run' };
const NIGHTLY = { 'cycle-name': 'Nightly {run_number}' };
const nightly = (run: string, reports: ParsedReport[], settings: Settings = {}): Run => ({
  settings: { ...NIGHTLY, ...settings },
  run,
  reports,
});
/** Three nightlies in which test 1 flips (fail, pass, fail) and test 3 fails throughout. */
const FLIPPING = [
  nightly(
    '1',
    tests(6, (i) => i === 1 || i === 3),
  ),
  nightly(
    '2',
    tests(6, (i) => i === 3),
  ),
  nightly(
    '3',
    tests(6, (i) => i === 1 || i === 3),
  ),
];

/** Tests Suite.test{i} that name requirements: test i names DEMO-REQ{i % 3 + 1}, test 0 also an unknown one. */
function traced(count: number, fail: (i: number) => boolean = () => false) {
  return [
    report(
      Array.from({ length: count }, (_, i) =>
        testOf('Suite', `test${i}`, fail(i) ? 'failed' : 'passed', {
          properties: { requirements: `DEMO-REQ${(i % 3) + 1}${i === 0 ? ',DEMO-REQ99' : ''}` },
        }),
      ),
    ),
  ];
}
const REQUIREMENTS = {
  requirements: ['Sign in', 'Sign out', 'Audit'].map((name) => ({ name, status: 'APPROVED' })),
};
const TRACE = { ...CI, trace: true };

const ROWS: Row[] = [
  {
    name: 'trace: links added to known cases, an unknown key reported',
    seed: space(10, REQUIREMENTS),
    publish: { settings: TRACE, reports: traced(10) },
  },
  {
    name: 'trace: a re-run with every link there',
    seed: space(10, REQUIREMENTS),
    before: [{ settings: TRACE, reports: traced(10) }],
    publish: { settings: TRACE, reports: traced(10, (i) => i === 4) },
  },
  {
    name: 'trace with create-missing-cases: the new cases linked too',
    seed: space(6, REQUIREMENTS),
    publish: { settings: { ...TRACE, 'create-missing-cases': true }, reports: traced(9) },
  },
  {
    name: 'a new cycle, every case known',
    seed: space(20),
    publish: { settings: CI, reports: tests(20, (i) => i % 3 === 0) },
  },
  {
    name: 'an existing ACTIVE cycle: results changed and added',
    seed: space(20),
    before: [{ settings: CI, reports: tests(10) }],
    publish: { settings: CI, reports: tests(20, (i) => i % 4 === 0) },
  },
  {
    name: 'a re-run with nothing to write',
    seed: space(20),
    before: [{ settings: CI, reports: tests(20, (i) => i === 2) }],
    publish: { settings: CI, reports: tests(20, (i) => i === 2) },
  },
  {
    name: 'an existing cycle by cycle-key',
    seed: space(10, { testCycles: [{ name: 'Release 1', status: 'ACTIVE' }] }),
    publish: { settings: { 'cycle-key': 'DEMO-R1' }, reports: tests(10, (i) => i === 2) },
  },
  {
    name: 'a DRAFT cycle is made ACTIVE',
    seed: space(10, { testCycles: [{ name: 'CI run', status: 'DRAFT' }] }),
    publish: { settings: CI, reports: tests(10) },
  },
  {
    name: 'an IN_PROGRESS cycle is made ACTIVE, then closed',
    seed: space(10, { testCycles: [{ name: 'CI run', status: 'IN_PROGRESS' }] }),
    publish: { settings: { ...CI, 'close-cycle': true }, reports: tests(10) },
  },
  {
    name: 'a DONE cycle reopened',
    seed: space(10, { testCycles: [{ name: 'CI run', status: 'DONE' }] }),
    publish: { settings: { ...CI, 'reopen-done-cycle': true }, reports: tests(10) },
  },
  {
    name: 'close-cycle on a new cycle',
    seed: space(10),
    publish: { settings: { ...CI, 'close-cycle': true }, reports: tests(10) },
  },
  {
    name: 'close-cycle on an existing ACTIVE cycle',
    seed: space(10),
    before: [{ settings: CI, reports: tests(5) }],
    publish: { settings: { ...CI, 'close-cycle': true }, reports: tests(10) },
  },
  {
    name: 'create-missing-cases: 153 tests, no case yet',
    seed: space(0),
    publish: {
      settings: { ...CI, 'create-missing-cases': true },
      reports: tests(153, (i) => i % 10 === 0),
    },
  },
  {
    name: 'create-missing-cases beside known cases, into an existing cycle, then closed',
    seed: space(10),
    before: [{ settings: CI, reports: tests(10) }],
    publish: {
      settings: { ...CI, 'create-missing-cases': true, 'close-cycle': true },
      reports: [...tests(10), ...tests(5, (i) => i === 0, 'Other')],
    },
  },
  {
    name: 'a Space keyed by the old template: the hint, and no case created',
    seed: space(12),
    publish: {
      settings: { ...CI, 'create-missing-cases': true },
      reports: [
        report(
          Array.from({ length: 12 }, (_, i) =>
            testOf('Suite', `test${i}`, 'passed', { file: 'tests/suite.py' }),
          ),
        ),
      ],
    },
  },
  {
    name: 'sync: cases created and renamed before the results',
    seed: space(10),
    publish: { settings: { ...CI, sync: true }, reports: tests(14, (i) => i === 12) },
  },
  {
    // Most tests match no case yet: sync creates theirs, so the run looks up no other key template.
    name: 'sync into a Space that has few of the cases yet',
    seed: space(3),
    publish: {
      settings: { ...CI, sync: true, 'max-failed': 1 },
      reports: tests(8, (i) => i === 5),
    },
  },
  {
    name: 'sync and create-missing-cases',
    seed: space(5),
    publish: {
      settings: { ...CI, sync: true, 'create-missing-cases': true },
      reports: tests(8),
    },
  },
  {
    name: 'thresholds: min-pass-rate and max-failed',
    seed: space(10),
    publish: {
      settings: { ...CI, 'min-pass-rate': 90, 'max-failed': 0 },
      reports: tests(10, (i) => i === 4),
    },
  },
  {
    name: 'max-pass-rate-drop: the first cycle of its series',
    seed: space(6),
    publish: nightly(
      '1',
      tests(6, (i) => i === 1),
      { 'max-pass-rate-drop': 5 },
    ),
  },
  {
    name: 'max-pass-rate-drop against the previous nightly, one test quarantined',
    seed: space(6),
    before: [...FLIPPING, { quarantine: 'DEMO-T4' }],
    publish: nightly(
      '4',
      tests(6, (i) => i === 3),
      { 'max-pass-rate-drop': 5 },
    ),
  },
  {
    name: 'max-new-failures: the first cycle of its series',
    seed: space(6),
    publish: nightly(
      '1',
      tests(6, (i) => i === 1),
      { 'max-new-failures': 0 },
    ),
  },
  {
    name: 'max-new-failures against the previous nightly, with fixed tests',
    seed: space(6),
    before: FLIPPING,
    publish: nightly(
      '4',
      tests(6, (i) => i === 2),
      { 'max-new-failures': 0 },
    ),
  },
  ...[
    ['key', 'DEMO-R2'],
    ['name', 'Nightly 2'],
    ['pattern', 'Nightly *'],
  ].map(([by, baseline]) => ({
    name: `max-new-failures against a baseline-cycle ${by}`,
    seed: space(6),
    before: FLIPPING,
    publish: {
      settings: { ...CI, 'max-new-failures': 0, 'baseline-cycle': baseline },
      reports: tests(6, (i) => i === 1),
    },
  })),
  {
    name: 'max-new-failures with 230 failing tests (paged reads)',
    seed: space(260),
    before: [
      nightly(
        '1',
        tests(260, (i) => i % 2 === 0),
      ),
    ],
    publish: nightly(
      '2',
      tests(260, (i) => i < 230),
      { 'max-new-failures': 300 },
    ),
  },
  {
    name: 'auto-quarantine quarantines a test that flipped',
    seed: space(6),
    before: FLIPPING.slice(0, 2),
    publish: nightly(
      '3',
      tests(6, (i) => i === 1 || i === 3),
      {
        'auto-quarantine': '2/10',
        'max-failed': 0,
      },
    ),
  },
  {
    name: 'auto-quarantine on the first cycle of a series',
    seed: space(6),
    publish: nightly(
      '1',
      tests(6, (i) => i === 1),
      { 'auto-quarantine': '2/10' },
    ),
  },
  {
    name: 'release-after releases what the rule quarantined',
    seed: space(6),
    before: [
      ...FLIPPING,
      { quarantine: 'DEMO-T2', by: 'rule' },
      nightly(
        '4',
        tests(6, (i) => i === 3),
      ),
    ],
    publish: nightly(
      '5',
      tests(6, (i) => i === 3),
      { 'release-after': 2, 'max-failed': 5 },
    ),
  },
  {
    name: 'auto-quarantine and release-after with 40 failing tests over five nightlies',
    seed: space(60),
    before: [1, 2, 3, 4].map((n) =>
      nightly(
        String(n),
        tests(60, (i) => (i + n) % 2 === 0 && i < 40),
      ),
    ),
    publish: nightly(
      '5',
      tests(60, (i) => i < 40),
      {
        'auto-quarantine': '2/10',
        'release-after': 2,
      },
    ),
  },
  {
    name: 'notify owners of new failures',
    seed: space(6),
    before: FLIPPING,
    publish: nightly(
      '4',
      tests(6, (i) => i < 3),
      { notify: 'owners' },
    ),
  },
  {
    name: 'notify-users of new failures on cases this run creates',
    seed: space(4),
    before: [nightly('1', tests(4))],
    publish: nightly('2', [...tests(4), ...tests(3, () => true, 'Other')], {
      'notify-users': 'bob@example.com',
      'create-missing-cases': true,
    }),
  },
  {
    name: 'a Space that does not define the quarantine field',
    seed: { ...space(6), customFields: [] },
    before: [
      nightly(
        '1',
        tests(6, (i) => i === 2),
      ),
    ],
    publish: nightly(
      '2',
      tests(6, (i) => i === 1),
      { 'max-new-failures': 1 },
    ),
  },
  {
    name: 'gate-filter',
    seed: space(6),
    publish: {
      settings: { ...CI, 'min-pass-rate': 50, 'gate-filter': 'result != "SKIPPED"' },
      reports: tests(6, (i) => i === 1),
    },
  },
  {
    name: 'merge worst and error-as BLOCKED into an existing cycle',
    seed: space(12),
    before: [{ settings: CI, reports: tests(12, (i) => i < 4) }],
    publish: {
      settings: { ...CI, merge: 'worst', 'error-as': 'BLOCKED', 'max-blocked': 0 },
      reports: [
        report(
          Array.from({ length: 12 }, (_, i) =>
            testOf('Suite', `test${i}`, i % 3 === 0 ? 'error' : 'passed'),
          ),
        ),
      ],
    },
  },
  {
    name: 'a re-run with nothing to write, every triage option on',
    seed: space(6),
    before: [
      ...FLIPPING,
      nightly(
        '4',
        tests(6, (i) => i === 1 || i === 3),
        {
          'max-new-failures': 5,
          'auto-quarantine': '2/10',
          notify: 'owners',
        },
      ),
    ],
    publish: nightly(
      '4',
      tests(6, (i) => i === 1 || i === 3),
      {
        'max-new-failures': 5,
        'max-pass-rate-drop': 50,
        'auto-quarantine': '2/10',
        'release-after': 2,
        notify: 'owners',
      },
    ),
  },
  {
    name: '150 tests, 8 quarantined, trend and new failures',
    seed: space(150),
    before: [
      nightly(
        '1',
        tests(150, (i) => i % 5 === 0),
      ),
      ...[0, 10, 20, 30, 40, 50, 60, 70].map((n) => ({ quarantine: `DEMO-T${n + 1}` })),
    ],
    publish: nightly(
      '2',
      tests(150, (i) => i % 3 === 0),
      {
        'max-new-failures': 100,
        'max-pass-rate-drop': 50,
        notify: 'owners',
      },
    ),
  },
  {
    name: 'everything at once',
    seed: space(8),
    before: [...FLIPPING, { quarantine: 'DEMO-T6' }],
    publish: nightly(
      '4',
      [...tests(8, (i) => i === 1 || i === 2), ...tests(2, () => true, 'New')],
      {
        sync: true,
        'create-missing-cases': true,
        'close-cycle': true,
        'min-pass-rate': 50,
        'max-pass-rate-drop': 30,
        'max-new-failures': 5,
        'auto-quarantine': '2/10',
        'release-after': 3,
        notify: 'owners',
        'notify-users': 'ada@example.com',
      },
    ),
  },
];

/** As the publish job runs it: the pipeline, then --trace and the coverage thresholds (src/job). */
async function publishOn(emu: RunningEmulator, run: Run, extra: Settings = {}) {
  const src = settingsFrom({ ...run.settings, ...extra });
  const settings = publishSettings(src, { TESTCYCLE_RUN_NUMBER: run.run ?? '1' });
  return publishTraced(
    clientOf(emu),
    { ...settings, gate: { ...settings.gate, now: () => NOW }, reports: run.reports },
    { trace: traceSettings(src), coverage: coverageSettings(src) },
    { logger: silentLogger },
  );
}

/** A Space with the row's seed and history, its request counts then set to zero. */
async function spaceOf(row: Row): Promise<RunningEmulator> {
  const emu = await publishEmulator({ seed: row.seed });
  for (const step of row.before ?? []) {
    if ('quarantine' in step)
      await addQuarantine(clientOf(emu), {
        field: 'quarantine',
        caseKey: step.quarantine,
        reason: 'flaky',
        now: () => NOW,
        ...(step.by ? { by: 'rule:auto-quarantine' } : {}),
      });
    else await publishOn(emu, step);
  }
  emu.resetStats();
  return emu;
}

const WRITES = ['POST', 'PATCH', 'DELETE'];

test.each(ROWS)('the dry run predicts the requests of the run: $name', async (row) => {
  const [planned, real] = await Promise.all([spaceOf(row), spaceOf(row)]);
  const dry = await publishOn(planned, row.publish, { 'dry-run': true });
  const read = planned.stats();
  expect(WRITES.map((m) => read.byMethod[m] ?? 0)).toEqual([0, 0, 0]);
  const run = await publishOn(real, row.publish);
  expect(run.requests.total).toBe(real.stats().total);
  expect({ predicted: read.total + dry.dryRun!.plannedRequests }).toEqual({
    predicted: real.stats().total,
  });
});

/** Sync's plan (docs/design.md "Sync"): the same contract, on its own rows. */
interface SyncRow {
  name: string;
  seed: Seed;
  flags: Settings;
  reports: ParsedReport[];
}

const stepsOf = (i: number, n: number) =>
  Array.from({ length: n }, (_, s) => ({ action: `step ${s} of ${i}`, expectedResult: 'ok' }));
/** Cases keyed `{classname}.{name}` and named after their keys, with a step each. */
const keyed = (count: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => ({
    name: `Suite.test${i}`,
    automationKey: `Suite.test${i}`,
    automationStatus: 'AUTOMATED',
    status: 'ACTIVE',
    ...extra,
  }));
const withSteps = (count: number, steps: number, from = 0) => [
  report(
    Array.from({ length: count }, (_, i) =>
      testOf('Suite', `test${from + i}`, 'passed', { steps: stepsOf(from + i, steps) }),
    ),
  ),
];

const SYNC_ROWS: SyncRow[] = [
  {
    name: 'new cases with their steps',
    seed: testSeed({ testCases: keyed(3) }),
    flags: {},
    reports: withSteps(6, 3),
  },
  {
    name: 'steps added, changed and removed',
    seed: testSeed({ testCases: keyed(4) }),
    flags: {},
    reports: [
      report([
        testOf('Suite', 'test0', 'passed', { steps: stepsOf(0, 2) }),
        testOf('Suite', 'test1', 'passed', { steps: stepsOf(9, 1) }),
      ]),
    ],
  },
  {
    name: 'retire-missing and renames',
    seed: testSeed({
      testCases: keyed(10).map((c, i) => (i < 3 ? { ...c, name: `old ${i}` } : c)),
    }),
    flags: { 'retire-missing': true, 'retire-max': 5 },
    reports: tests(7),
  },
  {
    name: 'migrate-keys',
    seed: testSeed({
      testCases: keyed(5).map((c, i) => ({ ...c, automationKey: `Suite test${i}` })),
    }),
    flags: { 'migrate-keys': '{classname} {name}' },
    reports: tests(5),
  },
  {
    name: 'case-fields: owner and priority from properties',
    seed: testSeed({ testCases: keyed(3) }),
    flags: { 'case-fields': 'owner=property:owner,priority=property:priority' },
    reports: [
      report(
        Array.from({ length: 5 }, (_, i) =>
          testOf('Suite', `test${i}`, 'passed', {
            properties: { owner: 'bob@example.com', priority: 'HIGH' },
          }),
        ),
      ),
    ],
  },
];

test.each(SYNC_ROWS)('the sync dry run predicts the requests of the sync: $name', async (row) => {
  const [planned, real] = await Promise.all(
    [0, 1].map(() =>
      spaceOf({ name: row.name, seed: row.seed, publish: { settings: {}, reports: [] } }),
    ),
  );
  const run = (emu: RunningEmulator, dryRun: boolean) =>
    sync(clientOf(emu), {
      ...syncSettings(settingsFrom({ ...row.flags, 'dry-run': dryRun }), {}),
      reports: row.reports,
    });
  const dry = await run(planned!, true);
  const read = planned!.stats();
  expect(WRITES.map((m) => read.byMethod[m] ?? 0)).toEqual([0, 0, 0]);
  await run(real!, false);
  expect({ predicted: read.total + dry.plannedRequests }).toEqual({
    predicted: real!.stats().total,
  });
});
