/** NUnit 3 (<test-run>, or a <test-suite> fragment) and NUnit 2 (<test-results>). */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  foldRepeats,
  type Outcome,
  type ParsedTests,
  type TestResult,
} from '../base/model.js';
import { attr, list, seconds, text, type XmlNode } from '../base/xml.js';

export const nunit3: ReportFormat = {
  id: 'nunit',
  label: 'NUnit 3 XML',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) =>
    s.xmlRoot === 'test-run' || (s.xmlRoot === 'test-suite' && !/<results>/.test(s.head)),
  parse: (doc) => parseNunit(doc, 'test-run', nunit3Case),
};

export const nunit2: ReportFormat = {
  id: 'nunit2',
  label: 'NUnit 2 XML',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) =>
    s.xmlRoot === 'test-results' || (s.xmlRoot === 'test-suite' && /<results>/.test(s.head)),
  parse: (doc) => parseNunit(doc, 'test-results', nunit2Case),
};

/** What the two versions read differently; the rest of a test case is read alike. */
interface CaseFields {
  classname?: string;
  name: string;
  durationMs?: number;
  outcome: Outcome;
}
type CaseReader = (tc: XmlNode) => CaseFields;

/** A whole run (`rootName`) holds suites; a bare <test-suite> fragment is one. */
function parseNunit(doc: XmlNode, rootName: string, read: CaseReader): ParsedTests {
  const tests: TestResult[] = [];
  const run = doc[rootName];
  const fragment = doc['test-suite'];
  // An empty run (<test-run/>) parses to '' and holds no tests.
  if (run && typeof run === 'object') {
    for (const suite of list((run as XmlNode)['test-suite'])) walk(suite, [], tests, read);
  } else if (run === undefined && fragment && typeof fragment === 'object') {
    walk(fragment as XmlNode, [], tests, read);
  }
  const folded = foldRepeats(tests);
  const filter = run && typeof run === 'object' ? filterOf(list((run as XmlNode).filter)[0]) : '';
  return filter ? Object.assign(folded, { selection: { filter } }) : folded;
}

/**
 * NUnit 3's `<filter>` of the run (empty, `<filter />`, when the whole suite ran): the conditions
 * `--where`, `--test` or `--testlist` gave (`<cat>Smoke</cat>`, `<not>`, `<and>` ...), as
 * `cat=Smoke`. A filtered run cannot prove a test gone (docs/design.md "Run errors").
 */
function filterOf(node: XmlNode | undefined): string {
  if (!node) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@') || key === '#text') continue;
    for (const item of list(value)) {
      const inner = filterOf(item);
      parts.push(inner ? `${key}(${inner})` : `${key}=${text(item) ?? ''}`);
    }
  }
  return parts.join(' ');
}

/** NUnit 3 nests test-suite directly; NUnit 2 wraps children in <results>. */
function walk(suite: XmlNode, path: string[], out: TestResult[], read: CaseReader): void {
  const name = attr(suite, 'name');
  const type = attr(suite, 'type');
  const here = name && type !== 'Assembly' ? [...path, name] : path;
  const containers = [suite, ...list(suite.results)];
  for (const c of containers) {
    for (const tc of list(c['test-case'])) out.push(toResult(tc, here, read(tc)));
    for (const child of list(c['test-suite'])) walk(child, here, out, read);
  }
}

function failureOf(tc: XmlNode): { message?: string; details?: string } {
  const failure = list(tc.failure)[0] ?? list(tc.reason)[0];
  return { message: text(failure?.message)?.trim(), details: text(failure?.['stack-trace']) };
}

function toResult(tc: XmlNode, suite: string[], fields: CaseFields): TestResult {
  const { classname, name, durationMs, outcome } = fields;
  const { message, details } = failureOf(tc);
  return {
    suite,
    classname,
    name,
    durationMs,
    outcome,
    message,
    details,
    attempts: [{ outcome, durationMs, message }],
    properties: properties(tc),
  };
}

function nunit3Case(tc: XmlNode): CaseFields {
  const result = (attr(tc, 'result') ?? '').toLowerCase();
  let outcome: Outcome;
  if (result === 'passed') outcome = 'passed';
  // Failed with label Error (an exception) or Invalid is still a failed test, as NUnit counts it.
  else if (result === 'failed') outcome = 'failed';
  else if (result === 'warning') outcome = 'passed';
  else if (result === 'skipped' || result === 'inconclusive') outcome = 'skipped';
  else outcome = 'error';
  const fullname = attr(tc, 'fullname');
  return {
    classname: attr(tc, 'classname') ?? (fullname ? className(fullname) : undefined),
    name: attr(tc, 'name') ?? fullname ?? '',
    durationMs: seconds(attr(tc, 'duration') ?? attr(tc, 'time')),
    outcome,
  };
}

function nunit2Case(tc: XmlNode): CaseFields {
  const result = (attr(tc, 'result') ?? '').toLowerCase();
  const executed = (attr(tc, 'executed') ?? 'true').toLowerCase() === 'true';
  const success = (attr(tc, 'success') ?? '').toLowerCase();
  const hasFailure = list(tc.failure).length > 0;
  let outcome: Outcome;
  if (result === 'success') outcome = 'passed';
  else if (result === 'failure') outcome = 'failed';
  else if (result === 'error') outcome = 'error';
  else if (result)
    outcome = 'skipped'; // Ignored, Skipped, Inconclusive, NotRunnable, NotRun
  else if (!executed) outcome = 'skipped';
  else if (hasFailure || success === 'false') outcome = 'failed';
  else outcome = 'passed';
  const full = attr(tc, 'name') ?? '';
  return { classname: className(full), name: full, durationMs: seconds(attr(tc, 'time')), outcome };
}

/** `Ns.Class.Method(args)` -> `Ns.Class` */
function className(full: string): string | undefined {
  const bare = full.replace(/\(.*$/s, '');
  const dot = bare.lastIndexOf('.');
  return dot > 0 ? bare.slice(0, dot) : undefined;
}

function properties(tc: XmlNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const group of list(tc.properties)) {
    for (const p of list(group.property)) {
      const name = attr(p, 'name');
      if (name) addNamed(out, name, attr(p, 'value') ?? '');
    }
  }
  for (const group of list(tc.categories)) {
    for (const c of list(group.category)) {
      const name = attr(c, 'name');
      if (name) addNamed(out, 'category', name);
    }
  }
  return out;
}
