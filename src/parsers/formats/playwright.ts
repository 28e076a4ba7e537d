/** Playwright JSON reporter: one test per spec and project, retries as attempts. */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  runErrorMessage,
  withRunErrors,
  type Attempt,
  type Outcome,
  type ParsedTests,
  type RunError,
  type RunSelection,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str, type Json } from './json-util.js';

const RESULT: Record<string, Outcome> = {
  passed: 'passed',
  failed: 'failed',
  timedOut: 'failed',
  interrupted: 'error',
  skipped: 'skipped',
};

export const playwright: ReportFormat = {
  id: 'playwright',
  label: 'Playwright JSON (--reporter=json)',
  kind: 'json',
  extensions: ['json'],
  detect: (s) =>
    /"config"\s*:/.test(s.head) &&
    /"suites"\s*:/.test(s.head) &&
    /"(rootDir|configFile|projects)"\s*:/.test(s.head),
  parse(doc) {
    const root = obj(doc);
    const tests: TestResult[] = [];
    for (const suite of arr(root.suites)) walk(obj(suite), [], tests);
    const parsed: ParsedTests = withRunErrors(tests, arr(root.errors).map(obj).map(runErrorOf));
    const selection = selectionOf(obj(root.config));
    return selection ? Object.assign(parsed, { selection }) : parsed;
  },
};

/**
 * An error outside any test (the report's top-level `errors`): a spec file that failed to load
 * stops Playwright before any test runs (samples/playwright/reports/run-errors), a global setup or
 * teardown that threw. Its location names the file.
 */
function runErrorOf(error: Json): RunError {
  const file = str(obj(error.location).file);
  return {
    ...(file ? { file } : {}),
    message: runErrorMessage(str(error.message) ?? str(error.value), 'an error outside the tests'),
  };
}

/** Options of `playwright test` that take a value: what follows them is no file filter. */
const VALUE_OPTIONS = new Set([
  '-c',
  '--config',
  '--reporter',
  '-j',
  '--workers',
  '--retries',
  '--repeat-each',
  '--timeout',
  '--global-timeout',
  '--max-failures',
  '--output',
  '--shard',
  '--project',
  '-g',
  '--grep',
  '--grep-invert',
  '--tsconfig',
  '--browser',
  '--trace',
  '--test-list',
  '--test-list-invert',
  '--update-source-method',
]);
/** Options that run part of the suite. */
const FILTER_OPTIONS = new Set([
  '-g',
  '--grep',
  '--grep-invert',
  '--project',
  '--test-list',
  '--test-list-invert',
  '--last-failed',
  '--only-changed',
]);

/**
 * What the report tells of the run being partial: `config.shard` (`--shard`), and the filters of
 * its command line (`config.argv`: `--grep`, `--project`, file arguments ...). Its `grep` is a
 * regular expression, which JSON writes as `{}` whatever it holds, so only the command line says.
 */
function selectionOf(config: Json): RunSelection | undefined {
  const shard = obj(config.shard);
  const current = num(shard.current);
  const total = num(shard.total);
  const argv = arr(config.argv).filter((a): a is string => typeof a === 'string');
  const start = argv.indexOf('test');
  const filters: string[] = [];
  for (let i = start < 0 ? argv.length : start + 1; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const takesValue = VALUE_OPTIONS.has(flag) && inline === undefined;
    const value = takesValue ? argv[++i] : inline;
    if (FILTER_OPTIONS.has(flag)) filters.push(value === undefined ? flag : `${flag} ${value}`);
    else if (!flag.startsWith('-')) filters.push(flag);
  }
  // Unset, grepInvert is null: set in the config file, it filters too.
  if (config.grepInvert !== null && config.grepInvert !== undefined)
    filters.push('grepInvert (in its config)');
  const selection: RunSelection = {
    ...(current !== undefined && total !== undefined && total > 1
      ? { shard: `${current}/${total}` }
      : {}),
    ...(filters.length ? { filter: filters.join(' ') } : {}),
  };
  return selection.shard || selection.filter ? selection : undefined;
}

function walk(suite: Json, path: string[], out: TestResult[]): void {
  const title = str(suite.title);
  const here = title ? [...path, title] : path;
  for (const specValue of arr(suite.specs)) {
    const spec = obj(specValue);
    for (const testValue of arr(spec.tests)) {
      const test = obj(testValue);
      const expected = str(test.expectedStatus) ?? 'passed';
      const attempts: Attempt[] = arr(test.results).map((r) => {
        const result = obj(r);
        const status = str(result.status) ?? '';
        return {
          // test.fail(): a run that failed as expected passed.
          outcome:
            status === expected && status !== 'skipped' ? 'passed' : (RESULT[status] ?? 'error'),
          durationMs: num(result.duration),
          message: str(obj(result.error).message),
        };
      });
      const status = str(test.status);
      const outcome: Outcome =
        status === 'skipped' || str(test.expectedStatus) === 'skipped'
          ? 'skipped'
          : status === 'expected' || status === 'flaky'
            ? 'passed'
            : (attempts.at(-1)?.outcome ?? 'failed') === 'passed'
              ? 'failed'
              : (attempts.at(-1)?.outcome ?? 'failed');
      const project = str(test.projectName);
      const last = attempts.at(-1);
      const name = `${str(spec.title) ?? ''}${project ? ` [${project}]` : ''}`;
      out.push({
        suite: here,
        classname: here.join(' › ') || undefined,
        name,
        // Playwright's title path without the file (the top suite, relative to its testDir).
        fullName: [...here.slice(1), name].join(' › '),
        file: str(spec.file) ?? str(suite.file),
        line: num(spec.line),
        durationMs: attempts.reduce((s, a) => s + (a.durationMs ?? 0), 0),
        outcome,
        message: last?.message,
        attempts: attempts.length ? attempts : [{ outcome }],
        properties: Object.fromEntries(
          arr(spec.tags)
            .filter((t): t is string => typeof t === 'string')
            .map((t) => [t, 'tag']),
        ),
        ...stepsAndLabels(test),
      });
    }
  }
  for (const child of arr(suite.suites)) walk(obj(child), here, out);
}

/**
 * The final run's `test.step`s (the JSON reporter lists only those, nested ones inside) and the
 * test's annotations (type -> description), for sync (docs/design.md "Sync").
 */
function stepsAndLabels(test: Json): Pick<TestResult, 'steps' | 'labels'> {
  const steps = arr(obj(arr(test.results).at(-1)).steps)
    .map((s) => str(obj(s).title))
    .filter((t): t is string => !!t)
    .map((action) => ({ action }));
  const labels: Record<string, string> = {};
  for (const a of arr(test.annotations).map(obj)) {
    const type = str(a.type);
    if (type) addNamed(labels, type, str(a.description) ?? '');
  }
  return {
    ...(steps.length ? { steps } : {}),
    ...(Object.keys(labels).length ? { labels } : {}),
  };
}
