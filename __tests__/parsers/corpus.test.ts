/**
 * The real-world corpus (__tests__/fixtures/reports, from shared/fixtures/reports; see its INDEX.md):
 * every entry of expected_counts.json through the parsers, totals compared. Deliberate deviations
 * are listed below with their reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReport } from '../../src/parsers/read.js';
import { countTests, ReportError } from '../../src/parsers/base/model.js';

const ROOT = join(process.cwd(), '__tests__/fixtures/reports');

interface Entry {
  source: string;
  input: string;
  format: string;
  expect_error: boolean;
  expected: {
    total: number;
    passed: number;
    failed: number;
    errors: number | null;
    skipped: number;
  } | null;
  note?: string;
}

const entries = (
  JSON.parse(readFileSync(join(ROOT, 'expected_counts.json'), 'utf8')) as { entries: Entry[] }
).entries;

/**
 * Where testcycle counts differently from the upstream tool on purpose. testcycle's rule (docs/design.md
 * "Results and merging", model.ts foldRepeats): entries with one identity (file, suite, classname,
 * name, params) are retries when they follow a failed run, and new invocations otherwise.
 */
const DEVIATIONS: Record<
  string,
  {
    expected: Partial<Record<'total' | 'passed' | 'failed' | 'errors' | 'skipped', number>>;
    reason: string;
  }
> = {
  'dorny/fixtures/external/jest/jest-test-results.xml': {
    expected: { total: 4238, passed: 4206 },
    reason:
      'one <testcase> (line 8219) has neither a name nor a classname: nothing a test case could be matched by, so it is left out',
  },
  'mikepenz/junit-web-test/expectedRetries.xml': {
    expected: { total: 7, failed: 1 },
    reason:
      "a failed run followed by a run of the same test is its retry; equals upstream's checkRetries=true result (7 tests, 1 skipped, 1 failed)",
  },
  'mikepenz/flaky_retries/flaky_success_first.xml': {
    expected: { total: 2, passed: 1, failed: 1 },
    reason:
      'a pass, then a failure, then an error of one test: the failure after the pass is a new invocation and the error its retry (2 tests, 1 passed, 1 error); upstream calls the whole a flaky pass, which would hide the failure',
  },
  'dorny/fixtures/test-errors/jest/jest-test-results.xml': {
    expected: { total: 0, failed: 0 },
    reason:
      'two test files that failed to run, as jest-junit writes them with reportTestSuiteErrors (a testsuite of tests="0" whose cases are classed "Test suite failed to run"): run errors of their files, no tests (docs/design.md "Run errors")',
  },
  'ctrf/github-test-reporter/ctrf-reports/ctrf-report.json': {
    expected: { skipped: 3 },
    reason:
      'CTRF "pending" and "other" are not run results; testcycle counts them as skipped (not executed) so every test lands in one bucket',
  },
};

type Counts = { total: number; passed: number; failed: number; errors: number; skipped: number };

async function counts(input: string): Promise<Counts> {
  const report = await readReport(join(ROOT, input));
  const c = countTests(report.tests);
  return {
    total: c.total,
    passed: c.passed,
    failed: c.failed,
    errors: c.errors,
    skipped: c.skipped,
  };
}

const positive = entries.filter((e) => e.expected !== null && !e.expect_error);
/** Negative entries testcycle reads anyway, with the reason. */
const LENIENT: Record<string, string> = {
  'enricomi/nunit/nunit3/jenkins/NUnit-issue47367.xml':
    'unescaped quotes inside attribute values: the XML parser is lenient here (a full well-formedness check would cost 60% more parse time on big files); the 8 test cases are read (4 of them invocations of one parameterized test, their names cut short by the quotes)',
};
const negative = entries.filter((e) => e.expect_error && !LENIENT[e.input]);

test('the test files that failed to run in a jest-junit report are its run errors', async () => {
  const report = await readReport(
    join(ROOT, 'dorny/fixtures/test-errors/jest/jest-test-results.xml'),
  );
  expect(report.runErrors?.map((e) => [e.file, e.message])).toEqual(
    ['libs/foo.spec.ts', 'libs/bar.spec.ts'].map((file) => [
      file,
      "Test suite failed to run: tsconfig.json:13:3 - error TS6258: 'typeRoots' should be set inside the 'compilerOptions' object of the config json file",
    ]),
  );
});

test('lenient reads are listed with their count', async () => {
  expect((await counts('enricomi/nunit/nunit3/jenkins/NUnit-issue47367.xml')).total).toBe(8);
});

describe('corpus: expected counts', () => {
  test.each(positive.map((e) => [e.input, e] as const))('%s', async (_input, entry) => {
    const got = await counts(entry.input);
    const deviation = DEVIATIONS[entry.input];
    const { total, passed, failed, errors, skipped } = entry.expected!;
    const want = { total, passed, failed, errors, skipped, ...deviation?.expected };
    if (want.errors === null) {
      // The upstream tool folds errors into failed (dorny, mikepenz, CTRF).
      expect({ ...got, failed: got.failed + got.errors, errors: null }).toEqual(want);
    } else {
      expect(got).toEqual(want);
    }
  });
});

/** What each file upstream rejects gives here: a ReportError naming the file, for this reason. */
const REFUSED: Record<string, RegExp> = {
  'enricomi/json/empty.json': /: is empty\.$/,
  'enricomi/json/malformed-json.json': /: is JSON in no known test report format/,
  'enricomi/json/non-json.json': /: is text in no known test report format/,
  'enricomi/json/not-existing.json': /: cannot read the file \(ENOENT\)\.$/,
  'enricomi/junit-xml/non-junit.xml': /: is XML with root <suites> in no known test report format/,
  'enricomi/junit-xml/pytest/corrupt-xml.xml': /:1:1: is not well-formed XML/,
  'enricomi/nunit/nunit3/jenkins/NUnit-issue17521.xml': /: is binary \(holds NUL bytes\)/,
  'enricomi/xml/empty.xml': /: is empty\.$/,
  'enricomi/xml/non-xml.xml': /: is text in no known test report format/,
  'enricomi/xml/not-existing.xml': /: cannot read the file \(ENOENT\)\.$/,
  'mikepenz/corrupt-junit/e2e-tests/corrupt/target/sf-reports/TEST-test.CorruptTest.xml':
    /:1:1: is not well-formed XML/,
};

describe('corpus: files upstream rejects', () => {
  test('every one is listed with the error it gives', () => {
    expect(negative.map((e) => e.input).sort()).toEqual(Object.keys(REFUSED).sort());
  });

  test.each(negative.map((e) => [e.input, e] as const))(
    '%s is refused with a clear error naming it',
    async (_input, entry) => {
      const error = await counts(entry.input).then(
        (got) => got,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ReportError);
      const message = (error as Error).message;
      expect(message.startsWith(join(ROOT, entry.input))).toBe(true);
      expect(message).toMatch(REFUSED[entry.input]!);
    },
  );
});
