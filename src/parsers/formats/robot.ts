/**
 * Robot Framework's `output.xml` (robot and rebot write it; schema 4 of RF 6, schema 5 of RF 7):
 * nested suites of tests, each test's keyword calls as its steps. A test is named as Robot names
 * it: the suite path and the test's name joined by dots (`Tests.Calculator.Adds`), so classname is
 * the suite path and the file the test's suite file.
 */
import type { ReportFormat } from '../base/format.js';
import {
  firstLine,
  NO_PROPERTIES,
  withRetries,
  type Attempt,
  type Outcome,
  type TestResult,
  type TestStep,
} from '../base/model.js';
import { attr, list, text, type XmlNode } from '../base/xml.js';

export const robot: ReportFormat = {
  id: 'robot',
  label: 'Robot Framework output.xml (robot, rebot, RF 6 and 7)',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) => s.xmlRoot === 'robot',
  parse(doc) {
    const root = doc.robot;
    const tests: TestResult[] = [];
    if (root && typeof root === 'object')
      for (const suite of list((root as XmlNode).suite)) walkSuite(suite, [], tests, 0);
    return tests;
  },
};

/** Robot's own statuses; NOT RUN (a test the run did not execute) counts as not run, skipped. */
const STATUS: Record<string, Outcome> = {
  PASS: 'passed',
  FAIL: 'failed',
  SKIP: 'skipped',
  'NOT RUN': 'skipped',
};

function walkSuite(suite: XmlNode, parents: string[], out: TestResult[], depth: number): void {
  const path = [...parents, attr(suite, 'name') ?? ''];
  const classname = path.join('.');
  const file = attr(suite, 'source');
  const first = out.length;
  for (const test of list(suite.test)) out.push(toResult(test, path, classname, file));
  // The XML limits bound the depth already (src/parsers/base/xml.ts); this keeps the walk's own.
  if (depth < 256) for (const child of list(suite.suite)) walkSuite(child, path, out, depth + 1);
  // A failed suite teardown fails every test of the suite, as Robot's own result model does
  // (robot/result/suiteteardownfailed.py): output.xml keeps those tests' statuses as they ended.
  const teardown = list(suite.kw).find((kw) => attr(kw, 'type') === 'TEARDOWN');
  const status = attr(statusOf(teardown), 'status');
  if (status !== 'FAIL' && status !== 'SKIP') return;
  const message = cleanMessage(text(statusOf(teardown))) ?? '';
  for (const test of out.slice(first)) {
    if (status === 'SKIP') {
      test.outcome = 'skipped';
      test.message = firstLine(`Skipped in parent suite teardown: ${message}`);
    } else {
      if (test.outcome !== 'skipped') test.outcome = 'failed';
      test.details = test.details
        ? `${test.details}\n\nAlso parent suite teardown failed:\n${message}`
        : `Parent suite teardown failed:\n${message}`;
      test.message = headline(test.details);
    }
    if (test.attempts) test.attempts[test.attempts.length - 1]!.outcome = test.outcome;
  }
}

function toResult(
  test: XmlNode,
  suite: string[],
  classname: string,
  file: string | undefined,
): TestResult {
  const status = statusOf(test);
  const raw = text(status)?.replace(ADDED, '*HTML* ');
  const merged = mergedRuns(raw);
  const details = merged ? merged.message : cleanMessage(raw);
  const outcome = STATUS[attr(status, 'status') ?? ''] ?? 'error';
  const line = Number(attr(test, 'line'));
  const tags = list(test.tag)
    .map((t) => text(t)?.trim())
    .filter((t): t is string => !!t);
  const doc = text(test.doc)?.trim();
  const steps = stepsOf(test);
  const result: TestResult = {
    suite,
    classname,
    name: attr(test, 'name') ?? '',
    file,
    line: Number.isInteger(line) && line > 0 ? line : undefined,
    durationMs: durationOf(status),
    outcome,
    message: headline(details),
    details,
    properties: tags.length ? { tags: tags.join(',') } : NO_PROPERTIES,
    ...(steps.length ? { steps } : {}),
    ...(doc ? { labels: { documentation: doc } } : {}),
  };
  return merged ? withRetries(result, merged.earlier) : result;
}

/**
 * A message's first line, with the next one where the first is only Robot's header of it
 * (`Parent suite setup failed:` then the reason).
 */
function headline(message: string | undefined): string | undefined {
  const first = firstLine(message);
  if (!first?.endsWith(':')) return first;
  const rest = firstLine(message!.slice(message!.indexOf(first) + first.length));
  return rest ? `${first} ${rest}` : first;
}

function statusOf(node: XmlNode | undefined): XmlNode | undefined {
  return list(node?.status)[0];
}

/**
 * RF 7: `start` and `elapsed` (seconds); RF 6: `starttime` and `endtime`, `20231107 14:02:31.123`
 * in local time (only their difference is used).
 */
function durationOf(status: XmlNode | undefined): number | undefined {
  const elapsed = attr(status, 'elapsed');
  if (elapsed !== undefined) {
    const s = Number(elapsed);
    return Number.isFinite(s) ? Math.round(s * 1000) : undefined;
  }
  const start = rf6Time(attr(status, 'starttime'));
  const end = rf6Time(attr(status, 'endtime'));
  return start !== undefined && end !== undefined && end >= start ? end - start : undefined;
}

function rf6Time(value: string | undefined): number | undefined {
  const m = value ? /^(\d{4})(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?$/.exec(value) : null;
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m;
  return Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, Number((ms ?? '0').padEnd(3, '0')));
}

/** The body elements whose calls are steps, and how each is written in a test (its first line). */
const BODY: Record<string, (node: XmlNode) => string> = {
  kw: keywordCall,
  for: (n) =>
    join([
      'FOR',
      ...list(n.var).map((v) => text(v) ?? ''),
      attr(n, 'flavor') ?? 'IN',
      ...list(n.value).map((v) => text(v) ?? ''),
    ]),
  while: (n) => join(['WHILE', attr(n, 'condition') ?? '']),
  if: (n) => join(['IF', attr(list(n.branch)[0], 'condition') ?? '']),
  try: () => 'TRY',
  group: (n) => join(['GROUP', attr(n, 'name') ?? '']),
  variable: (n) => join(['VAR', attr(n, 'name') ?? '', ...list(n.var).map((v) => text(v) ?? '')]),
  return: (n) => join(['RETURN', ...list(n.value).map((v) => text(v) ?? '')]),
  break: () => 'BREAK',
  continue: () => 'CONTINUE',
};

/** Robot's separator of cells, as a test is written. */
const join = (cells: string[]) => cells.filter((c, i) => i === 0 || c !== '').join('    ');

/** `${result}=    Evaluate    1 + 2`; a setup or teardown as the test writes it: `[Setup]`. */
function keywordCall(kw: XmlNode): string {
  const type = attr(kw, 'type');
  const prefix = type === 'SETUP' ? ['[Setup]'] : type === 'TEARDOWN' ? ['[Teardown]'] : [];
  const assigned = list(kw.var).map((v) => `${text(v) ?? ''}=`);
  const args = list(kw.arg).map((a) => text(a) ?? '');
  return join([...prefix, ...assigned, attr(kw, 'name') ?? '', ...args]);
}

/**
 * The test's keyword calls and control structures in order. The parsed tree keeps each kind of
 * element in document order but not their interleaving, so kinds are merged by their start times
 * (RF 7: microseconds; RF 6: milliseconds, where a keyword and a FOR that start in the same
 * millisecond keep the keyword first).
 */
function stepsOf(test: XmlNode): TestStep[] {
  const runs: { at: number; action: string }[][] = [];
  for (const [element, write] of Object.entries(BODY)) {
    const nodes = list(test[element]);
    if (nodes.length) runs.push(nodes.map((n) => ({ at: startOf(n), action: write(n) })));
  }
  const steps: TestStep[] = [];
  const next = runs.map(() => 0);
  for (;;) {
    let pick = -1;
    for (let r = 0; r < runs.length; r++) {
      const item = runs[r]![next[r]!];
      if (item && (pick < 0 || item.at < runs[pick]![next[pick]!]!.at)) pick = r;
    }
    if (pick < 0) return steps;
    steps.push({ action: runs[pick]![next[pick]!++]!.action });
  }
}

function startOf(node: XmlNode): number {
  const status = statusOf(node);
  const start = attr(status, 'start');
  const at = start ? Date.parse(start) : rf6Time(attr(status, 'starttime'));
  return at !== undefined && Number.isFinite(at) ? at : Infinity;
}

/**
 * A message as people read it: Robot's `*HTML*` messages without their markup. The pattern has
 * no nested repetition (linear).
 */
function cleanMessage(message: string | undefined): string | undefined {
  if (!message?.trim()) return undefined;
  if (!message.startsWith('*HTML*')) return message.trim();
  return unescapeHtml(
    message
      .slice(6)
      .replace(/<br>|<hr>/g, '\n')
      .replace(/<[^<>]*>/g, ''),
  ).trim();
}

function unescapeHtml(s: string): string {
  return s.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === '#39' ? "'" : '&',
  );
}

const MERGED = '*HTML* <span class="merge">';
/** rebot --merge: a test only the later output has. */
const ADDED = /^\*HTML\* (?:Test|Task) added from merged output\.(?:<hr>)?/;
const OLD_STATUS = '<span class="old-status">Old status:</span> <span class="';
const NEW_MESSAGE = '<span class="new-message">New message:</span>';
const OLD_MESSAGE = '<span class="old-message">Old message:</span>';

/**
 * A test `rebot --merge` re-executed (robot/result/merger.py): its message holds the new run's
 * status and message, then each earlier run's, latest first. Earlier runs become attempts, the
 * message the new run's own.
 */
function mergedRuns(
  message: string | undefined,
): { earlier: Attempt[]; message?: string } | undefined {
  if (!message?.startsWith(MERGED)) return undefined;
  const parts = message.split('<hr>');
  const earlier: Attempt[] = [];
  let own: string | undefined;
  for (const part of parts.slice(1)) {
    const oldAt = part.indexOf(OLD_STATUS);
    if (oldAt >= 0) {
      const status = part.slice(
        oldAt + OLD_STATUS.length,
        part.indexOf('"', oldAt + OLD_STATUS.length),
      );
      earlier.unshift({
        outcome: STATUS[status.toUpperCase()] ?? 'error',
        message: firstLine(between(part, OLD_MESSAGE)),
      });
    } else if (part.includes(NEW_MESSAGE)) own = between(part, NEW_MESSAGE);
  }
  return { earlier, ...(own ? { message: own } : {}) };
}

/** The text after `header` up to its `<br>`, unescaped. */
function between(part: string, header: string): string | undefined {
  const at = part.indexOf(header);
  if (at < 0) return undefined;
  const end = part.indexOf('<br>', at);
  return (
    unescapeHtml(part.slice(at + header.length, end < 0 ? undefined : end)).trim() || undefined
  );
}
