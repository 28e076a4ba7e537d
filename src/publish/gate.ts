/**
 * The gate: one aggregate request on the cycle (src/domain/counts.ts), then thresholds.
 */
import { type CycleRef, laneOf, type NoPreviousCycle, previousInSeries } from '../domain/index.js';
import { cycleCounts } from '../domain/index.js';
import type { Resource, ServiceClient } from '../client/index.js';
import { TestcycleError } from '../shared/errors.js';
import type { ExecutionResult } from '../schema/resources.js';
import {
  countsFrom,
  passRate,
  withResults,
  type CycleCounts,
  type PassRateBasis,
} from '../schema/counts.js';
import {
  anyThreshold,
  checkThresholds,
  type GateOptions,
  type PreviousCycle,
} from './thresholds.js';

export { countsFrom, passRate, type CycleCounts, type GateOptions };
import { readTriage, type Triage, withoutQuarantinedIn, withoutTests } from '../triage/index.js';

/** Whether the gate passed, and why not (one reason per threshold broken). */
export interface GateVerdict {
  /** Whether every threshold held. */
  passed: boolean;
  /** Why it failed, one line per threshold broken. */
  reasons: string[];
  /** What the gate could not check and why, when that passes (the first cycle of a series). */
  notes?: string[];
}

/** The thresholds failed: each adapter maps this kind once (exit 1, a failed step). */
export class GateFailedError extends TestcycleError {
  constructor(
    /** Why the gate failed, one line per threshold broken. */
    readonly reasons: string[],
  ) {
    super(reasons.join('; '), 'GATE_FAILED', 'gate');
  }
}

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
  return !!g && (anyThreshold(g) || g.notify !== undefined || g.filter !== undefined);
}

export type { PreviousCycle };
export type { CycleRef, NoPreviousCycle };

/** The thresholds of `gate` checked against the counts (and the previous cycle, the triage). */
export function verdict(
  counts: CycleCounts,
  gate: GateOptions,
  previous?: PreviousCycle | NoPreviousCycle,
  triage?: Triage,
): GateVerdict {
  const { reasons, notes } = checkThresholds(gate, {
    counts,
    rate: passRate(counts, gate.basis),
    basis: gate.basis,
    previous,
    triage,
  });
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
  const base = verdict(counts, gate, previous, triaged?.triage);
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
