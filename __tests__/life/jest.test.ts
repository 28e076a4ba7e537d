/**
 * A jest project's life, for real: a temporary project of plain CommonJS test files, taken through
 * a sequence of commits, each run by the real jest of node_modules with the README's PR recipe
 * (jest-junit with addFileAttribute and reportTestSuiteErrors, beside jest's own --json), then
 * synced (`sync --retire-missing --follow-renames`) and published (the recipe's threshold and
 * `--runner-exit-code` from jest's real exit code) through the CLI, on two Spaces
 * (__tests__/life/life.ts). After each step both Spaces are checked against jest's own JSON. The
 * same jest run also writes jest-junit's defaults, as the README's GitLab recipe runs it, and that
 * recipe's publish must be red whenever jest was. One jest process per step; every Space reads the
 * same reports.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, testSeed } from '../helpers/emulator.js';
import { editByHand } from '../helpers/sync.js';
import {
  caseText,
  checkSpace,
  cli,
  LANES,
  startLane,
  writeStep,
  type CliRun,
  type Lane,
  type Result,
  type RunnerRun,
} from './life.js';

/** A step runs jest once and publishes into two Spaces: seconds, not the default 30 s cap. */
const STEP_MS = 120_000;

const require = createRequire(import.meta.url);
const JEST = join(dirname(require.resolve('jest/package.json')), 'bin/jest.js');
const JEST_JUNIT = dirname(require.resolve('jest-junit/package.json'));

const root = mkdtempSync(join(tmpdir(), 'testcycle-life-jest-'));
/** The checkout the tests run in (the last step moves it to another root path). */
let ws = join(root, 'checkout');
mkdirSync(ws);

const write = (file: string, text: string) => {
  mkdirSync(dirname(join(ws, file)), { recursive: true });
  writeFileSync(join(ws, file), text);
};

/** A test file: one describe, its tests (a body that passes unless given). */
function suite(describe: string, tests: (string | [string, string])[], head = ''): string {
  const body = tests.map((t) =>
    typeof t === 'string'
      ? `  test(${JSON.stringify(t)}, () => {\n    expect([1].concat(2)).toEqual([1, 2]);\n  });`
      : `  test(${JSON.stringify(t[0])}, () => {\n${t[1]}\n  });`,
  );
  return `${head}describe(${JSON.stringify(describe)}, () => {\n${body.join('\n')}\n});\n`;
}

const FAILS = '    expect(0.1 + 0.2).toBe(0.3);';
/** A test that fails on its first try and passes on its second, under jest.retryTimes. */
const FLAKY: [string, string] = [
  'keeps the basket',
  '    tries += 1;\n    expect(tries).toBeGreaterThan(1);',
];
const RETRIED = 'jest.retryTimes(2);\nlet tries = 0;\n\n';

interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    assertionResults: { fullName?: string; title?: string; status: string }[];
  }[];
}

const RESULT: Record<string, Result> = {
  passed: 'PASSED',
  failed: 'FAILED',
  pending: 'SKIPPED',
  skipped: 'SKIPPED',
  todo: 'SKIPPED',
  disabled: 'SKIPPED',
};
const CASE_KEY = /\bDEMO-T\d+\b/;

let stepNo = 0;
/** Runs the real jest on the checkout: its exit code, its JSON, and the reports' paths. */
async function runJest(args: string[] = []) {
  const out = join(root, `run-${String(++stepNo).padStart(2, '0')}`);
  mkdirSync(out);
  const json = join(out, 'jest.json');
  const config = {
    testMatch: ['<rootDir>/**/*.test.js'],
    transform: {},
    cacheDirectory: join(root, 'cache'),
    reporters: [
      // The GitLab recipe's: jest-junit's defaults (no file, nothing of a file that fails to load).
      // First: the one after it adds an entry to jest's shared results for such a file, which
      // any reporter after it (and --json) reads.
      [JEST_JUNIT, { outputDirectory: out, outputName: 'junit-defaults.xml' }],
      // The PR recipe's (JEST_JUNIT_ADD_FILE_ATTRIBUTE, JEST_JUNIT_REPORT_TEST_SUITE_ERRORS; given
      // here as the same options, since those variables would set every jest-junit of the run):
      // each test's file, and a file that fails to load, in the report.
      [
        JEST_JUNIT,
        {
          outputDirectory: out,
          outputName: 'junit.xml',
          addFileAttribute: 'true',
          reportTestSuiteErrors: 'true',
        },
      ],
    ],
  };
  const exitCode = await new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      [
        JEST,
        '--ci',
        '--runInBand',
        '--no-watchman',
        '--config',
        JSON.stringify(config),
        '--rootDir',
        ws,
        '--json',
        '--outputFile',
        json,
        ...args,
      ],
      { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: root } },
      (error) => resolve(error ? Number((error as { code?: number }).code ?? 1) : 0),
    );
  });
  const report = JSON.parse(readFileSync(json, 'utf8')) as JestJson;
  const run: RunnerRun = {
    exitCode,
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    tests: report.testResults.flatMap((file) =>
      file.assertionResults
        // jest-junit's reportTestSuiteErrors adds an untitled entry for a file that did not load.
        .filter((a) => typeof a.title === 'string')
        .map((a) => {
          const explicit = CASE_KEY.exec(a.fullName!)?.[0];
          return {
            key: `${relative(ws, file.name).split('\\').join('/')} › ${a.fullName!}`,
            ...(explicit ? { explicit } : {}),
            result: RESULT[a.status]!,
          };
        }),
    ),
  };
  return { run, junit: join(out, 'junit.xml'), json, defaults: join(out, 'junit-defaults.xml') };
}

/** The person's Space: a manual case with written steps, and another team's automated cases. */
const SEED = testSeed({
  testCases: [
    { name: 'Cart: apply a discount', automationStatus: 'MANUAL', status: 'ACTIVE' },
    {
      name: 'Payments refunds a card',
      automationKey: 'payments/refund.test.js › Payments refunds a card',
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    },
    {
      name: 'com.other.team.LoginTest.signsIn',
      automationKey: 'com.other.team.LoginTest.signsIn',
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    },
  ],
});

const lanes: Lane[] = [];
/** The Space of a team on the README's GitLab recipe, its cases kept by a plain sync. */
let gitlab: Lane;
/** What the person wrote, per lane, as it stood when written. */
const written = new Map<Lane, Map<string, Partial<ReturnType<typeof caseText>>>>();

beforeAll(async () => {
  gitlab = await startLane('emulator', testSeed());
  for (const name of LANES) {
    const lane = await startLane(name, SEED);
    lanes.push(lane);
    const manual = [...lane.emu.service.store.all('test_cases')].find(
      (c) => c.attributes.testCaseKey === 'DEMO-T1',
    )!;
    await writeStep(lane, manual.id, {
      action: 'Add a 100 EUR item and the code TENOFF',
      expectedResult: 'The total is 90 EUR',
      sequenceNumber: 1,
    });
    await writeStep(lane, manual.id, {
      action: 'Remove the code',
      expectedResult: 'The total is 100 EUR again',
      sequenceNumber: 2,
    });
    written.set(lane, new Map([[manual.id, caseText(lane, manual.id)]]));
  }
});

afterAll(async () => {
  for (const lane of [...lanes, gitlab]) await lane?.close();
  await closeEmulators();
  rmSync(root, { recursive: true, force: true });
});

/**
 * Sync, then publish, on every lane; then the Space against jest. Returns each lane's runs.
 */
async function publishStep(
  step: string,
  jestRun: Awaited<ReturnType<typeof runJest>>,
  change: Parameters<typeof checkSpace>[3] & { cycle?: string } = {},
) {
  const { run, junit } = jestRun;
  const cycle = change.cycle ?? `Life ${step}`;
  const out = [];
  for (const lane of lanes) {
    const sync = await cli(lane, [
      'sync',
      '--report',
      junit,
      '--workspace',
      ws,
      '--retire-missing',
      '--follow-renames',
    ]);
    expect([lane.name, step, sync.code, sync.json.failed]).toEqual([lane.name, step, 0, []]);
    const publish = await cli(lane, [
      'publish',
      '--report',
      junit,
      '--workspace',
      ws,
      '--cycle-name',
      cycle,
      '--min-pass-rate',
      '95',
      '--runner-exit-code',
      String(run.exitCode),
    ]);
    // The runner's verdict is the floor: red whenever jest was red, green only when it was green.
    expect([lane.name, step, publish.code]).toEqual([lane.name, step, run.exitCode === 0 ? 0 : 1]);
    const { created } = checkSpace(lane, run, cycle, change);
    if (lane.name === 'emulator') {
      // Requests are the cost: sync writes a POST per new case and a PATCH per case archived,
      // restored or following its renamed test; publish one cycle and a POST and a PATCH per result, or, on a
      // re-run, nothing. (Through the proxy a 412 costs a read and a write more.)
      const followed = (change.renamed ?? []).filter(([, to]) => !CASE_KEY.test(to)).length;
      expect([step, sync.writes]).toEqual([
        step,
        created + (change.deleted?.length ?? 0) + (change.restored?.length ?? 0) + followed,
      ]);
      expect([step, publish.writes]).toEqual([step, change.cycle ? 0 : 1 + 2 * run.tests.length]);
    }
    // What a person wrote before this step stands.
    for (const [id, text] of written.get(lane)!)
      expect([lane.name, step, caseText(lane, id)]).toEqual([
        lane.name,
        step,
        expect.objectContaining(text),
      ]);
    out.push({ lane, sync, publish });
  }
  // The README's GitLab recipe, on the same jest run: jest-junit's defaults, then `publish
  // --report junit.xml --cycle-name "MR {pr} {sha7}" --min-pass-rate 95 --runner-exit-code
  // "$status"`. Its report names no file and says nothing of a file that did not load, so only
  // jest's exit status tells the broken step; one name in two files is a key collision.
  const sha = createHash('sha1').update(cycle).digest('hex');
  const mr = { ...gitlab.env, GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '28', CI_COMMIT_SHA: sha };
  const common = ['--report', jestRun.defaults, '--workspace', ws];
  expect((await runCli(['sync', ...common], mr)).code).toBe(0);
  const recipe = await runCli(
    [
      'publish',
      ...common,
      '--cycle-name',
      'MR {pr} {sha7}',
      '--min-pass-rate',
      '95',
      '--runner-exit-code',
      String(run.exitCode),
    ],
    mr,
  );
  expect(['GitLab recipe', step, recipe.code]).toEqual([
    'GitLab recipe',
    step,
    run.exitCode === 0 ? 0 : 1,
  ]);
  return out;
}

const keyOf = (file: string, test: string) => `${file} › ${test}`;

/** Sync's retirement verdict on each unmatched case of this pipeline: key, verdict, why. */
const candidates = (sync: CliRun) =>
  (sync.json.retire.candidates as { automationKey: string; verdict: string; reason: string }[])
    .map((c) => [c.automationKey, c.verdict, c.reason])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));

/** The automation keys of this life's live AUTOMATED cases (another team's left out). */
const liveKeys = (lane: Lane) =>
  [...lane.emu.service.store.all('test_cases')]
    .filter(
      (c) => c.attributes.status !== 'ARCHIVED' && c.attributes.automationStatus === 'AUTOMATED',
    )
    .map((c) => String(c.attributes.automationKey ?? ''))
    .filter((key) => key.startsWith('src/'))
    .sort();

/** A renamed test's case holds the results of every cycle it ran in, under each of its names. */
function expectHistory(lane: Lane, key: string, cycles: number) {
  const id = lane.ids.get(key)!;
  const held = [...lane.emu.service.store.byForeignKey('test_case_executions', 'testCaseId', id)];
  expect([lane.name, key, held.length]).toEqual([lane.name, key, cycles]);
}

test(
  "1. add: every test gets one case, the manual case is linked by its key, the cycle holds jest's results",
  async () => {
    write(
      'src/cart.test.js',
      suite('Cart', ['adds an item', 'removes an item', 'applies a discount DEMO-T1']),
    );
    write('src/checkout.test.js', suite('Checkout', ['charges the card', 'sends a receipt']));
    write('src/price.test.js', suite('Price', ['rounds half up', 'formats a currency']));
    write('src/legacy.test.js', suite('Legacy', ['still works']));
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 8, failed: 0, skipped: 0 });
    const runs = await publishStep('add', jestRun);
    for (const { sync } of runs) expect(sync.json.created).toHaveLength(7);

    // The person, between commits: names a case and writes a step with its expected result.
    for (const lane of lanes) {
      const named = lane.ids.get(keyOf('src/cart.test.js', 'Cart adds an item'))!;
      editByHand(lane.emu, 'test_cases', named, { name: 'Cart: add an item' });
      lane.person?.names.set(named, 'Cart: add an item');
      const stepped = lane.ids.get(keyOf('src/checkout.test.js', 'Checkout charges the card'))!;
      await writeStep(lane, stepped, {
        action: 'Pay 10 EUR with the test card',
        expectedResult: 'The card is charged once',
        sequenceNumber: 1,
      });
      written.get(lane)!.set(named, { name: 'Cart: add an item' });
      written.get(lane)!.set(stepped, { steps: caseText(lane, stepped).steps });
    }
  },
  STEP_MS,
);

test(
  '2. rename a test, plainly and with its case key in its name: each keeps its case and history',
  async () => {
    write('src/price.test.js', suite('Price', ['rounds halves up', 'formats a currency']));
    write(
      'src/cart.test.js',
      suite('Cart', ['adds an item', 'removes an item', 'applies a percentage discount DEMO-T1']),
    );
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 8 });
    const runs = await publishStep('rename', jestRun, {
      renamed: [
        [
          keyOf('src/price.test.js', 'Price rounds half up'),
          keyOf('src/price.test.js', 'Price rounds halves up'),
        ],
        [
          keyOf('src/cart.test.js', 'Cart applies a discount DEMO-T1'),
          keyOf('src/cart.test.js', 'Cart applies a percentage discount DEMO-T1'),
        ],
      ],
    });
    for (const { sync } of runs) {
      expect(sync.json.created).toEqual([]);
      expect(sync.json.archived).toEqual([]);
      expect(sync.json.renames).toEqual([
        expect.objectContaining({
          to: keyOf('src/price.test.js', 'Price rounds halves up'),
          followed: true,
        }),
      ]);
    }
    for (const lane of lanes)
      expectHistory(lane, keyOf('src/price.test.js', 'Price rounds halves up'), 2);
  },
  STEP_MS,
);

test(
  '3. rename a describe: both its tests follow, with their history and the step a person wrote',
  async () => {
    write('src/checkout.test.js', suite('Payment', ['charges the card', 'sends a receipt']));
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 8 });
    await publishStep('describe', jestRun, {
      renamed: [
        [
          keyOf('src/checkout.test.js', 'Checkout charges the card'),
          keyOf('src/checkout.test.js', 'Payment charges the card'),
        ],
        [
          keyOf('src/checkout.test.js', 'Checkout sends a receipt'),
          keyOf('src/checkout.test.js', 'Payment sends a receipt'),
        ],
      ],
    });
    for (const lane of lanes)
      expectHistory(lane, keyOf('src/checkout.test.js', 'Payment charges the card'), 3);
  },
  STEP_MS,
);

test(
  '4. move a file: its tests follow it to the new file, with their history',
  async () => {
    mkdirSync(join(ws, 'src/money'));
    renameSync(join(ws, 'src/price.test.js'), join(ws, 'src/money/price.test.js'));
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 8 });
    const runs = await publishStep('move', jestRun, {
      renamed: [
        [
          keyOf('src/price.test.js', 'Price rounds halves up'),
          keyOf('src/money/price.test.js', 'Price rounds halves up'),
        ],
        [
          keyOf('src/price.test.js', 'Price formats a currency'),
          keyOf('src/money/price.test.js', 'Price formats a currency'),
        ],
      ],
    });
    for (const { lane, sync } of runs) {
      expect(sync.json.renames).toEqual([
        expect.objectContaining({ where: 'src/price.test.js → src/money/price.test.js' }),
        expect.objectContaining({ where: 'src/price.test.js → src/money/price.test.js' }),
      ]);
      expectHistory(lane, keyOf('src/money/price.test.js', 'Price rounds halves up'), 4);
    }
  },
  STEP_MS,
);

test(
  '5. a flaky test (jest.retryTimes) that passes on its second try is PASSED',
  async () => {
    write(
      'src/cart.test.js',
      suite(
        'Cart',
        ['adds an item', 'removes an item', 'applies a percentage discount DEMO-T1', FLAKY],
        RETRIED,
      ),
    );
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 9, failed: 0 });
    await publishStep('flaky', jestRun);
  },
  STEP_MS,
);

test(
  '6. a test file that fails to load: jest is red, so is the gate; its tests are kept, not archived',
  async () => {
    write(
      'src/checkout.test.js',
      suite('Payment', ['charges the card', 'sends a receipt']).replace(/\}\);\n$/, ''),
    );
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 1, passed: 7, failed: 0 });
    const runs = await publishStep('broken', jestRun);
    for (const { sync, publish } of runs) {
      expect(publish.json.runErrors).toEqual([
        expect.objectContaining({ file: 'src/checkout.test.js' }),
      ]);
      expect(candidates(sync)).toEqual([
        [
          'src/checkout.test.js › Payment charges the card',
          'kept',
          expect.stringMatching(
            /^a run error touched src\/checkout\.test\.js: Test suite failed to run/,
          ),
        ],
        [
          'src/checkout.test.js › Payment sends a receipt',
          'kept',
          expect.stringMatching(/^a run error touched/),
        ],
      ]);
    }
  },
  STEP_MS,
);

test(
  '7. a filtered run (-t): the tests left out are SKIPPED, none archived',
  async () => {
    write('src/checkout.test.js', suite('Payment', ['charges the card', 'sends a receipt']));
    const jestRun = await runJest(['-t', 'Cart']);
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 4, skipped: 5 });
    const runs = await publishStep('filtered', jestRun);
    // jest reports the tests -t left out as skipped: they match their cases, none is a candidate.
    for (const { sync } of runs) expect(candidates(sync)).toEqual([]);
  },
  STEP_MS,
);

test(
  "8. a shard (--shard 1/2): the other files' tests are not in the run, none archived",
  async () => {
    const jestRun = await runJest(['--shard', '1/2']);
    expect(jestRun.run.exitCode).toBe(0);
    expect(jestRun.run.tests.length).toBeGreaterThan(0);
    expect(jestRun.run.tests.length).toBeLessThan(9);
    const runs = await publishStep('shard', jestRun);
    // jest records no shard: the files of the other shard did not run, so their cases are kept;
    // those of a folder where no test ran are outside this run's scope (never touched), as are
    // the other team's two.
    const ran = new Set(jestRun.run.tests.map((t) => t.key));
    const folder = (key: string) => posix.dirname(key.split(' › ')[0]!);
    const folders = new Set([...ran].map(folder));
    for (const { lane, sync } of runs) {
      const notRun = liveKeys(lane).filter((key) => !ran.has(key));
      expect(candidates(sync)).toEqual(
        notRun
          .filter((key) => folders.has(folder(key)))
          .map((key) => [key, 'kept', expect.stringMatching(/ did not run in this run$/)]),
      );
      expect(sync.json.retire.outOfScope).toBe(
        2 + notRun.filter((key) => !folders.has(folder(key))).length,
      );
    }
  },
  STEP_MS,
);

test(
  '9. delete a test and a file: exactly their cases are archived',
  async () => {
    write(
      'src/cart.test.js',
      suite('Cart', ['adds an item', 'applies a percentage discount DEMO-T1', FLAKY], RETRIED),
    );
    rmSync(join(ws, 'src/legacy.test.js'));
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 7 });
    await publishStep('delete', jestRun, {
      deleted: [
        keyOf('src/cart.test.js', 'Cart removes an item'),
        keyOf('src/legacy.test.js', 'Legacy still works'),
      ],
    });
  },
  STEP_MS,
);

test(
  '10. the same checkout at another root path: the same keys, nothing for sync to write',
  async () => {
    const other = join(root, 'elsewhere', 'checkout');
    cpSync(ws, other, { recursive: true });
    ws = other;
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 0, passed: 7 });
    const runs = await publishStep('other checkout', jestRun);
    for (const { sync } of runs) expect(sync.writes).toBe(0);
  },
  STEP_MS,
);

let last: { jestRun: Awaited<ReturnType<typeof runJest>>; cycle: string } | undefined;

test(
  '11. the same describe and test name in two files: two tests, two cases, the failure counted',
  async () => {
    write('src/orders/totals.test.js', suite('Totals', ['sums the lines']));
    write('src/refunds/totals.test.js', suite('Totals', [['sums the lines', FAILS]]));
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 1, passed: 8, failed: 1 });
    await publishStep('same names', jestRun);
  },
  STEP_MS,
);

test(
  '12. a deleted test comes back, a test a person named is renamed, a test is skipped: the old case is ACTIVE again, the named one follows keeping its name',
  async () => {
    write(
      'src/cart.test.js',
      suite(
        'Cart',
        ['adds one item', 'removes an item', 'applies a percentage discount DEMO-T1', FLAKY],
        RETRIED,
      ).replace(/\}\);\n$/, `  test.skip('applies a coupon', () => {});\n});\n`),
    );
    const jestRun = await runJest();
    expect(jestRun.run).toMatchObject({ exitCode: 1, passed: 9, failed: 1, skipped: 1 });
    const runs = await publishStep('revert', jestRun, {
      renamed: [
        [
          keyOf('src/cart.test.js', 'Cart adds an item'),
          keyOf('src/cart.test.js', 'Cart adds one item'),
        ],
      ],
      restored: [keyOf('src/cart.test.js', 'Cart removes an item')],
    });
    for (const { lane, sync } of runs) {
      const back = lane.ids.get(keyOf('src/cart.test.js', 'Cart removes an item'))!;
      expect(sync.json.restored).toEqual([
        expect.objectContaining({
          key: lane.emu.service.store.get('test_cases', back)!.attributes.testCaseKey,
        }),
      ]);
      // Its results of the cycles before it was deleted (steps 1 to 7; the shard left its file
      // out), and this one.
      expectHistory(lane, keyOf('src/cart.test.js', 'Cart removes an item'), 8);
      expect(
        caseText(lane, lane.ids.get(keyOf('src/cart.test.js', 'Cart adds one item'))!).name,
      ).toBe('Cart: add an item');
    }
    last = { jestRun, cycle: 'Life revert' };
  },
  STEP_MS,
);

test(
  '13. the steady state: the same run again, from jest-junit or from jest --json, writes nothing',
  async () => {
    const { jestRun, cycle } = last!;
    for (const report of [jestRun.junit, jestRun.json]) {
      const runs = await publishStep('again', { ...jestRun, junit: report }, { cycle });
      for (const { sync, publish } of runs) {
        expect([report, sync.writes, publish.writes]).toEqual([report, 0, 0]);
        // Only the reads (docs/design.md "Sync: request budget", "Publish: request budget"): sync
        // lists the automated cases, looks up DEMO-T1 by its key (it has no automation key) and
        // reads its steps (it is not AUTOMATED); publish finds the cycle, reads its executions,
        // counts them and reads the quarantined ones for the gate.
        expect([sync.routes, publish.routes]).toEqual([
          { 'GET /projects': 1, 'GET /test_cases': 2, 'GET /test_steps': 1 },
          {
            'GET /projects': 1,
            'GET /test_cycles': 1,
            'GET /test_cycles/{id}/testCaseExecutions': 1,
            'GET /test_case_executions/aggregate': 1,
            'GET /test_case_executions': 1,
          },
        ]);
        expect(sync.json.unchanged).toBe(jestRun.run.tests.length);
      }
    }
  },
  STEP_MS,
);

test('the proxy lane met what it is for: creates answered without an ETag, and a person in between', () => {
  const person = lanes.find((l) => l.name === 'proxy')!.person!;
  expect(person.after201).toBeGreaterThan(0);
  expect(person.wrote).toBeGreaterThan(10);
  // Some of the cases the person named between a read and a write: their names stood (checkSpace).
  expect(person.names.size).toBeGreaterThan(0);
});
