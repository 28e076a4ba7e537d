/**
 * JUnit XML in its dialects: Maven Surefire/Failsafe (rerun*, flaky*), Gradle, pytest, jest-junit,
 * vitest, Playwright, Cypress/mocha-junit-reporter, go-junit-report/gotestsum, cargo-nextest,
 * PHPUnit and nested suites, CTest, googletest (status run/notrun), tst (status disabled).
 */
import type { ReportFormat } from '../format.js';
import { mergeRetries, type Attempt, type Outcome, type TestResult } from '../model.js';
import { attr, list, seconds, text, type XmlNode } from '../xml.js';

const RESULT_ELEMENTS: [string, Outcome][] = [
  ['error', 'error'],
  ['failure', 'failed'],
  ['skipped', 'skipped'],
];

export const junit: ReportFormat = {
  id: 'junit',
  label:
    'JUnit XML (Surefire, Gradle, pytest, jest-junit, vitest, Playwright, Cypress, go-junit-report, nextest, PHPUnit, CTest, googletest)',
  kind: 'xml',
  detect: (s) => s.xmlRoot === 'testsuites' || s.xmlRoot === 'testsuite',
  parse(doc) {
    const tests: TestResult[] = [];
    const root = (doc.testsuites ?? doc.testsuite) as XmlNode | string | undefined;
    const rootNode = typeof root === 'object' ? root : {};
    if (doc.testsuites !== undefined) {
      for (const suite of list(rootNode.testsuite)) walkSuite(suite, [], tests);
      for (const testcase of list(rootNode.testcase)) tests.push(toResult(testcase, []));
    } else {
      walkSuite(rootNode, [], tests);
    }
    return mergeRetries(tests);
  },
};

function walkSuite(suite: XmlNode, path: string[], out: TestResult[]): void {
  const name = attr(suite, 'name');
  const here = name ? [...path, name] : path;
  const suiteFile = attr(suite, 'file') ?? attr(suite, 'filepath');
  const suiteProps = properties(suite);
  for (const testcase of list(suite.testcase)) {
    const result = toResult(testcase, here, suiteFile);
    if (result.name) out.push({ ...result, properties: { ...suiteProps, ...result.properties } });
  }
  for (const child of list(suite.testsuite)) walkSuite(child, here, out);
}

function properties(node: XmlNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const group of list(node.properties)) {
    for (const p of list(group.property)) {
      const name = attr(p, 'name');
      if (name) out[name] = attr(p, 'value') ?? text(p) ?? '';
    }
  }
  return out;
}

function toResult(tc: XmlNode, suite: string[], suiteFile?: string): TestResult {
  const classname = attr(tc, 'classname') || undefined;
  const name = attr(tc, 'name') || classname || '';
  let outcome: Outcome = 'passed';
  let message: string | undefined;
  let details: string | undefined;
  // Most severe first: error > failure > skipped (several result elements on one run).
  for (const [element, result] of RESULT_ELEMENTS) {
    const found = list(tc[element]);
    if (found.length === 0 || outcome !== 'passed') continue;
    outcome = result;
    message = attr(found[0], 'message') ?? attr(found[0], 'type');
    details = text(found[0]);
  }
  // googletest: status="notrun"; tst: status="disabled"; some writers: result="skipped".
  const status = (attr(tc, 'status') ?? attr(tc, 'result') ?? '').toLowerCase();
  if (
    outcome === 'passed' &&
    (status === 'notrun' || status === 'disabled' || status === 'skipped')
  )
    outcome = 'skipped';
  if (status === 'disabled') outcome = 'skipped';
  if (outcome === 'passed' && status === 'errored') outcome = 'error';
  const durationMs = seconds(attr(tc, 'time'));
  // Surefire: earlier runs of this test, before the final one.
  const earlier: Attempt[] = [];
  for (const [element, result] of [
    ['flakyFailure', 'failed'],
    ['flakyError', 'error'],
    ['rerunFailure', 'failed'],
    ['rerunError', 'error'],
  ] as const) {
    for (const run of list(tc[element]))
      earlier.push({
        outcome: result,
        durationMs: seconds(attr(run, 'time')),
        message: attr(run, 'message'),
      });
  }
  const line = Number(attr(tc, 'line'));
  return {
    suite,
    classname,
    name,
    file: attr(tc, 'file') ?? attr(tc, 'filepath') ?? suiteFile,
    line: Number.isInteger(line) && line > 0 ? line : undefined,
    durationMs,
    outcome,
    message,
    details,
    attempts: [...earlier, { outcome, durationMs, message }],
    properties: properties(tc),
  };
}
