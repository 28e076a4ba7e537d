/**
 * Requirement coverage as data (docs/design.md "Traceability: coverage"): the statuses, and the
 * rule that gives a requirement its status from its linked cases' results in a cycle. One rule
 * for `testcycle coverage` (src/traceability/coverage.ts) and the emulator's live page, which
 * reads its store (src/emulator/http/live-page.ts); the report page draws it (src/dashboard/render).
 */
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from './resources.js';

export const COVERAGE_STATUSES = ['PASSED', 'FAILED', 'NOT_RUN', 'UNCOVERED'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export interface RequirementCoverage {
  key: string;
  name: string;
  status: CoverageStatus;
  /** The linked cases, each with its result in the cycle (null: no execution). */
  cases: { key: string; result: ExecutionResult | null }[];
}

export interface CoverageTotals {
  requirements: number;
  passed: number;
  failed: number;
  notRun: number;
  uncovered: number;
  /** PASSED requirements as a percentage of those in scope (null: none in scope). */
  coverage: number | null;
}

export interface Coverage {
  requirements: RequirementCoverage[];
  totals: CoverageTotals;
}

const WITH_RESULT: ReadonlySet<ExecutionResult> = new Set(['PASSED', 'FAILED', 'BLOCKED']);

/**
 * A requirement's status from its linked cases' results (null: no execution in the cycle):
 * FAILED when one failed or was blocked; PASSED when one has a result (PASSED, FAILED, BLOCKED),
 * so every one with a result passed; NOT_RUN when linked without a result; UNCOVERED unlinked.
 */
export function statusOf(results: readonly (ExecutionResult | null)[]): CoverageStatus {
  if (results.length === 0) return 'UNCOVERED';
  if (results.some((r) => r === 'FAILED' || r === 'BLOCKED')) return 'FAILED';
  if (results.some((r) => r !== null && WITH_RESULT.has(r))) return 'PASSED';
  return 'NOT_RUN';
}

export function totalsOf(requirements: readonly RequirementCoverage[]): CoverageTotals {
  const count = (s: CoverageStatus) => requirements.filter((r) => r.status === s).length;
  const passed = count('PASSED');
  return {
    requirements: requirements.length,
    passed,
    failed: count('FAILED'),
    notRun: count('NOT_RUN'),
    uncovered: count('UNCOVERED'),
    coverage: requirements.length
      ? Math.round((passed / requirements.length) * 10_000) / 100
      : null,
  };
}

/** A requirement's coverage from its linked cases (key and result each). */
export function requirementCoverage(
  key: string,
  name: string,
  cases: RequirementCoverage['cases'],
): RequirementCoverage {
  return { key, name, status: statusOf(cases.map((c) => c.result)), cases };
}

const named = (items: readonly RequirementCoverage[]) =>
  `${items
    .slice(0, 10)
    .map((r) => `${oneLine(r.key)} (${r.status})`)
    .join(', ')}${items.length > 10 ? `, and ${items.length - 10} more` : ''}`;

/** min-coverage missed: the share of PASSED requirements below `limit`, naming those not PASSED. */
export function minCoverageReasons(c: Coverage, limit: number): string[] {
  if (c.totals.coverage === null)
    return [`no requirement in scope, so coverage (at least ${limit}% required) cannot be met`];
  return c.totals.coverage < limit
    ? [
        `requirement coverage ${c.totals.coverage}% is below ${limit}%; not PASSED: ${named(c.requirements.filter((r) => r.status !== 'PASSED'))}`,
      ]
    : [];
}

/** max-failing-requirements missed: more FAILED requirements than `limit`, naming them. */
export function maxFailingReasons(c: Coverage, limit: number): string[] {
  return c.totals.failed > limit
    ? [
        `${c.totals.failed} requirement(s) FAILED (at most ${limit} allowed): ${named(c.requirements.filter((r) => r.status === 'FAILED'))}`,
      ]
    : [];
}
