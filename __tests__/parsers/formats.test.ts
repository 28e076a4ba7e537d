/**
 * Formats the corpus does not cover (TestNG results, Cucumber JSON, Playwright JSON), and format
 * detection over the registry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult } from '../../src/parsers/base/model.js';
import { countTests, FORMATS, FORMAT_IDS, parseReport } from '../../src/parsers/index.js';
import { gherkinStep } from '../../src/parsers/formats/cucumber.js';
import { MAX_DEPTH } from '../../src/parsers/formats/tap.js';
import { runnerNameOf } from '../../src/domain/match.js';
import { REPORT_EXTENSIONS, REPORT_FORMAT_IDS } from '../../src/shared/defaults.js';
import { settingOf } from '../../src/settings/table.js';

test('each format id of src/shared/defaults.ts has the parser of that id, in detection order, and is a --format choice', () => {
  expect(FORMATS.map((f) => f.id)).toEqual([...REPORT_FORMAT_IDS]);
  expect(FORMAT_IDS).toEqual([...REPORT_FORMAT_IDS]);
  expect(settingOf('format')!.choices).toEqual(['auto', ...REPORT_FORMAT_IDS]);
});

test('every extension the reports setting lists is one a format declares it writes, and no other', () => {
  const declared = new Set(FORMATS.flatMap((f) => f.extensions));
  expect([...declared].sort()).toEqual([...REPORT_EXTENSIONS].sort());
  for (const f of FORMATS) expect(f.extensions.length).toBeGreaterThan(0);
});

const TESTNG = `<?xml version="1.0" encoding="UTF-8"?>
<testng-results skipped="1" failed="1" total="4" passed="2">
  <suite name="Shop" duration-ms="120">
    <test name="unit">
      <class name="com.acme.CartTest">
        <test-method status="PASS" signature="setUp()" name="setUp" is-config="true" duration-ms="1"/>
        <test-method status="PASS" name="addsItem" duration-ms="12"/>
        <test-method status="FAIL" name="removesItem" duration-ms="30" description="Cart removal">
          <exception class="java.lang.AssertionError"><message><![CDATA[expected [1] but found [2]]]></message><full-stacktrace><![CDATA[java.lang.AssertionError: expected [1] but found [2]]]></full-stacktrace></exception>
        </test-method>
        <test-method status="SKIP" name="emptiesCart" duration-ms="0"/>
        <test-method status="PASS" name="totals" duration-ms="5"/>
      </class>
    </test>
  </suite>
</testng-results>`;

const CUCUMBER = JSON.stringify([
  {
    uri: 'features/cart.feature',
    keyword: 'Feature',
    name: 'Cart',
    elements: [
      {
        type: 'background',
        keyword: 'Background',
        name: '',
        steps: [{ keyword: 'Given ', result: { status: 'passed', duration: 1000000 } }],
      },
      {
        type: 'scenario',
        keyword: 'Scenario',
        name: 'Add an item',
        line: 5,
        tags: [{ name: '@SHOP-T1' }],
        steps: [{ keyword: 'When ', result: { status: 'passed', duration: 2000000 } }],
      },
      {
        type: 'scenario',
        keyword: 'Scenario',
        name: 'Remove an item',
        line: 9,
        steps: [
          { keyword: 'When ', result: { status: 'passed' } },
          {
            keyword: 'Then ',
            result: { status: 'failed', error_message: 'expected 0 items\nat step' },
          },
        ],
      },
      {
        type: 'scenario',
        keyword: 'Scenario',
        name: 'Wishlist',
        line: 14,
        steps: [{ keyword: 'Given ', result: { status: 'undefined' } }],
      },
    ],
  },
]);

const PLAYWRIGHT = JSON.stringify({
  config: { rootDir: '/repo/e2e', projects: [{ name: 'chromium' }, { name: 'firefox' }] },
  suites: [
    {
      title: 'cart.spec.ts',
      file: 'cart.spec.ts',
      specs: [
        {
          title: 'adds an item',
          file: 'cart.spec.ts',
          line: 3,
          tests: [
            {
              projectName: 'chromium',
              expectedStatus: 'passed',
              status: 'flaky',
              results: [
                { status: 'failed', duration: 10, error: { message: 'timeout' } },
                { status: 'passed', duration: 8 },
              ],
            },
            {
              projectName: 'firefox',
              expectedStatus: 'passed',
              status: 'unexpected',
              results: [
                { status: 'failed', duration: 9, error: { message: 'boom' } },
                { status: 'failed', duration: 9 },
              ],
            },
          ],
        },
      ],
      suites: [
        {
          title: 'checkout',
          specs: [
            {
              title: 'pays',
              file: 'cart.spec.ts',
              line: 20,
              tests: [
                {
                  projectName: 'chromium',
                  expectedStatus: 'skipped',
                  status: 'skipped',
                  results: [],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});

describe('TestNG testng-results.xml', () => {
  const report = parseReport('testng-results.xml', TESTNG);
  test('is detected; configuration methods are not tests', () => {
    expect(report.format).toBe('testng');
    expect(countTests(report.tests)).toMatchObject({ total: 4, passed: 2, failed: 1, skipped: 1 });
  });
  test('keeps class, message, stack trace, duration and description', () => {
    const failed = report.tests.find((t) => t.outcome === 'failed')!;
    expect(failed).toMatchObject({
      classname: 'com.acme.CartTest',
      name: 'removesItem',
      message: 'expected [1] but found [2]',
      durationMs: 30,
      suite: ['Shop', 'unit'],
    });
    expect(failed.details).toContain('AssertionError');
    expect(failed.properties.description).toBe('Cart removal');
  });
});

describe('Cucumber JSON', () => {
  const report = parseReport('cucumber.json', CUCUMBER);
  test('one test per scenario (backgrounds are not tests); a failed or undefined step fails it (strict)', () => {
    expect(report.format).toBe('cucumber');
    expect(report.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['Add an item', 'passed'],
      ['Remove an item', 'failed'],
      ['Wishlist', 'failed'],
    ]);
    expect(report.tests[2]!.message).toMatch(/a step is undefined/);
  });
  test('feature as classname, file and line, tags as properties (so a key tag matches), first line of the error', () => {
    const [add, remove] = report.tests;
    expect(add).toMatchObject({
      classname: 'Cart',
      file: 'features/cart.feature',
      line: 5,
      durationMs: 2,
      properties: { tags: '@SHOP-T1' },
    });
    expect(remove!.message).toBe('expected 0 items');
  });
});

describe('Gherkin step arguments (data tables, doc strings) in the steps', () => {
  const sample = (file: string) =>
    parseReport(file, readFileSync(join('samples/cucumber-js/reports', file), 'utf8'));
  const json = sample('cucumber.json');
  const messages = sample('messages.ndjson');

  test('a """ inside a doc string is escaped as Gherkin writes it, so the step has one closing line', () => {
    expect(gherkinStep('And d', { docString: 'a\n"""\nb' })).toBe(
      'And d\n"""\na\n\\"\\"\\"\nb\n"""',
    );
  });

  test('cucumber-js JSON and messages give every scenario the same steps, table rows and doc string included', () => {
    const stepsBy = (tests: TestResult[]) =>
      new Map(tests.map((t) => [`${t.file}:${t.line}`, t.steps]));
    const fromMessages = stepsBy(messages.tests);
    expect(json.tests.length).toBe(messages.tests.length);
    for (const t of json.tests) expect(fromMessages.get(`${t.file}:${t.line}`)).toEqual(t.steps);
    const scenario = json.tests.find((t) => t.classname === 'Step arguments')!;
    expect(scenario.steps!.map((s) => s.action)).toEqual([
      'Given a calculator',
      'When I add the rows:\n| a | b |\n| 1 | 2 |\n| 3 | 4 |',
      'Then the result is 10',
      'And the display shows:\n"""\n10\n"""',
    ]);
  });

  test('a doc string\'s media type (`"""text`) is left out of both: cucumber-js\'s messages keep it, its JSON does not', () => {
    const raw = (file: string) => readFileSync(join('samples/cucumber-js/reports', file), 'utf8');
    expect(raw('messages.ndjson')).toContain('"docString":{"content":"10","mediaType":"text"}');
    type Feature = { elements: { steps: { arguments?: object[] }[] }[] };
    const jsonDoc = (JSON.parse(raw('cucumber.json')) as Feature[])
      .flatMap((f) => f.elements.flatMap((e) => e.steps.flatMap((st) => st.arguments ?? [])))
      .find((a) => 'content' in a);
    expect(jsonDoc).toEqual({ content: '10', line: 12 });
    const action = (report: typeof json) =>
      report.tests.flatMap((t) => t.steps ?? []).find((st) => st.action.includes('"""'))?.action;
    expect(action(messages)).toBe('And the display shows:\n"""\n10\n"""');
    expect(action(json)).toBe(action(messages));
  });

  test('Cucumber-JVM JSON (rows and doc_string on the step): cells padded, | and \\ escaped as Gherkin writes them, the media type left out', () => {
    const jvm = JSON.stringify([
      {
        uri: 'features/a.feature',
        keyword: 'Feature',
        name: 'A',
        elements: [
          {
            type: 'scenario',
            keyword: 'Scenario',
            name: 's',
            line: 3,
            steps: [
              {
                keyword: 'Given ',
                name: 'users',
                rows: [{ cells: ['name', 'note'] }, { cells: ['@bob', 'a|b\\c'] }],
                result: { status: 'passed' },
              },
              {
                keyword: 'Then ',
                name: 'the page reads',
                doc_string: { value: '# Title\n<b>x</b>', content_type: 'markdown', line: 7 },
                result: { status: 'passed' },
              },
            ],
          },
        ],
      },
    ]);
    const [test] = parseReport('cucumber.json', jvm).tests;
    expect(test!.steps!.map((s) => s.action)).toEqual([
      'Given users\n| name | note    |\n| @bob | a\\|b\\\\c |',
      'Then the page reads\n"""\n# Title\n<b>x</b>\n"""',
    ]);
  });
});

describe('behave (samples/behave: one real behave 1.2.6 run, its json formatter and JUnit reporter)', () => {
  const dir = 'samples/behave/reports';
  const json = parseReport('behave.json', readFileSync(join(dir, 'behave.json'), 'utf8'));
  const junit = readdirSync(join(dir, 'junit')).map((file) =>
    parseReport(file, readFileSync(join(dir, 'junit', file), 'utf8')),
  );
  const named = (tests: TestResult[], name: string) => tests.find((t) => t.name === name)!;

  test("the JSON's file and line from behave's location, tags as the feature writes them (the feature's included)", () => {
    expect(json.format).toBe('cucumber');
    expect(named(json.tests, 'subtracts (fails on an assertion)')).toMatchObject({
      classname: 'Calculator',
      file: 'features/calculator.feature',
      line: 12,
      properties: { tags: '@arithmetic' },
    });
    expect(named(json.tests, 'sums 2 + 2 = 5 -- @1.3 small numbers')).toMatchObject({
      line: 55,
      properties: { tags: '@arithmetic,@outline' },
    });
    expect(json.tests.filter((t) => t.name === 'adds').map((t) => `${t.file}:${t.line}`)).toEqual([
      'features/calculator.feature:8',
      'features/other.feature:4',
    ]);
  });

  test('step durations are seconds: the scenario that sleeps 120 ms takes that long in both reports, the run took 0.122 s', () => {
    const console = readFileSync(join(dir, 'behave.console.txt'), 'utf8');
    expect(console).toContain('Took 0m0.122s');
    const slow = named(json.tests, 'takes a while').durationMs!;
    expect(slow).toBeGreaterThanOrEqual(120);
    expect(slow).toBeLessThan(122);
    expect(named(junit[0]!.tests, 'takes a while').durationMs).toBe(slow);
    const total = json.tests.reduce((sum, t) => sum + (t.durationMs ?? 0), 0);
    expect(total).toBeLessThanOrEqual(122);
  });

  test("the failure's message: an assertion's one-line error_message, an exception's traceback (a list of lines) an error, by the exception it names", () => {
    expect(named(json.tests, 'subtracts (fails on an assertion)')).toMatchObject({
      outcome: 'failed',
      message: 'Assertion Failed: expected 3, got 2',
      details: 'Assertion Failed: expected 3, got 2',
    });
    const error = named(json.tests, 'divides (raises a non-assertion error)');
    expect(error.outcome).toBe('error');
    expect(error.message).toBe("AttributeError: 'NoneType' object has no attribute 'divide'");
    expect(error.details).toMatch(/^Traceback \(most recent call last\):\n {2}File ".*", line \d+/);
    expect(error.details).toContain('\n    context.result = calculator.divide(a, b)\n');
    expect(named(json.tests, 'uses an undefined step').message).toMatch(/a step is undefined/);
  });

  test('a traceback: its last exception names the error, what behave captured after it does not; a bare assert is a failure', () => {
    const traceback = (...exception: string[]) => [
      'Traceback (most recent call last):',
      '  File "features/steps/steps.py", line 3, in step',
      '    x()',
      ...exception,
    ];
    const failing = (errorMessage: string[]) => ({
      keyword: 'Scenario',
      name: errorMessage.at(-1),
      location: 'features/a.feature:3',
      steps: [
        {
          keyword: 'Given',
          step_type: 'given',
          name: 'x',
          result: { status: 'failed', duration: 0.5, error_message: errorMessage },
        },
      ],
    });
    const messages = [
      [
        ...traceback(
          'KeyError: 1',
          '',
          'During handling of the above exception, another exception occurred:',
          '',
        ),
        ...traceback('ValueError: 2'),
      ],
      [...traceback('OSError: 3'), '', 'Captured stdout:', 'Not an exception: 4'],
      traceback('AssertionError'),
    ];
    const report = parseReport(
      'behave.json',
      JSON.stringify([
        {
          keyword: 'Feature',
          name: 'A',
          location: 'features/a.feature:1',
          elements: messages.map(failing),
        },
      ]),
    );
    expect(report.tests.map((t) => [t.outcome, t.message, t.durationMs])).toEqual([
      ['error', 'ValueError: 2', 500],
      ['error', 'OSError: 3', 500],
      ['failed', 'AssertionError', 500],
    ]);
  });

  test('the retried scenario (two elements, failed then passed) is one flaky test', () => {
    const flaky = named(json.tests, 'is flaky: fails first, passes on retry');
    expect(flaky.outcome).toBe('passed');
    expect(flaky.attempts?.map((a) => [a.outcome, a.message])).toEqual([
      ['failed', 'Assertion Failed: press 1 fails'],
      ['passed', undefined],
    ]);
  });

  test('the data table (headings and rows) and the doc string (a list of lines) are in their steps as Gherkin writes them', () => {
    expect(named(json.tests, 'adds the rows of a table and shows a doc string').steps).toEqual([
      { action: 'Given a calculator' },
      { action: 'When I add the rows\n| a | b |\n| 1 | 2 |\n| 3 | 4 |' },
      { action: 'Then the result is 10' },
      { action: 'And the display shows\n"""\n10\nand a second line\n"""' },
    ]);
  });

  test("the JUnit gives each scenario the JSON's classname, name, suite and outcome, every feature file but the file", () => {
    const tests = junit.flatMap((r) => r.tests);
    expect(junit.map((r) => r.format)).toEqual(['junit', 'junit', 'junit', 'junit']);
    const identity = (t: TestResult) => [t.suite, t.classname, t.name, t.outcome];
    expect(tests.map(identity).sort()).toEqual(json.tests.map(identity).sort());
    expect(tests.every((t) => t.file === undefined)).toBe(true);
    expect(junit.map((r) => r.gap?.reporter)).toEqual(Array(4).fill('behave junit'));
    // behave's JUnit tells the exception from assertions; its undefined step has no message.
    const calculator = junit.find((r) => r.file === 'TESTS-calculator.xml')!.tests;
    expect(named(calculator, 'divides (raises a non-assertion error)').outcome).toBe('error');
    expect(named(calculator, 'uses an undefined step').message).toBe(
      'Failing step: When I press a button nobody defined ... undefined in 0.000s',
    );
  });

  test("behave's JUnit is recognised by its content; the report's name TESTS-<file>.xml tells the feature's name from the file's", () => {
    const xml = (classname: string, status: string) =>
      `<testsuite name="a.b.Feature"><testcase classname="${classname}" name="s" status="${status}"/></testsuite>`;
    const read = (file: string, text: string) => {
      const report = parseReport(file, text);
      return [report.tests[0]!.classname, report.gap?.reporter];
    };
    expect(read('TESTS-a.b.xml', xml('a.b.Feature', 'passed'))).toEqual([
      'Feature',
      'behave junit',
    ]);
    expect(read('TESTS-a.xml', xml('a.b.Feature', 'failed'))).toEqual([
      'b.Feature',
      'behave junit',
    ]);
    // Renamed: behave's, but the boundary is unknown, so the classname stays whole (and the gap says so).
    expect(read('renamed.xml', xml('a.b.Feature', 'untested'))).toEqual([
      'a.b.Feature',
      'behave junit',
    ]);
    expect(parseReport('renamed.xml', xml('a.b.Feature', 'passed')).gap?.reason).toMatch(
      /was changed/,
    );
    // Not behave's: another status, or a classname that is not the suite's name.
    expect(read('TESTS-a.b.xml', xml('a.b.Feature', 'run'))).toEqual(['a.b.Feature', undefined]);
    expect(read('TESTS-a.b.xml', xml('a.b.Other', 'passed'))).toEqual(['a.b.Other', undefined]);
  });
});

describe('Playwright JSON', () => {
  const report = parseReport('results.json', PLAYWRIGHT);
  test('one test per spec and project; flaky passes, unexpected fails, skipped skips', () => {
    expect(report.format).toBe('playwright');
    expect(report.tests.map((t) => [t.classname, t.name, t.outcome])).toEqual([
      ['cart.spec.ts', 'adds an item [chromium]', 'passed'],
      ['cart.spec.ts', 'adds an item [firefox]', 'failed'],
      ['cart.spec.ts › checkout', 'pays [chromium]', 'skipped'],
    ]);
    expect(countTests(report.tests)).toMatchObject({
      total: 3,
      passed: 1,
      failed: 1,
      skipped: 1,
      flaky: 1,
    });
  });
  test('retries are attempts; file and line kept', () => {
    const [flaky] = report.tests;
    expect(flaky!.attempts!.map((a) => a.outcome)).toEqual(['failed', 'passed']);
    expect(flaky).toMatchObject({ file: 'cart.spec.ts', line: 3, durationMs: 18 });
  });
});

describe('format detection and --format', () => {
  test('--format forces a parser; an unknown one names the choices', () => {
    expect(
      parseReport('x.xml', '<testsuite name="s"><testcase name="a"/></testsuite>', {
        format: 'junit',
      }).tests,
    ).toHaveLength(1);
    expect(() => parseReport('x.xml', '<testsuite/>', { format: 'nope' })).toThrow(
      /x\.xml: unknown format "nope"; use auto or one of junit, nunit, nunit2/,
    );
  });
});

describe('console output in XML reports', () => {
  test('system-out and friends are read as raw text and left out: markup in logs does not break the parse', () => {
    const log = 'GET /cart -> 200 <html><body>unclosed <br> tags &amp; text\n'.repeat(50);
    const report = parseReport(
      'out.xml',
      `<testsuites><testsuite name="s">
        <testcase classname="C" name="passes"><system-out>${log}</system-out></testcase>
        <testcase classname="C" name="fails"><failure message="boom">trace</failure><system-err>${log}</system-err></testcase>
        <system-out><![CDATA[</system-out> inside CDATA is text]]></system-out>
      </testsuite></testsuites>`,
    );
    expect(report.tests.map((t) => [t.name, t.outcome, t.message, t.details])).toEqual([
      ['passes', 'passed', undefined, undefined],
      ['fails', 'failed', 'boom', 'trace'],
    ]);
  });
});

/** The tests of one sample file, read with detection as a user's run reads them. */
function sample(path: string) {
  return parseReport(path, readFileSync(path, 'utf8'));
}
const byName = (tests: TestResult[], name: string) => tests.find((t) => t.name === name)!;
/** classname and name (the JUnit identity) -> outcome. */
const outcomes = (tests: TestResult[]) =>
  Object.fromEntries(tests.map((t) => [`${t.classname}.${t.name}`, t.outcome]));

describe('Open Test Reporting (samples/junit5: one real JUnit 5.9.2 run, its events file, their hierarchical conversion, its legacy XML)', () => {
  const dir = 'samples/junit5/reports';
  const events = sample(
    join(
      dir,
      readdirSync(dir).find((f) => f.startsWith('junit-platform-events-'))!,
    ),
  );
  const hierarchy = sample(join(dir, 'open-test-report-hierarchy.xml'));
  const legacy = sample(join(dir, 'TEST-junit-jupiter.xml'));

  test("both formats are detected and give every test the legacy XML's class, name and outcome (changing reporter changes no key)", () => {
    expect([events.format, hierarchy.format, legacy.format]).toEqual([
      'open-test-reporting',
      'open-test-reporting',
      'junit',
    ]);
    const fromLegacy = outcomes(legacy.tests);
    // The one test the legacy XML adds: the test that the failed @BeforeAll never started.
    expect(fromLegacy['com.example.core.BrokenSetupTest.neverRuns()']).toBe('error');
    delete fromLegacy['com.example.core.BrokenSetupTest.neverRuns()'];
    expect(outcomes(events.tests)).toEqual(fromLegacy);
    expect(outcomes(hierarchy.tests)).toEqual(fromLegacy);
    expect(hierarchy.tests.map((t) => [t.suite, t.classname, t.name, t.message])).toEqual(
      events.tests.map((t) => [t.suite, t.classname, t.name, t.message]),
    );
    // The same durations, from the events' times or the hierarchy's ISO durations.
    hierarchy.tests.forEach((t, i) =>
      expect(Math.abs(t.durationMs! - events.tests[i]!.durationMs!)).toBeLessThanOrEqual(1),
    );
  });

  test('containers are the suite path; a failed container is a run error, not a test', () => {
    expect(byName(events.tests, 'deepest()')).toMatchObject({
      suite: ['JUnit Jupiter', 'NestedTest', 'Inner', 'Deeper'],
      classname: 'com.example.core.NestedTest$Inner$Deeper',
    });
    expect(byName(events.tests, 'matches(String)[3]')).toMatchObject({
      suite: ['JUnit Jupiter', 'ParamsTest', 'matches(String)'],
      outcome: 'failed',
      message:
        'org.opentest4j.AssertionFailedError: input was fail ==> expected: <true> but was: <false>',
    });
    expect(events.tests.some((t) => t.classname === 'com.example.core.BrokenSetupTest')).toBe(
      false,
    );
    for (const report of [events, hierarchy])
      expect(report.runErrors).toEqual([
        {
          suite: 'JUnit Jupiter › BrokenSetupTest',
          message: 'java.lang.IllegalStateException: database connection refused',
        },
      ]);
  });

  test('statuses: a throwable that is no assertion is an error, ABORTED and SKIPPED are skipped with their reason', () => {
    const tests = events.tests;
    expect(byName(tests, 'errorsWithException()')).toMatchObject({
      outcome: 'error',
      message: 'java.lang.IllegalStateException: boom: état 日本',
    });
    expect(byName(tests, 'errorsWithException()').details).toContain(
      'at com.example.core.OutcomesTest.errorsWithException(OutcomesTest.java:30)',
    );
    expect(byName(tests, 'disabled()')).toMatchObject({
      outcome: 'skipped',
      message: 'disabled on purpose',
    });
    expect(byName(tests, 'assumptionFails()')).toMatchObject({
      outcome: 'skipped',
      message:
        'org.opentest4j.TestAbortedException: Assumption failed: assumption not met, test aborted',
    });
  });

  test('tags and published entries are properties (captured output is not); a dynamic test has its data file and line', () => {
    const tests = events.tests;
    expect(byName(tests, 'failsWithAssertion()').properties).toEqual({ tags: 'slow,core' });
    expect(byName(tests, 'publishesEntries(TestReporter)').properties).toEqual({
      tags: 'core',
      ticket: 'SHOP-T7',
    });
    expect(byName(tests, 'writesToStdout()').properties).toEqual({ tags: 'core' });
    for (const report of [events, hierarchy])
      expect(
        report.tests
          .filter((t) => t.classname === 'com.example.core.DynamicCasesTest')
          .map((t) => [t.name, t.file, t.line, t.outcome]),
      ).toEqual([
        ['casesFromFile()[1]', 'src/test/resources/cases.txt', 1, 'passed'],
        ['casesFromFile()[2]', 'src/test/resources/cases.txt', 2, 'failed'],
      ]);
  });
});

describe('Open Test Reporting as later JUnit Platforms and other writers have it', () => {
  // As junit-platform-reporting's OpenTestReportGeneratingListener (JUnit 5.12 and later) writes
  // it: core 0.2.0, git metadata (junit.platform.reporting.open.xml.git.enabled), a file source
  // with its position, file attachments and captured output as <output>.
  const JUNIT_6 = `<?xml version="1.0" ?>
<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.2.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.2.0" xmlns:git="https://schemas.opentest4j.org/reporting/git/0.2.0" xmlns:java="https://schemas.opentest4j.org/reporting/java/0.2.0" xmlns:junit="https://schemas.junit.org/open-test-reporting">
<infrastructure><hostName>ci</hostName><userName>runner</userName><git:repository originUrl="https://x-access-token:ghs_s3cr3t@github.com/acme/shop.git"/><git:branch>main</git:branch><git:commit>0123456789abcdef</git:commit><git:status clean="false"><![CDATA[ M build.gradle.kts]]></git:status></infrastructure>
<e:started id="1" name="Cucumber" time="2025-06-01T10:00:00.000000001Z"><metadata><junit:uniqueId>[engine:cucumber]</junit:uniqueId><junit:legacyReportingName>Cucumber</junit:legacyReportingName><junit:type>CONTAINER</junit:type></metadata></e:started>
<e:started id="2" name="Checkout" parentId="1" time="2025-06-01T10:00:00.100Z"><metadata><junit:uniqueId>[engine:cucumber]/[feature:checkout]</junit:uniqueId><junit:legacyReportingName>Checkout</junit:legacyReportingName><junit:type>CONTAINER</junit:type></metadata><sources><fileSource path="src/test/resources/checkout.feature"><filePosition line="1"/></fileSource></sources></e:started>
<e:started id="3" name="Pay by card" parentId="2" time="2025-06-01T10:00:00.200Z"><metadata><tags><tag>smoke</tag><tag>SHOP-T9</tag></tags><junit:uniqueId>[engine:cucumber]/[feature:checkout]/[scenario:7]</junit:uniqueId><junit:legacyReportingName>Pay by card</junit:legacyReportingName><junit:type>TEST</junit:type></metadata><sources><fileSource path="src/test/resources/checkout.feature"><filePosition line="7" column="3"/></fileSource></sources></e:started>
<e:reported id="3" time="2025-06-01T10:00:00.300Z"><attachments><file time="2025-06-01T10:00:00.300" path="screenshots/pay.png" mediaType="image/png"/><output time="2025-06-01T10:00:00.300" source="stdout"><![CDATA[paid]]></output></attachments></e:reported>
<e:finished id="3" time="2025-06-01T10:00:01.450Z"><result status="ERRORED"><java:throwable type="java.net.ConnectException"><![CDATA[java.net.ConnectException: refused
	at Pay.step(Pay.java:3)]]></java:throwable></result></e:finished>
<e:started id="4" name="Refund" parentId="2" time="2025-06-01T10:00:02Z"><metadata><junit:legacyReportingName>Refund</junit:legacyReportingName><junit:type>CONTAINER_AND_TEST</junit:type></metadata></e:started>
<e:started id="5" name="Refund to card" parentId="4" time="2025-06-01T10:00:02Z"><metadata><junit:legacyReportingName>Refund to card</junit:legacyReportingName><junit:type>TEST</junit:type></metadata></e:started>
<e:finished id="5" time="2025-06-01T10:00:02.010Z"><result status="SUCCESSFUL"/></e:finished>
<e:finished id="4" time="2025-06-01T10:00:02.020Z"><result status="SUCCESSFUL"/></e:finished>
<e:started id="6" name="Ship" parentId="2" time="2025-06-01T10:00:03Z"><metadata><junit:legacyReportingName>Ship</junit:legacyReportingName><junit:type>TEST</junit:type></metadata></e:started>
<e:finished id="2" time="2025-06-01T10:00:04Z"><result status="SUCCESSFUL"/></e:finished>
</e:events>`;

  test('file and line from a file source, tags and attachments, git metadata without its credentials, ERRORED, CONTAINER_AND_TEST, a test that never finished', () => {
    const report = parseReport('open-test-report.xml', JUNIT_6);
    expect(report.format).toBe('open-test-reporting');
    const git = {
      'git.repository': 'https://github.com/acme/shop.git',
      'git.branch': 'main',
      'git.commit': '0123456789abcdef',
      'git.clean': 'false',
    };
    expect(report.tests).toEqual([
      {
        suite: ['Cucumber', 'Checkout'],
        name: 'Pay by card',
        file: 'src/test/resources/checkout.feature',
        line: 7,
        durationMs: 1250,
        outcome: 'error',
        message: 'java.net.ConnectException: refused',
        details: 'java.net.ConnectException: refused\n\tat Pay.step(Pay.java:3)',
        properties: { tags: 'smoke,SHOP-T9' },
        labels: { ...git, attachments: 'screenshots/pay.png' },
      },
      expect.objectContaining({ name: 'Refund', outcome: 'passed', durationMs: 20, labels: git }),
      expect.objectContaining({
        suite: ['Cucumber', 'Checkout', 'Refund'],
        name: 'Refund to card',
      }),
      expect.objectContaining({
        name: 'Ship',
        outcome: 'error',
        message: 'never finished: the run ended before it did',
      }),
    ]);
    expect(JSON.stringify(report)).not.toContain('s3cr3t');
  });

  test('namespaces are read from their declarations, not fixed prefixes; without the JUnit type the leaves are the tests', () => {
    const report = parseReport(
      'events.xml',
      `<events xmlns="https://schemas.opentest4j.org/reporting/events/0.2.0" xmlns:c="https://schemas.opentest4j.org/reporting/core/0.2.0">
        <started id="a" name="suite.php" time="2025-01-01T00:00:00Z"/>
        <started id="b" name="adds" parentId="a" time="2025-01-01T00:00:00Z"><c:metadata><c:tags><c:tag>math</c:tag></c:tags></c:metadata></started>
        <finished id="b" time="2025-01-01T00:00:00.005Z"><c:result status="FAILED"><c:reason>2 != 3</c:reason></c:result></finished>
        <started id="c" name="empty" parentId="a" time="2025-01-01T00:00:00Z"/>
        <finished id="c" time="2025-01-01T00:00:00Z"><c:result status="SKIPPED"/></finished>
        <finished id="a" time="2025-01-01T00:00:01Z"><c:result status="FAILED"/></finished>
      </events>`,
    );
    expect(report.tests.map((t) => [t.suite, t.name, t.outcome, t.message, t.properties])).toEqual([
      [['suite.php'], 'adds', 'failed', '2 != 3', { tags: 'math' }],
      [['suite.php'], 'empty', 'skipped', undefined, {}],
    ]);
    // A container failed without a reason of its own only sums up its tests: no run error.
    expect(report.runErrors).toBeUndefined();
  });

  test('an XML root named events or execution in no Open Test Reporting namespace is not detected as one', () => {
    expect(() => parseReport('x.xml', '<events><started id="1"/></events>')).toThrow(
      /no known test report format/,
    );
  });
});

test('mocha JSON (samples/mocha/reports/run-errors): hooks that threw are run errors of their suites, never tests', () => {
  const report = sample('samples/mocha/reports/run-errors/mocha.json');
  expect(report.tests.map((t) => [t.name, t.outcome])).toEqual([['reads', 'passed']]);
  expect(
    report.runErrors?.map((e) => [e.file?.replace(/^.*\/samples\//, ''), e.suite, e.message]),
  ).toEqual([
    [
      'mocha/run-errors/hooks.spec.js',
      'db',
      '"after all" hook for "reads": could not close the connection',
    ],
    [
      'mocha/run-errors/hooks.spec.js',
      'api',
      '"before all" hook for "lists": server did not start',
    ],
  ]);
});

describe('TAP from node --test (samples/node-test: its TAP and junit reporters in one run)', () => {
  const tap = sample('samples/node-test/reports/tap-run1.tap');
  const junit = sample('samples/node-test/reports/junit-run1.xml');

  test("node's own counts: a test with subtests is a test (type: 'test'), a describe is not (type: 'suite')", () => {
    expect(tap.format).toBe('tap');
    expect(countTests(tap.tests)).toMatchObject({ total: 23, passed: 14, failed: 6, skipped: 3 });
    expect(byName(tap.tests, 'parent test with subtests')).toMatchObject({
      suite: [],
      outcome: 'passed',
    });
    expect(byName(tap.tests, 'sub-subtest passes')).toMatchObject({
      suite: ['parent test with subtests', 'subtest with its own subtest'],
      classname: 'parent test with subtests.subtest with its own subtest',
    });
    expect(tap.tests.some((t) => t.name === 'math' || t.name === 'outer suite')).toBe(false);
  });

  test('every test the junit reporter writes has the same {test} and outcome; TAP adds the tests with subtests and has no file', () => {
    // node's junit reporter escapes '"' twice (samples/node-test/expected.json): unescaped here.
    const named = (tests: TestResult[]) =>
      tests.map((t) => [runnerNameOf(t).replace(/&quot;/g, '"'), t.outcome] as const);
    const fromTap = named(tap.tests);
    for (const entry of named(junit.tests)) expect(fromTap).toContainEqual(entry);
    expect(fromTap.length - junit.tests.length).toBe(2);
    expect(tap.gap).toMatchObject({
      reporter: "node's TAP reporter",
      placeholder: '{file}',
      tests: 23,
    });
  });

  test("todo, skip, a cancelled test and the failing before hook's run error; the message from the YAML diagnostics", () => {
    expect(byName(tap.tests, 'computes square roots (todo, body fails)').outcome).toBe('skipped');
    expect(byName(tap.tests, 'computes cube roots (todo, no body)')).toMatchObject({
      outcome: 'skipped',
      message: 'not written yet',
    });
    expect(byName(tap.tests, 'never gets to run its body')).toMatchObject({
      outcome: 'failed',
      message: 'test did not finish before its parent and was cancelled',
    });
    expect(tap.runErrors).toEqual([
      { suite: 'setup error', message: 'database connection refused (before hook)' },
    ]);
    const failed = byName(tap.tests, 'divides by a non-number (non-assertion error)');
    expect(failed.message).toBe("Cannot read properties of undefined (reading 'divide')");
    expect(failed.details).toContain("failureType: 'testCodeFailure'");
    expect(failed.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('TAP from node-tap (samples/tap)', () => {
  const run = sample('samples/tap/reports/tap.tap');
  const bailed = sample('samples/tap/reports/tap-bail.tap');

  test("each test file's subtest gives its tests their file; assertions are the tests, as tap counts them", () => {
    expect(run.gap).toBeUndefined();
    expect(run.tests.filter((t) => t.suite.join(' › ') === 'math › adds')).toEqual([
      expect.objectContaining({ file: 'test/math.test.js', name: 'should be equal' }),
      expect.objectContaining({ file: 'test/other-math.test.js', name: 'should be equal' }),
    ]);
    expect(byName(run.tests, 'test unfinished')).toMatchObject({
      suite: ['planned'],
      outcome: 'failed',
    });
    expect(byName(run.tests, 'rounds (skipped)')).toMatchObject({
      outcome: 'skipped',
      message: 'not on this platform',
    });
  });

  test('a bail out is a run error; the subtests it left open keep their tests', () => {
    expect(bailed.runErrors).toEqual([{ message: 'Bail out! five minus three' }]);
    expect(bailed.tests.map((t) => [t.file, t.suite.join(' › '), t.name, t.outcome])).toEqual([
      ['test/math.test.js', 'math › adds', 'should be equal', 'passed'],
      ['test/math.test.js', 'math › multiplies', 'two times three', 'passed'],
      ['test/math.test.js', 'math › multiplies', 'three times three', 'passed'],
      [
        'test/math.test.js',
        'math › subtracts wrongly (assertion failure)',
        'five minus three',
        'failed',
      ],
    ]);
  });
});

describe('TAP edge cases', () => {
  const read = (text: string) => parseReport('r.tap', text);

  test('TAP 12 without a version line, escaped #, directives in any case, a point without a description, pragma and output ignored', () => {
    const report = read(
      [
        '1..6',
        'pragma +strict',
        'ok 1 - counts \\# of items # time=12ms',
        'not ok 2 - refunds # todo not yet',
        'ok 3 - ships # SKIPPED: no carrier',
        'okay, some output',
        'ok 4',
        'not ok 5 - pays',
        '  ---',
        '  message: "card \\"declined\\""',
        '  at:',
        '    file: pay.t',
        '    line: 12',
        '  ...',
        'ok 6 - done # Skip',
      ].join('\n'),
    );
    expect(report.format).toBe('tap');
    expect(report.tests.map((t) => [t.name, t.outcome, t.message ?? null])).toEqual([
      ['counts # of items', 'passed', null],
      ['refunds', 'skipped', 'not yet'],
      ['ships', 'skipped', 'no carrier'],
      ['4', 'passed', null],
      ['pays', 'failed', 'card "declined"'],
      ['done', 'skipped', null],
    ]);
    expect(report.tests[0]!.durationMs).toBe(12);
    expect(report.tests[4]!.details).toBe(
      'message: "card \\"declined\\""\nat:\n  file: pay.t\n  line: 12',
    );
    expect(report.runErrors).toBeUndefined();
    expect(report.gap).toMatchObject({ reporter: 'TAP', placeholder: '{file}', tests: 6 });
  });

  test("a stream after a wrapper's own lines (npm's banner) is detected by its version line", () => {
    const report = read(
      '\n> shop@1.0.0 test\n> node --test --test-reporter=tap\n\nTAP version 13\nok 1 - a\n1..1\n',
    );
    expect(report.format).toBe('tap');
    expect(report.tests.map((t) => t.name)).toEqual(['a']);
  });

  test('a plan that more tests than ran, or none at all, is a run error: the stream ended before its tests did', () => {
    expect(read('TAP version 14\n1..3\nok 1 - a\nok 2 - b\n').runErrors).toEqual([
      { message: 'planned 3 tests, ran 2' },
    ]);
    expect(read('TAP version 14\nok 1 - a\n').runErrors).toEqual([
      { message: 'the TAP stream has no plan (1..N): it may have ended before its tests did' },
    ]);
    expect(read('TAP version 14\n1..0 # SKIP no database\n').tests).toEqual([]);
  });

  test("YAML block scalars, quoted scalars and node's duration; a subtest stream in TAP 14's own layout", () => {
    const report = read(
      [
        'TAP version 14',
        '# Subtest: cart',
        '    1..1',
        '    not ok 1 - totals',
        '      ---',
        '      duration_ms: 3.6',
        '      error: |-',
        '        expected 3',
        '        got 2',
        "      code: 'ERR_ASSERTION'",
        '      ...',
        'not ok 1 - cart',
        '1..1',
      ].join('\n'),
    );
    // The array carries the identity gap; its tests are what is compared.
    expect([...report.tests]).toEqual([
      expect.objectContaining({
        suite: ['cart'],
        name: 'totals',
        outcome: 'failed',
        message: 'expected 3',
        durationMs: 4,
      }),
    ]);
  });

  test('a failed point with nothing failing beneath it is a run error: the failure was outside its tests', () => {
    // node 24.21 --test --test-reporter=tap: `describe('broken describe', () => { throw ... })`.
    // node counts no failed test ("# fail 0") and exits 1.
    const node = read(
      [
        'TAP version 13',
        '# Subtest: broken describe',
        'not ok 1 - broken describe',
        '  ---',
        '  duration_ms: 0.640775',
        "  type: 'suite'",
        "  location: '/tmp/nt/test/a.test.js:2:1'",
        "  failureType: 'testCodeFailure'",
        "  error: 'boom in describe'",
        "  code: 'ERR_TEST_FAILURE'",
        '  ...',
        '# Subtest: ok suite',
        '    # Subtest: fine',
        '    ok 1 - fine',
        '      ---',
        '      duration_ms: 0.403753',
        "      type: 'test'",
        '      ...',
        '    1..1',
        'ok 2 - ok suite',
        '  ---',
        '  duration_ms: 0.950171',
        "  type: 'suite'",
        '  ...',
        '1..2',
        '# tests 1',
        '# fail 0',
      ].join('\n'),
    );
    expect(node.tests.map((t) => [t.name, t.outcome])).toEqual([['fine', 'passed']]);
    expect(node.runErrors).toEqual([{ suite: 'broken describe', message: 'boom in describe' }]);
    // TAP 14: a subtest that failed though each of its points passed (its file's process exited 1).
    const plain = read(
      [
        'TAP version 14',
        '# Subtest: test/cart.test.js',
        '    ok 1 - totals',
        '    1..1',
        'not ok 1 - test/cart.test.js',
        '  ---',
        '  exitCode: 1',
        '  ...',
        '# Subtest: shipping',
        '    not ok 1 - quotes',
        '    1..1',
        'not ok 2 - shipping',
        '1..2',
      ].join('\n'),
    );
    expect(plain.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['totals', 'passed'],
      ['quotes', 'failed'],
    ]);
    expect(plain.runErrors).toEqual([
      {
        file: 'test/cart.test.js',
        message: '"test/cart.test.js" failed, though none of its tests did',
      },
    ]);
  });

  test('subtests nested past the limit are refused with a clear error, not a stack overflow', () => {
    const deep = Array.from(
      { length: MAX_DEPTH + 2 },
      (_, i) => `${' '.repeat(4 * i)}# Subtest: s${i}`,
    );
    const text = `TAP version 14\n${deep.join('\n')}\n${' '.repeat(4 * (MAX_DEPTH + 2))}ok 1 - deep\n`;
    expect(() => read(text)).toThrow(
      /r\.tap: cannot be read as TAP: line \d+: subtests are nested more than 256 deep/,
    );
  });
});

describe('Robot Framework output.xml (samples/robot: real RF 7.4.2 and 6.1.1 runs of one project)', () => {
  const rf7 = sample('samples/robot/reports/rf7/output.xml');
  const rf6 = sample('samples/robot/reports/rf6/output.xml');
  const merged = sample('samples/robot/reports/rf7/merged.xml');
  const seen = (t: TestResult) => [
    t.suite,
    t.classname,
    t.name,
    t.line,
    t.outcome,
    t.message,
    t.steps,
  ];

  test('RF 6 and RF 7 files of one project read alike: suites, names, lines, outcomes, messages, steps; each with its durations', () => {
    expect(rf7.format).toBe('robot');
    // Only Robot's own words for a skip on failure changed between the two.
    const skipped = 'Fails But Is Skipped On Failure';
    const alike = (report: typeof rf7) => report.tests.filter((t) => t.name !== skipped).map(seen);
    expect(alike(rf6)).toEqual(alike(rf7));
    for (const report of [rf6, rf7])
      expect(report.tests.every((t) => Number.isInteger(t.durationMs) && t.durationMs! >= 0)).toBe(
        true,
      );
    // RF 7 writes elapsed seconds; RF 6 start and end times: "Sums From A Template" takes some time in both.
    expect(byName(rf7.tests, 'Sums From A Template').durationMs).toBeGreaterThan(0);
  });

  test("a test is named as Robot names it: its suite path and name joined by dots, its suite's file and its line", () => {
    const adds = rf7.tests.filter((t) => t.name === 'Adds');
    expect(
      adds.map((t) => [runnerNameOf(t), t.file!.replace(/^.*\/samples\//, ''), t.line]),
    ).toEqual([
      ['Tests.Calculator.Adds', 'robot/tests/calculator.robot', 6],
      ['Tests.Nested.Other.Adds', 'robot/tests/nested/other.robot', 5],
    ]);
    expect(adds[0]!.properties).toEqual({ tags: 'calc,fast,SHOP-T1' });
    expect(byName(rf7.tests, 'Subtracts Wrongly').labels).toEqual({
      documentation: 'An assertion failure: the keywords after it are NOT RUN.',
    });
  });

  test('keyword calls are steps as the test writes them: assignments, [Setup] and [Teardown], FOR and IF headers, template rows', () => {
    const steps = (name: string) => byName(rf7.tests, name).steps!.map((s) => s.action);
    expect(steps('Adds')).toEqual([
      '${result}=    Evaluate    1 + 2',
      'Should Be Equal As Integers    ${result}    3',
    ]);
    expect(steps('Setup And Teardown')).toEqual([
      '[Setup]    Log    setting up',
      'Should Be True    True',
      '[Teardown]    Fail    teardown broke',
    ]);
    expect(steps('Uses A Loop')).toEqual(['FOR    ${n}    IN    1    2    3']);
    expect(steps('Sums From A Template')).toEqual([
      'Sum Should Be    1    1    2',
      'Sum Should Be    2    3    5',
      'Sum Should Be    2    2    5',
    ]);
    expect(steps('Is Flaky')).toEqual([
      '${marker}=    Set Variable    ${OUTPUT DIR}${/}flaky.marker',
      '${exists}=    Evaluate    os.path.exists($marker)    modules=os',
      'IF    not ${exists}',
      'Should Be True    ${exists}    fails on the first run',
    ]);
    expect(byName(rf7.tests, 'Never Gets To Run Its Body').steps).toBeUndefined();
  });

  test("setup and teardown failures: a failed suite teardown fails its suite's tests, as Robot's statistics count them", () => {
    const file = readFileSync('samples/robot/reports/rf7/output.xml', 'utf8');
    const passed = file.indexOf('name="Passes Before The Teardown"');
    expect(file.slice(passed, file.indexOf('</test>', passed))).toMatch(
      /<status status="PASS"[^>]*\/>\s*$/,
    );
    for (const report of [rf6, rf7]) {
      expect(byName(report.tests, 'Passes Before The Teardown')).toMatchObject({
        outcome: 'failed',
        message: 'Parent suite teardown failed: cleanup failed',
      });
      expect(byName(report.tests, 'Never Gets To Run Its Body')).toMatchObject({
        outcome: 'failed',
        message: 'Parent suite setup failed: database connection refused',
      });
      expect(byName(report.tests, 'Setup And Teardown').message).toBe(
        'Teardown failed: teardown broke',
      );
    }
    expect(byName(rf7.tests, 'Fails But Is Skipped On Failure')).toMatchObject({
      outcome: 'skipped',
      message: "Failed test skipped using 'robot:skip-on-failure' tag.",
    });
    expect(byName(rf6.tests, 'Fails But Is Skipped On Failure')).toMatchObject({
      outcome: 'skipped',
      message: 'Test failed but skip-on-failure mode was active and it was marked skipped.',
    });
  });

  test("rebot --merge: a re-executed test's earlier runs are its attempts, its message the latest run's own", () => {
    expect(byName(merged.tests, 'Is Flaky')).toMatchObject({
      outcome: 'passed',
      attempts: [{ outcome: 'failed', message: 'fails on the first run' }, { outcome: 'passed' }],
    });
    expect(byName(merged.tests, 'Is Flaky').message).toBeUndefined();
    expect(byName(merged.tests, 'Subtracts Wrongly')).toMatchObject({
      outcome: 'failed',
      message: 'five minus three: 2 != 3',
      attempts: [{ outcome: 'failed' }, { outcome: 'failed' }],
    });
    expect(byName(merged.tests, 'Adds').attempts).toBeUndefined();
  });
});

describe('Robot Framework edge cases', () => {
  const robotXml = (suite: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Rebot 7.1 (Python 3.12 on linux)" schemaversion="5">${suite}</robot>`;
  const status = (value: string, start: string, message = '') =>
    `<status status="${value}" start="2025-01-01T00:00:0${start}" elapsed="0.5">${message}</status>`;

  test('NOT RUN is skipped; a skipped suite teardown skips its tests; HTML messages lose their markup; an added test loses its merge note', () => {
    const report = parseReport(
      'output.xml',
      robotXml(`<suite id="s1" name="Shop" source="/repo/shop.robot">
        <test id="s1-t1" name="Not Run">${status('NOT RUN', '1')}</test>
        <test id="s1-t2" name="Html">${status('FAIL', '1', '*HTML* Expected &lt;b&gt;3&lt;/b&gt;&lt;br&gt;got &amp;amp; 2')}</test>
        <test id="s1-t3" name="Added">${status('PASS', '1', '*HTML* Test added from merged output.&lt;hr&gt;fine')}</test>
        <kw name="Skip" type="TEARDOWN">${status('SKIP', '2', 'no cleanup here')}</kw>
      </suite>`),
    );
    expect(report.tests.map((t) => [t.name, t.outcome, t.message])).toEqual([
      ['Not Run', 'skipped', 'Skipped in parent suite teardown: no cleanup here'],
      ['Html', 'skipped', 'Skipped in parent suite teardown: no cleanup here'],
      ['Added', 'skipped', 'Skipped in parent suite teardown: no cleanup here'],
    ]);
    const noTeardown = parseReport(
      'output.xml',
      robotXml(`<suite id="s1" name="Shop">
        <test id="s1-t2" name="Html">${status('FAIL', '1', '*HTML* Expected &lt;b&gt;3&lt;/b&gt;&lt;br&gt;got &amp;amp; 2')}</test>
        <test id="s1-t3" name="Added">${status('PASS', '1', '*HTML* Test added from merged output.&lt;hr&gt;fine')}</test>
      </suite>`),
    );
    expect(noTeardown.tests.map((t) => [t.name, t.outcome, t.message, t.details])).toEqual([
      ['Html', 'failed', 'Expected 3', 'Expected 3\ngot & 2'],
      ['Added', 'passed', 'fine', 'fine'],
    ]);
  });

  test('steps of several kinds are put back in the order they ran (the parsed tree groups them by kind), by their start times', () => {
    const report = parseReport(
      'output.xml',
      robotXml(`<suite id="s1" name="Shop"><test id="s1-t1" name="Flow">
        <kw name="Log"><arg>third</arg>${status('PASS', '3')}</kw>
        <kw name="Log" type="TEARDOWN"><arg>last</arg>${status('PASS', '7')}</kw>
        <for flavor="IN RANGE"><var>\${i}</var><value>3</value>${status('PASS', '1')}</for>
        <while condition="$x &lt; 3">${status('PASS', '2')}</while>
        <try>${status('PASS', '4')}</try>
        <group name="Checkout">${status('PASS', '5')}</group>
        <variable name="\${total}"><var>3</var>${status('PASS', '6')}</variable>
        ${status('PASS', '0')}
      </test></suite>`),
    );
    expect(report.tests[0]!.steps!.map((s) => s.action)).toEqual([
      'FOR    ${i}    IN RANGE    3',
      'WHILE    $x < 3',
      'Log    third',
      'TRY',
      'GROUP    Checkout',
      'VAR    ${total}    3',
      '[Teardown]    Log    last',
    ]);
  });
});
