/**
 * Counts of a cycle's executions by result, and the pass rate over them: plain arithmetic on the
 * result enum of the schema, shared by the gate (src/publish/gate.ts), the dashboard and the
 * emulator's live page, none of which needs the client for it.
 */
import type { ExecutionResult } from './resources.js';

export type PassRateBasis = 'executed' | 'all';

/** A cycle's executions counted by result, as the gate and the dashboard read them. */
export interface CycleCounts {
  /** Executions PASSED. */
  passed: number;
  /** Executions FAILED. */
  failed: number;
  /** Executions BLOCKED. */
  blocked: number;
  /** Executions SKIPPED. */
  skipped: number;
  /** Executions NOT_EXECUTED. */
  notExecuted: number;
  /** Executions IN_PROGRESS. */
  inProgress: number;
  /** All the executions counted. */
  total: number;
}

export function countsFrom(byResult: Partial<Record<ExecutionResult, number>>): CycleCounts {
  const n = (r: ExecutionResult) => byResult[r] ?? 0;
  const counts = {
    passed: n('PASSED'),
    failed: n('FAILED'),
    blocked: n('BLOCKED'),
    skipped: n('SKIPPED'),
    notExecuted: n('NOT_EXECUTED'),
    inProgress: n('IN_PROGRESS'),
    total: 0,
  };
  counts.total =
    counts.passed +
    counts.failed +
    counts.blocked +
    counts.skipped +
    counts.notExecuted +
    counts.inProgress;
  return counts;
}

/** The counts with more executions' results in them (the gate's quarantined tests, counted again). */
export function withResults(counts: CycleCounts, results: readonly ExecutionResult[]): CycleCounts {
  const more = countsFrom(
    results.reduce<Partial<Record<ExecutionResult, number>>>(
      (n, r) => ({ ...n, [r]: (n[r] ?? 0) + 1 }),
      {},
    ),
  );
  const out = { ...counts };
  for (const k of Object.keys(out) as (keyof CycleCounts)[]) out[k] += more[k];
  return out;
}

/** PASSED / (PASSED + FAILED + BLOCKED) with basis executed, PASSED / total with basis all; null when nothing counts. */
export function passRate(counts: CycleCounts, basis: PassRateBasis): number | null {
  const denominator =
    basis === 'all' ? counts.total : counts.passed + counts.failed + counts.blocked;
  return denominator === 0 ? null : Math.round((counts.passed / denominator) * 10_000) / 100;
}
