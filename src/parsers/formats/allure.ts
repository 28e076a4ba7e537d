/**
 * Allure 2 results (`allure-results/*-result.json`: allure-pytest, allure-jest, allure-playwright,
 * allure-testng, allure-junit5 ...): one file per test run. readReports reads the result files of
 * one directory as one report, so that the runs of one test, which share a `historyId`, fold into
 * one test with its attempts (the last to start is the final run). `*-container.json` (fixtures),
 * `*-globals.json` and attachments are not results.
 */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  outcomeOfRuns,
  type Attempt,
  type Outcome,
  type TestLink,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str, type Json } from './json-util.js';

const STATUS: Record<string, Outcome> = {
  passed: 'passed',
  failed: 'failed',
  broken: 'error',
  skipped: 'skipped',
  unknown: 'skipped',
};

export const allure: ReportFormat = {
  id: 'allure',
  label: 'Allure 2 results (allure-results/*-result.json)',
  kind: 'json',
  extensions: ['json'],
  // Containers (fixtures), globals and attachments are written beside the results.
  perDirectory: { result: /-result\.json$/, sidecar: /-(container|globals|attachment)\.\w+$/ },
  detect: (s) =>
    /"uuid"\s*:/.test(s.head) &&
    /"status"\s*:/.test(s.head) &&
    /"(historyId|testCaseId|fullName|stage)"\s*:/.test(s.head) &&
    !/"children"\s*:/.test(s.head),
  /** One result, or the results of one directory as an array. */
  parse(doc) {
    const results = (Array.isArray(doc) ? doc : [doc]).map(obj);
    const byHistory = new Map<string, Json[]>();
    for (const r of results) {
      if (!str(r.name) && !str(r.fullName))
        throw new Error('a result has no name: not an Allure result');
      // Without a historyId (allure-jest gives none to skipped tests) a run stands alone.
      const key = str(r.historyId) ?? `uuid:${str(r.uuid) ?? byHistory.size}`;
      const runs = byHistory.get(key);
      if (runs) runs.push(r);
      else byHistory.set(key, [r]);
    }
    return [...byHistory.values()].map((runs) =>
      toTest(runs.sort((a, b) => (num(a.start) ?? 0) - (num(b.start) ?? 0))),
    );
  },
};

function toTest(runs: Json[]): TestResult {
  const final = runs.at(-1)!;
  const attempts: Attempt[] = runs.map((r) => ({
    outcome: STATUS[str(r.status) ?? ''] ?? 'error',
    durationMs: duration(r),
    message: str(obj(r.statusDetails).message)?.split('\n')[0],
  }));
  // The first of each name places the test; every value is kept for sync and traceability.
  const labels = new Map<string, string>();
  const every: Record<string, string> = {};
  for (const l of arr(final.labels)) {
    const name = str(obj(l).name);
    const value = str(obj(l).value);
    if (!name || value === undefined) continue;
    if (!labels.has(name)) labels.set(name, value);
    if (!PLACING.has(name)) addNamed(every, name, value);
  }
  const suite = ['parentSuite', 'suite', 'subSuite']
    .map((n) => labels.get(n))
    .filter((s): s is string => !!s);
  const parameters = arr(final.parameters)
    .map(obj)
    .filter((p) => p.excluded !== true)
    .map((p) => `${str(p.name) ? `${str(p.name)}=` : ''}${str(p.value) ?? ''}`);
  const details = obj(final.statusDetails);
  const last = attempts.at(-1)!;
  const name = str(final.name) ?? str(final.fullName) ?? '';
  return {
    ...runnerIdentity(labels, str(final.fullName), name),
    suite,
    classname: labels.get('testClass') ?? labels.get('package') ?? (suite.join('.') || undefined),
    name,
    params: parameters.length ? `[${parameters.join(', ')}]` : undefined,
    durationMs: attempts.reduce((sum, a) => sum + (a.durationMs ?? 0), 0),
    outcome: outcomeOfRuns(attempts),
    message: last.message,
    details: str(details.trace) ?? str(details.message),
    attempts: attempts.length > 1 ? attempts : undefined,
    properties: {},
    ...stepsOf(final),
    ...(Object.keys(every).length ? { labels: every } : {}),
    ...linksOf(final),
  };
}

/** Labels that place a test (suites, framework, ids), not metadata of its case. */
const PLACING = new Set([
  'parentSuite',
  'suite',
  'subSuite',
  'testClass',
  'testMethod',
  'package',
  'framework',
  'language',
  'host',
  'thread',
  'titlePath',
]);
/** Steps an adapter adds around a test, not steps of it (allure-playwright). */
const WRAPPERS = new Set(['Before Hooks', 'After Hooks']);

/** The result's top-level steps, for sync. */
function stepsOf(final: Json): Pick<TestResult, 'steps'> {
  const steps = arr(final.steps)
    .map((s) => str(obj(s).name))
    .filter((name): name is string => !!name && !WRAPPERS.has(name))
    .map((action) => ({ action }));
  return steps.length ? { steps } : {};
}

/** The result's links (`issue`, `tms`, a type of the user's), each with a name or an address. */
function linksOf(final: Json): Pick<TestResult, 'links'> {
  const links: TestLink[] = [];
  for (const l of arr(final.links).map(obj)) {
    const [type, name, url] = [str(l.type), str(l.name), str(l.url)];
    if (name || url)
      links.push({ ...(type ? { type } : {}), ...(name ? { name } : {}), ...(url ? { url } : {}) });
  }
  return links.length ? { links } : {};
}

/**
 * The test as its runner names it (docs/architecture.md "Test identity"), for the runners whose Allure adapter
 * writes it: allure-jest's fullName is `package:file#full name`, the file relative to jest's
 * rootDir; allure-playwright's titlePath label is `root > project > file > describe...`, the file
 * relative to Playwright's testDir, as Playwright's other reporters write it.
 */
function runnerIdentity(
  labels: Map<string, string>,
  fullName: string | undefined,
  name: string,
): { file?: string; fullName: string } | undefined {
  const framework = labels.get('framework');
  if (framework === 'jest' && fullName) {
    const match = /^[^:#]*:([^#]+)#(.*)$/s.exec(fullName);
    return match ? { file: match[1], fullName: match[2]! } : undefined;
  }
  const titlePath = labels.get('titlePath');
  if (framework === 'playwright' && titlePath !== undefined) {
    const [, project, file, ...describes] = titlePath.split(' > ');
    const title = `${name}${project ? ` [${project}]` : ''}`;
    return { file, fullName: [...describes, title].join(' › ') };
  }
  return undefined;
}

function duration(r: Json): number | undefined {
  const start = num(r.start);
  const stop = num(r.stop);
  return start !== undefined && stop !== undefined ? Math.max(0, stop - start) : undefined;
}
