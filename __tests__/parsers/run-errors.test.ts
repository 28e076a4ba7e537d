/**
 * Run errors at the edges each format allows (docs/design.md "Run errors"); the real reports of
 * samples/*\/reports/run-errors prove the common cases (samples.test.ts). Each case is the smallest
 * report that shows one rule, with the run errors and the tests it must give.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readReportSet } from '../../src/job/reports.js';
import { parseReport, readReports } from '../../src/parsers/index.js';

const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n');
const read = (file: string, text: string) => {
  const report = parseReport(file, text);
  return {
    tests: report.tests.map((t) => `${t.name} ${t.outcome}`),
    runErrors: report.runErrors ?? [],
  };
};

describe('go test -json', () => {
  test('go 1.24 and later: a package that did not build is a fail event with FailedBuild', () => {
    expect(
      read(
        'go.json',
        lines(
          {
            Action: 'build-output',
            ImportPath: 'p [p.test]',
            Output: 'p/a_test.go:3:1: syntax error\n',
          },
          { Action: 'start', Package: 'p' },
          { Action: 'output', Package: 'p', Output: 'FAIL\tp [build failed]\n' },
          { Action: 'fail', Package: 'p', Elapsed: 0, FailedBuild: 'p [p.test]' },
          { Action: 'run', Package: 'q', Test: 'TestQ' },
          { Action: 'pass', Package: 'q', Test: 'TestQ', Elapsed: 0 },
          { Action: 'pass', Package: 'q', Elapsed: 0 },
        ),
      ),
    ).toEqual({
      tests: ['TestQ passed'],
      runErrors: [{ suite: 'p', message: "build failed (go test's output names the errors)" }],
    });
  });

  test('a package that failed because a test failed has no run error', () => {
    expect(
      read(
        'go.json',
        lines(
          { Action: 'run', Package: 'p', Test: 'TestA' },
          { Action: 'output', Package: 'p', Test: 'TestA', Output: '    a_test.go:5: no\n' },
          { Action: 'fail', Package: 'p', Test: 'TestA', Elapsed: 0 },
          { Action: 'output', Package: 'p', Output: 'FAIL\tp\t0.01s\n' },
          { Action: 'fail', Package: 'p', Elapsed: 0.01 },
        ),
      ).runErrors,
    ).toEqual([]);
  });
});

describe('Cucumber messages', () => {
  const run = (...events: object[]) =>
    read(
      'messages.ndjson',
      lines({ meta: { protocolVersion: '32.2.0' } }, { testRunStarted: {} }, ...events),
    );

  test('a failed BeforeAll or AfterAll hook, and the exception that stopped the run', () => {
    expect(
      run(
        { testRunHookFinished: { result: { status: 'FAILED', message: 'db down' } } },
        {
          testRunFinished: {
            success: false,
            exception: { type: 'Error', message: 'a BeforeAll hook errored' },
          },
        },
      ).runErrors,
    ).toEqual([
      { message: 'a BeforeAll or AfterAll hook failed: db down' },
      { message: 'the run stopped: a BeforeAll hook errored' },
    ]);
  });

  test('a passing hook and a successful end are nothing', () => {
    expect(
      run(
        { testRunHookFinished: { result: { status: 'PASSED' } } },
        { testRunFinished: { success: true } },
      ).runErrors,
    ).toEqual([]);
  });

  test('messages that end before testRunFinished: the run stopped before it finished', () => {
    expect(run().runErrors).toEqual([
      { message: 'the messages end before testRunFinished: the run stopped before it finished' },
    ]);
  });
});

describe('JUnit', () => {
  test.each([
    [
      'its error element says what',
      '<error message="java.lang.ExceptionInInitializerError" type="java.lang.ExceptionInInitializerError"/>',
      'java.lang.ExceptionInInitializerError',
    ],
    [
      'nothing else says what',
      '<system-err>at com.acme.Cart</system-err>',
      'the suite counts 1 error(s) and holds no test case',
    ],
  ])(
    'a testsuite that counts errors and holds no test case is a run error of its suite and file: %s',
    (_name, body, message) => {
      expect(
        read(
          'TEST-CartTest.xml',
          `<testsuites><testsuite name="com.acme.CartTest" file="src/CartTest.java" tests="0" errors="1">${body}</testsuite>` +
            '<testsuite name="com.acme.Other" tests="1"><testcase classname="com.acme.Other" name="works"/></testsuite></testsuites>',
        ),
      ).toEqual({
        tests: ['works passed'],
        runErrors: [{ file: 'src/CartTest.java', suite: 'com.acme.CartTest', message }],
      });
    },
  );

  test('an empty testsuite that counts no error is nothing', () => {
    expect(
      read(
        'r.xml',
        '<testsuites><testsuite name="empty" tests="0" errors="0" failures="0"/>' +
          '<testsuite name="s"><testcase name="t"/></testsuite></testsuites>',
      ).runErrors,
    ).toEqual([]);
  });
});

describe('Jest JSON', () => {
  const jest = (root: object, testResults: object[]) =>
    JSON.stringify({
      numFailedTestSuites: 0,
      numFailedTests: 0,
      numPassedTests: 1,
      numTotalTests: 1,
      wasInterrupted: false,
      success: true,
      ...root,
      testResults,
    });
  const passing = {
    name: '/w/a.test.js',
    status: 'passed',
    message: '',
    assertionResults: [{ ancestorTitles: [], title: 't', fullName: 't', status: 'passed' }],
  };

  test('before Jest 27: a file that did not load has its reason in testExecError', () => {
    expect(
      read(
        'jest.json',
        jest({ numRuntimeErrorTestSuites: 1, success: false }, [
          passing,
          {
            name: '/w/b.test.js',
            status: 'failed',
            assertionResults: [],
            testExecError: { message: 'Cannot find module ./x', stack: '' },
          },
        ]),
      ).runErrors,
    ).toEqual([{ file: '/w/b.test.js', message: 'Cannot find module ./x' }]);
  });

  test('Jest counts more files that failed to run than the report names', () => {
    expect(
      read('jest.json', jest({ numRuntimeErrorTestSuites: 2, success: false }, [passing]))
        .runErrors,
    ).toEqual([
      {
        message:
          'Jest counts 2 test file(s) that failed to run (numRuntimeErrorTestSuites), the report names 0',
      },
    ]);
  });

  test('success: false with no failed test and nothing else to explain it', () => {
    expect(read('jest.json', jest({ success: false }, [passing])).runErrors).toEqual([
      { message: 'the runner reports the run failed (success: false), though no test failed' },
    ]);
  });
});

test('Dart: a file that failed to load is its "loading" pseudo-test, shown: a run error of the file', () => {
  expect(
    read(
      'dart.json',
      lines(
        { protocolVersion: '0.1.1', type: 'start', time: 0 },
        { suite: { id: 0, platform: 'vm', path: 'test/cart_test.dart' }, type: 'suite', time: 0 },
        {
          test: { id: 1, name: 'loading test/cart_test.dart', suiteID: 0, groupIDs: [] },
          type: 'testStart',
          time: 1,
        },
        {
          testID: 1,
          error: 'Failed to load "test/cart_test.dart": Error: Undefined name \'total\'.',
          isFailure: false,
          type: 'error',
          time: 5,
        },
        { testID: 1, result: 'error', skipped: false, hidden: false, type: 'testDone', time: 6 },
        { success: false, type: 'done', time: 7 },
      ),
    ),
  ).toEqual({
    tests: [],
    runErrors: [
      {
        file: 'test/cart_test.dart',
        message: 'Failed to load "test/cart_test.dart": Error: Undefined name \'total\'.',
      },
    ],
  });
});

test("TRX: a RunInfo of outcome Error is the run's (a test host that crashed), never the xUnit adapter's echo of a test's failure", async () => {
  const dir = '__tests__/fixtures/reports';
  const runErrorsOf = async (file: string) =>
    (await readReports([join(dir, file)]))[0]!.runErrors ?? [];
  expect(await runErrorsOf('enricomi/trx/yami_YAMILEX_2015-10-24_04_18_59.trx')).toEqual([
    { message: 'test run: El proceso del host de pruebas terminó inesperadamente.' },
  ]);
  for (const file of [
    'dorny/fixtures/dotnet-trx.trx',
    'dorny/fixtures/dotnet-xunitv3.trx',
    'enricomi/trx/xunit/xUnit-net461-sample.trx',
  ])
    expect(await runErrorsOf(file)).toEqual([]);
});

test.each([
  [
    'a filtered run',
    '<filter><not><cat>Slow</cat></not><test>Acme.CartTests</test></filter>',
    { filter: 'not(cat=Slow) test=Acme.CartTests' },
  ],
  ['the whole suite (an empty filter, as nunit3-console writes it)', '<filter />', undefined],
])("NUnit 3's <filter>: %s", (_name, filter, selection) => {
  const xml = `<test-run id="2" testcasecount="1" result="Passed">${filter}<test-suite type="Assembly" name="a.dll"><test-case name="T" fullname="A.T" result="Passed"/></test-suite></test-run>`;
  expect(parseReport('TestResult.xml', xml).selection).toEqual(selection);
});

describe('Playwright JSON: what it tells of a partial run', () => {
  const report = (config: object) =>
    JSON.stringify({ config: { rootDir: '/w', ...config }, suites: [], errors: [] });

  test.each([
    ['a shard of one is the whole run', { shard: { current: 1, total: 1 } }, undefined],
    ['no command line, no shard', {}, undefined],
    [
      'file and line filters and a project, values inline or apart',
      {
        argv: [
          'node',
          'playwright',
          'test',
          '-c',
          'pw.config.ts',
          'tests/cart.spec.ts:12',
          '--project=chromium',
          '--workers',
          '2',
        ],
      },
      { filter: 'tests/cart.spec.ts:12 --project chromium' },
    ],
    ['grepInvert set in the config', { grepInvert: {} }, { filter: 'grepInvert (in its config)' }],
  ])('%s', (_name, config, selection) => {
    expect(parseReport('playwright.json', report(config)).selection).toEqual(selection);
  });
});

test('reports that hold run errors and no test are refused, naming the run errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-run-errors-'));
  const file = join(dir, 'go.json');
  writeFileSync(file, `FAIL\tp [build failed]\n${lines({ Action: 'start', Package: 'p' })}\n`);
  await expect(readReportSet({ patterns: [file], format: 'auto', maxBytes: 1e6 })).rejects.toThrow(
    /^no test results to publish, nothing was sent\. the reports name 1 run error\(s\), failures of the run that stopped its tests: \S+go\.json: p: build failed \(go test's output names the errors\)\. 1 file\(s\) read as test reports hold no test: /,
  );
});
