/**
 * JUnit XML in its dialects: Maven Surefire/Failsafe (rerun*, flaky*), Gradle, pytest, jest-junit,
 * vitest, Playwright, Cypress/mocha-junit-reporter, go-junit-report/gotestsum, cargo-nextest,
 * PHPUnit and nested suites, CTest, googletest (status run/notrun), tst (status disabled), behave.
 */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  firstLine,
  foldRepeats,
  NO_PROPERTIES,
  runErrorMessage,
  withGap,
  withRunErrors,
  type ParsedTests,
  type Attempt,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { attr, list, seconds, text, type XmlNode } from '../base/xml.js';

const RESULT_ELEMENTS: [string, Outcome][] = [
  ['error', 'error'],
  ['failure', 'failed'],
  ['skipped', 'skipped'],
];

export const junit: ReportFormat = {
  id: 'junit',
  label:
    'JUnit XML (Surefire, Gradle, pytest, jest-junit, vitest, Playwright, Cypress, go-junit-report, nextest, PHPUnit, CTest, googletest, behave)',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) => s.xmlRoot === 'testsuites' || s.xmlRoot === 'testsuite',
  parse(doc, file) {
    const many = doc.testsuites !== undefined;
    const root = (doc.testsuites ?? doc.testsuite) as XmlNode | string | undefined;
    const rootNode = typeof root === 'object' ? root : {};
    // Before the walk, which lets go of the test cases it has read.
    const behave = many ? undefined : behaveFeature(rootNode, file);
    const walk: Walk = { tests: [], elements: [], runErrors: [] };
    if (many) {
      for (const suite of list(rootNode.testsuite)) walkSuite(suite, [], walk);
      for (const testcase of list(rootNode.testcase)) walk.tests.push(toResult(testcase, []));
    } else {
      walkSuite(rootNode, [], walk);
    }
    markContainers(walk);
    const runErrors = walk.runErrors;
    buildErrors(rootNode, walk.tests, runErrors);
    const tests = withoutRunErrorCases(walk);
    // jest-junit writes each of jest's tests once, a retried one too (jest counts its invocations
    // inside one result): a repeat is another test (test.each with a title without placeholders,
    // a title written twice), never a retry, or a failure reads as a flaky pass.
    const folded = isJestJunit(rootNode, tests) ? tests : foldRepeats(tests);
    const parsed = behave
      ? behaveJunit(behave, folded)
      : withDialect({ node: rootNode, many }, folded, runErrors);
    return withRunErrors(parsed, runErrors);
  },
};

/**
 * jest-junit's file: its root's default name (`suiteName`), or jest's full name written as both
 * classname and name of every test case (its default templates), as withDialect reads it.
 */
function isJestJunit(root: XmlNode, tests: readonly TestResult[]): boolean {
  return (
    attr(root, 'name') === 'jest tests' ||
    (tests.length > 0 && tests.every((t) => t.classname !== undefined && t.classname === t.name))
  );
}

/** What the walk collects: the test cases, the elements that hold them, the run errors. */
interface Walk {
  tests: TestResult[];
  /**
   * Each `<testsuite>` element that holds test cases: its suite path (JSON) and its cases,
   * `tests[start]` to `tests[end - 1]` (a range, not an index per test: no memory per test).
   */
  elements: { path: string; start: number; end: number }[];
  runErrors: RunError[];
}

/**
 * Two `<testsuite>` elements with one suite path hold distinct tests (jest-junit names each test
 * file's testsuite after its first describe and writes no file): their tests get the element, so
 * that no fold or key check takes them for one test (docs/design.md "Results and merging").
 */
function markContainers(walk: Walk): void {
  const count = new Map<string, number>();
  for (const { path } of walk.elements) count.set(path, (count.get(path) ?? 0) + 1);
  if (count.size === walk.elements.length) return;
  walk.elements.forEach(({ path, start, end }, element) => {
    if (count.get(path)! > 1) for (let i = start; i < end; i++) walk.tests[i]!.container = element;
  });
}

/**
 * Test cases that are no tests but a runner's failure outside them (docs/design.md "Run errors"),
 * each as its writer marks it (samples/*\/reports/run-errors):
 * - jest-junit with reportTestSuiteErrors: a file that failed to run is a testsuite of its own,
 *   with test cases whose classname is "Test suite failed to run" and whose name is the file;
 * - jest-junit: an afterAll hook that threw is a test case named " Test execution failure: could
 *   be caused by test hooks like 'afterAll'.", its failure Jest's error as JSON;
 * - pytest: a module that failed at collection is a test case with no classname, named after the
 *   module, whose error's message is "collection failure";
 * - gotestsum: a package that failed outside its tests (a panic in init or TestMain) is a test
 *   case with no classname named TestMain (never a test of go's: TestMain is not run as one);
 * - vitest: a test file that failed to load is a test case named as the file, alone in the
 *   file's testsuite (a failed hook of a file that ran: see withoutSuiteCases).
 */
function withoutRunErrorCases(walk: Walk): TestResult[] {
  const { tests, runErrors } = walk;
  const alone = new Set(walk.elements.filter((e) => e.end - e.start === 1).map((e) => e.start));
  // Indexes of the cases that are run errors: most files have none, and keep their array.
  const dropped = new Set<number>();
  tests.forEach((t, i) => {
    const error = runErrorOfCase(t, alone.has(i));
    if (!error) return;
    dropped.add(i);
    if (!runErrors.some((e) => e.file === error.file && e.suite === error.suite))
      runErrors.push(error);
  });
  return dropped.size ? tests.filter((_, i) => !dropped.has(i)) : tests;
}

const JEST_HOOK_FAILURE = /^\s*Test execution failure: could be caused by test hooks/;

function runErrorOfCase(t: TestResult, alone: boolean): RunError | undefined {
  if (t.outcome === 'passed' || t.outcome === 'skipped') return undefined;
  const suite = t.suite.at(-1);
  if (t.classname === 'Test suite failed to run')
    return { file: t.name, suite, message: runErrorMessage(t.details, t.classname) };
  if (JEST_HOOK_FAILURE.test(t.name))
    return { suite, message: `a hook failed: ${jestErrorOf(t.details)}` };
  // vitest: a test file that failed to load is a test case named as the file, alone in its testsuite.
  if (alone && t.name === t.classname && t.name === suite && SOURCE_FILE.test(t.name))
    return {
      file: t.name,
      suite,
      message: runErrorMessage(t.message ?? t.details, 'failed to load'),
    };
  if (t.classname !== undefined) return undefined;
  if (t.outcome === 'error' && t.message === 'collection failure') {
    const file = /test module '([^']+)'/.exec(t.details ?? '')?.[1];
    const reason = (t.details ?? '')
      .split('\n')
      .filter((l) => l.startsWith('E   '))
      .at(-1)
      ?.slice(4)
      .trim();
    return {
      file: file ?? `${t.name.replaceAll('.', '/')}.py`,
      suite: t.name,
      message: `collection failure${reason ? `: ${reason}` : ''}`,
    };
  }
  if (t.name === 'TestMain') {
    const panic = t.details?.split('\n').find((l) => l.startsWith('panic: '));
    return {
      suite,
      message: panic ?? runErrorMessage(t.details, 'the package failed outside its tests'),
    };
  }
  return undefined;
}

/** The first line of the error jest-junit writes as JSON (`{"message": "", "stack": "Error: ..."}`). */
function jestErrorOf(details: string | undefined): string {
  try {
    const error = JSON.parse(details ?? '') as { message?: unknown; stack?: unknown };
    const text = typeof error.message === 'string' && error.message ? error.message : error.stack;
    if (typeof text === 'string') return runErrorMessage(text, 'no message');
  } catch {
    // Not JSON: the text as it is.
  }
  return runErrorMessage(details, 'no message');
}

/**
 * gotestsum writes no test case for a package that did not build, but counts its build errors in
 * the root's `errors` (samples/go/reports/run-errors/gotestsum-junit.xml): recognised by the
 * go.version property it writes on each testsuite, when the root counts more errors than its
 * test cases and run errors hold.
 */
function buildErrors(root: XmlNode, tests: TestResult[], runErrors: RunError[]): void {
  const counted = Number(attr(root, 'errors') ?? 0);
  if (!(counted > 0) || !list(root.testsuite).some(isGotestsumSuite)) return;
  const shown = tests.filter((t) => t.outcome === 'error').length;
  if (counted <= shown) return;
  runErrors.push({
    message: `${counted - shown} build error(s): gotestsum counts them, but writes no test case for a package that did not build (go test's output names it)`,
  });
}

function isGotestsumSuite(suite: XmlNode): boolean {
  return list(suite.properties).some((group) =>
    list(group.property).some((p) => attr(p, 'name') === 'go.version'),
  );
}

/** The statuses behave writes on its test cases (behave/model_core.py, Status). */
const BEHAVE_STATUSES = new Set(['passed', 'failed', 'skipped', 'untested', 'undefined']);

/**
 * behave's JUnit reporter (behave/reporter/junit.py, 1.2.6) writes one file per feature file: a
 * lone testsuite whose name is every test case's classname, each test case with behave's status,
 * no file. Recognised from that. The classname is `<name>.<feature's name>`, where `<name>` is the
 * feature file's path below the folder behave was given, without its extension, `/` as `.`; the
 * boundary between the two is written only in the report's own name, `TESTS-<name>.xml`. The
 * feature's name where the report's name tells it; undefined if the file is not behave's.
 */
function behaveFeature(root: XmlNode, file: string): { feature?: string } | undefined {
  const classname = attr(root, 'name');
  const cases = list(root.testcase);
  const fits = (tc: XmlNode) =>
    attr(tc, 'classname') === classname &&
    BEHAVE_STATUSES.has(attr(tc, 'status') ?? '') &&
    attr(tc, 'file') === undefined;
  if (!classname || root.testsuite !== undefined || cases.length === 0 || !cases.every(fits))
    return undefined;
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const name = /^TESTS-(.+)\.xml$/.exec(base)?.[1];
  if (!name || classname.length <= name.length + 1 || !classname.startsWith(`${name}.`)) return {};
  return { feature: classname.slice(name.length + 1) };
}

/**
 * behave's JUnit in the identity its JSON gives (src/parsers/formats/cucumber.ts): the feature's
 * name as classname and suite, the scenario's as name; the feature file is missing, which is
 * said once. A report renamed keeps its classname, and says so. An undefined step's failure has
 * no message (behave writes its exception, None): the failing step's line says which step it is.
 */
function behaveJunit(behave: { feature?: string }, tests: TestResult[]): ParsedTests {
  const suite = behave.feature === undefined ? undefined : [behave.feature];
  for (const t of tests) {
    if (suite) {
      t.suite = suite;
      t.classname = behave.feature;
    }
    if (t.message === 'None')
      t.message = t.details?.split('\n').find((l) => l.startsWith('Failing step: ')) ?? t.message;
  }
  return withGap(tests, {
    reporter: 'behave junit',
    placeholder: '{file}',
    reason: suite
      ? "writes no feature file (only its name, without folder and extension, in the report's name and classname)"
      : "writes no feature file, and the report's name (behave's TESTS-<file>.xml tells the feature's name from the file's in classname) was changed",
  });
}

/** A JUnit file's root element: `<testsuites>` (many) or a lone `<testsuite>`. */
interface JunitRoot {
  node: XmlNode;
  many: boolean;
}

/** A JUnit classname that is a JavaScript or TypeScript source file (vitest, Playwright). */
const SOURCE_FILE = /\.[cm]?[jt]sx?$/;
/** cucumber-js's junit name of an outline's example row: `outline - #1.2: row name`. */
const CUCUMBER_ROW = /^.* - #\d+\.\d+: /s;

/**
 * The runner's identity from what each producer puts in classname and name (docs/architecture.md "Test
 * identity"), recognised once per file from its root and its test cases; each check over every
 * test stops at the first that does not fit, so a Surefire or pytest file of 100,000 test cases
 * costs a few comparisons:
 * - jest-junit writes jest's full name as both classname and name, and no file: `{file}` stays
 *   empty (its addFileAttribute option writes it);
 * - vitest and Playwright write the test file (relative to their root and testDir) as classname
 *   and the describe path and title as name;
 * - cucumber-js writes the feature's name as classname and no file; an outline's example rows are
 *   named `outline - #1.2: row name`, where Cucumber's other formats write `row name`.
 * Any other producer's classname and name are the identity as they are.
 */
function withDialect(root: JunitRoot, tests: TestResult[], runErrors: RunError[]): ParsedTests {
  const first = tests[0];
  if (!first) return tests;
  const rootName = attr(root.node, 'name');
  const mocha = mochaDialect(root, tests);
  if (mocha) return mocha;
  if (isRspecRoot(root) && tests.every(isRspecJunit)) {
    for (const t of tests) t.fullName = t.name;
    return tests;
  }
  if (first.classname !== undefined && first.classname === first.name) {
    if (!tests.every((t) => t.classname === t.name)) return tests;
    for (const t of tests) t.fullName = t.name;
    if (tests.some((t) => t.file)) return tests;
    return withGap(tests, {
      reporter: 'jest-junit',
      placeholder: '{file}',
      reason: 'writes no test file (its option addFileAttribute: "true" does)',
    });
  }
  if (first.classname !== undefined && SOURCE_FILE.test(first.classname)) {
    for (const t of tests) {
      if (t.classname === undefined || !SOURCE_FILE.test(t.classname)) continue;
      t.file ??= t.classname;
      t.fullName = t.name;
    }
    return withoutSuiteCases(tests, runErrors);
  }
  if (rootName === 'Cucumber' || rootName === 'cucumber-js') {
    for (const t of tests) {
      const row = CUCUMBER_ROW.exec(t.name);
      if (row) t.name = t.name.slice(row[0].length);
    }
    if (tests.some((t) => t.file)) return tests;
    return withGap(tests, {
      reporter: 'cucumber-js junit',
      placeholder: '{file}',
      reason: 'writes no feature file',
    });
  }
  return tests;
}

/** The root suite's name both of mocha's JUnit writers give by default. */
const MOCHA_ROOT = 'Mocha Tests';

/** A test's name or classname ("" for none). */
const field = (t: TestResult, which: 'name' | 'classname') =>
  which === 'name' ? t.name : (t.classname ?? '');

/**
 * mocha's identity is a test's full title (the describe path and title joined by spaces), which
 * its json and CTRF reporters write. Its JUnit writers split it (docs/architecture.md "Test identity"):
 * - mocha-junit-reporter writes the full title as name and the bare title as classname (swapped
 *   by its testCaseSwitchClassnameAndName option), and the file on each describe's testsuite, so
 *   tests outside any describe (in its "Root Suite") have none; in jenkinsMode, see jenkinsTitles;
 * - mocha's xunit reporter (one root testsuite, "Mocha Tests" unless its suiteName option names
 *   it) writes the describe path as classname, the title as name and the file on each test case.
 * Recognised from the names (a full title ends with its title), the testsuite names (jenkinsMode)
 * or the root; absent all, classname and name are read as any JUnit's.
 */
function mochaDialect(root: JunitRoot, tests: TestResult[]): ParsedTests | undefined {
  const rootName = attr(root.node, 'name');
  const endsWith = (full: string, title: string) => full === title || full.endsWith(` ${title}`);
  /** Which of classname and name holds the full title, the other the title. */
  const orders = [
    ['name', 'classname'],
    ['classname', 'name'],
  ] as const;
  for (const [full, title] of isMochaJunitRoot(root) ? orders : []) {
    const split = tests.every(
      (t) => t.classname !== undefined && endsWith(field(t, full), field(t, title)),
    );
    if (!split) continue;
    if (rootName !== MOCHA_ROOT && tests.every((t) => t.classname === t.name)) return undefined;
    for (const t of tests) t.fullName = field(t, full);
    return withMochaGap(tests);
  }
  const jenkins = root.many ? jenkinsTitles(list(root.node.testsuite), tests) : undefined;
  if (jenkins) {
    tests.forEach((t, i) => (t.fullName = jenkins[i]));
    return withMochaGap(tests);
  }
  if (rootName !== MOCHA_ROOT && !isMochaXunitRoot(root)) return undefined;
  for (const t of tests) t.fullName = t.classname ? `${t.classname} ${t.name}` : t.name;
  return tests;
}

/**
 * mocha-junit-reporter's root: always `<testsuites>`, named "Mocha Tests" unless its
 * testsuitesTitle option names it, with the file on each describe's testsuite. Names alone (a full
 * title that ends with the title) would also match a Cucumber-JVM feature whose scenarios end with
 * its name.
 */
function isMochaJunitRoot(root: JunitRoot): boolean {
  if (!root.many) return false;
  return (
    attr(root.node, 'name') === MOCHA_ROOT ||
    list(root.node.testsuite).some((suite) => attr(suite, 'file') !== undefined)
  );
}

/** mocha-junit-reporter's tests outside any describe have no file: said once, naming how many. */
function withMochaGap(tests: TestResult[]): ParsedTests {
  if (tests.every((t) => t.file)) return tests;
  return withGap(
    tests,
    {
      reporter: 'mocha-junit-reporter',
      placeholder: '{file}',
      reason: 'writes no test file for tests outside any describe',
    },
    (t) => !t.file,
  );
}

/** `Date.prototype.toUTCString()`, the timestamp mocha's xunit reporter writes on its root. */
const UTC_STRING = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} -?\d{4,6} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * mocha's xunit reporter under any suiteName: one root testsuite whose timestamp is JavaScript's
 * `toUTCString()` (other writers use ISO 8601) and whose failures is always "0" (it counts
 * failures as errors), over test cases that each carry their file
 * (node_modules/mocha/lib/reporters/xunit.js).
 */
function isMochaXunitRoot(root: JunitRoot): boolean {
  return (
    !root.many &&
    attr(root.node, 'failures') === '0' &&
    UTC_STRING.test(attr(root.node, 'timestamp') ?? '')
  );
}

/**
 * mocha-junit-reporter's jenkinsMode (node_modules/mocha-junit-reporter/index.js): the describe
 * path joined by its suiteTitleSeparatedBy (".") as classname, the title as name (swapped unless
 * testCaseSwitchClassnameAndName is false), and each describe's testsuite named by its full suite
 * title: rootSuiteTitle ("Root Suite"), the separator, the describe path (the root's own testsuite
 * is named ""). Recognised from that: a first testsuite named "", and every test outside it in a
 * testsuite named one head (rootSuiteTitle and separator) followed by its describe path. Where a
 * describe's title holds the separator, the describe path's boundaries are where the testsuite of
 * an enclosing describe ends; the separator is the end of the head that most of those boundaries
 * are followed by. The full titles, in the tests' order; undefined where the file is not one.
 */
function jenkinsTitles(suites: XmlNode[], tests: TestResult[]): string[] | undefined {
  if (suites.length === 0 || attr(suites[0], 'name')) return undefined;
  for (const [path, title] of [
    ['classname', 'name'],
    ['name', 'classname'],
  ] as const) {
    let head: string | undefined;
    const fits = tests.every((t) => {
      if (!field(t, title)) return false;
      if (t.suite.length === 0) return true;
      const [suite] = t.suite;
      const describes = field(t, path);
      if (t.suite.length !== 1 || !describes || !suite!.endsWith(describes)) return false;
      const h = suite!.slice(0, suite!.length - describes.length);
      return h !== '' && (head ??= h) === h;
    });
    if (!fits || head === undefined) continue;
    const names = new Set(suites.map((s) => attr(s, 'name') ?? ''));
    const under = [...names].filter((n) => n !== '');
    if (!under.every((n) => n.startsWith(head!) && n.length > head!.length)) return undefined;
    // Per testsuite: where the testsuite of an enclosing describe (or a sibling sharing its start) ends.
    const cuts = new Map<string, number[]>();
    for (const n of under) {
      const at: number[] = [];
      for (let p = head.length + 1; p < n.length; p++) if (names.has(n.slice(0, p))) at.push(p);
      cuts.set(n, at);
    }
    let separator = head.slice(-1);
    let most = -1;
    for (let length = 1; length < head.length; length++) {
      const candidate = head.slice(-length);
      let count = 0;
      for (const [n, at] of cuts) for (const p of at) if (n.startsWith(candidate, p)) count++;
      if (count >= most) [separator, most] = [candidate, count];
    }
    const describePath = (suite: string) => {
      const parts: string[] = [];
      let start = head!.length;
      for (const p of cuts.get(suite) ?? []) {
        if (p < start || !suite.startsWith(separator, p)) continue;
        parts.push(suite.slice(start, p));
        start = p + separator.length;
      }
      parts.push(suite.slice(start));
      return parts.join(' ');
    };
    return tests.map((t) =>
      t.suite.length === 0 ? field(t, title) : `${describePath(t.suite[0]!)} ${field(t, title)}`,
    );
  }
  return undefined;
}

/**
 * rspec_junit_formatter's root: one testsuite named `rspec`, with the TEST_ENV_NUMBER of a
 * parallel run after it. pytest's xunit1 files also write the file's path with dots as classname,
 * so the classname alone does not tell.
 */
function isRspecRoot(root: JunitRoot): boolean {
  return !root.many && /^rspec\d*$/.test(attr(root.node, 'name') ?? '');
}

/**
 * rspec_junit_formatter: the example group's file as classname (its path without the extension,
 * `/` as `.`: `spec.models.user_spec` for `./spec/models/user_spec.rb`) and RSpec's full description as
 * name, the identity rspec's json formatter gives too (src/parsers/formats/rspec.ts).
 */
function isRspecJunit(t: TestResult): boolean {
  if (!t.file || !t.classname) return false;
  // String operations, not regular expressions: linear on any attribute.
  const base = t.file.lastIndexOf('/') + 1;
  const dot = t.file.indexOf('.', base);
  const dotted = (dot < 0 ? t.file : t.file.slice(0, dot)).split('/').join('.');
  let start = 0;
  let end = dotted.length;
  while (dotted[start] === '.') start++;
  while (end > start && dotted[end - 1] === '.') end--;
  return end - start === t.classname.length && dotted.startsWith(t.classname, start);
}

/** vitest's junit joins a test's describe path and title with this. */
const VITEST_PATH = ' > ';

/**
 * vitest's junit reporter writes a suite whose beforeAll or afterAll hook failed as a test case of
 * its own, after the file's tests, named by the suite's title alone (the file's name for a hook
 * outside any describe) and holding the hook's error (packages/vitest/src/node/reporters/junit.ts,
 * "inject failed suites"). vitest's json and CTRF reporters write no such test, only the tests
 * under it: skipped under a failed beforeAll, as they ran under a failed afterAll.
 * - A failed beforeAll: the case is dropped, and the tests it stopped (skipped, no message of their
 *   own) become errors carrying its message: they did not run because of an error, which the gate
 *   must see (vitest's json reporter calls them skipped and loses the error).
 * - A failed afterAll (every test under it ran): the case is a run error of its file and suite
 *   (docs/design.md "Run errors"), never a test, so the gate still fails on it by default.
 * A case is taken for such a suite only in the trailing block of its file (vitest injects them
 * after the file's tests): failed, without a describe path, named as a describe of earlier cases
 * of its file. The index of describes is built only for files with such a candidate.
 */
function withoutSuiteCases(tests: TestResult[], runErrors: RunError[]): TestResult[] {
  if (!tests.some((t) => t.outcome === 'failed' && !t.name.includes(VITEST_PATH))) return tests;
  // Per file (classname): the index of each case, by each describe title on its path.
  const byFile = new Map<string, Map<string, number[]>>();
  const describes = (classname: string) => {
    let index = byFile.get(classname);
    if (index) return index;
    byFile.set(classname, (index = new Map()));
    tests.forEach((t, i) => {
      if (t.classname !== classname) return;
      const path = t.name.split(VITEST_PATH).slice(0, -1);
      // A hook outside any describe: the suite is the file, named as the classname.
      path.push(classname);
      for (const title of new Set(path)) {
        const at = index.get(title);
        if (at) at.push(i);
        else index.set(title, [i]);
      }
    });
    return index;
  };
  /** The earlier cases of its file under the describe it names: [] for no suite case. */
  const suiteOf = (t: TestResult, i: number): number[] =>
    t.outcome !== 'failed' || t.classname === undefined || t.name.includes(VITEST_PATH)
      ? []
      : (describes(t.classname).get(t.name) ?? []).filter((j) => j < i);
  const dropped = new Set<number>();
  // From the end of each file back: its trailing block of suite cases, then no more.
  const closed = new Set<string | undefined>();
  for (let i = tests.length - 1; i >= 0; i--) {
    const t = tests[i]!;
    if (closed.has(t.classname)) continue;
    const under = suiteOf(t, i);
    if (under.length === 0) {
      closed.add(t.classname);
      continue;
    }
    const stopped = under.filter((j) => tests[j]!.outcome === 'skipped' && !tests[j]!.message);
    dropped.add(i);
    if (stopped.length === 0) {
      runErrors.push({
        file: t.classname,
        suite: t.name,
        message: `a hook failed after the suite's tests ran: ${runErrorMessage(t.message ?? t.details, 'no message')}`,
      });
      continue;
    }
    for (const j of stopped) {
      const test = tests[j]!;
      test.outcome = 'error';
      test.message = t.message;
      test.details = t.details;
    }
  }
  return dropped.size ? tests.filter((_, i) => !dropped.has(i)) : tests;
}

function walkSuite(suite: XmlNode, path: string[], walk: Walk): void {
  const name = attr(suite, 'name');
  const here = name ? [...path, name] : path;
  const suiteFile = attr(suite, 'file') ?? attr(suite, 'filepath');
  const out = walk.tests;
  const start = out.length;
  let previous: TestResult | undefined;
  for (const testcase of list(suite.testcase)) {
    const result = toResult(testcase, here, suiteFile);
    if (!result.name) continue;
    // The cases of a suite mostly share a classname and file: keep one string of each, not one
    // per test (the parsed tree's copies are then garbage with the tree).
    if (previous) {
      if (result.classname === previous.classname) result.classname = previous.classname;
      if (result.file === previous.file) result.file = previous.file;
    }
    out.push((previous = result));
  }
  if (previous) walk.elements.push({ path: JSON.stringify(here), start, end: out.length });
  else if (suite.testsuite === undefined) emptySuiteError(suite, name, suiteFile, walk.runErrors);
  // The parsed tree is ours alone: let the garbage collector take each suite's cases as soon as
  // they are read, so the model reuses their memory instead of growing the heap (peak RSS: BENCHMARKS.md).
  delete suite.testcase;
  if (suite.testsuite !== undefined)
    for (const child of list(suite.testsuite)) walkSuite(child, here, walk);
}

/**
 * A testsuite that counts errors or failures and holds no test case failed outside its tests
 * (a class or file that did not load): a run error, with what it says of it.
 */
function emptySuiteError(
  suite: XmlNode,
  name: string | undefined,
  file: string | undefined,
  runErrors: RunError[],
): void {
  const errors = Number(attr(suite, 'errors') ?? 0) + Number(attr(suite, 'failures') ?? 0);
  if (!(errors > 0)) return;
  // Console output (system-err) is not in the parsed tree (src/parsers/base/xml.ts): an error element is.
  const element = [suite.error, suite.failure].find((e) => e !== undefined);
  const node = list(element)[0];
  const said = node && (attr(node, 'message') ?? text(node));
  runErrors.push({
    ...(file ? { file } : {}),
    ...(name ? { suite: name } : {}),
    message: runErrorMessage(said, `the suite counts ${errors} error(s) and holds no test case`),
  });
}

function properties(node: XmlNode): Record<string, string> {
  if (node.properties === undefined) return NO_PROPERTIES;
  const out: Record<string, string> = {};
  for (const group of list(node.properties)) {
    for (const p of list(group.property)) {
      const name = attr(p, 'name');
      if (name) addNamed(out, name, attr(p, 'value') ?? text(p) ?? '');
    }
  }
  return out;
}

function isTodo(skipped: unknown): boolean {
  return list(skipped).some((node) => attr(node, 'type') === 'todo');
}

/** Surefire: earlier runs of a test, before the final one. */
const RERUN_ELEMENTS = [
  ['flakyFailure', 'failed'],
  ['flakyError', 'error'],
  ['rerunFailure', 'failed'],
  ['rerunError', 'error'],
] as const;

// Built for 100,000-test files: no work or allocation for elements a testcase does not have.
function toResult(tc: XmlNode, suite: string[], suiteFile?: string): TestResult {
  // One pass over the keys the testcase has, instead of a lookup for each attribute and element
  // it may have: most testcases have three attributes and no children, and each lookup of an
  // absent key on the parser's objects is a slow one (a third of the model's time on 100,000).
  let classAttr: string | undefined;
  let nameAttr: string | undefined;
  let statusAttr: string | undefined;
  let resultAttr: string | undefined;
  let timeAttr: string | undefined;
  let lineAttr: string | undefined;
  let fileAttr: string | undefined;
  let filepathAttr: string | undefined;
  let children = false;
  for (const key in tc) {
    if (key.charCodeAt(0) !== 0x40 /* @ */) {
      children = true;
      continue;
    }
    const value = tc[key];
    if (typeof value !== 'string') continue;
    if (key === '@classname') classAttr = value;
    else if (key === '@name') nameAttr = value;
    else if (key === '@time') timeAttr = value;
    else if (key === '@status') statusAttr = value;
    else if (key === '@result') resultAttr = value;
    else if (key === '@line') lineAttr = value;
    else if (key === '@file') fileAttr = value;
    else if (key === '@filepath') filepathAttr = value;
  }
  const classname = classAttr || undefined;
  const name = nameAttr || classname || '';
  let outcome: Outcome = 'passed';
  let message: string | undefined;
  let details: string | undefined;
  // Most severe first: error > failure > skipped (several result elements on one run).
  for (const [element, result] of children ? RESULT_ELEMENTS : []) {
    const value = tc[element];
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    const node = typeof first === 'object' && first !== null ? (first as XmlNode) : undefined;
    outcome = result;
    details = node ? text(node) : typeof first === 'string' && first ? first : undefined;
    // jest-junit and mocha's xunit write no message attribute: the body's first line is it.
    message = attr(node, 'message') || firstLine(details) || attr(node, 'type');
    break;
  }
  // node:test writes a todo whose body fails with both <skipped type="todo"> and <failure>; node
  // counts it as todo, not as a failure.
  if (outcome !== 'skipped' && children && tc.skipped !== undefined && isTodo(tc.skipped))
    outcome = 'skipped';
  // googletest: status="notrun"; tst: status="disabled"/"errored"; some writers: result="skipped".
  const status = statusAttr ?? resultAttr;
  if (status !== undefined) {
    const s = status.toLowerCase();
    if (s === 'disabled' || (outcome === 'passed' && (s === 'notrun' || s === 'skipped')))
      outcome = 'skipped';
    else if (outcome === 'passed' && s === 'errored') outcome = 'error';
  }
  const durationMs = seconds(timeAttr);
  // Surefire reruns: earlier runs of this test, before the final one (absent for a single run).
  let attempts: Attempt[] | undefined;
  for (const [element, result] of children ? RERUN_ELEMENTS : []) {
    if (tc[element] === undefined) continue;
    for (const run of list(tc[element]))
      (attempts ??= []).push({
        outcome: result,
        durationMs: seconds(attr(run, 'time')),
        message: attr(run, 'message'),
      });
  }
  attempts?.push({ outcome, durationMs, message });
  const line = lineAttr === undefined ? NaN : Number(lineAttr);
  return {
    suite,
    classname,
    name,
    file: fileAttr ?? filepathAttr ?? suiteFile,
    line: Number.isInteger(line) && line > 0 ? line : undefined,
    durationMs,
    outcome,
    message,
    details,
    attempts,
    properties: children ? properties(tc) : NO_PROPERTIES,
  };
}
