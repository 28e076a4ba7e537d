/**
 * Every setting of the public contract, declared once (docs/design.md: CLI flags and action inputs
 * share kebab-case names). The CLI's flags, usage and --help, the action's input reading, the
 * README reference and the check on action.yml all read this table; nothing else lists settings.
 * It imports only the leaf (src/shared): the defaults it shows are in src/shared/defaults.ts, where
 * the layers read them too.
 */
import {
  DEFAULT_AUTOMATION_KEY,
  DEFAULT_BASELINE_SERIES,
  DEFAULT_CONCURRENCY,
  DEFAULT_KEY_PATTERN,
  DEFAULT_LAST,
  DEFAULT_MAX_REPORT_BYTES,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_QUARANTINE_EXPIRY_DAYS,
  DEFAULT_QUARANTINE_FIELD,
  DEFAULT_REQUIREMENT_NAMES,
  DEFAULT_REQUIREMENT_PATTERN,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WORK_ITEM_NAMES,
  REPORT_EXTENSIONS,
  REPORT_FORMAT_IDS,
  RUNNER_OUTCOMES,
} from '../shared/defaults.js';
import { DEFAULT_RATE_LIMIT, formatRateLimit, RATE_WINDOW_MODES } from '../shared/rate.js';
import type { Words } from '../shared/errors.js';
import { listSetting, settingReaders, type SettingSource } from '../shared/setting-readers.js';
import { SYNC_SETTINGS } from './sync.js';
import { TRACE_SETTINGS } from './trace.js';

/** The action's `mode` values. */
export const MODES = [
  'publish',
  'gate',
  'create-cycle',
  'close-cycle',
  'report',
  'sync',
  'quarantine',
] as const;
export type Mode = (typeof MODES)[number];

/** The action's `comment` values. Off by default: a new comment on every PR is something a
 * workflow grants (pull-requests: write) and asks for, not a surprise of an upgrade. */
export const COMMENT_MODES = ['off', 'always', 'on-failure'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

/** The CLI's commands that read settings. */
export type CommandName =
  | 'publish'
  | 'gate'
  | 'cycle create'
  | 'cycle close'
  | 'parse'
  | 'check'
  | 'emulator'
  | 'report'
  | 'sync'
  | 'coverage'
  | QuarantineCommand;

/** `testcycle quarantine add|remove|list` (src/cli/quarantine.ts). */
export const QUARANTINE_COMMANDS = [
  'quarantine add',
  'quarantine remove',
  'quarantine list',
] as const;
export type QuarantineCommand = (typeof QUARANTINE_COMMANDS)[number];

export type SettingType =
  /** Free text (a template, a pattern, a path). */
  | 'string'
  | 'boolean'
  | 'integer'
  | 'number'
  /** One of `choices`. */
  | 'choice'
  /** Several values: a repeatable flag, or an input with one value per line (or comma-separated). */
  | 'list'
  /** A JSON object. */
  | 'json'
  /** A FiltrQL condition, checked before any request. */
  | 'filter'
  /** COUNT/WINDOW, e.g. 100/1m. */
  | 'rate'
  /** Masked in every log, error and output. */
  | 'secret';

export interface Setting {
  type: SettingType;
  description: string;
  /** As a user writes it (action.yml default; the CLI applies the same). */
  default?: string;
  choices?: readonly string[];
  min?: number;
  max?: number;
  /** Required in every mode and command that uses it (action.yml `required: true`). */
  required?: boolean;
  /** Settings of one group name one thing: exactly one of those a command takes is required. */
  oneOf?: string;
  /** The CLI also reads this environment variable when the flag is not given. */
  env?: string;
  /** The action modes that read it; absent: not an action input. */
  modes?: readonly Mode[];
  /** The CLI commands that take it; absent: not a flag. */
  commands?: readonly CommandName[];
  /** The flag's name where it is not the key: everywhere, or per command (`cycle create --name`). */
  flag?: string | Partial<Record<CommandName, string>>;
  /** The placeholder in the CLI's usage and --help (`--max-failed N`). */
  placeholder?: string;
  /** The action's default where it differs (an expression only a workflow can evaluate). */
  actionDefault?: string;
  /**
   * The CLI's --help text where the description (the action input's) is not true for a command:
   * `cli` for every command, a command's own text before it.
   */
  help?: Partial<Record<CommandName | 'cli', string>>;
  /** The --help text of a boolean that is on by default, shown as its negation (`--no-history`). */
  negated?: string;
  /**
   * A number on a percentage scale: percent (0-100, `--min-pass-rate 95`) or percentage points.
   * A value that reads as a fraction (0.95) is refused unless written with % (docs/design.md gate).
   */
  unit?: 'percent' | 'points';
  /** A gate threshold: `gate` without one of these could never fail. */
  threshold?: true;
  /**
   * A common flag: one of the settings of every command that talks to the service, which the
   * CLI's --help lists once, apart from each command's own flags (src/cli/flags.ts).
   */
  common?: true;
  /**
   * What the setting needs to have any effect: each need must hold, or a run that gives the
   * setting is warned, before its first request, that it is ignored (`idleSettings`).
   */
  needs?: readonly Need[];
}

/**
 * One condition a setting needs (docs/design.md "Settings that do nothing"): one of `anyOf` is on
 * (a boolean true, a list with a value, any other setting given a value other than its default),
 * or, with `threshold`, any gate threshold.
 */
export interface Need {
  anyOf: readonly string[];
  threshold?: true;
  /** Only where the setting is read in these commands (CLI) and modes (action); absent: everywhere. */
  in?: { commands?: readonly CommandName[]; modes?: readonly Mode[] };
}

const SERVICE: readonly CommandName[] = [
  'publish',
  'gate',
  'cycle create',
  'cycle close',
  'check',
  'report',
  'sync',
  'coverage',
  ...QUARANTINE_COMMANDS,
];
const GATE_MODES: readonly Mode[] = ['publish', 'gate'];
const GATE_COMMANDS: readonly CommandName[] = ['publish', 'gate'];
const CYCLE_TARGET: readonly CommandName[] = ['publish', 'gate', 'cycle close', 'coverage'];
/** A need that holds where publish reads the setting (other commands read it for themselves). */
const IN_PUBLISH = { commands: ['publish'], modes: ['publish'] } as const;
/** The extensions the discovery code reads (src/parsers/discover.ts), in words: `.xml, ... and .trx`. */
const EXTENSIONS = REPORT_EXTENSIONS.map((e) => `.${e}`);
const REPORT_FILES = `Report files: globs or directories, comma-separated or one per line (the flag may also be repeated; a comma inside a glob's {a,b} is the glob's); a pattern starting with ! excludes; a directory stands for the ${EXTENSIONS.slice(0, -1).join(', ')} and ${EXTENSIONS.at(-1)} files below it. A glob that matches nothing fails.`;
const CYCLE_NAME_PLACEHOLDERS =
  'Placeholders: {date} {datetime} {sha} {sha7} {branch} {pr} {run_id} {run_number} {env:VAR}.';

/**
 * Where the traceability reading settings apply: parse shows what they read; publish and sync
 * read with them only under trace, so given without it they do nothing (and say so).
 */
const READ_FOR_TRACE = {
  modes: ['publish', 'sync'],
  commands: ['parse', 'publish', 'sync'],
  needs: [{ anyOf: ['trace'], in: { commands: ['publish', 'sync'], modes: ['publish', 'sync'] } }],
} as const;

export const SETTINGS = {
  mode: {
    type: 'choice',
    choices: MODES,
    default: 'publish',
    modes: MODES,
    description:
      'What to do: publish (reports into a cycle, then gate), gate (thresholds on a cycle), create-cycle, close-cycle, report (a series of cycles as a page and a summary), sync (test cases kept in step with the reports), quarantine (list, add or remove a quarantine: quarantine-action).',
  },
  'base-url': {
    type: 'string',
    required: true,
    env: 'TESTCYCLE_BASE_URL',
    placeholder: 'URL',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description:
      'The address of your region, with or without /api/v1 (https; plain http only for loopback hosts).',
  },
  token: {
    type: 'secret',
    required: true,
    env: 'TESTCYCLE_TOKEN',
    placeholder: 'TOKEN',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description:
      'API token of the Space, from a secret (secrets.TESTCYCLE_TOKEN; on a command line prefer the variable TESTCYCLE_TOKEN). Writes need a read-write token. It is masked in every log.',
    help: {
      cli: 'API token of the Space; prefer the variable TESTCYCLE_TOKEN to the flag (a flag shows in the process list). Writes need a read-write token (testcycle check shows its role). It is masked in every log.',
    },
  },
  reports: {
    type: 'list',
    required: true,
    flag: 'report',
    placeholder: 'GLOB',
    modes: ['publish', 'sync'],
    commands: ['publish', 'parse', 'sync'],
    description: `${REPORT_FILES} Required to publish and to sync.`,
    help: { parse: REPORT_FILES },
  },
  format: {
    type: 'choice',
    choices: ['auto', ...REPORT_FORMAT_IDS],
    default: 'auto',
    placeholder: 'F',
    modes: ['publish', 'sync'],
    commands: ['publish', 'parse', 'sync'],
    description: `Report format: auto (detect from content), ${REPORT_FORMAT_IDS.join(', ')}.`,
  },
  'max-report-bytes': {
    type: 'integer',
    min: 1,
    default: String(DEFAULT_MAX_REPORT_BYTES),
    placeholder: 'N',
    modes: ['publish', 'sync'],
    commands: ['publish', 'parse', 'sync'],
    description: 'Refuse report files larger than this (bytes).',
  },
  'cycle-key': {
    type: 'string',
    oneOf: 'cycle',
    placeholder: 'KEY',
    modes: ['publish', 'gate', 'close-cycle'],
    commands: CYCLE_TARGET,
    description:
      'Key of an existing cycle to publish into, gate or close (e.g. DEMO-R12). Use this or cycle-name.',
    help: {
      publish:
        'Key of an existing cycle to publish into (e.g. DEMO-R12). Use this or --cycle-name.',
      gate: 'Key of the cycle to gate (e.g. DEMO-R12). Use this or --cycle-name.',
      'cycle close': 'Key of the cycle to set to DONE (e.g. DEMO-R12). Use this or --cycle-name.',
      coverage:
        'Key of the cycle whose results cover the requirements (e.g. DEMO-R12). Use this or --cycle-name.',
    },
  },
  'cycle-name': {
    type: 'string',
    oneOf: 'cycle',
    placeholder: 'NAME',
    modes: MODES,
    commands: [...CYCLE_TARGET, 'cycle create'],
    flag: { 'cycle create': 'name' },
    description: `Name of the cycle; found, or created ACTIVE (publish, create-cycle); found (gate, close-cycle). ${CYCLE_NAME_PLACEHOLDERS}`,
    help: {
      publish: `Name of the cycle; found, or created ACTIVE (see --no-create-cycle). ${CYCLE_NAME_PLACEHOLDERS}`,
      'cycle create': `Name of the cycle; found, or created. ${CYCLE_NAME_PLACEHOLDERS}`,
      gate: `Name of the cycle to gate; it must exist. ${CYCLE_NAME_PLACEHOLDERS}`,
      'cycle close': `Name of the cycle to set to DONE; it must exist. ${CYCLE_NAME_PLACEHOLDERS}`,
      coverage: `Name of the cycle whose results cover the requirements; it must exist. ${CYCLE_NAME_PLACEHOLDERS}`,
    },
  },
  'create-cycle': {
    type: 'boolean',
    default: 'true',
    modes: ['publish'],
    commands: ['publish'],
    description: 'Create the cycle when no cycle has this name (false = fail instead).',
    negated: 'Fail when no cycle has this name, instead of creating it.',
    needs: [{ anyOf: ['cycle-name'] }],
  },
  'reopen-done-cycle': {
    type: 'boolean',
    default: 'false',
    modes: ['publish'],
    commands: ['publish'],
    description: 'Publish into a cycle that is DONE (it is made ACTIVE again).',
  },
  'close-cycle': {
    type: 'boolean',
    default: 'false',
    modes: ['publish'],
    commands: ['publish'],
    description: 'Set the cycle to DONE after publishing.',
  },
  'cycle-custom-fields': {
    type: 'json',
    placeholder: 'JSON',
    modes: ['publish', 'create-cycle'],
    commands: ['publish', 'cycle create'],
    flag: { 'cycle create': 'custom-fields' },
    description: 'Custom fields for a cycle this run creates, as JSON, e.g. {"build": "1.2.3"}.',
    needs: [
      { anyOf: ['cycle-name'], in: IN_PUBLISH },
      { anyOf: ['create-cycle'], in: IN_PUBLISH },
    ],
  },
  'cycle-status': {
    type: 'choice',
    choices: ['ACTIVE', 'DRAFT'],
    default: 'ACTIVE',
    modes: ['create-cycle'],
    commands: ['cycle create'],
    flag: { 'cycle create': 'status' },
    description: 'Status of a cycle that create-cycle creates: ACTIVE or DRAFT.',
  },
  populate: {
    type: 'filter',
    placeholder: 'FILTRQL',
    modes: ['create-cycle'],
    commands: ['cycle create'],
    description:
      'Creating a cycle: a FiltrQL filter of test cases that get a NOT_EXECUTED execution, e.g. automationStatus = "AUTOMATED".',
  },
  'key-pattern': {
    type: 'string',
    default: DEFAULT_KEY_PATTERN,
    placeholder: 'RE',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "Regular expression of an explicit test case key in a test's name or properties; it wins over the automation key.",
  },
  'automation-key': {
    type: 'string',
    default: DEFAULT_AUTOMATION_KEY,
    placeholder: 'T',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "How a test's automationKey is built: {file} (relative to the workspace) {test} (the test as its runner names it: jest's full name, Playwright's title path, else classname.name) {classname} {name} {suite} {params}. Until 0.1.0 the default was {classname}.{name}.",
  },
  workspace: {
    type: 'string',
    placeholder: 'DIR',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      "The checkout root that {file} and any path in a key are relative to; default: the CI's checkout variable (GITHUB_WORKSPACE, CI_PROJECT_DIR, WORKSPACE, BUILD_SOURCESDIRECTORY, CIRCLE_WORKING_DIRECTORY, BITBUCKET_CLONE_DIR), else the git top level, else the working directory.",
  },
  'requirement-pattern': {
    type: 'string',
    default: DEFAULT_REQUIREMENT_PATTERN,
    placeholder: 'RE',
    ...READ_FOR_TRACE,
    description:
      "Traceability: regular expression of a requirement key in a test's name (runners without metadata: jest, vitest, mocha, go) and in a bare tag (@REQ-12); its first group, if it has one, is the key. Values marked by requirement-names are taken whole. Default: REQ-12, REQ12 or PROJ-REQ12, not inside a longer word.",
  },
  'requirement-names': {
    type: 'string',
    default: DEFAULT_REQUIREMENT_NAMES,
    placeholder: 'NAMES',
    ...READ_FOR_TRACE,
    description:
      'Traceability: the names that mark a requirement, comma-separated, compared without case, - or _: a property (JUnit, pytest record_property, NUnit, xUnit.net trait, TRX, TestNG attribute, CTRF extra) whose value is one key or a comma list, a tag @NAME:KEY, a Playwright annotation type, an Allure label or link type.',
  },
  'work-item-pattern': {
    type: 'string',
    placeholder: 'RE',
    ...READ_FOR_TRACE,
    description:
      "Traceability: regular expression of a work item key (your tracker's, e.g. PROJ-[0-9]+) in a test's name and in a bare tag; its first group, if it has one, is the key. Default: none, so that names such as UTF-8 or ISO-8601 are never read as work items; values marked by work-item-names are read without it.",
  },
  'work-item-names': {
    type: 'string',
    default: DEFAULT_WORK_ITEM_NAMES,
    placeholder: 'NAMES',
    ...READ_FOR_TRACE,
    description:
      'Traceability: the names that mark a work item (a tracker key or a URL), as requirement-names does for requirements: a property, a tag @NAME:KEY, a Playwright annotation type (issue), an Allure label or link type (issue), MSTest [WorkItem] (workitem).',
  },
  'on-key-collision': {
    type: 'choice',
    choices: ['warn', 'fail', 'merge'],
    default: 'warn',
    modes: ['publish'],
    commands: ['publish'],
    description:
      'Distinct tests (another file, suite, class or name) whose keys coincide: warn and leave them out, fail (before any request), or merge them into one execution (worst result).',
  },
  'create-missing-cases': {
    type: 'boolean',
    default: 'false',
    modes: ['publish'],
    commands: ['publish'],
    description: 'Create test cases (AUTOMATED, with automationKey) for tests that match none.',
  },
  'on-unmatched': {
    type: 'choice',
    choices: ['warn', 'fail', 'ignore'],
    default: 'warn',
    modes: ['publish'],
    commands: ['publish'],
    description:
      'Tests that match no test case: warn, fail (before any execution is written) or ignore.',
  },
  merge: {
    type: 'choice',
    choices: ['latest', 'worst'],
    default: 'latest',
    modes: ['publish'],
    commands: ['publish'],
    description:
      'A result already in the cycle: latest (a re-run supersedes) or worst (for matrix legs publishing overlapping tests).',
  },
  flaky: {
    type: 'choice',
    choices: ['passed', 'failed'],
    default: 'passed',
    modes: ['publish'],
    commands: ['publish'],
    description: 'A test that failed and then passed on a retry: passed or failed.',
  },
  'error-as': {
    type: 'choice',
    choices: ['FAILED', 'BLOCKED'],
    default: 'FAILED',
    modes: ['publish'],
    commands: ['publish'],
    description: 'Result for tests that errored: FAILED or BLOCKED.',
  },
  'on-run-error': {
    type: 'choice',
    choices: ['fail', 'warn'],
    default: 'fail',
    modes: ['publish'],
    commands: ['publish'],
    description:
      'A run error in the reports (a test file that failed to load, a collection error, a build failure, an undefined step; never a test): fail (the gate fails, with or without thresholds, after the results are written) or warn (named, not counted).',
  },
  'runner-outcome': {
    type: 'choice',
    choices: RUNNER_OUTCOMES,
    placeholder: 'OUTCOME',
    modes: ['publish'],
    commands: ['publish'],
    description:
      "How the test runner's step ended: steps.<id>.outcome in a workflow (not conclusion, which continue-on-error makes success). A runner that failed or was cancelled while its reports show no failed test and no run error fails the gate, with or without thresholds; success changes nothing. Give this or runner-exit-code.",
  },
  'runner-exit-code': {
    type: 'integer',
    // What shells ($?) and Windows agents (an NTSTATUS such as 3221225477) report.
    min: -2147483648,
    max: 4294967295,
    env: 'TESTCYCLE_RUNNER_EXIT_CODE',
    placeholder: 'N',
    modes: ['publish'],
    commands: ['publish'],
    description:
      "The test runner's exit status ($? right after it): not 0 while its reports show no failed test and no run error fails the gate, with or without thresholds; 0 changes nothing. Give this or runner-outcome.",
  },
  'dry-run': {
    type: 'boolean',
    default: 'false',
    modes: ['publish', 'sync'],
    commands: ['publish', 'sync'],
    description:
      'Read only: show the plan (what would be created, updated, left unchanged) and the requests it would cost; no gate is evaluated.',
  },
  'min-pass-rate': {
    type: 'number',
    min: 0,
    max: 100,
    placeholder: 'PCT',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    unit: 'percent',
    threshold: true,
    description:
      "Gate: fail when the cycle's pass rate is below this percentage (95 or 95%; a fraction such as 0.95 is refused).",
  },
  'max-pass-rate-drop': {
    type: 'number',
    min: 0,
    max: 100,
    placeholder: 'POINTS',
    unit: 'points',
    threshold: true,
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "Gate: fail when the cycle's pass rate fell by more than POINTS against the previous cycle of the same series (the cycles whose names cycle-name's template renders, of this run's branch or PR where the template names {branch} or {pr}; each placeholder matching what it stands for: {date} a date, {sha7} a commit, {pr} a number).",
  },
  'max-failed': {
    type: 'integer',
    min: 0,
    placeholder: 'N',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    threshold: true,
    description: 'Gate: fail when the cycle has more FAILED executions than this.',
  },
  'max-blocked': {
    type: 'integer',
    min: 0,
    placeholder: 'N',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    threshold: true,
    description: 'Gate: fail when the cycle has more BLOCKED executions than this.',
  },
  'fail-on-not-executed': {
    type: 'boolean',
    default: 'false',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    threshold: true,
    description: 'Gate: fail when any execution in the cycle is NOT_EXECUTED or IN_PROGRESS.',
  },
  'pass-rate-basis': {
    type: 'choice',
    choices: ['executed', 'all'],
    default: 'executed',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      'Gate: executed: PASSED / (PASSED + FAILED + BLOCKED); all: PASSED / all executions.',
  },
  'gate-filter': {
    type: 'filter',
    placeholder: 'FILTRQL',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      'Gate: an extra FiltrQL condition on the executions, e.g. testCase.priority = "CRITICAL".',
  },
  // Triage (docs/design.md "Triage"): quarantine, new failures against a baseline, owners told.
  'quarantine-field': {
    type: 'string',
    default: DEFAULT_QUARANTINE_FIELD,
    placeholder: 'NAME',
    modes: [...GATE_MODES, 'quarantine', 'report'],
    commands: [...GATE_COMMANDS, ...QUARANTINE_COMMANDS, 'report'],
    description:
      'The string custom field of test cases that holds a quarantine ({"since","until","reason","by"} as JSON). The gate leaves quarantined tests out of every threshold; their results are still written. The report marks them.',
    needs: [
      {
        anyOf: ['notify', 'notify-users', 'gate-filter', 'auto-quarantine', 'release-after'],
        threshold: true,
        in: IN_PUBLISH,
      },
    ],
  },
  'quarantine-expiry-days': {
    type: 'integer',
    min: 0,
    default: String(DEFAULT_QUARANTINE_EXPIRY_DAYS),
    placeholder: 'DAYS',
    modes: [...GATE_MODES, 'quarantine'],
    commands: [...GATE_COMMANDS, ...QUARANTINE_COMMANDS],
    description:
      "A quarantine without until ends this many days after it was set (its since, else the test case's last update); 0: only until ends one. The summary shows each quarantine's age and end.",
  },
  'quarantine-action': {
    type: 'choice',
    choices: ['list', 'add', 'remove'],
    default: 'list',
    modes: ['quarantine'],
    description:
      'Mode quarantine: list the quarantined test cases, add a quarantine to case-key, or remove it.',
  },
  'case-key': {
    type: 'string',
    flag: 'case',
    placeholder: 'KEY',
    // Required by quarantine add and remove, the commands that take it (not an input every mode needs).
    required: true,
    modes: ['quarantine'],
    commands: ['quarantine add', 'quarantine remove'],
    description: 'Quarantine: the key of the test case (e.g. DEMO-T12).',
  },
  reason: {
    type: 'string',
    placeholder: 'TEXT',
    required: true,
    modes: ['quarantine'],
    commands: ['quarantine add'],
    description: 'Quarantine add: why the test is quarantined (required).',
  },
  until: {
    type: 'string',
    placeholder: 'DATE',
    modes: ['quarantine'],
    commands: ['quarantine add'],
    description:
      'Quarantine add: the last day it counts (YYYY-MM-DD, or an ISO date-time); after it the gate counts the test again.',
  },
  'max-new-failures': {
    type: 'integer',
    min: 0,
    threshold: true,
    placeholder: 'N',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      'Gate: fail when more than N tests are FAILED or BLOCKED now that PASSED, or had no result, in the baseline cycle (quarantined tests not counted). The summary lists new failures, still failing and fixed.',
  },
  baseline: {
    type: 'choice',
    choices: ['auto', 'previous', 'series'],
    default: 'auto',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "max-new-failures: auto compares a pull request's run with the latest complete cycle of baseline-series (the base branch's nightly) and any other run with the previous cycle of its own series (cycle-name's template, of the same branch or PR where the template names it); previous and series pick one of the two for every run. baseline-cycle wins over all.",
    needs: [{ anyOf: ['max-new-failures', 'notify', 'notify-users'] }],
  },
  'baseline-series': {
    type: 'string',
    default: DEFAULT_BASELINE_SERIES,
    placeholder: 'PATTERN',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "max-new-failures: the base branch's series, whose latest complete cycle (DONE, or followed by a later cycle of the series) a pull request is compared with; {branch} stands for the PR's target branch, * for any text, each other placeholder for what it stands for ({date} a date). A cycle named by this run's cycle-name with its {pr} is never the baseline.",
    needs: [{ anyOf: ['max-new-failures', 'notify', 'notify-users'] }],
  },
  'baseline-cycle': {
    type: 'string',
    placeholder: 'NAME|KEY',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      'max-new-failures: the cycle to compare with, by key or name, or by a pattern such as "Nightly main {date}" the latest complete cycle of that series (DONE, or followed by a later one); it wins over baseline.',
    needs: [{ anyOf: ['max-new-failures', 'notify', 'notify-users'] }],
  },
  'auto-quarantine': {
    type: 'string',
    placeholder: 'FLIPS/CYCLES',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "Before the gate: a test failing now whose result flipped between pass and fail at least FLIPS times in the last CYCLES cycles of the series (cycle-name) that ran on this cycle's branch or PR ({branch} or {pr} in cycle-name), else its commit ({sha}), is quarantined, with the rule as its reason, e.g. 2/10.",
  },
  'release-after': {
    type: 'integer',
    min: 1,
    max: 100,
    placeholder: 'K',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "Before the gate: a quarantine that auto-quarantine set is removed once the test PASSED in each of the last K cycles of the series (a person's quarantine stays).",
  },
  notify: {
    type: 'choice',
    choices: ['none', 'owners'],
    default: 'none',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      "After the writes: owners tells each new failure's test case owner with an in-app notification of the service (type EXECUTION_COMPLETED; not to those who turned that type off; each test once per person and cycle, across matrix legs and re-runs). Best effort: who cannot be told is a warning, never another exit code. Needs a baseline, as max-new-failures.",
  },
  'notify-users': {
    type: 'list',
    placeholder: 'EMAIL',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description:
      'These users (emails in any case, comma-separated or one per line) are told of every new failure, as notify owners tells owners.',
  },
  'rate-limit': {
    type: 'rate',
    default: formatRateLimit(DEFAULT_RATE_LIMIT),
    env: 'TESTCYCLE_RATE_LIMIT',
    placeholder: 'C/W',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description:
      'At most COUNT requests per WINDOW for this token (e.g. 100/1m, 30/30s), shared by the steps of one job; lower it when several jobs share the token.',
    help: {
      cli: 'At most COUNT requests per WINDOW for this token (e.g. 100/1m, 30/30s), shared by the testcycle commands of this machine; lower it when several jobs share the token.',
    },
  },
  legs: {
    type: 'integer',
    min: 1,
    max: 1000,
    env: 'TESTCYCLE_LEGS',
    placeholder: 'N',
    modes: MODES,
    commands: SERVICE,
    common: true,
    // The legs of a GitHub matrix that run at once: the runner evaluates an input's default with
    // the strategy context (the schema of action.yml in GitHub's runner, actions/runner, names the
    // contexts of "input-default-context"); outside a matrix both numbers are 1, a job alone.
    actionDefault:
      '${{ strategy.max-parallel < strategy.job-total && strategy.max-parallel || strategy.job-total }}',
    description:
      "Jobs publishing at once with this token from machines that share nothing: each starts at 1/N of rate-limit instead of all of it, then takes back what the others leave; 1 is a job alone. Default: in the action, the legs of this job's matrix that run at once (strategy.job-total, or strategy.max-parallel when smaller); elsewhere, the CI's count of parallel copies of this job (CI_NODE_TOTAL of GitLab's parallel, CIRCLE_NODE_TOTAL, BUILDKITE_PARALLEL_JOB_COUNT); without one, a job finds its share at its first 429. Where only some legs publish, give the number that do.",
  },
  'retry-base-ms': {
    type: 'integer',
    min: 1,
    default: String(DEFAULT_RETRY_BASE_MS),
    env: 'TESTCYCLE_RETRY_BASE_MS',
    placeholder: 'MS',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description:
      'First wait before retrying after a 5xx or a lost answer, in milliseconds, doubling with each retry (after a 429 without Retry-After: twice this).',
  },
  'max-wait-ms': {
    type: 'integer',
    min: 0,
    default: String(DEFAULT_MAX_WAIT_MS),
    placeholder: 'MS',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description:
      'The most a run waits in all for retries (backoffs after 5xx and lost answers, pauses after 429), in milliseconds; then it stops with the last error. The steady pace of rate-limit is not counted.',
  },
  concurrency: {
    type: 'integer',
    min: 1,
    default: String(DEFAULT_CONCURRENCY),
    placeholder: 'N',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description: 'Requests in flight at once.',
  },
  'timeout-ms': {
    type: 'integer',
    min: 100,
    default: String(DEFAULT_TIMEOUT_MS),
    placeholder: 'MS',
    modes: MODES,
    commands: SERVICE,
    common: true,
    description: 'Timeout of one request, in milliseconds.',
  },
  'link-template': {
    type: 'string',
    placeholder: 'URL',
    modes: GATE_MODES,
    commands: GATE_COMMANDS,
    description: 'A URL for links in the summary, e.g. https://app.example/cycles/{key}.',
    needs: [{ anyOf: ['summary-file'], in: { commands: ['publish', 'gate'] } }],
  },
  'github-token': {
    type: 'secret',
    actionDefault: '${{ github.token }}',
    modes: GATE_MODES,
    description: 'Token for the check run (checks write). Only needed with check-name.',
  },
  'check-name': {
    type: 'string',
    modes: GATE_MODES,
    description:
      'Create a check run with this name on the PR head (or the pushed commit). Without permission (fork PRs) a notice is shown instead.',
  },
  'max-annotations': {
    type: 'integer',
    default: '50',
    min: 0,
    max: 1000,
    modes: GATE_MODES,
    description:
      'Check run: at most this many failed tests annotated (GitHub takes 50 per request, so each 50 more cost one request; the job summary lists every failure). 0: none.',
    needs: [{ anyOf: ['check-name'] }],
  },
  comment: {
    type: 'choice',
    choices: COMMENT_MODES,
    default: 'off',
    modes: GATE_MODES,
    description:
      'A pull-request comment with the summary, updated in place on every run (one per cycle-name template, or cycle-key): off, always, or on-failure (created when the gate fails, then kept current). Needs pull-requests: write; without it (fork PRs) a notice is shown instead.',
  },
  'series-name': {
    type: 'string',
    placeholder: 'PATTERN',
    modes: ['report'],
    commands: ['report'],
    description:
      'Report: the cycles whose names match this pattern, * standing for any text and a placeholder for what it stands for ({date} a date, {sha7} seven hexadecimal digits, {pr} a number, ...), e.g. "Nightly {date}". Without series-name or series-filter: every cycle.',
  },
  'series-filter': {
    type: 'filter',
    placeholder: 'FILTRQL',
    modes: ['report'],
    commands: ['report'],
    description: 'Report: the cycles this FiltrQL condition matches, e.g. name ~ "Nightly".',
  },
  last: {
    type: 'integer',
    default: String(DEFAULT_LAST),
    min: 1,
    max: 500,
    placeholder: 'N',
    modes: ['report'],
    commands: ['report'],
    description: 'Report: the newest N cycles of the series, shown oldest first.',
  },
  history: {
    type: 'boolean',
    default: 'true',
    modes: ['report'],
    commands: ['report'],
    description:
      "Report: read each cycle's executions for per-test history (newly failing and fixed, flaky tests); without it a report costs one request per cycle and one for the list.",
    negated:
      "Report: skip each cycle's executions (no per-test history: newly failing, fixed, flaky); the report then costs one request per cycle and one for the list.",
  },
  'max-requests': {
    type: 'integer',
    min: 2,
    placeholder: 'N',
    modes: ['report'],
    commands: ['report'],
    description:
      "Report: send at most N requests; the oldest cycles' histories are left out first, and the report says what was.",
  },
  'html-file': {
    type: 'string',
    default: 'testcycle-report.html',
    placeholder: 'FILE',
    modes: ['report'],
    commands: ['report'],
    description: 'Report: write the self-contained HTML page (inline SVG, no script) to this file.',
  },
  'markdown-file': {
    type: 'string',
    placeholder: 'FILE',
    commands: ['report'],
    description: 'Report: also write the Markdown (as in the job summary) to this file.',
  },
  'job-summary': {
    type: 'boolean',
    default: 'true',
    modes: [...GATE_MODES, 'report', 'sync'],
    description: 'Write the job summary.',
  },
  annotations: {
    type: 'boolean',
    default: 'true',
    modes: GATE_MODES,
    description: 'Annotate failed tests (at most 10 per step).',
  },
  verbose: {
    type: 'boolean',
    default: 'false',
    modes: MODES,
    commands: [...SERVICE, 'parse'],
    common: true,
    description:
      'Log every request: method, path, status, time, retries (never headers; the token is always masked).',
    help: {
      parse:
        'List each test that did not pass and each file skipped as no report (with --json: every test).',
    },
  },
  json: {
    type: 'boolean',
    commands: [
      'publish',
      'gate',
      'cycle create',
      'cycle close',
      'parse',
      'check',
      'report',
      'sync',
      'coverage',
      ...QUARANTINE_COMMANDS,
    ],
    description: 'Print one JSON object on stdout.',
  },
  'summary-file': {
    type: 'string',
    placeholder: 'FILE',
    commands: GATE_COMMANDS,
    description: 'Write the Markdown summary (as in the job summary) to this file.',
  },
  host: {
    type: 'string',
    default: '127.0.0.1',
    placeholder: 'HOST',
    commands: ['emulator'],
    description: 'The emulator: the address to listen on.',
  },
  port: {
    type: 'integer',
    min: 0,
    max: 65535,
    default: '0',
    placeholder: 'PORT',
    commands: ['emulator'],
    description: 'The emulator: the port to listen on (0: any free port).',
  },
  seed: {
    type: 'string',
    placeholder: 'FILE',
    commands: ['emulator'],
    description: 'The emulator: a JSON seed file (tokens, test cases, cycles).',
  },
  'emulator-rate-limit': {
    type: 'rate',
    default: formatRateLimit(DEFAULT_RATE_LIMIT),
    flag: 'rate-limit',
    placeholder: 'C/W',
    commands: ['emulator'],
    description:
      "The emulator: the service's rate limit per token, COUNT/WINDOW; lift it to try things quickly, e.g. 6000/1m (with --detach the client paces to it too).",
  },
  detach: {
    type: 'boolean',
    default: 'false',
    commands: ['emulator'],
    description:
      'The emulator: start it in the background and print the shell lines that point testcycle at it (TESTCYCLE_BASE_URL, TESTCYCLE_TOKEN, TESTCYCLE_RATE_LIMIT, TESTCYCLE_EMULATOR_PID), for eval "$(testcycle emulator --detach)"; it stops on kill "$TESTCYCLE_EMULATOR_PID", or by itself after an hour without a request.',
  },
  'rate-window': {
    type: 'choice',
    choices: RATE_WINDOW_MODES,
    default: 'sliding',
    commands: ['emulator'],
    description:
      'The emulator: how rate-limit counts, over the last WINDOW before each request (sliding) or in windows aligned to the clock (fixed).',
  },
  chaos: {
    type: 'string',
    placeholder: 'SPEC',
    commands: ['emulator'],
    description:
      'The emulator: injected faults, e.g. 429=0.1,5xx=0.05,reset=0.02,latency=5-50,etag-bump=0.1,seed=42.',
  },
  ...SYNC_SETTINGS,
  ...TRACE_SETTINGS,
} as const satisfies Record<string, Setting>;

export function settingOf(key: string): Setting | undefined {
  return Object.hasOwn(SETTINGS, key) ? (SETTINGS as Record<string, Setting>)[key] : undefined;
}

/**
 * The generic readers bound to this table (src/shared/setting-readers.ts): every adapter and
 * layer that reads a setting by key uses these.
 */
export const {
  text,
  outputFile,
  required,
  flag,
  choice,
  numeric,
  numericWithDefault,
  jsonSetting,
  rateSetting,
  raw: settingValue,
  spec: declarationOf,
} = settingReaders(settingOf);

/** The keys of the rows marked `threshold`: each has its check in src/publish/thresholds.ts. */
export type ThresholdKey = {
  [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends { threshold: true } ? K : never;
}[keyof typeof SETTINGS];

/** The gate's thresholds (rows marked `threshold`): `gate` without one of these could never fail. */
export const THRESHOLD_KEYS = Object.entries(SETTINGS as Record<string, Setting>)
  .filter(([, s]) => s.threshold)
  .map(([key]) => key) as readonly ThresholdKey[];

/** Where settings are read: a command of the CLI, or a mode of the action. */
export type Place = { command: CommandName } | { mode: Mode };

/**
 * The settings a run gives that do nothing where it gives them (docs/design.md "Settings that do
 * nothing"), each as a warning to log before the first request: in the action, an input its mode
 * does not read; anywhere, a setting whose `needs` do not hold. `given` holds what the user gave
 * (flags, inputs: a variable set for every step is no mistake of this one), `all` every value the
 * run reads, its variables too.
 */
export function idleSettings(given: SettingSource, all: SettingSource, place: Place): Words[] {
  const where = (p: Need['in']) =>
    !p ||
    ('command' in place
      ? (p.commands ?? []).includes(place.command)
      : (p.modes ?? []).includes(place.mode));
  const rows = 'command' in place ? settingsOfCommand(place.command) : actionInputs();
  const warnings: Words[] = [];
  for (const [key, s] of rows) {
    const value = givenValue(given, key, s);
    if (value === undefined) continue;
    if ('mode' in place && !s.modes!.includes(place.mode)) {
      const modes = `mode${s.modes!.length > 1 ? 's' : ''} ${s.modes!.join(', ')}`;
      warnings.push(
        (w) =>
          `${w.value(key, value)} has no effect in mode ${place.mode} (it is read in ${modes}); it is ignored.`,
      );
      continue;
    }
    const unmet = (s.needs ?? []).find(
      (need) =>
        where(need.in) &&
        !need.anyOf.some((k) => isOn(all, k)) &&
        !(need.threshold && THRESHOLD_KEYS.some((k) => isOn(all, k))),
    );
    if (unmet)
      warnings.push(
        (w) => `${w.value(key, value)} has no effect ${lacking(unmet, w)}; it is ignored.`,
      );
  }
  return warnings;
}

/** The value a setting was given, when it differs from the table's default (else undefined). */
function givenValue(src: SettingSource, key: string, s: Setting): string | boolean | undefined {
  // The action passes such a default as a value: it cannot tell given from not.
  if (s.actionDefault !== undefined) return undefined;
  if (s.type === 'boolean') {
    const b = src.bool(key);
    return b === undefined || b === (s.default === 'true') ? undefined : b;
  }
  if (s.type === 'list') {
    const list = listSetting(src, key);
    return list.length ? list.join(',') : undefined;
  }
  const v = src.string(key)?.trim();
  return v && v !== s.default ? v : undefined;
}

/** On: a boolean true (its default counts), a list with a value, else a value other than the default. */
function isOn(src: SettingSource, key: string): boolean {
  const s = settingOf(key)!;
  if (s.type === 'boolean') return flag(src, key);
  if (s.type === 'list') return listSetting(src, key).length > 0;
  const v = src.string(key)?.trim();
  return !!v && v !== s.default;
}

/** "without --sync", "without a gate threshold, --notify or --gate-filter", "with --no-create-cycle". */
function lacking(need: Need, w: Parameters<Words>[0]): string {
  const onByDefault = (k: string) =>
    settingOf(k)!.type === 'boolean' && settingOf(k)!.default === 'true';
  if (need.anyOf.every(onByDefault))
    return `with ${need.anyOf.map((k) => w.value(k, false)).join(' and ')}`;
  const names = [
    ...(need.threshold ? ['a gate threshold'] : []),
    ...need.anyOf.map((k) => w.name(k)),
  ];
  return `without ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}`;
}

/** The common flags (rows marked `common`), in table order. */
export const COMMON_KEYS: readonly string[] = Object.entries(SETTINGS as Record<string, Setting>)
  .filter(([, s]) => s.common)
  .map(([key]) => key);

/** The flag that stands for a setting in a command (`cycle-name` is `--name` in `cycle create`). */
export function flagNameOf(key: string, command?: CommandName): string {
  const flag = settingOf(key)?.flag;
  if (typeof flag === 'string') return flag;
  return (command && flag?.[command]) ?? key;
}

/** The --help text of a setting in a command: its negation's, the command's, the CLI's, else the description. */
export function helpOf(setting: Setting, command: CommandName): string {
  if (isNegatedFlag(setting)) return setting.negated ?? setting.description;
  return setting.help?.[command] ?? setting.help?.cli ?? setting.description;
}

/** A boolean that is on by default appears on the command line as its negation: `--no-create-cycle`. */
export function isNegatedFlag(setting: Setting): boolean {
  return setting.type === 'boolean' && setting.default === 'true';
}

/** The settings a command takes, in table order. */
export function settingsOfCommand(command: CommandName): [string, Setting][] {
  return Object.entries(SETTINGS as Record<string, Setting>).filter(([, s]) =>
    s.commands?.includes(command),
  );
}

/** The action's inputs, in table order (action.yml lists them in this order). */
export function actionInputs(): [string, Setting][] {
  return Object.entries(SETTINGS as Record<string, Setting>).filter(([, s]) => s.modes);
}

/** Levenshtein distance, for did-you-mean on a mistyped flag or input. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length]!;
}

/** The name among `names` a mistyped one most likely meant (`cycle-nmae` → `cycle-name`), if any is close. */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(typed.length / 3)) + 1;
  for (const name of names) {
    const d = distance(typed.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}
