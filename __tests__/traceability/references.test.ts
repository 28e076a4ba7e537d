/**
 * The requirements and work items a test names, read from each runner's own way of annotating a
 * test (docs/design.md "Traceability: what is read"): each format's metadata as its parser keeps
 * it, then `referencesOf` by the settings' names and patterns. The real runners' reports are
 * checked in __tests__/traceability/samples.test.ts.
 */
import { parseReport } from '../../src/parsers/index.js';
import type { TestResult } from '../../src/parsers/index.js';
import { settingsFrom } from '../../src/shared/setting-readers.js';
import {
  NO_PATTERN,
  referencesOf,
  traceOptions,
  type TestReferences,
} from '../../src/traceability/references.js';
import { KEY_WORDS, TestcycleError } from '../../src/shared/errors.js';

const DEFAULTS = traceOptions(settingsFrom({}));

/** Each test of a report by its name, with what it names. */
function refs(file: string, text: string, options = DEFAULTS): Record<string, TestReferences> {
  return Object.fromEntries(
    parseReport(file, text).tests.map((t) => [t.name, referencesOf(t, options)]),
  );
}

const none: TestReferences = { requirements: [], workItems: [] };

describe('each runner’s own annotations', () => {
  test('JUnit properties (pytest record_property): a repeated name keeps every value; Xray’s plural is a comma list', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="2">
  <testcase classname="tests.test_cart" name="test_adds" time="0.01">
    <properties>
      <property name="requirement" value="REQ-1"/>
      <property name="requirement" value="REQ-2"/>
      <property name="requirements" value="CALC-7, CALC-8"/>
      <property name="issue" value="https://tracker.example/browse/PROJ-5"/>
      <property name="owner" value="REQ-99"/>
    </properties>
  </testcase>
  <testcase classname="tests.test_cart" name="test_plain" time="0.01"/>
</testsuite></testsuites>`;
    expect(refs('junit.xml', xml)).toEqual({
      test_adds: {
        requirements: ['REQ-1', 'REQ-2', 'CALC-7', 'CALC-8'],
        workItems: ['https://tracker.example/browse/PROJ-5'],
      },
      test_plain: none,
    });
  });

  test('NUnit <property> and xUnit.net traits, any case of the name, each trait kept', () => {
    const nunit = `<?xml version="1.0" encoding="utf-8"?>
<test-run><test-suite type="Assembly" name="Shop.Tests.dll">
  <test-case name="Adds" fullname="Shop.Tests.Cart.Adds" classname="Shop.Tests.Cart" result="Passed">
    <properties><property name="Requirement" value="REQ-3"/><property name="Work-Item" value="AB#12"/></properties>
  </test-case>
</test-suite></test-run>`;
    expect(
      refs('nunit.xml', nunit, traceOptions(settingsFrom({ 'work-item-names': 'work_item' }))),
    ).toEqual({
      Adds: { requirements: ['REQ-3'], workItems: ['AB#12'] },
    });
    const xunit = `<?xml version="1.0" encoding="utf-8"?>
<assemblies><assembly name="Shop.Tests.dll"><collection name="Cart">
  <test name="Shop.Tests.Cart.Adds" type="Shop.Tests.Cart" method="Adds" result="Pass" time="0.1">
    <traits><trait name="Requirement" value="REQ-4"/><trait name="Requirement" value="REQ-5"/><trait name="Issue" value="PROJ-6"/></traits>
  </test>
</collection></assembly></assemblies>`;
    expect(refs('xunit.xml', xunit)).toEqual({
      'Shop.Tests.Cart.Adds': { requirements: ['REQ-4', 'REQ-5'], workItems: ['PROJ-6'] },
    });
  });

  test('TRX: MSTest [TestProperty] (elements or attributes), [WorkItem] and a [TestCategory] key', () => {
    const trx = `<?xml version="1.0" encoding="UTF-8"?>
<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <TestDefinitions>
    <UnitTest name="Adds" id="a1">
      <TestCategory><TestCategoryItem TestCategory="REQ-9"/><TestCategoryItem TestCategory="smoke"/></TestCategory>
      <Workitems><Workitem>4711</Workitem></Workitems>
      <Properties><Property><Key>Requirement</Key><Value>REQ-7</Value></Property><Property Key="requirement" Value="REQ-8"/></Properties>
      <TestMethod className="Shop.Tests.Cart, Shop.Tests" name="Adds"/>
    </UnitTest>
  </TestDefinitions>
  <Results><UnitTestResult testId="a1" testName="Adds" outcome="Passed" duration="00:00:00.01"/></Results>
</TestRun>`;
    const [test] = parseReport('run.trx', trx).tests;
    expect(test!.properties).toEqual({
      Requirement: 'REQ-7',
      requirement: 'REQ-8',
      category: 'REQ-9,smoke',
      workitem: '4711',
    });
    expect(referencesOf(test!, DEFAULTS)).toEqual({
      requirements: ['REQ-7', 'REQ-8', 'REQ-9'],
      workItems: ['4711'],
    });
  });

  test('TestNG: attributes (Xray’s TestNG extension) and groups', () => {
    const testng = `<?xml version="1.0" encoding="UTF-8"?>
<testng-results total="1" passed="1" failed="0" skipped="0">
  <suite name="Shop">
    <groups>
      <group name="REQ-21"><method signature="adds()" name="adds" class="com.acme.CartTest"/></group>
      <group name="fast"><method signature="adds()" name="adds" class="com.acme.CartTest"/></group>
    </groups>
    <test name="unit"><class name="com.acme.CartTest">
      <test-method status="PASS" signature="adds()" name="adds" duration-ms="3">
        <attributes><attribute name="requirement"><![CDATA[CALC-20]]></attribute></attributes>
      </test-method>
    </class></test>
  </suite>
</testng-results>`;
    const [test] = parseReport('testng-results.xml', testng).tests;
    expect(test!.properties).toEqual({ requirement: 'CALC-20', tags: 'REQ-21,fast' });
    expect(referencesOf(test!, DEFAULTS)).toEqual({
      requirements: ['CALC-20', 'REQ-21'],
      workItems: [],
    });
  });

  test('Cucumber tags: a bare key, @requirement:KEY, @issue:KEY (JSON)', () => {
    const json = JSON.stringify([
      {
        uri: 'features/cart.feature',
        keyword: 'Feature',
        name: 'Cart',
        elements: [
          {
            type: 'scenario',
            keyword: 'Scenario',
            name: 'Add an item',
            tags: [
              { name: '@REQ-12' },
              { name: '@requirement:CART-1' },
              { name: '@issue:PROJ-9' },
              { name: '@smoke' },
            ],
            steps: [{ keyword: 'When ', result: { status: 'passed', duration: 1 } }],
          },
        ],
      },
    ]);
    expect(refs('cucumber.json', json)).toEqual({
      'Add an item': { requirements: ['REQ-12', 'CART-1'], workItems: ['PROJ-9'] },
    });
  });

  test('Playwright annotations: every annotation of a type, the issue as its address', () => {
    const json = JSON.stringify({
      config: { rootDir: '/repo/e2e', projects: [{ name: '' }] },
      suites: [
        {
          title: 'cart.spec.ts',
          file: 'cart.spec.ts',
          specs: [
            {
              title: 'pays',
              file: 'cart.spec.ts',
              line: 3,
              tags: ['@REQ-30'],
              tests: [
                {
                  projectName: '',
                  expectedStatus: 'passed',
                  status: 'expected',
                  annotations: [
                    { type: 'requirement', description: 'REQ-31' },
                    { type: 'requirement', description: 'REQ-32' },
                    { type: 'issue', description: 'https://github.com/acme/shop/issues/7' },
                  ],
                  results: [{ status: 'passed', duration: 5 }],
                },
              ],
            },
          ],
        },
      ],
    });
    const [test] = parseReport('playwright.json', json).tests;
    expect(test!.labels).toEqual({
      requirement: 'REQ-31,REQ-32',
      issue: 'https://github.com/acme/shop/issues/7',
    });
    expect(referencesOf(test!, DEFAULTS)).toEqual({
      requirements: ['REQ-31', 'REQ-32', 'REQ-30'],
      workItems: ['https://github.com/acme/shop/issues/7'],
    });
  });

  test('Allure: links (issue by its name, else its address), a requirement label; a tms link names a test case, not a requirement', () => {
    const result = JSON.stringify({
      uuid: 'u1',
      historyId: 'h1',
      name: 'pays',
      fullName: 'cart#pays',
      status: 'passed',
      labels: [
        { name: 'suite', value: 'cart' },
        { name: 'requirement', value: 'REQ-40' },
        { name: 'tag', value: 'REQ-41' },
        { name: 'tag', value: 'smoke' },
      ],
      links: [
        { type: 'issue', name: 'PROJ-42', url: 'https://tracker.example/browse/PROJ-42' },
        { type: 'issue', url: 'https://tracker.example/browse/PROJ-43' },
        { type: 'tms', name: 'DEMO-T7', url: 'https://tms.example/DEMO-T7' },
        { type: 'requirement', name: 'REQ-44' },
      ],
    });
    const [test] = parseReport('u1-result.json', result).tests;
    expect(test!.links).toHaveLength(4);
    expect(test!.labels).toEqual({ requirement: 'REQ-40', tag: 'REQ-41,smoke' });
    expect(referencesOf(test!, DEFAULTS)).toEqual({
      requirements: ['REQ-40', 'REQ-44', 'REQ-41'],
      workItems: ['PROJ-42', 'https://tracker.example/browse/PROJ-43'],
    });
    // A team that links requirements as tms links says so.
    const tms = traceOptions(settingsFrom({ 'requirement-names': 'requirement,tms' }));
    expect(referencesOf(test!, tms).requirements).toContain('DEMO-T7');
  });

  test('CTRF: tags, and extra’s entries (a list too) and Playwright annotations', () => {
    const ctrf = JSON.stringify({
      results: {
        tool: { name: 'playwright' },
        summary: {},
        tests: [
          {
            name: 'pays',
            status: 'passed',
            duration: 3,
            suite: 'cart.spec.ts > cart',
            tags: ['@REQ-50'],
            extra: {
              requirements: ['REQ-51', 'REQ-52'],
              annotations: [{ type: 'issue', description: 'PROJ-53' }],
              nested: { requirement: 'REQ-0' },
            },
          },
        ],
      },
    });
    expect(refs('ctrf.json', ctrf)).toEqual({
      pays: { requirements: ['REQ-51', 'REQ-52', 'REQ-50'], workItems: ['PROJ-53'] },
    });
  });

  test('runners with no metadata channel: key tokens in the name as the runner gives it (jest, go)', () => {
    const jest = JSON.stringify({
      numTotalTests: 2,
      testResults: [
        {
          name: '/repo/cart.test.js',
          assertionResults: [
            {
              ancestorTitles: ['REQ-60 cart'],
              title: 'adds',
              fullName: 'REQ-60 cart adds',
              status: 'passed',
            },
            {
              ancestorTitles: ['cart'],
              title: 'decodes UTF-8 and ISO-8601 names',
              fullName: 'cart decodes UTF-8 and ISO-8601 names',
              status: 'passed',
            },
          ],
        },
      ],
    });
    expect(refs('jest.json', jest)).toEqual({
      adds: { requirements: ['REQ-60'], workItems: [] },
      'decodes UTF-8 and ISO-8601 names': none,
    });
    const go = [
      { Action: 'run', Package: 'shop', Test: 'TestCart/REQ-61_adds' },
      { Action: 'pass', Package: 'shop', Test: 'TestCart/REQ-61_adds', Elapsed: 0 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(Object.values(refs('go.json', go))).toEqual([
      { requirements: ['REQ-61'], workItems: [] },
    ]);
  });
});

describe('the patterns and names', () => {
  const named = (name: string): TestResult => ({
    suite: [],
    name,
    outcome: 'passed',
    properties: {},
  });

  test.each([
    ['REQ-12 adds', ['REQ-12']],
    ['adds (REQ12, DEMO-REQ3)', ['REQ12', 'DEMO-REQ3']],
    ['TestCart/REQ-61_adds', ['REQ-61']],
    ['MYREQ-12 and REQ-1234567', ['REQ-1234567']],
    ['adds UTF-8 in ISO-8601 with SHA-256', []],
  ])('the default requirement pattern in "%s"', (name, keys) => {
    expect(referencesOf(named(name), DEFAULTS)).toEqual({ requirements: keys, workItems: [] });
  });

  test('no work item is read from a name until work-item-pattern says how one looks; its first group is the key', () => {
    expect(DEFAULTS.workItemPattern).toBe(NO_PATTERN);
    expect(referencesOf(named('fixes PROJ-7 in UTF-8'), DEFAULTS).workItems).toEqual([]);
    const options = traceOptions(settingsFrom({ 'work-item-pattern': 'PROJ-[0-9]+' }));
    expect(referencesOf(named('fixes PROJ-7 and PROJ-8, PROJ-7 again'), options).workItems).toEqual(
      ['PROJ-7', 'PROJ-8'],
    );
    const grouped = traceOptions(settingsFrom({ 'requirement-pattern': '\\[(R[0-9]+)\\]' }));
    expect(referencesOf(named('adds [R1] [R2]'), grouped).requirements).toEqual(['R1', 'R2']);
  });

  test('a pattern given without the global flag still finds every key (a library caller’s RegExp)', () => {
    const options = { requirementPattern: /REQ-\d+/, workItemPattern: /PROJ-\d+/ };
    expect(referencesOf(named('REQ-1 REQ-2 PROJ-3 PROJ-4'), options)).toEqual({
      requirements: ['REQ-1', 'REQ-2'],
      workItems: ['PROJ-3', 'PROJ-4'],
    });
  });

  test.each([
    [
      'requirement-pattern',
      { 'requirement-pattern': 'REQ-(' },
      /requirement-pattern: is not a valid regular expression/,
    ],
    [
      'work-item-pattern',
      { 'work-item-pattern': '[' },
      /work-item-pattern: is not a valid regular expression/,
    ],
    ['requirement-names', { 'requirement-names': ' , ' }, /requirement-names: names nothing/],
  ])('a bad %s is refused, naming it', (_key, values, message) => {
    let error: unknown;
    try {
      traceOptions(settingsFrom(values));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TestcycleError);
    expect((error as TestcycleError).describe(KEY_WORDS)).toMatch(message);
  });

  test('report text is data: a marked value is taken whole, and one that holds a control character or is too long is none', () => {
    const test: TestResult = {
      suite: [],
      name: 'adds',
      outcome: 'passed',
      properties: {
        requirement: 'REQ-1" OR name != "x, ::error::x,REQ-\u202e2,REQ-3\u0007',
        requirements: `${'R'.repeat(2001)},REQ-4`,
      },
    };
    expect(referencesOf(test, DEFAULTS).requirements).toEqual([
      'REQ-1" OR name != "x',
      '::error::x',
      'REQ-4',
    ]);
  });
});

test('a key both patterns find is a requirement, not also a work item', () => {
  const options = traceOptions(settingsFrom({ 'work-item-pattern': '[A-Z]+-[0-9]+' }));
  const test: TestResult = {
    suite: [],
    name: 'REQ-1 fixes PROJ-2',
    outcome: 'passed',
    properties: {},
  };
  expect(referencesOf(test, options)).toEqual({ requirements: ['REQ-1'], workItems: ['PROJ-2'] });
});
