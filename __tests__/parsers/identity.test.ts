/**
 * Test identity and repeats (docs/design.md "Results and merging"): distinct tests are never merged; a repeat after a failed
 * run is a retry, a repeat after a passed or skipped run a new invocation; formats' retry marks.
 * Also what `parse` shows of it, directory mode's skipped files, and cleaned messages.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import {
  countTests,
  parseReport,
  readReports,
  ReportError,
  testIdentity,
} from '../../src/parsers/index.js';

const junit = (cases: string) => `<testsuites>${cases}</testsuites>`;
const suite = (name: string, body: string) => `<testsuite name="${name}">${body}</testsuite>`;
const pass = (name: string, cls = 'C') => `<testcase classname="${cls}" name="${name}"/>`;
const fail = (name: string, cls = 'C', body = '') =>
  `<testcase classname="${cls}" name="${name}"><failure>${body}</failure></testcase>`;

describe('identity', () => {
  test('one name and classname in two suites (two test files) is two tests', () => {
    const report = parseReport(
      'r.xml',
      junit(suite('a.test.js', pass('adds', '')) + suite('b.test.js', fail('adds', ''))),
    );
    expect(report.tests.map((t) => [t.suite, t.outcome])).toEqual([
      [['a.test.js'], 'passed'],
      [['b.test.js'], 'failed'],
    ]);
    expect(testIdentity(report.tests[0]!)).not.toBe(testIdentity(report.tests[1]!));
  });

  test.each([
    ['fail, pass: one flaky test', [fail('t'), pass('t')], [['passed', 2]], 1],
    ['fail, fail: one failed test with two runs', [fail('t'), fail('t')], [['failed', 2]], 0],
    [
      'pass, pass: two invocations',
      [pass('t'), pass('t')],
      [
        ['passed', 1],
        ['passed', 1],
      ],
      0,
    ],
    [
      'pass, pass, fail: the failure is a third invocation, never hidden',
      [pass('t'), pass('t'), fail('t')],
      [
        ['passed', 1],
        ['passed', 1],
        ['failed', 1],
      ],
      0,
    ],
    [
      'pass, fail, pass: an invocation, then a retried one',
      [pass('t'), fail('t'), pass('t')],
      [
        ['passed', 1],
        ['passed', 2],
      ],
      1,
    ],
    [
      'fail, pass, fail: a flaky test, then a new invocation that failed',
      [fail('t'), pass('t'), fail('t')],
      [
        ['passed', 2],
        ['failed', 1],
      ],
      1,
    ],
    [
      'fail, skip, pass: a skipped retry hides no failure, so the pass is a retry too',
      [fail('t'), `<testcase classname="C" name="t"><skipped/></testcase>`, pass('t')],
      [['passed', 3]],
      1,
    ],
  ])('sequence rule: %s', (_name, cases, want, flaky) => {
    const report = parseReport('r.xml', junit(suite('s', cases.join(''))));
    expect(report.tests.map((t) => [t.outcome, t.attempts?.length ?? 1])).toEqual(want);
    expect(countTests(report.tests)).toMatchObject({ flaky, runs: cases.length });
  });

  test('a second suite element of the same name holds other tests, never the retries of the first (jest-junit: one per test file)', () => {
    // gotestsum --rerun-fails writes a rerun in its package's own element (samples/go), Surefire
    // as marks in the testcase: a repeat in another element of the same name is another test.
    const report = parseReport(
      'r.xml',
      junit(
        suite('s', fail('t') + pass('u')) +
          suite('other', fail('t')) +
          suite('s', pass('t')) +
          `<testsuite name="outer">${suite('s', pass('t'))}</testsuite>`,
      ),
    );
    expect(report.tests.map((t) => [t.suite, t.name, t.outcome, t.attempts?.length ?? 1])).toEqual([
      [['s'], 't', 'failed', 1],
      [['s'], 'u', 'passed', 1],
      [['other'], 't', 'failed', 1],
      [['s'], 't', 'passed', 1],
      [['outer', 's'], 't', 'passed', 1],
    ]);
    expect(countTests(report.tests)).toMatchObject({ total: 5, failed: 2, flaky: 0 });
    // Within one element, a repeat after a failure is still its retry.
    const rerun = parseReport('r.xml', junit(suite('s', fail('t') + pass('u') + pass('t'))));
    expect(rerun.tests.map((t) => [t.name, t.outcome, t.attempts?.length ?? 1])).toEqual([
      ['t', 'passed', 2],
      ['u', 'passed', 1],
    ]);
  });

  test("jest-junit writes each of jest's tests once, a retried one too: a repeat in its element is another test, never a retry", () => {
    // jest 30.5.2 and jest-junit 17.0.0 (stack trimmed): `test.each([[1, 2], [2, 2]])('doubles', ...)`
    // inside describe('cart'), a title without placeholders; jest: "Tests: 1 failed, 1 passed, 2 total".
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="jest tests" tests="2" failures="1" errors="0" time="0.523">',
      '  <testsuite name="cart" errors="0" failures="1" skipped="0" timestamp="2026-11-27T07:20:37" time="0.328" tests="2">',
      '    <testcase classname="cart doubles" name="cart doubles" time="0.006">',
      '      <failure>Error: expect(received).toBe(expected) // Object.is equality',
      '',
      'Expected: 5',
      'Received: 2',
      '    at toBe (/tmp/rv/jestj/t/each.test.js:3:19)</failure>',
      '    </testcase>',
      '    <testcase classname="cart doubles" name="cart doubles" time="0.001">',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
    ].join('\n');
    const report = parseReport('junit.xml', xml);
    expect(report.tests.map((t) => [t.name, t.outcome, t.attempts?.length ?? 1])).toEqual([
      ['cart doubles', 'failed', 1],
      ['cart doubles', 'passed', 1],
    ]);
    expect(countTests(report.tests)).toMatchObject({ total: 2, passed: 1, failed: 1, flaky: 0 });
  });

  test('TestNG data-provider invocations are three tests with their params', () => {
    const method = (status: string, value: string) =>
      `<test-method status="${status}" name="matches" duration-ms="1"><params><param index="0"><value><![CDATA[${value}]]></value></param></params></test-method>`;
    const report = parseReport(
      'testng-results.xml',
      `<testng-results><suite name="S"><test name="T"><class name="P">${method('PASS', '1')}${method('PASS', '2')}${method('FAIL', '3')}</class></test></suite></testng-results>`,
    );
    expect(report.tests.map((t) => [t.params, t.outcome])).toEqual([
      ['[1]', 'passed'],
      ['[2]', 'passed'],
      ['[3]', 'failed'],
    ]);
  });

  test('CTRF flaky and retries marks: earlier failed runs before the final one', () => {
    const ctrf = (tests: object[]) =>
      JSON.stringify({ results: { tool: { name: 'x' }, summary: {}, tests } });
    const report = parseReport(
      'ctrf.json',
      ctrf([
        { name: 'a', status: 'passed', duration: 1, flaky: true, retries: 1 },
        // Playwright's CTRF reporter: retryAttempts lists only the earlier failed runs.
        {
          name: 'b',
          status: 'passed',
          duration: 1,
          retries: 2,
          retryAttempts: [{ status: 'failed' }, { status: 'failed' }],
        },
        { name: 'c', status: 'passed', duration: 1 },
      ]),
    );
    expect(report.tests.map((t) => t.attempts?.map((a) => a.outcome) ?? [t.outcome])).toEqual([
      ['failed', 'passed'],
      ['failed', 'failed', 'passed'],
      ['passed'],
    ]);
    expect(countTests(report.tests)).toMatchObject({ total: 3, flaky: 2, runs: 6 });
  });
});

describe("each reporter read into its runner's identity", () => {
  const names = (xml: string) =>
    parseReport('r.xml', xml).tests.map((t) => [t.fullName ?? t.name, t.outcome, t.message]);
  const runErrors = (xml: string) => parseReport('r.xml', xml).runErrors ?? [];
  const vitestFile = (cases: string) =>
    `<testsuites name="vitest tests"><testsuite name="a.test.js">${cases}</testsuite></testsuites>`;
  const vitestCase = (name: string, body = '') =>
    `<testcase classname="a.test.js" name="${name}">${body}</testcase>`;
  const hookError = '<failure message="db down" type="Error">Error: db down</failure>';

  test.each([
    [
      'a failed beforeAll: the suite case goes, the test it stopped is an error with its message',
      vitestCase('db &gt; reads', '<skipped/>') + vitestCase('db', hookError),
      [['db > reads', 'error', 'db down']],
    ],
    [
      'a failed afterAll of a nested describe: its tests ran, so the failure is a run error of the suite',
      vitestCase('outer &gt; db &gt; reads') + vitestCase('other') + vitestCase('db', hookError),
      [
        ['outer > db > reads', 'passed', undefined],
        ['other', 'passed', undefined],
      ],
      [
        {
          file: 'a.test.js',
          suite: 'db',
          message: "a hook failed after the suite's tests ran: db down",
        },
      ],
    ],
    [
      'a failed hook outside any describe is the file, named as the classname',
      vitestCase('reads', '<skipped/>') + vitestCase('a.test.js', hookError),
      [['reads', 'error', 'db down']],
    ],
    [
      'a file that failed to load, its one case, is a run error of the file: no test lies under it',
      vitestCase('a.test.js', hookError),
      [],
      [{ file: 'a.test.js', suite: 'a.test.js', message: 'db down' }],
    ],
    [
      'a failed test named as no describe stays a test',
      vitestCase('db &gt; reads') + vitestCase('dbx', hookError),
      [
        ['db > reads', 'passed', undefined],
        ['dbx', 'failed', 'db down'],
      ],
    ],
    [
      // The file cannot tell it from that describe's failed afterAll: read so, it still fails the gate.
      'a failed test named as an earlier describe, whose tests passed, last in its file, is read as its afterAll',
      vitestCase('parse &gt; reads a number') +
        vitestCase('parse &gt; reads a string') +
        vitestCase('parse', hookError),
      [
        ['parse > reads a number', 'passed', undefined],
        ['parse > reads a string', 'passed', undefined],
      ],
      [
        {
          file: 'a.test.js',
          suite: 'parse',
          message: "a hook failed after the suite's tests ran: db down",
        },
      ],
    ],
    [
      'a failed test named as a describe but followed by other tests is no injected suite case',
      vitestCase('db &gt; reads', '<skipped/>') + vitestCase('db', hookError) + vitestCase('later'),
      [
        ['db > reads', 'skipped', undefined],
        ['db', 'failed', 'db down'],
        ['later', 'passed', undefined],
      ],
    ],
  ])("vitest's junit: %s", (_name, cases, want, wantRunErrors: object[] = []) => {
    expect(names(vitestFile(cases))).toEqual(want);
    expect(runErrors(vitestFile(cases))).toEqual(wantRunErrors);
  });

  test('mocha-junit-reporter: the full title whichever of classname and name holds it', () => {
    const file = (cases: string) =>
      `<testsuites name="Mocha Tests"><testsuite name="math" file="/w/test/math.spec.js">${cases}</testsuite></testsuites>`;
    const plain = parseReport('r.xml', file('<testcase name="math adds" classname="adds"/>'));
    const swapped = parseReport('r.xml', file('<testcase name="adds" classname="math adds"/>'));
    expect([plain, swapped].map((r) => [r.tests[0]!.fullName, r.tests[0]!.file, r.gap])).toEqual([
      ['math adds', '/w/test/math.spec.js', undefined],
      ['math adds', '/w/test/math.spec.js', undefined],
    ]);
  });

  test('mocha-junit-reporter: tests outside any describe have no file, and the report says so', () => {
    const report = parseReport(
      'r.xml',
      '<testsuites name="Mocha Tests"><testsuite name="Root Suite"><testcase name="top" classname="top"/></testsuite>' +
        '<testsuite name="math" file="/w/m.spec.js"><testcase name="math adds" classname="adds"/></testsuite></testsuites>',
    );
    expect(report.tests.map((t) => [t.fullName, t.file])).toEqual([
      ['top', undefined],
      ['math adds', '/w/m.spec.js'],
    ]);
    expect(report.gap).toMatchObject({ reporter: 'mocha-junit-reporter', placeholder: '{file}' });
  });

  describe("mocha-junit-reporter's jenkinsMode: the full title from classname, name and the testsuites' names", () => {
    /** Testsuites as the reporter writes them: the root suite's own first, named "". */
    const jenkins = (suites: [string, string][], root = 'Mocha Tests') =>
      `<testsuites name="${root}"><testsuite name="" tests="0"/>` +
      suites
        .map(
          ([name, cases]) => `<testsuite name="${name}" file="/w/m.spec.js">${cases}</testsuite>`,
        )
        .join('') +
      '</testsuites>';
    const tc = (classname: string, name: string) =>
      `<testcase classname="${classname}" name="${name}"/>`;
    const fullNames = (xml: string) => parseReport('r.xml', xml).tests.map((t) => t.fullName);

    test.each([
      [
        'a describe title holding the separator',
        jenkins([
          ['Root Suite.api', ''],
          ['Root Suite.api.v1.2', tc('api.v1.2', 'reads')],
        ]),
        ['api v1.2 reads'],
      ],
      [
        "a sibling describe whose title starts with another's",
        jenkins([
          ['Root Suite.math', tc('math', 'adds')],
          ['Root Suite.math.nested', tc('math.nested', 'nests')],
          ['Root Suite.mathematics', tc('mathematics', 'proves')],
        ]),
        ['math adds', 'math nested nests', 'mathematics proves'],
      ],
      [
        'a separator of several characters, other titles',
        jenkins(
          [
            ['All :: math', tc('math', 'adds')],
            ['All :: math :: nested', ''],
            ['All :: math :: nested :: deeper', tc('math :: nested :: deeper', 'multiplies')],
          ],
          'Calculator',
        ),
        ['math adds', 'math nested deeper multiplies'],
      ],
      [
        'testCaseSwitchClassnameAndName=false (classname and name swapped back)',
        jenkins([
          ['Root Suite.math', tc('adds', 'math')],
          ['Root Suite.math.nested', tc('nests', 'math.nested')],
        ]),
        ['math adds', 'math nested nests'],
      ],
    ])('%s', (_name, xml, want) => {
      expect(fullNames(xml)).toEqual(want);
    });

    test('a test outside any describe: its title, no file, and the report says so', () => {
      const xml =
        '<testsuites name="Mocha Tests"><testsuite name="" tests="1"><testcase classname="" name="top"/></testsuite>' +
        '<testsuite name="Root Suite.math" file="/w/m.spec.js"><testcase classname="math" name="adds"/></testsuite></testsuites>';
      const report = parseReport('r.xml', xml);
      expect(report.tests.map((t) => [t.fullName, t.file])).toEqual([
        ['top', undefined],
        ['math adds', '/w/m.spec.js'],
      ]);
      expect(report.gap).toMatchObject({ reporter: 'mocha-junit-reporter', placeholder: '{file}' });
    });

    test("another producer's suites, named other than one head and the classname, keep classname.name", () => {
      const xml =
        '<testsuites><testsuite name="" tests="0"/><testsuite name="com.acme.MathTest">' +
        tc('com.acme.MathTest', 'adds') +
        '</testsuite><testsuite name="acme.Other">' +
        tc('Other', 'runs') +
        '</testsuite></testsuites>';
      expect(fullNames(xml)).toEqual([undefined, undefined]);
    });
  });

  test("mocha's xunit under its suiteName option: recognised by its root, not its name", () => {
    const xunit = (timestamp: string, failures = '0') =>
      `<testsuite name="Calculator" tests="1" failures="${failures}" errors="0" skipped="0" timestamp="${timestamp}" time="0">` +
      '<testcase classname="math parameterized" name="sums" file="/w/m.spec.js" time="0"/></testsuite>';
    const fullName = (xml: string) => parseReport('r.xml', xml).tests[0]!.fullName;
    expect(fullName(xunit('Wed, 25 Nov 2026 06:35:10 GMT'))).toBe('math parameterized sums');
    // ISO 8601, as other writers put it, or failures counted: another producer.
    expect(fullName(xunit('2026-11-25T06:35:10'))).toBeUndefined();
    expect(fullName(xunit('Wed, 25 Nov 2026 06:35:10 GMT', '1'))).toBeUndefined();
  });

  test("mocha's xunit: describe path and title joined as mocha's full title", () => {
    const report = parseReport(
      'r.xml',
      '<testsuite name="Mocha Tests"><testcase classname="math parameterized" name="sums" file="/w/m.spec.js"/></testsuite>',
    );
    expect(report.tests[0]!.fullName).toBe('math parameterized sums');
  });

  test('a JUnit file of another producer keeps classname.name', () => {
    const report = parseReport(
      'r.xml',
      junit(suite('s', pass('adds', 'com.example.MathTest') + pass('math adds', 'adds'))),
    );
    expect(report.tests.map((t) => t.fullName)).toEqual([undefined, undefined]);
  });

  test('rspec_junit_formatter: the full description, as rspec --format json gives it', () => {
    const report = parseReport(
      'r.xml',
      '<testsuite name="rspec"><testcase classname="spec.models.user_spec" name="User validates" file="./spec/models/user_spec.rb"/></testsuite>',
    );
    expect(report.tests[0]!.fullName).toBe('User validates');
  });

  test("pytest's xunit1 (classname = the file's path with dots) is not rspec's: keys stay classname.name", () => {
    const cases =
      '<testcase classname="tests.test_math" name="test_add" file="tests/test_math.py" line="3"/>' +
      '<testcase classname="tests.api.test_math" name="test_get" file="tests/api/test_math.py" line="5"/>';
    const pytest = parseReport(
      'r.xml',
      `<testsuites><testsuite name="pytest" tests="2">${cases}</testsuite></testsuites>`,
    );
    expect(pytest.tests.map((t) => t.fullName)).toEqual([undefined, undefined]);
    // The same cases under rspec_junit_formatter's root (a parallel run's TEST_ENV_NUMBER too).
    for (const name of ['rspec', 'rspec2'])
      expect(
        parseReport('r.xml', `<testsuite name="${name}">${cases}</testsuite>`).tests.map(
          (t) => t.fullName,
        ),
      ).toEqual(['test_add', 'test_get']);
  });

  test("a Cucumber-JVM feature whose scenarios end with its name is not mocha's: no split, no gap", () => {
    const report = parseReport(
      'r.xml',
      '<testsuite name="io.cucumber.core.plugin.JUnitFormatter" tests="2">' +
        '<testcase classname="Login" name="Successful Login"/><testcase classname="Login" name="Failed Login"/>' +
        '</testsuite>',
    );
    expect(report.tests.map((t) => t.fullName)).toEqual([undefined, undefined]);
    expect(report.gap).toBeUndefined();
  });

  test("googletest JSON: 1.12's byte-per-escape names read as UTF-8, right escapes kept", () => {
    const gtest = (name: string) =>
      `{"tests":1,"failures":0,"disabled":0,"name":"AllTests","testsuites":[{"name":"S","testsuite":[{"name":"${name}","status":"RUN","result":"COMPLETED","time":"0.002s","classname":"S"}]}]}`;
    const read = (name: string) => parseReport('gtest.json', gtest(name));
    expect(read('Unicode_\\u00C3\\u00A9').tests[0]).toMatchObject({
      name: 'Unicode_é',
      durationMs: 2,
    });
    expect(read('Caf\\u00E9').tests[0]!.name).toBe('Café');
    expect(read('Caf\\u00E9').format).toBe('googletest');
  });
});

describe('messages', () => {
  test('ANSI colour codes are removed; a JUnit failure without message takes its first line', () => {
    const report = parseReport(
      'r.xml',
      junit(suite('s', fail('t', 'C', '\n\n  \u001b[31mexpected 1\u001b[39m to be 2\n  at x'))),
    );
    expect(report.tests[0]!.message).toBe('expected 1 to be 2');
    expect(report.tests[0]!.details).not.toContain('\u001b');
  });

  test('Go: the panic text, not the --- FAIL line', () => {
    const events = [
      { Action: 'run', Package: 'p', Test: 'TestX' },
      { Action: 'output', Package: 'p', Test: 'TestX', Output: '--- FAIL: TestX (0.00s)\n' },
      {
        Action: 'output',
        Package: 'p',
        Test: 'TestX',
        Output: 'panic: runtime error: index out of range [3] with length 1 [recovered]\n',
      },
      { Action: 'fail', Package: 'p', Test: 'TestX' },
    ];
    const report = parseReport('go.json', events.map((e) => JSON.stringify(e)).join('\n'));
    expect(report.tests[0]!.message).toBe(
      'panic: runtime error: index out of range [3] with length 1 [recovered]',
    );
  });

  test('a JSON-lines file given as a one-document format is named as JSON lines', () => {
    expect(() => parseReport('x.jsonl', '{"a":1}\n{"b":2}\n', { format: 'ctrf' })).toThrow(
      /x\.jsonl: holds JSON lines \(one object per line\), but CTRF JSON is one JSON document/,
    );
    expect(() => parseReport('y.jsonl', '{"a":1}\n{"b":2}\n')).toThrow(
      /y\.jsonl: is JSON lines \(NDJSON\) in no known test report format/,
    );
  });
});

describe('directory mode', () => {
  const root = mkdtempSync(join(tmpdir(), 'testcycle-identity-'));
  mkdirSync(join(root, 'results/allure'), { recursive: true });
  writeFileSync(join(root, 'results/junit.xml'), junit(suite('s', fail('t') + pass('t'))));
  writeFileSync(join(root, 'results/.state.json'), '{"hidden": true}');
  writeFileSync(join(root, 'results/tool-state.json'), '{"lastRun": "2026-01-01"}');
  writeFileSync(join(root, 'results/events.jsonl'), '{"event":"start"}\n{"event":"end"}\n');
  const allure = (uuid: string, status: string, start: number) =>
    JSON.stringify({ uuid, historyId: 'h1', name: 'retried', status, stage: 'finished', start });
  writeFileSync(join(root, 'results/allure/1-result.json'), allure('1', 'failed', 1));
  writeFileSync(join(root, 'results/allure/2-result.json'), allure('2', 'passed', 2));
  writeFileSync(join(root, 'results/allure/3-container.json'), '{"uuid":"3","children":["1"]}');

  test('files that are no reports are skipped and listed; Allure results of a directory are one report', async () => {
    const reports = await readReports([join(root, 'results')]);
    expect(reports.map((r) => [r.file.slice(root.length + 1), r.format])).toEqual([
      ['results/junit.xml', 'junit'],
      ['results/allure', 'allure'],
    ]);
    expect(countTests(reports[1]!.tests)).toMatchObject({ total: 1, flaky: 1, runs: 2 });
    expect(reports.skipped.map((s) => s.file.slice(root.length + 1))).toEqual([
      'results/events.jsonl',
      'results/tool-state.json',
    ]);
    expect(reports.skipped[0]!.reason).toMatch(/^is JSON lines \(NDJSON\) in no known/);
  });

  test('a file named explicitly stays strict', async () => {
    await expect(readReports([join(root, 'results/tool-state.json')])).rejects.toThrow(ReportError);
  });

  test('parse shows runs beside tests and lists skipped files with --verbose', async () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: () => {}, env: {} };
    expect(await main(['parse', '--report', join(root, 'results'), '--verbose'], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/\n4 runs of 2 tests, 2 flaky; 2 files skipped as not reports\n/);
    expect(text).toMatch(/skipped .*tool-state\.json: is JSON in no known test report format/);
    out.length = 0;
    expect(await main(['parse', '--report', join(root, 'results'), '--json'], io)).toBe(0);
    const json = JSON.parse(out[0]!) as {
      totals: { total: number; runs: number; flaky: number };
      skippedFiles: unknown[];
    };
    expect(json.totals).toMatchObject({ total: 2, runs: 4, flaky: 2 });
    expect(json.skippedFiles).toHaveLength(2);
  });
});
