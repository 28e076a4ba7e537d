/**
 * The gate's thresholds, one row each (docs/architecture.md "A gate threshold"): the settings row
 * it is (`threshold: true` in src/settings/table.ts, by key), the GateOptions field it fills, how
 * it is read from the settings and how the gate checks it. The settings (gateSettings,
 * gateOnlySettings), the gate (hasThresholds, verdict) and the docs read this table; the type check
 * fails on a threshold row without its entry here, or an entry that is no threshold row.
 */
import type { CycleCounts, PassRateBasis } from '../schema/counts.js';
import { oneLine } from '../shared/redact.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { plural } from '../shared/words.js';
import { flag, numeric, type ThresholdKey } from '../settings/index.js';
import type { NoPreviousCycle } from '../domain/index.js';
import { nameTests, type Triage, type TriageGateOptions } from '../triage/index.js';

/**
 * The gate's thresholds and how it counts (docs/design.md "CLI contract"): each threshold is a row of
 * THRESHOLDS below.
 */
export interface GateOptions extends TriageGateOptions {
  /** Fail below this pass rate, in percent (min-pass-rate). */
  minPassRate?: number;
  /**
   * Fail when the pass rate fell by more than this many points against the previous cycle of
   * `series`.
   */
  maxPassRateDrop?: number;
  /** The cycle-name template whose cycles form a series ("Nightly {date}"), for maxPassRateDrop. */
  series?: string;
  /** Fail with more FAILED executions than this (max-failed). */
  maxFailed?: number;
  /** Fail with more BLOCKED executions than this (max-blocked). */
  maxBlocked?: number;
  /** Fail when any execution is NOT_EXECUTED or IN_PROGRESS (fail-on-not-executed). */
  failOnNotExecuted?: boolean;
  /** How the pass rate counts: `executed` (PASSED over PASSED, FAILED and BLOCKED) or `all`. */
  basis: 'executed' | 'all';
  /** Extra FiltrQL condition, e.g. testCase.priority = "CRITICAL". */
  filter?: string;
  /** Fail below this share of PASSED requirements, in percent (min-coverage). */
  minCoverage?: number;
  /** Fail with more FAILED requirements than this (max-failing-requirements). */
  maxFailingRequirements?: number;
}

/** The previous cycle of a series and its pass rate (same basis and filter). */
export interface PreviousCycle {
  key: string;
  name: string;
  passRate: number | null;
}

/** What the gate knows when it checks a threshold. */
export interface GateFacts {
  /** The cycle's counts, the quarantined tests left out. */
  counts: CycleCounts;
  /** The pass rate of `counts` on the gate's basis; null: no counted tests. */
  rate: number | null;
  basis: PassRateBasis;
  /** The previous cycle of the series, read when a drop is checked. */
  previous?: PreviousCycle | NoPreviousCycle;
  /** The cycle's triage, read when the gate has work to do. */
  triage?: Triage;
}

/** What a threshold says of a cycle: why it fails, what it could not check. */
export interface ThresholdCheck {
  reasons?: string[];
  notes?: string[];
}

/** The GateOptions fields of the thresholds: a number, or a switch (fail-on-not-executed). */
type ThresholdField = {
  [F in keyof GateOptions]-?: NonNullable<GateOptions[F]> extends number | boolean ? F : never;
}[keyof GateOptions];

/** The GateOptions fields of the thresholds that are a number. */
type NumberField = {
  [F in ThresholdField]: NonNullable<GateOptions[F]> extends number ? F : never;
}[ThresholdField];

export interface Threshold<F extends ThresholdField = ThresholdField> {
  field: F;
  /** Its value from the settings; undefined (or false for a switch): not given. */
  read(src: SettingSource, key: ThresholdKey): GateOptions[F];
  check(limit: NonNullable<GateOptions[F]>, facts: GateFacts): ThresholdCheck;
}

const threshold = <F extends ThresholdField>(t: Threshold<F>) => t as unknown as Threshold;

/** A threshold on one count of the cycle: at most `limit` tests with that result. */
function countAtMost(field: NumberField, count: keyof CycleCounts): Threshold {
  return threshold({
    field,
    read: (src, key) => numeric(src, key),
    check: (limit, { counts }) =>
      counts[count] > limit
        ? { reasons: [`${counts[count]} ${count}, more than ${limit} allowed`] }
        : {},
  });
}

/** In the order the gate gives its reasons: the trend first, then the rate, then the counts. */
export const THRESHOLDS: { readonly [K in ThresholdKey]: Threshold } = {
  'max-pass-rate-drop': threshold({
    field: 'maxPassRateDrop',
    read: (src, key) => numeric(src, key),
    check: (limit, { rate, previous }) => {
      if (!previous) return {};
      if ('why' in previous)
        return previous.first
          ? { notes: [`no previous cycle: trend not checked (${previous.why})`] }
          : {
              reasons: [
                `no previous cycle found in the series, so the pass rate drop (at most ${limit} allowed) was not checked: ${previous.why}`,
              ],
            };
      if (previous.passRate === null || rate === null) {
        const which =
          rate === null
            ? 'this cycle'
            : `the previous cycle ${previous.key} "${oneLine(previous.name)}"`;
        return { notes: [`${which} has no pass rate (no counted tests): trend not checked`] };
      }
      const drop = Math.round((previous.passRate - rate) * 100) / 100;
      return drop > limit
        ? {
            reasons: [
              `pass rate ${rate}% fell ${drop} points from ${previous.passRate}% in ${previous.key} "${oneLine(previous.name)}" (at most ${limit} allowed)`,
            ],
          }
        : {};
    },
  }),
  'min-pass-rate': threshold({
    field: 'minPassRate',
    read: (src, key) => numeric(src, key),
    check: (limit, { rate, basis }) =>
      rate === null
        ? {
            reasons: [
              `no ${basis === 'all' ? '' : 'executed '}tests to compute a pass rate (min ${limit}%)`,
            ],
          }
        : rate < limit
          ? { reasons: [`pass rate ${rate}% is below ${limit}% (basis: ${basis})`] }
          : {},
  }),
  'max-failed': countAtMost('maxFailed', 'failed'),
  'max-blocked': countAtMost('maxBlocked', 'blocked'),
  'fail-on-not-executed': threshold({
    field: 'failOnNotExecuted',
    read: (src, key) => flag(src, key),
    check: (on, { counts }) => {
      const waiting = counts.notExecuted + counts.inProgress;
      return on && waiting > 0
        ? { reasons: [`${waiting} not executed (fail-on-not-executed)`] }
        : {};
    },
  }),
  'max-new-failures': threshold({
    field: 'maxNewFailures',
    read: (src, key) => numeric(src, key),
    // Triage says when no baseline was found to compare with (src/triage/triage.ts).
    check: (limit, { triage }) =>
      triage?.baseline && triage.newFailures.length > limit
        ? {
            reasons: [
              `${plural(triage.newFailures.length, 'new failure')} against ${triage.baseline.key} "${oneLine(triage.baseline.name)}", more than ${limit} allowed: ${nameTests(triage.newFailures)}`,
            ],
          }
        : {},
  }),
  // Requirement coverage (docs/design.md "Traceability: coverage"): checked by the job layer once it
  // has read the cycle's coverage, after the job's writes and links (src/job/jobs.ts,
  // src/schema/coverage.ts); the pipeline's gate reads no coverage.
  'min-coverage': threshold({
    field: 'minCoverage',
    read: (src, key) => numeric(src, key),
    check: () => ({}),
  }),
  'max-failing-requirements': threshold({
    field: 'maxFailingRequirements',
    read: (src, key) => numeric(src, key),
    check: () => ({}),
  }),
};

const ROWS = Object.entries(THRESHOLDS) as [ThresholdKey, Threshold][];

/** A threshold's value, when it was given: a number, or a switch that is on. */
const given = (value: unknown): boolean => value !== undefined && value !== false;

/** Every threshold read from the settings, by its GateOptions field. */
export function readThresholds(src: SettingSource): Partial<GateOptions> {
  return Object.fromEntries(ROWS.map(([key, t]) => [t.field, t.read(src, key)]));
}

/** Whether the settings give any threshold (`gate` without one could never fail). */
export function givesThreshold(src: SettingSource): boolean {
  return ROWS.some(([key, t]) => given(t.read(src, key)));
}

/** Whether the gate's options hold any threshold. */
export function anyThreshold(gate: GateOptions): boolean {
  return ROWS.some(([, t]) => given(gate[t.field]));
}

/** Every threshold the gate's options hold, checked against what the gate knows. */
export function checkThresholds(gate: GateOptions, facts: GateFacts): Required<ThresholdCheck> {
  const reasons: string[] = [];
  const notes: string[] = [];
  for (const [, t] of ROWS) {
    const limit = gate[t.field];
    if (!given(limit)) continue;
    const out = t.check(limit as NonNullable<typeof limit>, facts);
    reasons.push(...(out.reasons ?? []));
    notes.push(...(out.notes ?? []));
  }
  return { reasons, notes };
}
