/**
 * The pipeline's own settings (reports, gate, cycle, publish), read by their
 * keys in the settings table (src/settings/table.ts: types, defaults, bounds, choices) with the generic
 * readers bound to it (src/shared/setting-readers.ts). Each adapter supplies a SettingSource;
 * errors name the setting by key, and the adapter renders it (`--max-failed`, input `max-failed`).
 * Everything is checked here, before a report is read or a request sent.
 */
import { ConfigError, UsageError } from '../shared/errors.js';
import type { Redactor } from '../shared/redact.js';
import type { SettingSource } from '../shared/setting-readers.js';
import type { CycleStatus } from '../schema/resources.js';
import {
  choice,
  declarationOf as spec,
  flag,
  jsonSetting,
  numeric,
  required,
  settingValue as raw,
  THRESHOLD_KEYS,
} from '../settings/index.js';
import { userFilterSetting } from '../client/index.js';
import type { KeyCollisionMode } from '../domain/index.js';
import type { CycleOptions } from '../domain/index.js';
import { ciContext, ciIdentity, renderCycleName } from '../domain/index.js';
import type { MatchOptions } from '../domain/index.js';
import { matchSettings } from '../domain/index.js';
import { caseWriteSettings, type CaseFieldMapping, type CaseNames } from '../inventory/index.js';
import { triageGateSettings } from '../triage/index.js';
import type { GateOptions } from './gate.js';
import { givesThreshold, readThresholds } from './thresholds.js';
import type { ErrorAs, FlakyMode, MergeMode } from './results.js';
import type { OnRunError, RunnerOutcome, RunnerStatus } from './verdict.js';

type Env = Record<string, string | undefined>;

/**
 * The gate's settings where the gate is the whole job (`gate`, mode gate): without a threshold it
 * could never fail, so one is required.
 */
export function gateOnlySettings(src: SettingSource, env?: Env): GateOptions {
  const gate = gateSettings(src, env);
  if (!givesThreshold(src))
    throw new UsageError(
      (w) =>
        `the gate needs a threshold, else it cannot fail: ${THRESHOLD_KEYS.map((k) => w.name(k)).join(', ')}.`,
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
    ...readThresholds(src),
    ...(needsSeries && series ? { series } : {}),
    basis: choice(src, 'pass-rate-basis'),
    filter: userFilterSetting(src, 'gate-filter'),
    ...triage,
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

/** Every setting of a publish, read from the settings table and checked (publishSettings). */
export interface PublishSettings {
  /**
   * Which cycle to write to and what may be done to it (cycle-key or cycle-name, create-cycle,
   * reopen-done-cycle, close-cycle, cycle-custom-fields).
   */
  cycle: CycleOptions & { close: boolean };
  /** How tests are matched to test cases (key-pattern, automation-key, ...). */
  match: MatchOptions;
  /** A test that matches no case: warn, fail, or ignore (on-unmatched). */
  onUnmatched: 'warn' | 'fail' | 'ignore';
  /** Distinct tests that give the same key (on-key-collision). */
  onKeyCollision: KeyCollisionMode;
  /** How results of one test in several reports merge (merge). */
  merge: MergeMode;
  /** How a test that failed then passed is recorded (flaky). */
  flaky: FlakyMode;
  /** The execution result a test that errored is recorded as (error-as). */
  errorAs: ErrorAs;
  /** Read and plan only; write nothing (dry-run). */
  dryRun: boolean;
  /** The gate's thresholds (min-pass-rate, max-failed, ...). */
  gate: GateOptions;
  /** The report format, or `auto` (format). */
  format: string;
  /** publish --sync: sync's creates and updates first (src/inventory/sync.ts), never retiring. */
  sync: boolean;
  /** publish --sync: the mapping of report properties to the cases' fields. */
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

/**
 * Every setting of a publish read and checked from a SettingSource, before any request; `env` gives
 * the CI context of the cycle name.
 */
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
