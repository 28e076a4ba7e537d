/**
 * sync --retire-missing archives only what a run proves gone, only in the pipeline's scope, and
 * proposes renames (src/inventory/retire.ts, docs/design.md "Sync: what retire-missing archives"):
 * through the emulator's state, with a temporary workspace of real test files.
 */
import { readReportSet } from '../../src/job/index.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cliWords } from '../../src/cli/flags.js';
import {
  describeSyncResult,
  publish,
  publishSettings,
  RetireBoundError,
  renderSyncSummary,
  settingsFrom,
  sync,
  syncSettings,
  type RetireCandidate,
  type SyncOptions,
} from '../../src/publish/index.js';
import { parseReport } from '../../src/parsers/index.js';
import type { ParsedReport, TestResult } from '../../src/parsers/base/model.js';
import { ConfigError } from '../../src/shared/errors.js';
import { testSeed } from '../helpers/emulator.js';
import { clientOf, closeAll, publishEmulator } from '../helpers/publish.js';

const dirs: string[] = [];
afterEach(async () => {
  await closeAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout: files by workspace-relative path. */
function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-retire-'));
  dirs.push(dir);
  write(dir, files);
  return dir;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A jest test file: describe blocks of titles, as people write them. */
const jestFile = (blocks: Record<string, string[]>) =>
  Object.entries(blocks)
    .map(
      ([describe, titles]) =>
        `describe('${describe}', () => {\n${titles.map((t) => `  it('${t}', () => {\n    expect(1).toBe(1); // don't break\n  });`).join('\n')}\n});\n`,
    )
    .join('\n');

/** A jest test as jest's JSON reporter gives it: an absolute file, describe path and title. */
function jestTest(dir: string, file: string, describe: string, title: string): TestResult {
  return {
    suite: [describe],
    classname: describe,
    name: title,
    fullName: `${describe} ${title}`,
    file: join(dir, file),
    outcome: 'passed',
    properties: {},
  };
}

const keyOf = (file: string, describe: string, title: string) => `${file} › ${describe} ${title}`;

/**
 * 50 tests in src/math.test.js: the bound of 0.1 (10 % of the automated cases) let five archives
 * through, so each test below shows what that code archived, not only that its bound refused.
 */
const MATH = Array.from({ length: 50 }, (_, i) => `case ${i}`);

/** The project: math (50 tests), cart (2), price (2). */
const PROJECT: Record<string, Record<string, string[]>> = {
  'src/math.test.js': { Math: MATH },
  'src/cart.test.js': { Cart: ['adds an item', 'removes an item'] },
  'src/price.test.js': { Price: ['rounds', 'adds tax'] },
};

function sources(project = PROJECT): Record<string, string> {
  return Object.fromEntries(Object.entries(project).map(([f, b]) => [f, jestFile(b)]));
}

/** The run of a project's tests, each file a report (a shard each, as CI legs write them). */
function runOf(dir: string, project = PROJECT, only?: string[]): ParsedReport[] {
  return Object.entries(project)
    .filter(([file]) => !only || only.includes(file))
    .map(([file, blocks]) => ({
      file: `reports/${file.replace(/\W/g, '_')}.json`,
      format: 'jest-json',
      tests: Object.entries(blocks).flatMap(([d, titles]) =>
        titles.map((t) => jestTest(dir, file, d, t)),
      ),
    }));
}

/** Seeded automated cases for every test of a project, keyed as sync keys them. */
function seedOf(project = PROJECT, extra: Record<string, unknown>[] = []) {
  return testSeed({
    testCases: [
      ...Object.entries(project).flatMap(([file, blocks]) =>
        Object.entries(blocks).flatMap(([d, titles]) =>
          titles.map((t) => ({
            name: keyOf(file, d, t),
            automationKey: keyOf(file, d, t),
            automationStatus: 'AUTOMATED',
            status: 'ACTIVE',
          })),
        ),
      ),
      ...extra,
    ],
  });
}

function syncOf(
  dir: string,
  reports: ParsedReport[],
  flags: Record<string, unknown> = {},
): SyncOptions {
  return {
    ...syncSettings(settingsFrom({ workspace: dir, 'retire-missing': true, ...flags }), {}),
    reports,
  };
}

function casesOf(emu: RunningEmulator): ({ id: string } & Record<string, unknown>)[] {
  return [...emu.service.store.all('test_cases')].map((r) => ({ ...r.attributes, id: r.id }));
}

const archivedKeys = (emu: RunningEmulator) =>
  casesOf(emu)
    .filter((c) => c.status === 'ARCHIVED')
    .map((c) => String(c.automationKey))
    .sort();

const writes = (emu: RunningEmulator) => {
  const m = emu.stats().byMethod;
  return (m.POST ?? 0) + (m.PATCH ?? 0) + (m.DELETE ?? 0);
};

const PRICE_KEYS = [
  keyOf('src/price.test.js', 'Price', 'adds tax'),
  keyOf('src/price.test.js', 'Price', 'rounds'),
];

describe('a test that merely did not run is kept', () => {
  test('a test file that failed to load, with the run error its report carries: its cases stay, the plan says why', async () => {
    const dir = workspace(sources());
    const emu = await publishEmulator({ seed: seedOf() });
    const reports = runOf(dir);
    // jest: "Test suite failed to run" for src/price.test.js; its tests are absent.
    reports[2] = {
      ...reports[2]!,
      tests: [],
      runErrors: [
        { file: join(dir, 'src/price.test.js'), message: 'Test suite failed to run: SyntaxError' },
      ],
    };
    reports.push({ ...runOf(dir)[0]!, file: 'reports/other.json' });
    const result = await sync(
      clientOf(emu),
      syncOf(
        dir,
        reports.filter((r) => r.tests.length || r.runErrors),
      ),
    );
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.archived).toEqual([]);
    const kept = result.retire.candidates.filter((c) => c.verdict === 'kept');
    expect(kept.map((c) => c.automationKey).sort()).toEqual(PRICE_KEYS);
  });

  test('a file that failed to load without a word in the report (JUnit records none): it did not run, its titles stand', async () => {
    const dir = workspace(sources());
    const emu = await publishEmulator({ seed: seedOf() });
    const reports = runOf(dir, PROJECT, ['src/math.test.js', 'src/cart.test.js']);
    const result = await sync(clientOf(emu), syncOf(dir, reports));
    expect(archivedKeys(emu)).toEqual([]);
    expect(
      result.retire.candidates.map((c) => [c.automationKey, c.verdict, c.reason]).sort(),
    ).toEqual(PRICE_KEYS.map((k) => [k, 'kept', 'src/price.test.js did not run in this run']));
    expect(result.retire.blocked).toEqual([]);
  });

  test('the same missing shard file, with a source that no longer declares a test: that one is archived, the rest of its file is not', async () => {
    const dir = workspace(sources());
    // cart's "removes an item" was deleted from the source; price's report is missing.
    write(dir, { 'src/cart.test.js': jestFile({ Cart: ['adds an item'] }) });
    const emu = await publishEmulator({ seed: seedOf() });
    const reports = runOf(dir, { ...PROJECT, 'src/cart.test.js': { Cart: ['adds an item'] } }, [
      'src/math.test.js',
      'src/cart.test.js',
    ]);
    const result = await sync(clientOf(emu), syncOf(dir, reports));
    expect(archivedKeys(emu)).toEqual([keyOf('src/cart.test.js', 'Cart', 'removes an item')]);
    expect(result.retire.candidates.find((c) => c.verdict === 'gone')!.reason).toBe(
      'src/cart.test.js ran without it and no longer declares it',
    );
  });

  test.each([
    // pytest 9's JUnit, as `pytest -m "not slow" --junitxml` writes it: the module in classname,
    // and the file only with junit_family=xunit1.
    ['xunit2 (default): no file', '', (n: string) => `tests.test_mod.${n}`],
    [
      'xunit1: the file',
      ' file="tests/test_mod.py"',
      (n: string) => `tests/test_mod.py › tests.test_mod.${n}`,
    ],
  ])(
    'pytest -m "not slow", JUnit %s: deselected tests are absent from the report, their functions still stand: kept; a deleted function goes',
    async (_family, fileAttr, key) => {
      const dir = workspace({
        'tests/test_mod.py': [
          'import pytest',
          '',
          ...Array.from({ length: 30 }, (_, i) => `def test_fast_${i}():\n    assert True\n`),
          '@pytest.mark.slow',
          'def test_slow():',
          '    assert True',
          '',
          'class TestGroup:',
          '    @pytest.mark.slow',
          '    def test_slow_method(self):',
          '        assert True',
        ].join('\n'),
      });
      const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="30">${Array.from(
        { length: 30 },
        (_, i) =>
          `<testcase classname="tests.test_mod" name="test_fast_${i}"${fileAttr} time="0.001" />`,
      ).join('')}</testsuite></testsuites>`;
      const report = parseReport(join(dir, 'junit.xml'), xml);
      const emu = await publishEmulator({
        seed: testSeed({
          testCases: [
            ...[
              ...Array.from({ length: 30 }, (_, i) => `test_fast_${i}`),
              'test_slow',
              'TestGroup.test_slow_method',
              'test_removed',
            ].map((n) => ({
              name: key(n),
              automationKey: key(n),
              automationStatus: 'AUTOMATED',
              status: 'ACTIVE',
            })),
          ],
        }),
      });
      const result = await sync(clientOf(emu), syncOf(dir, [report]));
      expect(archivedKeys(emu)).toEqual([key('test_removed')]);
      const kept = result.retire.candidates.filter((c) => c.verdict === 'kept');
      expect(kept.map((c) => c.automationKey).sort()).toEqual([
        key('TestGroup.test_slow_method'),
        key('test_slow'),
      ]);
      expect(kept[0]!.reason).toMatch(/^tests\/test_mod\.py still declares it/);
    },
  );

  test("pytest's default JUnit, a test module deleted: its cases are archived, though no file is left to find the module by; a key of no test module, or of a folder where no Python test ran, is not this pipeline's", async () => {
    const dir = workspace({
      'tests/test_cart.py': ['a', 'b', 'c', 'd']
        .map((n) => `def test_${n}():\n    pass\n`)
        .join('\n'),
    });
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="4">${[
      'a',
      'b',
      'c',
      'd',
    ]
      .map((n) => `<testcase classname="tests.test_cart" name="test_${n}" />`)
      .join('')}</testsuite></testsuites>`;
    const automated = (key: string) => ({
      name: key,
      automationKey: key,
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    });
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: [
          ...['a', 'b', 'c', 'd'].map((n) => automated(`tests.test_cart.test_${n}`)),
          automated('tests.test_price.test_rounds'),
          automated('tests.test_price.TestFormat.test_currency[EUR-2.5]'),
          automated('tests.helpers.test_fixture'),
          automated('other.test_mod.test_q'),
          automated('com.example.CartTest.adds'),
        ],
      }),
    });
    const result = await sync(
      clientOf(emu),
      syncOf(dir, [parseReport(join(dir, 'junit.xml'), xml)]),
    );
    expect(archivedKeys(emu)).toEqual([
      'tests.test_price.TestFormat.test_currency[EUR-2.5]',
      'tests.test_price.test_rounds',
    ]);
    expect(result.retire.candidates.map((c) => c.reason)).toEqual([
      'tests/test_price.py is no longer in the workspace',
      'tests/test_price.py is no longer in the workspace',
    ]);
    expect(result.retire.outOfScope).toBe(3);
  });
});

describe('reports that cannot prove anything gone block retirement', () => {
  /** Shard 1 as jest --json writes it: the math file, whole. */
  const shard1 = (dir: string) =>
    JSON.stringify({
      numTotalTests: MATH.length,
      testResults: [
        {
          name: join(dir, 'src/math.test.js'),
          status: 'passed',
          message: '',
          assertionResults: MATH.map((t) => ({
            ancestorTitles: ['Math'],
            title: t,
            fullName: `Math ${t}`,
            status: 'passed',
          })),
        },
      ],
    });

  /** Two shards of a jest run: the second (cart and price) left broken by its job. */
  async function shardRun(second: string | Buffer | undefined) {
    const dir = workspace(sources());
    // cart's "removes an item" is gone from the source: a whole run would archive it.
    write(dir, { 'src/cart.test.js': jestFile({ Cart: ['adds an item'] }) });
    write(dir, { 'reports/shard-1.json': shard1(dir) });
    if (second !== undefined) writeFileSync(join(dir, 'reports/shard-2.xml'), second);
    return dir;
  }

  const readIn = (dir: string) =>
    readReportSet({ patterns: [join(dir, 'reports')], format: 'auto', maxBytes: 1_000_000 });

  test.each([
    ['full of NUL bytes (a crashed job)', Buffer.alloc(4096)],
    ['truncated before its root element', '<?xml version="1.0" encoding="utf-8"?><te'],
    [
      'a valid report with zero tests',
      '<?xml version="1.0"?><testsuites name="jest tests" tests="0"></testsuites>',
    ],
  ])('a shard file %s: nothing archived, and the run says why', async (_what, second) => {
    const dir = await shardRun(second);
    const reports = await readIn(dir);
    const emu = await publishEmulator({ seed: seedOf() });
    const warnings: string[] = [];
    const result = await sync(clientOf(emu), {
      ...syncOf(dir, reports),
      logger: { debug() {}, info() {}, error() {}, warn: (m) => warnings.push(String(m)) },
    });
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.retire.blocked).toEqual([expect.stringContaining('shard-2.xml')]);
    expect(result.warnings.join('\n')).toMatch(
      /retire-missing archives nothing: this run cannot prove a test gone: .*shard-2\.xml/,
    );
    expect(describeSyncResult(result)).toMatch(
      /retirement blocked: this run cannot prove a test gone\n {2}.*shard-2\.xml/,
    );
  });

  test('an empty shard file stops the sync before any request (exit 4), nothing written', async () => {
    const dir = await shardRun('');
    await expect(readIn(dir)).rejects.toMatchObject({
      kind: 'report',
      message: expect.stringMatching(/shard-2\.xml: is empty/),
    });
  });

  test.each([
    ['a shard', { shard: '2/3' }, /is shard 2\/3 of a run/],
    ['a filtered run', { filter: '--grep @smoke' }, /is a filtered run \(--grep @smoke\)/],
  ])('a report that records %s blocks retirement', async (_what, selection, said) => {
    const dir = workspace(sources());
    write(dir, { 'src/cart.test.js': jestFile({ Cart: ['adds an item'] }) });
    const emu = await publishEmulator({ seed: seedOf() });
    const reports = runOf(dir, { ...PROJECT, 'src/cart.test.js': { Cart: ['adds an item'] } });
    reports[0] = { ...reports[0]!, selection };
    const result = await sync(clientOf(emu), syncOf(dir, reports));
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.retire.blocked).toEqual([expect.stringMatching(said)]);
    expect(result.retire.candidates[0]).toMatchObject({
      verdict: 'kept',
      reason: expect.stringMatching(/^this run proves nothing gone: /),
    });
  });

  test('a run error that names no file or suite blocks retirement', async () => {
    const dir = workspace(sources());
    write(dir, { 'src/cart.test.js': jestFile({ Cart: ['adds an item'] }) });
    const emu = await publishEmulator({ seed: seedOf() });
    const reports = runOf(dir, { ...PROJECT, 'src/cart.test.js': { Cart: ['adds an item'] } });
    reports[0] = { ...reports[0]!, runErrors: [{ message: 'panic: out of memory' }] };
    const result = await sync(clientOf(emu), syncOf(dir, reports));
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.retire.blocked[0]).toMatch(
      /a run error that names no file or suite: panic: out of memory/,
    );
  });
});

describe('a file no longer in the workspace', () => {
  test('is evidence its tests are gone; unless the workspace lacks the files this run ran (not the checkout)', async () => {
    const { 'src/price.test.js': _price, ...rest } = PROJECT;
    const dir = workspace(sources(rest));
    const emu = await publishEmulator({ seed: seedOf() });
    const elsewhere = workspace({});
    // Reports with workspace-relative files (vitest, Playwright), read in a folder that is not the
    // checkout: the files that ran are missing too, so a missing file proves nothing.
    const relative = runOf(dir, rest).map((r) => ({
      ...r,
      tests: r.tests.map((t) => ({ ...t, file: t.file!.slice(dir.length + 1) })),
    }));
    const away = await sync(clientOf(emu), syncOf(elsewhere, relative));
    expect(archivedKeys(emu)).toEqual([]);
    expect(away.retire.candidates.map((c) => c.reason)).toEqual([
      expect.stringMatching(
        /^src\/price\.test\.js is not in the workspace, nor are 2 test file\(s\) this run ran \(e\.g\. src\/math\.test\.js\): the workspace is not the checkout/,
      ),
      expect.any(String),
    ]);
    // In the checkout: src/price.test.js was deleted, its cases go.
    const here = await sync(clientOf(emu), syncOf(dir, runOf(dir, rest)));
    expect(archivedKeys(emu)).toEqual(PRICE_KEYS);
    expect(here.retire.candidates.map((c) => c.reason)).toEqual([
      'src/price.test.js is no longer in the workspace',
      'src/price.test.js is no longer in the workspace',
    ]);
  });
});

describe('test files outside the workspace', () => {
  test('tests outside the workspace stop sync before any request; a key naming a file outside the workspace (../) is not ours by default, and never proven gone: its source cannot be read', async () => {
    const dir = workspace(sources());
    const elsewhere = workspace({});
    const outside = (key: string) => `${relative(dir, elsewhere)}/${key}`;
    const seeded = seedOf().testCases!;
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: seeded.map((c) => ({
          ...c,
          name: outside(String(c.automationKey)),
          automationKey: outside(String(c.automationKey)),
        })),
      }),
    });
    // The reports name the files by absolute paths of another folder than the workspace: their
    // keys would begin with ../ and change with where the checkout lies, so nothing is sent.
    const run = runOf(dir, PROJECT, ['src/math.test.js', 'src/cart.test.js']);
    await expect(sync(clientOf(emu), syncOf(elsewhere, run))).rejects.toThrow(
      /lie outside the workspace/,
    );
    expect(emu.stats().total).toBe(0);
    // Run where the tests ran: the Space's ../ keys are another checkout's, out of scope.
    const plan = await sync(clientOf(emu), syncOf(dir, run, { 'dry-run': true }));
    expect(plan.retire.outOfScope).toBe(seeded.length);
    expect(plan.archived).toEqual([]);
    const scoped = await sync(
      clientOf(emu),
      syncOf(dir, run, { 'retire-scope': '.', 'dry-run': true }),
    );
    expect(scoped.retire.candidates.length).toBe(seeded.length);
    for (const c of scoped.retire.candidates)
      expect(c.reason).toMatch(/is outside the workspace, so its source cannot be read/);
    expect(scoped.archived).toEqual([]);
  });
});

describe("only this pipeline's cases", () => {
  const theirs = [
    // Another team's scheme ({classname}.{name} of their Java suite), and their repository's paths.
    'com.acme.billing.InvoiceTest.testTotal',
    'com.acme.billing.InvoiceTest.testTax',
    'billing/src/invoice.test.ts › Invoice totals',
    'README.md › not a test at all',
  ];
  const seed = () =>
    seedOf(
      PROJECT,
      theirs.map((k) => ({
        name: k,
        automationKey: k,
        automationStatus: 'AUTOMATED',
        status: 'ACTIVE',
      })),
    );

  test("another team's automated cases in the same Space survive a full-suite sync; ours that are gone do not", async () => {
    const dir = workspace(sources());
    write(dir, { 'src/cart.test.js': jestFile({ Cart: ['adds an item'] }) });
    const emu = await publishEmulator({ seed: seed() });
    const run = runOf(dir, { ...PROJECT, 'src/cart.test.js': { Cart: ['adds an item'] } });
    const result = await sync(clientOf(emu), syncOf(dir, run));
    expect(archivedKeys(emu)).toEqual([keyOf('src/cart.test.js', 'Cart', 'removes an item')]);
    expect(result.retire).toMatchObject({ outOfScope: theirs.length, inScope: 54 });
    expect(result.retire.candidates.map((c) => c.automationKey)).not.toEqual(
      expect.arrayContaining([theirs[0]]),
    );
  });

  test("another pipeline's folder of the same repository is not ours: its cases are not even listed as kept", async () => {
    const dir = workspace({ ...sources(), 'api/orders.test.js': jestFile({ Orders: ['lists'] }) });
    const emu = await publishEmulator({
      seed: seedOf({ ...PROJECT, 'api/orders.test.js': { Orders: ['lists'] } }),
    });
    const result = await sync(clientOf(emu), syncOf(dir, runOf(dir)));
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.retire.candidates).toEqual([]);
    expect(result.retire.outOfScope).toBe(1);
  });

  test('retire-scope names the keys that are ours: a whole deleted folder goes, and nothing outside the pattern', async () => {
    const { 'src/price.test.js': _price, ...rest } = PROJECT;
    const moved = { ...rest, 'other/price.test.js': { Price: ['rounds'] } };
    const dir = workspace(sources(moved));
    const emu = await publishEmulator({
      seed: seedOf(PROJECT, [
        ...theirs.map((k) => ({
          name: k,
          automationKey: k,
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        })),
        {
          name: 'gone/old.test.js › Old one',
          automationKey: 'gone/old.test.js › Old one',
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        },
      ]),
    });
    // Default scope: gone/ is no folder of the workspace, so its case is not this pipeline's.
    const byDefault = await sync(
      clientOf(emu),
      syncOf(dir, runOf(dir, moved), { 'dry-run': true }),
    );
    expect(byDefault.archived.map((c) => c.name).sort()).toEqual(PRICE_KEYS);
    const scoped = await sync(
      clientOf(emu),
      syncOf(dir, runOf(dir, moved), { 'retire-scope': '^(src|gone)/' }),
    );
    expect(archivedKeys(emu)).toEqual(['gone/old.test.js › Old one', ...PRICE_KEYS]);
    expect(scoped.retire.outOfScope).toBe(theirs.length);
  });

  test('keys that name no file (jest-junit, Surefire): a test missing from a suite that ran goes; a suite that did not run is not ours to judge', async () => {
    const dir = workspace({});
    const key = (c: string, n: string) => `${c}.${n}`;
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: [
          ...Array.from({ length: 30 }, (_, i) => key('com.example.MathTest', `t${i}`)),
          key('com.example.MathTest', 'removed'),
          key('com.example.OtherTest', 'notRunHere'),
        ].map((k) => ({
          name: k,
          automationKey: k,
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        })),
      }),
    });
    const report: ParsedReport = {
      file: 'TEST-com.example.MathTest.xml',
      format: 'junit',
      tests: Array.from({ length: 30 }, (_, i) => ({
        suite: ['com.example.MathTest'],
        classname: 'com.example.MathTest',
        name: `t${i}`,
        outcome: 'passed' as const,
        properties: {},
      })),
    };
    const result = await sync(clientOf(emu), syncOf(dir, [report]));
    expect(archivedKeys(emu)).toEqual(['com.example.MathTest.removed']);
    expect(result.retire.candidates[0]!.reason).toMatch(/its suite ran without it/);
    expect(result.retire.outOfScope).toBe(1);
  });
});

/** Automated cases keyed as given, named after their keys. */
const seedKeys = (keys: string[]) =>
  testSeed({
    testCases: keys.map((k) => ({
      name: k,
      automationKey: k,
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    })),
  });

const verdicts = (result: { retire: { candidates: RetireCandidate[] } }) =>
  result.retire.candidates.map((c) => [c.automationKey, c.verdict]);

describe('a filter left out tests whose names the source builds or declares its own way', () => {
  test('mocha --grep: titles built at run time (a template, a concatenation) stand as their patterns: kept', async () => {
    const src = [
      "describe('math', () => {",
      "  it('adds', () => {});",
      '  for (const n of [1, 2]) it(`doubles ${n}`, () => {});',
      "  for (const n of [3]) it('halves ' + n, () => {});",
      '});',
    ].join('\n');
    const dir = workspace({ 'test/math.spec.js': src });
    const keys = ['adds', 'doubles 1', 'doubles 2', 'halves 3', 'triples 1'].map(
      (t) => `test/math.spec.js › math ${t}`,
    );
    const emu = await publishEmulator({ seed: seedKeys(keys) });
    // `mocha --grep adds`: the other tests are not in the report at all.
    const reports: ParsedReport[] = [
      {
        file: 'mocha.json',
        format: 'mocha-json',
        tests: [jestTest(dir, 'test/math.spec.js', 'math', 'adds')],
      },
    ];
    const result = await sync(clientOf(emu), syncOf(dir, reports, { 'retire-max': 5 }));
    // "triples 1" fits no title of the file: deleted.
    expect(archivedKeys(emu)).toEqual(['test/math.spec.js › math triples 1']);
    expect(verdicts(result).filter(([, v]) => v === 'kept')).toHaveLength(3);
  });

  test('robot --include smoke: the tests left out still stand as test case lines of their file: kept', async () => {
    const dir = workspace({
      'tests/calculator.robot':
        '*** Test Cases ***\nAdds\n    [Tags]    smoke\n    Log    1\n\nSubtracts\n    Log    2\n',
    });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<robot generator="Robot 7.1" generated="2026-11-27T00:00:00.000000" rpa="false" schemaversion="5">
<suite id="s1" name="Tests" source="${dir}/tests">
<suite id="s1-s1" name="Calculator" source="${dir}/tests/calculator.robot">
<test id="s1-s1-t1" name="Adds" line="2"><tag>smoke</tag><status status="PASS" start="2026-11-27T00:00:00.000000" elapsed="0.001"/></test>
<status status="PASS" start="2026-11-27T00:00:00.000000" elapsed="0.001"/>
</suite>
<status status="PASS" start="2026-11-27T00:00:00.000000" elapsed="0.001"/>
</suite>
<errors/>
</robot>`;
    const keys = ['Adds', 'Subtracts', 'Multiplies'].map(
      (t) => `tests/calculator.robot › Tests.Calculator.${t}`,
    );
    const emu = await publishEmulator({ seed: seedKeys(keys) });
    const result = await sync(
      clientOf(emu),
      syncOf(dir, [parseReport(join(dir, 'output.xml'), xml)], { 'retire-max': 5 }),
    );
    expect(archivedKeys(emu)).toEqual(['tests/calculator.robot › Tests.Calculator.Multiplies']);
    expect(verdicts(result)).toContainEqual([keys[1], 'kept']);
  });
});

describe('a key template without {file} cannot tell which file a suite name is in', () => {
  // `--automation-key '{classname}.{name}'`, the template the key hint names for a Space keyed
  // by testcycle 0.1.0: a jest describe title is the suite, and many files share one ("render").
  const keys = ['render.shows a title', 'render.shows a footer'];
  const ran = (dir: string, extra: Partial<ParsedReport> = {}): ParsedReport[] => [
    {
      file: 'jest.json',
      format: 'jest-json',
      tests: [
        { ...jestTest(dir, 'src/a.test.js', 'render', 'shows a title'), fullName: undefined },
      ],
      ...extra,
    },
  ];
  const files = () =>
    workspace({
      'src/a.test.js': jestFile({ render: ['shows a title'] }),
      'src/b.test.js': jestFile({ render: ['shows a footer'] }),
    });

  test.each([
    [
      'a file that failed to load',
      (dir: string) =>
        ran(dir, {
          runErrors: [{ file: join(dir, 'src/b.test.js'), message: 'Test suite failed to run' }],
        }),
    ],
    ['a shard that ran the other file', (dir: string) => ran(dir)],
  ])('%s: its cases under the shared suite name are kept', async (_what, reports) => {
    const dir = files();
    const emu = await publishEmulator({ seed: seedKeys(keys) });
    const result = await sync(
      clientOf(emu),
      syncOf(dir, reports(dir), { 'automation-key': '{classname}.{name}', 'retire-max': 5 }),
    );
    expect(archivedKeys(emu)).toEqual([]);
    expect(result.retire.candidates.map((c) => [c.automationKey, c.verdict, c.reason])).toEqual([
      [
        'render.shows a footer',
        'kept',
        "its key names no file, and its suite's tests in this run are in test files (such as src/a.test.js), so whether its own file ran is unknown: an automation-key with {file} lets sync read that file",
      ],
    ]);
  });
});

describe('renames are proposed, not guessed', () => {
  const renamed = {
    ...PROJECT,
    'src/cart.test.js': { Basket: ['adds an item', 'removes an item'] },
  };

  test('a renamed describe: the plan shows each likely rename with the flag that follows it; the run retires and creates without a person stepping in', async () => {
    const dir = workspace(sources(renamed));
    const emu = await publishEmulator({ seed: seedOf() });
    const plan = await sync(clientOf(emu), syncOf(dir, runOf(dir, renamed), { 'dry-run': true }));
    expect(writes(emu)).toBe(0);
    expect(plan.renames).toEqual([
      expect.objectContaining({
        from: keyOf('src/cart.test.js', 'Cart', 'adds an item'),
        to: keyOf('src/cart.test.js', 'Basket', 'adds an item'),
        where: 'src/cart.test.js',
        followed: false,
      }),
      expect.objectContaining({
        from: keyOf('src/cart.test.js', 'Cart', 'removes an item'),
        to: keyOf('src/cart.test.js', 'Basket', 'removes an item'),
        followed: false,
      }),
    ]);
    const text = describeSyncResult(plan, cliWords('sync', {}, {}));
    expect(text).toMatch(
      /likely renames: 2; sync follows a rename with --follow-renames \(the case takes the new key and keeps its history\), or put the case key in the test's name/,
    );
    expect(text).toContain(
      `"${keyOf('src/cart.test.js', 'Cart', 'adds an item')}" -> "${keyOf('src/cart.test.js', 'Basket', 'adds an item')}"`,
    );
    expect(renderSyncSummary(plan)).toContain('### Likely renames');
    const run = await sync(clientOf(emu), syncOf(dir, runOf(dir, renamed)));
    expect(run.archived).toHaveLength(2);
    expect(run.created).toHaveLength(2);
  });

  test('a renamed describe of a third of the suite retires under the default bound, where 10 % of the automated cases refused it', async () => {
    const before = {
      'src/math.test.js': { Math: MATH.slice(0, 20) },
      'src/cart.test.js': { Cart: Array.from({ length: 10 }, (_, i) => `does thing ${i}`) },
    };
    const after = { ...before, 'src/cart.test.js': { Basket: before['src/cart.test.js'].Cart } };
    const dir = workspace(sources(after));
    const emu = await publishEmulator({ seed: seedOf(before) });
    const result = await sync(clientOf(emu), syncOf(dir, runOf(dir, after)));
    expect(result.archived).toHaveLength(10);
    expect(result.created).toHaveLength(10);
    expect(result.renames).toHaveLength(10);
    expect(result.retire.max).toBe(15);
  });

  test('--follow-renames: the old cases take the new keys, so their history stays on one case; nothing created, nothing archived', async () => {
    const dir = workspace(sources(renamed));
    const emu = await publishEmulator({ seed: seedOf() });
    const before = casesOf(emu).find(
      (c) => c.automationKey === keyOf('src/cart.test.js', 'Cart', 'adds an item'),
    )!;
    const result = await sync(
      clientOf(emu),
      syncOf(dir, runOf(dir, renamed), { 'follow-renames': true }),
    );
    expect(result.created).toEqual([]);
    expect(result.archived).toEqual([]);
    expect(result.rekeyed.map((c) => c.to).sort()).toEqual([
      keyOf('src/cart.test.js', 'Basket', 'adds an item'),
      keyOf('src/cart.test.js', 'Basket', 'removes an item'),
    ]);
    const after = casesOf(emu).find((c) => c.id === before.id)!;
    expect(after).toMatchObject({
      automationKey: keyOf('src/cart.test.js', 'Basket', 'adds an item'),
      status: 'ACTIVE',
    });
    expect(casesOf(emu)).toHaveLength(54);
    const again = await sync(
      clientOf(emu),
      syncOf(dir, runOf(dir, renamed), { 'follow-renames': true }),
    );
    expect(again.renames).toEqual([]);
    expect(again.unchanged).toBe(54);
  });

  test.each([
    ['moved to another folder', 'src/money/price.test.js'],
    ['renamed in its folder', 'src/pricing.test.js'],
  ])(
    "a test file %s: its tests are likely renames of the old file's, followed by --follow-renames so their history stays",
    async (_how, moved) => {
      const { 'src/price.test.js': price, ...rest } = PROJECT;
      const project = { ...rest, [moved]: price! };
      const dir = workspace(sources(project));
      const emu = await publishEmulator({ seed: seedOf() });
      const plan = await sync(clientOf(emu), syncOf(dir, runOf(dir, project), { 'dry-run': true }));
      expect(plan.renames.map((r) => [r.from, r.to, r.where, r.similarity])).toEqual([
        [
          keyOf('src/price.test.js', 'Price', 'rounds'),
          keyOf(moved, 'Price', 'rounds'),
          `src/price.test.js → ${moved}`,
          1,
        ],
        [
          keyOf('src/price.test.js', 'Price', 'adds tax'),
          keyOf(moved, 'Price', 'adds tax'),
          `src/price.test.js → ${moved}`,
          1,
        ],
      ]);
      const ids = casesOf(emu)
        .filter((c) => String(c.automationKey).startsWith('src/price.test.js'))
        .map((c) => c.id);
      const run = await sync(
        clientOf(emu),
        syncOf(dir, runOf(dir, project), { 'follow-renames': true }),
      );
      expect([run.created, run.archived, run.rekeyed.length]).toEqual([[], [], 2]);
      expect(ids.map((id) => casesOf(emu).find((c) => c.id === id)!.automationKey)).toEqual([
        keyOf(moved, 'Price', 'rounds'),
        keyOf(moved, 'Price', 'adds tax'),
      ]);
    },
  );

  test('a file copied to two places, the old one gone: either could be its move, so none is proposed; a file still in the workspace moved nowhere', async () => {
    const { 'src/price.test.js': price, ...rest } = PROJECT;
    const copied = { ...rest, 'src/a/price.test.js': price!, 'src/b/price.test.js': price! };
    const dir = workspace(sources(copied));
    const emu = await publishEmulator({ seed: seedOf() });
    const plan = await sync(clientOf(emu), syncOf(dir, runOf(dir, copied), { 'dry-run': true }));
    expect(plan.renames).toEqual([]);
    const kept = { ...PROJECT, 'src/money/price.test.js': price! };
    const dir2 = workspace(sources(kept));
    const plan2 = await sync(clientOf(emu), syncOf(dir2, runOf(dir2, kept), { 'dry-run': true }));
    expect(plan2.renames).toEqual([]);
  });

  test("pytest's default JUnit, a test module moved: its tests are likely renames of the old module's", async () => {
    const dir = workspace({
      'tests/test_cart.py': 'def test_adds():\n    pass\n',
      'tests/money/test_price.py':
        'def test_rounds():\n    pass\n\n\ndef test_taxes():\n    pass\n',
    });
    const xml = `<testsuites><testsuite name="pytest" tests="3"><testcase classname="tests.test_cart" name="test_adds" /><testcase classname="tests.money.test_price" name="test_rounds" /><testcase classname="tests.money.test_price" name="test_taxes" /></testsuite></testsuites>`;
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: [
          'tests.test_cart.test_adds',
          'tests.test_price.test_rounds',
          'tests.test_price.test_taxes',
        ].map((key) => ({
          name: key,
          automationKey: key,
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        })),
      }),
    });
    const plan = await sync(
      clientOf(emu),
      syncOf(dir, [parseReport(join(dir, 'junit.xml'), xml)], {
        'dry-run': true,
        'retire-max': '2',
      }),
    );
    expect(plan.renames.map((r) => [r.from, r.to, r.where])).toEqual([
      [
        'tests.test_price.test_rounds',
        'tests.money.test_price.test_rounds',
        'tests/test_price.py → tests/money/test_price.py',
      ],
      [
        'tests.test_price.test_taxes',
        'tests.money.test_price.test_taxes',
        'tests/test_price.py → tests/money/test_price.py',
      ],
    ]);
  });

  test('a title changed by a few characters is a likely rename; two equally good pairings are none (not guessed)', async () => {
    const project = {
      ...PROJECT,
      'src/cart.test.js': { Cart: ['adds one item', 'removes an item', 'empties', 'clears'] },
    };
    const dir = workspace(sources(project));
    const emu = await publishEmulator({
      seed: seedOf(
        { ...PROJECT, 'src/cart.test.js': { Cart: ['adds an item', 'removes an item'] } },
        ['A', 'B'].map((d) => ({
          name: keyOf('src/cart.test.js', d, 'empties'),
          automationKey: keyOf('src/cart.test.js', d, 'empties'),
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        })),
      ),
    });
    // "A empties" and "B empties" vanished and "Cart empties" appeared: either could be it.
    const plan = await sync(clientOf(emu), syncOf(dir, runOf(dir, project), { 'dry-run': true }));
    expect(plan.renames.map((r) => [r.from, r.to])).toEqual([
      [
        keyOf('src/cart.test.js', 'Cart', 'adds an item'),
        keyOf('src/cart.test.js', 'Cart', 'adds one item'),
      ],
    ]);
  });
});

describe('retire-max: a count or a percentage, the last guard', () => {
  test('"10%" is a share of the in-scope automated cases, not 10; junk is a config error naming the setting', () => {
    expect(syncSettings(settingsFrom({ 'retire-max': '10%' }), {}).retireMax).toEqual({
      percent: 10,
    });
    expect(syncSettings(settingsFrom({ 'retire-max': '7' }), {}).retireMax).toBe(7);
    for (const junk of ['ten', '10 percent', '-1', '150%', '1.5'])
      expect(() => syncSettings(settingsFrom({ 'retire-max': junk }), {})).toThrow(
        expect.objectContaining({
          setting: 'retire-max',
          message: expect.stringMatching(/is neither a count of test cases \(5\) nor a percentage/),
        }) as Error,
      );
  });

  test('a percentage bounds the archive by the scope: 5% of 54 is 2, so 4 deleted tests are refused, nothing written', async () => {
    const { 'src/price.test.js': _p, 'src/cart.test.js': _c, ...rest } = PROJECT;
    const dir = workspace(sources(rest));
    const emu = await publishEmulator({ seed: seedOf() });
    const error = await sync(
      clientOf(emu),
      syncOf(dir, runOf(dir, rest), { 'retire-max': '5%' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetireBoundError);
    expect((error as Error).message).toMatch(
      /would archive 4 of the 54 automated test case\(s\) in this pipeline's scope, more than retire-max \(2\)/,
    );
    expect(writes(emu)).toBe(0);
    const ok = await sync(clientOf(emu), syncOf(dir, runOf(dir, rest), { 'retire-max': '10%' }));
    expect(ok.archived).toHaveLength(4);
  });

  test('the default bound is half the scope: a run that would archive most of the suite is refused', async () => {
    const only = { 'src/cart.test.js': PROJECT['src/cart.test.js']! };
    const dir = workspace(sources(only));
    const emu = await publishEmulator({ seed: seedOf() });
    // src/math.test.js and src/price.test.js deleted (52 of 54): more than 27.
    const error = await sync(clientOf(emu), syncOf(dir, runOf(dir, only))).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /would archive 52 of the 54 .* more than the default bound of 27 \(50% of them, at least 1\)/,
    );
  });
});

describe('retire-grace: the Space remembers the runs', () => {
  test('a case proven gone is archived only when the newest N cycles of the series hold no result for it', async () => {
    const { 'src/price.test.js': _p, ...rest } = PROJECT;
    const dir = workspace(sources(rest));
    const emu = await publishEmulator({ seed: seedOf() });
    const client = clientOf(emu);
    // Nightly 1 ran everything; Nightly 2 and 3 ran without price (deleted after Nightly 1).
    for (const [name, project] of [
      ['Nightly 1', PROJECT],
      ['Nightly 2', rest],
      ['Nightly 3', rest],
    ] as const)
      await publish(client, {
        ...publishSettings(settingsFrom({ 'cycle-name': name, workspace: dir }), {}),
        reports: runOf(dir, project),
      });
    const graced = (n: number, dryRun = false) =>
      sync(
        client,
        syncOf(dir, runOf(dir, rest), {
          'retire-grace': n,
          'retire-series': 'Nightly *',
          'dry-run': dryRun,
        }),
      );
    const three = await graced(3, true);
    expect(three.archived).toEqual([]);
    expect(three.retire.candidates[0]!.reason).toMatch(
      /^retire-grace 3: it has a result in .*, one of the newest 3 cycles of "Nightly \*"/,
    );
    const five = await graced(5, true);
    expect(five.retire.candidates[0]!.reason).toMatch(/holds 3 cycle\(s\), fewer than the 5/);
    emu.resetStats();
    const two = await graced(2);
    expect(two.archived.map((c) => c.name).sort()).toEqual(PRICE_KEYS);
    // The grace's reads: one page of the series, one page of the candidates' executions.
    expect(emu.stats().byRoute).toMatchObject({
      'GET /test_cycles': 1,
      'GET /test_case_executions': 1,
    });
  });

  test('retire-grace without retire-series is a config error before any request', () => {
    expect(() =>
      syncSettings(settingsFrom({ 'retire-missing': true, 'retire-grace': 2 }), {}),
    ).toThrow(ConfigError);
  });
});

// Options that do nothing (retire-max, retire-grace, retire-scope, retire-series without what
// they need) are rows' `needs` in the settings table: __tests__/cli/idle-settings.test.ts.

describe('the dry run shows it all', () => {
  test('what would be archived, what is kept and why, likely renames: and writes nothing', async () => {
    const project = {
      ...PROJECT,
      'src/cart.test.js': { Basket: ['adds an item'] },
      'src/price.test.js': { Price: ['rounds'] },
    };
    const dir = workspace(
      sources({ ...project, 'src/price.test.js': PROJECT['src/price.test.js']! }),
    );
    const emu = await publishEmulator({ seed: seedOf() });
    const plan = await sync(clientOf(emu), syncOf(dir, runOf(dir, project), { 'dry-run': true }));
    expect(writes(emu)).toBe(0);
    expect(plan.archived.map((c) => c.name).sort()).toEqual([
      keyOf('src/cart.test.js', 'Cart', 'adds an item'),
      keyOf('src/cart.test.js', 'Cart', 'removes an item'),
    ]);
    const text = describeSyncResult(plan);
    expect(text).toMatch(
      /kept \(not proven gone\): 1\n {2}DEMO-T\d+ src\/price\.test\.js › Price adds tax: src\/price\.test\.js still declares it: not run \(deselected, filtered or left out by the report\), not deleted/,
    );
    expect(text).toMatch(/likely renames: 1; sync follows a rename with follow-renames: true/);
    const md = renderSyncSummary(plan);
    expect(md).toContain('### Kept: not proven gone');
    expect(md).toContain(
      "Retire scope: 54 automated case(s) in this pipeline's scope, 0 outside it",
    );
  });
});
