/**
 * The defaults the settings table (src/settings/table.ts) shows, and the layers apply when a caller of
 * the library gives none, written once here: the table may import the leaf without reaching up
 * into the layers that use them (docs/architecture.md "Who may import whom"). The rate limit's
 * default is beside its format in src/shared/rate.ts.
 */

/** Timeout of one request (docs/design.md `--timeout-ms`). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Requests in flight at once. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * First backoff after a 5xx or lost answer, doubling per attempt (the 429 backoff is twice it:
 * src/client/retry-policy.ts).
 */
export const DEFAULT_RETRY_BASE_MS = 1000;

/** All the waiting for retries one run may do. */
export const DEFAULT_MAX_WAIT_MS = 10 * 60_000;

/** A test case key in a test's name or properties: `PROJ-T123`. */
export const DEFAULT_KEY_PATTERN = '\\b[A-Z][A-Z0-9_]*-T[0-9]+\\b';

/**
 * A requirement key in a test's name or a bare tag (docs/design.md "Traceability: what is read"):
 * `REQ-12`, `REQ12` or a Space's own `DEMO-REQ12`, not inside a longer word; `REQ-12_adds` (a go
 * subtest's name) still names REQ-12.
 */
export const DEFAULT_REQUIREMENT_PATTERN =
  '(?<![A-Za-z0-9])(?:[A-Z][A-Z0-9]*-)?REQ-?[0-9]+(?![0-9])';

/**
 * The names that mark a requirement: a property (Xray's JUnit import reads `requirements` as a
 * comma list), a tag `@requirement:KEY`, an annotation or label type, an Allure link type.
 */
export const DEFAULT_REQUIREMENT_NAMES = 'requirement,requirements';

/**
 * The names that mark a work item: Playwright's and Allure's `issue`, a tag `@issue:KEY`, MSTest's
 * `[WorkItem]` (TRX `Workitems`, kept as the property `workitem`).
 */
export const DEFAULT_WORK_ITEM_NAMES = 'issue,issues,workitem';

/**
 * The test's file relative to the workspace, then the test as its runner names it: the same for
 * every reporter of one runner (docs/architecture.md "Test identity"). Up to 0.1.0 it was
 * PREVIOUS_AUTOMATION_KEY of src/domain/match.ts.
 */
export const DEFAULT_AUTOMATION_KEY = '{file} › {test}';

/**
 * The most sync --retire-missing archives in one run unless retire-max says otherwise: this share
 * (per cent) of the automated cases in the pipeline's scope, at least 1. Evidence decides what is
 * gone (docs/design.md "Sync: what retire-missing archives"); the bound is a last guard against
 * evidence that is wrong as a whole, so it lets a renamed describe through and stops a run that
 * would archive most of the suite.
 */
export const DEFAULT_RETIRE_MAX_PERCENT = 50;

/** The custom field of test cases that holds a quarantine. */
export const DEFAULT_QUARANTINE_FIELD = 'quarantine';

/**
 * The series a pull request's new failures are compared with unless told (`baseline-series`): the
 * nightly, as the README's nightly recipe names it. Never a PR's cycle.
 */
export const DEFAULT_BASELINE_SERIES = 'Nightly {date}';

/**
 * Days a quarantine without `until` counts, from when it was set (`quarantine-expiry-days`): a
 * month, so a forgotten quarantine comes back to the gate instead of hiding a test for good.
 */
export const DEFAULT_QUARANTINE_EXPIRY_DAYS = 30;

/** Larger report files are refused unless told otherwise (a 100,000-test JUnit file is ~17 MB). */
export const DEFAULT_MAX_REPORT_BYTES = 100 * 1024 * 1024;

/** How many of a series' newest cycles a dashboard shows unless told (the `last` setting). */
export const DEFAULT_LAST = 20;

/**
 * The file extensions of the formats testcycle reads, in words for the `reports` setting's help
 * (the settings table cannot import the parsers). Each format declares its own among them
 * (`extensions` in src/parsers/base/format.ts); __tests__/parsers/formats.test.ts checks that the
 * formats use every one.
 */
export const REPORT_EXTENSIONS = ['xml', 'json', 'jsonl', 'ndjson', 'trx', 'tap'] as const;

/**
 * One of REPORT_EXTENSIONS: what a format declares it is written with (src/parsers/base/format.ts).
 */
export type ReportExtension = (typeof REPORT_EXTENSIONS)[number];

/**
 * The report formats by id, in the order detection tries them (the first match wins): the
 * `--format` choices. src/parsers/registry.ts gives each its parser.
 */
export const REPORT_FORMAT_IDS = [
  'junit',
  'nunit',
  'nunit2',
  'xunit',
  'trx',
  'testng',
  'open-test-reporting',
  'robot',
  'cucumber-messages',
  'ctrf',
  'jest-json',
  'playwright',
  'mocha',
  'rspec',
  'cucumber',
  'allure',
  'dart',
  'gotest',
  'googletest',
  'tap',
] as const;
export type ReportFormatId = (typeof REPORT_FORMAT_IDS)[number];

/**
 * How a test runner's step ended (`runner-outcome`), as GitHub gives a step's outcome
 * (`${{ steps.test.outcome }}`), and `timed_out` as it gives a workflow run's conclusion
 * (workflow_run): docs/design.md "Run errors".
 */
export const RUNNER_OUTCOMES = ['success', 'failure', 'cancelled', 'skipped', 'timed_out'] as const;
export type RunnerOutcome = (typeof RUNNER_OUTCOMES)[number];
