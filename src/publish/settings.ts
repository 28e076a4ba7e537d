/**
 * The pipeline's own settings (client, reports, gate, cycle, publish, quarantine), read by their
 * keys in the settings table (src/settings.ts: types, defaults, bounds, choices) with the generic
 * readers bound to it (src/shared/setting-readers.ts). Each adapter supplies a SettingSource;
 * errors name the setting by key, and the adapter renders it (`--max-failed`, input `max-failed`).
 * Everything is checked here, before a report is read or a request sent.
 */
import { normalizeBaseUrl } from '../api/base-url.js';
import type { ClientOptions } from '../api/client.js';
import { ConfigError, UsageError } from '../shared/errors.js';
import type { RateLimit } from '../shared/rate.js';
import { oneLine, type Redactor } from '../shared/redact.js';
import { listSetting, type SettingSource } from '../shared/setting-readers.js';
import { f } from '../api/filter.js';
import type { RetryPolicy } from '../api/retry-policy.js';
import type { CycleStatus } from '../schema/resources.js';
import {
  choice,
  declarationOf as spec,
  flag,
  jsonSetting,
  numeric,
  numericWithDefault,
  rateSetting,
  required,
  settingValue as raw,
  THRESHOLD_KEYS,
} from '../settings.js';
import { type CaseFieldMapping, parseCaseFields } from './case-fields.js';
import type { KeyCollisionMode } from './collisions.js';
import type { CaseNames } from './inventory.js';
import type { CycleOptions } from './cycle.js';
import {
  ciContext,
  ciIdentity,
  type CiIdentity,
  isPullRequest,
  renderCycleName,
  workspaceOf,
} from './context.js';
import { checkPatternPlaceholders } from './series.js';
import type { GateOptions } from './gate.js';
import type { TriageGateOptions } from './triage.js';
import type { BaselineMode } from './baseline.js';
import { untilSetting } from './quarantine.js';
import { parseAutoQuarantine } from './auto-quarantine.js';
import { checkAutomationKeyTemplate, keyPattern, type MatchOptions } from './match.js';
import type { ErrorAs, FlakyMode, MergeMode } from './results.js';
import type { OnRunError, RunnerOutcome, RunnerStatus } from './verdict.js';

type Env = Record<string, string | undefined>;

/** A FiltrQL filter the user wrote, checked before any request (it is combined as parsed, see f.user). */
export function userFilterSetting(src: SettingSource, key: string): string | undefined {
  const v = raw(src, key);
  if (v !== undefined) f.user(v, key);
  return v;
}

/** The client of a run: address, token and pace, checked before anything is read or sent. */
export type ClientSettings = Required<
  Pick<ClientOptions, 'token' | 'concurrency' | 'timeoutMs'>
> & {
  baseUrl: URL;
  rateLimit: RateLimit;
  /** Jobs publishing at once on this token (the `legs` hint, src/api/share.ts). */
  legs?: number;
  verbose: boolean;
  retry: Pick<RetryPolicy, 'retryBaseMs' | 'rateLimitBaseMs' | 'maxWaitMs'>;
};

export function clientSettings(src: SettingSource): ClientSettings {
  const baseUrl = required(src, 'base-url', 'the address of your region.');
  const token = required(src, 'token', 'the API token, from your CI secret store.');
  const retryBaseMs = numericWithDefault(src, 'retry-base-ms');
  return {
    baseUrl: normalizeBaseUrl(baseUrl, 'base-url'),
    token,
    concurrency: numericWithDefault(src, 'concurrency'),
    timeoutMs: numericWithDefault(src, 'timeout-ms'),
    rateLimit: rateSetting(src, 'rate-limit'),
    legs: numeric(src, 'legs'),
    verbose: flag(src, 'verbose'),
    // The 429 backoff keeps its ratio to the fault backoff (src/api/retry-policy.ts).
    retry: {
      retryBaseMs,
      rateLimitBaseMs: 2 * retryBaseMs,
      maxWaitMs: numericWithDefault(src, 'max-wait-ms'),
    },
  };
}

/** Which reports to read, and how. */
export interface ReportSettings {
  patterns: string[];
  format: string;
  maxBytes: number;
}

export function reportSettings(src: SettingSource): ReportSettings {
  const patterns = listSetting(src, 'reports');
  if (patterns.length === 0)
    throw new ConfigError(
      'reports',
      'is required: globs or directories of report files, e.g. build/test-results/**/*.xml.',
      'MISSING_SETTING',
    );
  return {
    patterns,
    format: choice(src, 'format'),
    maxBytes: numericWithDefault(src, 'max-report-bytes'),
  };
}

/**
 * The gate's settings where the gate is the whole job (`gate`, mode gate): without a threshold it
 * could never fail, so one is required.
 */
export function gateOnlySettings(src: SettingSource, env?: Env): GateOptions {
  const gate = gateSettings(src, env);
  const thresholds = THRESHOLD_KEYS;
  const given = thresholds.some((key) =>
    spec(key).type === 'boolean' ? flag(src, key) : raw(src, key) !== undefined,
  );
  if (!given)
    throw new UsageError(
      (w) =>
        `the gate needs a threshold, else it cannot fail: ${thresholds.map((k) => w.name(k)).join(', ')}.`,
    );
  return gate;
}

/**
 * `env`: the CI's environment, for where this run is (a PR's run compares with its base branch's
 * series, docs/design.md "Triage"); without it the run is taken as no PR's.
 */
export function gateSettings(src: SettingSource, env?: Env): GateOptions {
  const maxPassRateDrop = numeric(src, 'max-pass-rate-drop');
  const series = raw(src, 'cycle-name');
  if (maxPassRateDrop !== undefined && !series)
    throw new ConfigError(
      'max-pass-rate-drop',
      (w) =>
        `needs ${w.name('cycle-name')}: its template names the series whose previous cycle is compared, e.g. "Nightly {date}".`,
    );
  const triage = triageGateSettings(src, series, env ? ciIdentity(env) : undefined);
  const needsSeries =
    maxPassRateDrop !== undefined ||
    triage.maxNewFailures !== undefined ||
    !!triage.notify ||
    !!triage.autoQuarantine;
  return {
    minPassRate: numeric(src, 'min-pass-rate'),
    ...(maxPassRateDrop === undefined ? {} : { maxPassRateDrop }),
    ...(needsSeries && series ? { series } : {}),
    maxFailed: numeric(src, 'max-failed'),
    maxBlocked: numeric(src, 'max-blocked'),
    failOnNotExecuted: flag(src, 'fail-on-not-executed'),
    basis: choice(src, 'pass-rate-basis'),
    filter: userFilterSetting(src, 'gate-filter'),
    ...triage,
  };
}

/** `quarantine-field`: a custom field name, as a filter can name it (`customFields.<name>`). */
export function quarantineFieldSetting(src: SettingSource): string {
  const name = raw(src, 'quarantine-field')!;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new ConfigError(
      'quarantine-field',
      `"${name}" is not a custom field name a filter can name: letters, digits and _, not starting with a digit.`,
    );
  return name;
}

/** The gate's triage settings (src/publish/triage.ts): quarantine field, new failures, baseline. */
function triageGateSettings(
  src: SettingSource,
  series: string | undefined,
  ci: CiIdentity | undefined,
): TriageGateOptions {
  const maxNewFailures = numeric(src, 'max-new-failures');
  const baselineCycle = raw(src, 'baseline-cycle');
  const baseline = choice<BaselineMode>(src, 'baseline');
  const baselineSeries = raw(src, 'baseline-series')!;
  checkPatternPlaceholders(baselineSeries, 'baseline-series');
  if (baselineCycle) checkPatternPlaceholders(baselineCycle, 'baseline-cycle');
  const users = listSetting(src, 'notify-users').flatMap((u) => u.split(','));
  const notify = { owners: choice(src, 'notify') === 'owners', users: users.map((u) => u.trim()) };
  for (const email of notify.users)
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.includes('{$'))
      throw new ConfigError('notify-users', `"${email}" is not an email address.`);
  const notifying = notify.owners || notify.users.length > 0;
  const source = baselineCycle
    ? 'cycle'
    : baseline === 'auto'
      ? isPullRequest(ci)
        ? 'series'
        : 'previous'
      : baseline;
  if ((maxNewFailures !== undefined || notifying) && source === 'previous' && !series)
    throw new ConfigError(
      maxNewFailures !== undefined ? 'max-new-failures' : 'notify',
      (w) =>
        `needs a baseline: ${w.name('cycle-name')} (its template names the series whose previous cycle is compared), ${w.name('baseline-cycle')}, or ${w.value('baseline', 'series')} (the latest complete cycle of ${w.name('baseline-series')}).`,
    );
  const rule = raw(src, 'auto-quarantine');
  const releaseAfter = numeric(src, 'release-after');
  const autoQuarantine = {
    ...(rule ? { rule: parseAutoQuarantine(rule) } : {}),
    ...(releaseAfter === undefined ? {} : { releaseAfter }),
  };
  const ruling = rule !== undefined || releaseAfter !== undefined;
  if (ruling && !series)
    throw new ConfigError(
      rule !== undefined ? 'auto-quarantine' : 'release-after',
      (w) =>
        `needs ${w.name('cycle-name')}: its template names the series whose cycles are looked at, e.g. "Nightly {date}".`,
    );
  return {
    ...(ruling ? { autoQuarantine } : {}),
    quarantineField: quarantineFieldSetting(src),
    quarantineExpiryDays: numericWithDefault(src, 'quarantine-expiry-days'),
    // The action passes every input's default, so "given" is "names another field than the default".
    ...(quarantineFieldSetting(src) !== spec('quarantine-field').default
      ? { quarantineFieldGiven: true }
      : {}),
    ...(maxNewFailures === undefined ? {} : { maxNewFailures }),
    ...(baselineCycle ? { baselineCycle } : {}),
    baseline,
    baselineSeries,
    ...(ci ? { ci } : {}),
    ...(notifying ? { notify } : {}),
  };
}

/**
 * The cycle to publish into, gate or close: by key, or by a name rendered from the CI context.
 * `secrets`: the adapter's Redactor; a name that would hold one of them is refused.
 */
export function cycleSettings(
  src: SettingSource,
  env: Env,
  secrets?: Redactor,
): Pick<CycleOptions, 'key' | 'name'> {
  const key = raw(src, 'cycle-key');
  const template = raw(src, 'cycle-name');
  if (key && template)
    throw new ConfigError(
      'cycle-key',
      (w) => `and ${w.name('cycle-name')} cannot both be given; pick one.`,
    );
  if (!key && !template)
    throw new ConfigError(
      'cycle-name',
      (w) => `(or ${w.name('cycle-key')}) is required: the cycle, e.g. "CI {branch} {sha7}".`,
      'MISSING_SETTING',
    );
  return key
    ? { key }
    : { name: renderCycleName(template!, ciContext(env, undefined, secrets), 'cycle-name') };
}

/** A cycle to find or create by name (create-cycle, `cycle create`). */
export interface CreateCycleSettings {
  name: string;
  status: CycleStatus;
  customFields?: Record<string, unknown>;
  populate?: string;
}

export function createCycleSettings(
  src: SettingSource,
  env: Env,
  secrets?: Redactor,
): CreateCycleSettings {
  const template = required(src, 'cycle-name', 'the name of the cycle, e.g. "Nightly {date}".');
  return {
    name: renderCycleName(template, ciContext(env, undefined, secrets), 'cycle-name'),
    status: choice(src, 'cycle-status'),
    customFields: jsonSetting(src, 'cycle-custom-fields'),
    populate: userFilterSetting(src, 'populate'),
  };
}

export interface PublishSettings {
  cycle: CycleOptions & { close: boolean };
  match: MatchOptions;
  onUnmatched: 'warn' | 'fail' | 'ignore';
  onKeyCollision: KeyCollisionMode;
  merge: MergeMode;
  flaky: FlakyMode;
  errorAs: ErrorAs;
  dryRun: boolean;
  gate: GateOptions;
  format: string;
  /** publish --sync: sync's creates and updates first (src/publish/inventory.ts), never retiring. */
  sync: boolean;
  caseFields?: CaseFieldMapping;
  /** publish --sync: how sync names the cases (absent: `key`). */
  caseNames?: CaseNames;
  /** publish --sync: replace the written steps of cases that are not AUTOMATED. */
  replaceSteps?: boolean;
  /** publish --sync: the custom field where sync records the mapped values it wrote. */
  ownershipField?: string;
  /**
   * A run error in the reports fails the gate, or is warned of (docs/design.md "Run errors");
   * absent: fail.
   */
  onRunError?: OnRunError;
  /** How the test runner ended, where the CI said (runner-outcome, runner-exit-code). */
  runner?: RunnerStatus;
}

/** How tests find their cases (publish and sync): key pattern, key template, workspace. */
export function matchSettings(src: SettingSource, env: Env): MatchOptions {
  const automationKey = raw(src, 'automation-key')!;
  checkAutomationKeyTemplate(automationKey, 'automation-key');
  return {
    keyPattern: keyPattern(raw(src, 'key-pattern'), 'key-pattern'),
    automationKey,
    createMissingCases: flag(src, 'create-missing-cases'),
    workspace: workspaceOf(raw(src, 'workspace'), env),
  };
}

export function publishSettings(src: SettingSource, env: Env, secrets?: Redactor): PublishSettings {
  return {
    cycle: {
      ...cycleSettings(src, env, secrets),
      create: flag(src, 'create-cycle'),
      reopenDone: flag(src, 'reopen-done-cycle'),
      close: flag(src, 'close-cycle'),
      customFields: jsonSetting(src, 'cycle-custom-fields'),
    },
    match: matchSettings(src, env),
    onUnmatched: choice(src, 'on-unmatched'),
    onKeyCollision: choice(src, 'on-key-collision'),
    merge: choice(src, 'merge'),
    flaky: choice(src, 'flaky'),
    errorAs: choice(src, 'error-as'),
    dryRun: flag(src, 'dry-run'),
    gate: gateSettings(src, env),
    format: choice(src, 'format'),
    sync: flag(src, 'sync'),
    ...caseWriteSettings(src),
    onRunError: choice(src, 'on-run-error'),
    ...runnerSetting(src),
  };
}

/** How sync writes a test case, for sync and publish --sync (docs/design.md "Sync: what sync owns"). */
export function caseWriteSettings(
  src: SettingSource,
): Pick<PublishSettings, 'caseFields' | 'caseNames' | 'replaceSteps' | 'ownershipField'> {
  const caseFields = caseFieldsSetting(src);
  const ownershipField = raw(src, 'ownership-field')?.trim() || undefined;
  if (ownershipField && caseFields?.some((r) => r.field === ownershipField))
    throw new ConfigError(
      'ownership-field',
      `${oneLine(ownershipField)} is mapped by case-fields too; sync's record needs a custom field of its own.`,
    );
  return {
    caseFields,
    caseNames: choice(src, 'case-names'),
    replaceSteps: flag(src, 'replace-steps'),
    ownershipField,
  };
}

/**
 * How the runner ended: `runner-outcome` (a step's outcome) or `runner-exit-code` (its exit
 * status), not both; neither: not known, and the reports alone tell.
 */
export function runnerSetting(src: SettingSource): { runner?: RunnerStatus } {
  const outcome = raw(src, 'runner-outcome');
  const code = numeric(src, 'runner-exit-code');
  if (outcome !== undefined && code !== undefined)
    throw new ConfigError(
      'runner-outcome',
      (w) => `and ${w.name('runner-exit-code')} both say how the runner ended; give one of them.`,
    );
  if (outcome !== undefined) {
    const choices = spec('runner-outcome').choices ?? [];
    if (!choices.includes(outcome))
      throw new ConfigError(
        'runner-outcome',
        `"${outcome}" is not one of ${choices.join(', ')}: give the outcome of the runner's step (steps.<id>.outcome).`,
      );
    return {
      runner: { outcome: outcome as RunnerOutcome, setting: 'runner-outcome', value: outcome },
    };
  }
  if (code === undefined) return {};
  return {
    runner: {
      outcome: code === 0 ? 'success' : 'failure',
      setting: 'runner-exit-code',
      value: String(code),
    },
  };
}

/** `case-fields`, parsed (syntax only; the Space's fields are checked before the first write). */
export function caseFieldsSetting(src: SettingSource): CaseFieldMapping | undefined {
  const mapping = raw(src, 'case-fields');
  return mapping === undefined ? undefined : parseCaseFields(mapping, 'case-fields');
}

/** `quarantine add|remove|list` and mode quarantine (src/publish/quarantine.ts). */
export interface QuarantineSettings {
  action: 'add' | 'remove' | 'list';
  field: string;
  caseKey?: string;
  reason?: string;
  until?: string;
  /** A quarantine without until ends this many days after it was set (0: never). */
  expiryDays: number;
}

export function quarantineSettings(
  src: SettingSource,
  action: QuarantineSettings['action'],
  now: Date,
): QuarantineSettings {
  const field = quarantineFieldSetting(src);
  const expiryDays = numericWithDefault(src, 'quarantine-expiry-days');
  if (action === 'list') return { action, field, expiryDays };
  const caseKey = required(src, 'case-key', 'the key of the test case, e.g. DEMO-T12.');
  if (action === 'remove') return { action, field, caseKey, expiryDays };
  return {
    action,
    field,
    expiryDays,
    caseKey,
    reason: required(src, 'reason', 'why the test is quarantined, e.g. "flaky: races the cache".'),
    until: untilSetting(raw(src, 'until'), now),
  };
}
