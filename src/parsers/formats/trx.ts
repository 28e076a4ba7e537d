/** Visual Studio TRX (MSTest, and the xUnit/NUnit adapters of `dotnet test --logger trx`). */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  foldRepeats,
  runErrorMessage,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { attr, list, text, type XmlNode } from '../base/xml.js';

const OUTCOMES: Record<string, Outcome> = {
  passed: 'passed',
  passedbutrunaborted: 'passed',
  warning: 'passed',
  completed: 'passed',
  failed: 'failed',
  timeout: 'failed',
  error: 'error',
  aborted: 'skipped',
  disconnected: 'error',
  notrunnable: 'skipped',
  notexecuted: 'skipped',
  inconclusive: 'skipped',
  pending: 'skipped',
  inprogress: 'skipped',
};

export const trx: ReportFormat = {
  id: 'trx',
  label: 'TRX (Visual Studio, dotnet test --logger trx)',
  kind: 'xml',
  extensions: ['trx'],
  detect: (s) => s.xmlRoot === 'TestRun',
  parse(doc) {
    const run = doc.TestRun as XmlNode;
    const definitions = new Map<string, XmlNode>();
    for (const group of list(run.TestDefinitions)) {
      for (const def of list(group.UnitTest)) definitions.set(attr(def, 'id') ?? '', def);
    }
    const tests: TestResult[] = [];
    for (const group of list(run.Results)) {
      for (const r of list(group.UnitTestResult)) {
        const def = definitions.get(attr(r, 'testId') ?? '');
        const inner = list(r.InnerResults).flatMap((g) => list(g.UnitTestResult));
        // Data-driven MSTest: the inner results are the runs; the outer one summarizes them.
        for (const one of inner.length ? inner : [r]) tests.push(toResult(one, def));
      }
    }
    return withRunErrors(foldRepeats(tests), runInfoErrors(run));
  },
};

/** What the adapters echo of a test's own result into RunInfos: the test's result says it. */
const TEST_ECHO = /^\[xUnit\.net [^\]]*\]\s+\S.*\[(FAIL|SKIP)\]$|^Exit code indicates failure\b/;

/**
 * The run's own errors (docs/design.md "Run errors"): RunInfos of outcome Error, such as a test
 * host that crashed ("The active test run was aborted", "El proceso del host de pruebas terminó
 * inesperadamente": __tests__/fixtures/reports/enricomi/trx), never a test's. The lines the xUnit
 * adapter echoes of a test's failure or skip, and Microsoft.Testing.Platform's exit code, repeat
 * what the tests' results say, and are left out.
 */
function runInfoErrors(run: XmlNode): RunError[] {
  return list(run.ResultSummary)
    .flatMap((summary) => list(summary.RunInfos))
    .flatMap((group) => list(group.RunInfo))
    .filter((info) => (attr(info, 'outcome') ?? '').toLowerCase() === 'error')
    .map((info) => runErrorMessage(text(list(info.Text)[0]), ''))
    .filter((message) => message && !TEST_ECHO.test(message))
    .map((message) => ({ message: `test run: ${message}` }));
}

function toResult(r: XmlNode, def: XmlNode | undefined): TestResult {
  const outcome = OUTCOMES[(attr(r, 'outcome') ?? '').toLowerCase()] ?? 'error';
  const method = list(def?.TestMethod)[0];
  const classname = attr(method, 'className')?.replace(/,.*$/s, '');
  const error = list(list(r.Output)[0]?.ErrorInfo)[0];
  const message = text(error?.Message)?.trim();
  const durationMs = duration(attr(r, 'duration'));
  return {
    suite: [],
    classname,
    name: attr(r, 'testName') ?? attr(method, 'name') ?? '',
    durationMs,
    outcome,
    message,
    details: text(error?.StackTrace),
    attempts: [{ outcome, durationMs, message }],
    properties: def ? propertiesOf(def) : {},
  };
}

/**
 * What a test's definition carries: its properties (MSTest `[TestProperty]`, `<Key>`/`<Value>`
 * elements or, in newer writers, attributes), its categories (`[TestCategory]`) as `category`,
 * as NUnit's are kept, and its work items (`[WorkItem]`) as `workitem`.
 */
function propertiesOf(def: XmlNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const group of list(def.Properties))
    for (const p of list(group.Property)) {
      const key = attr(p, 'Key') ?? text(list(p.Key)[0])?.trim();
      if (key) addNamed(out, key, attr(p, 'Value') ?? text(list(p.Value)[0])?.trim() ?? '');
    }
  for (const group of list(def.TestCategory))
    for (const item of list(group.TestCategoryItem)) {
      const category = attr(item, 'TestCategory');
      if (category) addNamed(out, 'category', category);
    }
  for (const group of list(def.Workitems))
    for (const item of list(group.Workitem)) {
      const id = text(item)?.trim();
      if (id) addNamed(out, 'workitem', id);
    }
  return out;
}

/** `00:00:01.2345678` -> ms */
function duration(value: string | undefined): number | undefined {
  const m = value ? /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(value) : null;
  return m
    ? Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000)
    : undefined;
}
