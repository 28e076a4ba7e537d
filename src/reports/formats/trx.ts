/** Visual Studio TRX (MSTest, and the xUnit/NUnit adapters of `dotnet test --logger trx`). */
import type { ReportFormat } from '../format.js';
import { foldRepeats, type Outcome, type TestResult } from '../model.js';
import { attr, list, text, type XmlNode } from '../xml.js';

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
    return foldRepeats(tests);
  },
};

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
    properties: {},
  };
}

/** `00:00:01.2345678` -> ms */
function duration(value: string | undefined): number | undefined {
  const m = value ? /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(value) : null;
  return m
    ? Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000)
    : undefined;
}
