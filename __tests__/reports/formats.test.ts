/**
 * Formats the corpus does not cover (TestNG results, Cucumber JSON, Playwright JSON), and format
 * detection over the registry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult } from '../../src/reports/model.js';
import { countTests, FORMATS, FORMAT_IDS, parseReport } from '../../src/reports/index.js';
import { gherkinStep } from '../../src/reports/formats/cucumber.js';
import { REPORT_FORMAT_IDS } from '../../src/shared/defaults.js';
import { settingOf } from '../../src/settings.js';

test('each format id of src/shared/defaults.ts has the parser of that id, in detection order, and is a --format choice', () => {
  expect(FORMATS.map((f) => f.id)).toEqual([...REPORT_FORMAT_IDS]);
  expect(FORMAT_IDS).toEqual([...REPORT_FORMAT_IDS]);
  expect(settingOf('format')!.choices).toEqual(['auto', ...REPORT_FORMAT_IDS]);
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
