/**
 * The gate: one aggregate request on the cycle (src/domain/counts.ts), then thresholds.
 */
import { type CycleRef, laneOf, type NoPreviousCycle, previousInSeries } from '../domain/index.js';
import { cycleCounts } from '../domain/index.js';
import type { Resource, ServiceClient } from '../client/index.js';
import { TestcycleError } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from '../schema/resources.js';
import {
  countsFrom,
  passRate,
  withResults,
  type CycleCounts,
  type PassRateBasis,
} from '../schema/counts.js';
import { THRESHOLD_KEYS } from '../settings/index.js';

export { countsFrom, passRate, type CycleCounts };
import {
  readTriage,
  type Triage,
  type TriageGateOptions,
  withoutQuarantinedIn,
  withoutTests,
} from '../triage/index.js';

export interface GateOptions extends TriageGateOptions {
  minPassRate?: number;
  /** Fail when the pass rate fell by more than this many points against the previous cycle of `series`. */
  maxPassRateDrop?: number;
  /** The cycle-name template whose cycles form a series ("Nightly {date}"), for maxPassRateDrop. */
  series?: string;
  maxFailed?: number;
  maxBlocked?: number;
  failOnNotExecuted?: boolean;
  basis: 'executed' | 'all';
  /** Extra FiltrQL condition, e.g. testCase.priority = "CRITICAL". */
  filter?: string;
  /**
   * Requirement coverage thresholds (docs/design.md "Traceability: coverage"): the job layer reads
   * the cycle's coverage after the gate and adds their misses to its verdict (src/job/jobs.ts).
   */
  minCoverage?: number;
  maxFailingRequirements?: number;
}

export interface GateVerdict {
  passed: boolean;
  reasons: string[];
  /** What the gate could not check and why, when that passes (the first cycle of a series). */
  notes?: string[];
}

/** The thresholds failed: each adapter maps this kind once (exit 1, a failed step). */
export class GateFailedError extends TestcycleError {
  constructor(readonly reasons: string[]) {
    super(reasons.join('; '), 'GATE_FAILED', 'gate');
  }
}

/**
 * The GateOptions field of each threshold row of the settings table (`threshold: true`): its key
 * in camelCase (`min-pass-rate` is minPassRate), so that the table says once what a threshold is.
 */
const THRESHOLD_FIELDS = THRESHOLD_KEYS.map(
  (key) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof GateOptions,
);

/**
 * The pass rate over the counts the gate judged, and, when it left quarantined tests out
 * (docs/design.md "Triage"), the one that counts them too, as `testcycle report` and the service
 * count every execution: a reader who meets both is told why they differ.
 */
export function passRatesOf(
  counts: CycleCounts,
  basis: PassRateBasis,
  quarantined: readonly { result: ExecutionResult }[] = [],
): { passRate: number | null; passRateWithQuarantined?: number | null } {
  return {
    passRate: passRate(counts, basis),
    ...(quarantined.length
      ? {
          passRateWithQuarantined: passRate(
            withResults(
              counts,
              quarantined.map((t) => t.result),
            ),
            basis,
          ),
        }
      : {}),
  };
}

/** A gate with work to do: a threshold, new failures to notify of, or a filter to count by. */
export function hasThresholds(g: GateOptions | undefined): g is GateOptions {
  return (
    !!g &&
    (THRESHOLD_FIELDS.some((field) => g[field] !== undefined && g[field] !== false) ||
      g.notify !== undefined ||
      g.filter !== undefined)
  );
}

/** The previous cycle of a series and its pass rate (same basis and filter). */
export interface PreviousCycle {
  key: string;
  name: string;
  passRate: number | null;
}

export type { CycleRef, NoPreviousCycle };

export function verdict(
  counts: CycleCounts,
  gate: GateOptions,
  previous?: PreviousCycle | NoPreviousCycle,
): GateVerdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  const rate = passRate(counts, gate.basis);
  if (gate.maxPassRateDrop !== undefined && previous) {
    if ('why' in previous) {
      if (previous.first) notes.push(`no previous cycle: trend not checked (${previous.why})`);
      else
        reasons.push(
          `no previous cycle found in the series, so the pass rate drop (at most ${gate.maxPassRateDrop} allowed) was not checked: ${previous.why}`,
        );
    } else if (previous.passRate === null || rate === null) {
      const which =
        rate === null
          ? 'this cycle'
          : `the previous cycle ${previous.key} "${oneLine(previous.name)}"`;
      notes.push(`${which} has no pass rate (no counted tests): trend not checked`);
    } else {
      const drop = Math.round((previous.passRate - rate) * 100) / 100;
      if (drop > gate.maxPassRateDrop)
        reasons.push(
          `pass rate ${rate}% fell ${drop} points from ${previous.passRate}% in ${previous.key} "${oneLine(previous.name)}" (at most ${gate.maxPassRateDrop} allowed)`,
        );
    }
  }
  if (gate.minPassRate !== undefined) {
    if (rate === null)
      reasons.push(
        `no ${gate.basis === 'all' ? '' : 'executed '}tests to compute a pass rate (min ${gate.minPassRate}%)`,
      );
    else if (rate < gate.minPassRate)
      reasons.push(`pass rate ${rate}% is below ${gate.minPassRate}% (basis: ${gate.basis})`);
  }
  if (gate.maxFailed !== undefined && counts.failed > gate.maxFailed)
    reasons.push(`${counts.failed} failed, more than ${gate.maxFailed} allowed`);
  if (gate.maxBlocked !== undefined && counts.blocked > gate.maxBlocked)
    reasons.push(`${counts.blocked} blocked, more than ${gate.maxBlocked} allowed`);
  if (gate.failOnNotExecuted && counts.notExecuted + counts.inProgress > 0) {
    reasons.push(`${counts.notExecuted + counts.inProgress} not executed (fail-on-not-executed)`);
  }
  return { passed: reasons.length === 0, reasons, ...(notes.length ? { notes } : {}) };
}

/**
 * The verdict on a cycle: its counts (one aggregate) without the quarantined tests, the triage
 * (src/triage/triage.ts) when there are thresholds, and the previous cycle's when a drop is checked.
 */
export async function evaluateGate(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  gate: GateOptions,
): Promise<{ counts: CycleCounts; verdict: GateVerdict; triage?: Triage }> {
  const all = await cycleCounts(client, cycle.id, gate.filter);
  const triaged = hasThresholds(gate) ? await readTriage(client, cycle, gate) : undefined;
  const counts = triaged ? withoutTests(all, triaged.triage.quarantined) : all;
  const previous =
    gate.maxPassRateDrop !== undefined && gate.series
      ? await lookUpPrevious(
          client,
          cycle,
          gate.series,
          gate,
          triaged && withoutQuarantinedIn(client, triaged.triage, gate),
        )
      : undefined;
  const base = verdict(counts, gate, previous);
  if (!triaged) return { counts, verdict: base };
  const reasons = [...base.reasons, ...triaged.reasons];
  const notes = [...(base.notes ?? []), ...triaged.notes];
  return {
    counts,
    verdict: { passed: reasons.length === 0, reasons, ...(notes.length ? { notes } : {}) },
    triage: triaged.triage,
  };
}

/**
 * The cycle of the series ranked just before `cycle`: the names the template renders to
 * (series.ts), found newest first by rank; the service narrows the listing by the template's
 * literal parts, the name is then matched exactly here. Undefined when there is none (see
 * lookUpPrevious for why).
 */
export async function previousCycle(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  template: string,
  gate: Pick<GateOptions, 'basis' | 'filter'>,
): Promise<PreviousCycle | undefined> {
  const found = await lookUpPrevious(client, cycle, template, gate);
  return 'why' in found ? undefined : found;
}

/** previousCycle, or why there is none: the first of its series, or others not placed before it. */
export async function lookUpPrevious(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  template: string,
  gate: Pick<GateOptions, 'basis' | 'filter'>,
  /** Cases left out of the previous cycle's counts too (the quarantined, src/triage/triage.ts). */
  adjust?: (previousId: string, counts: CycleCounts) => Promise<CycleCounts>,
): Promise<PreviousCycle | NoPreviousCycle> {
  // Like with like: of a template that names {branch} or {pr}, this branch's (or PR's) cycles.
  const lane = laneOf(template, String(cycle.attributes.name ?? ''));
  const found = await previousInSeries(client, cycle, lane);
  if ('why' in found) return found;
  const counts = await cycleCounts(client, found.id, gate.filter);
  return {
    key: found.key,
    name: found.name,
    passRate: passRate(adjust ? await adjust(found.id, counts) : counts, gate.basis),
  };
}
