/**
 * Requirement coverage of a cycle (docs/design.md "Traceability: coverage"): each requirement in
 * scope, its linked test cases and their results in the cycle, and a status.
 *
 * - PASSED: every linked case with a result (PASSED, FAILED, BLOCKED) passed, and one has one;
 * - FAILED: a linked case failed or was blocked;
 * - NOT_RUN: linked, but no linked case has a result in the cycle;
 * - UNCOVERED: no linked case.
 *
 * Reads: the requirements in scope with their linkage (ceil(R/100) pages, the linkage rides on
 * each record), the cycle's executions with their cases' keys (ceil(N/100) pages, include), and
 * only the keys of linked cases without an execution (chunks of ids): about ceil(R/100) +
 * ceil(N/100) + a few.
 */
import {
  chunkIn,
  f,
  type Filter,
  type Resource,
  type ServiceClient,
  updateWithRetry,
} from '../client/index.js';
import { findCycle, MAX_FILTER_CHARS } from '../domain/index.js';
import { ConfigError } from '../shared/errors.js';
import {
  type Coverage,
  maxFailingReasons,
  minCoverageReasons,
  requirementCoverage,
  type RequirementCoverage,
  totalsOf,
} from '../schema/coverage.js';
import type { ExecutionResult } from '../schema/resources.js';
import { oneLine } from '../shared/redact.js';

export {
  COVERAGE_STATUSES,
  statusOf,
  type Coverage,
  type CoverageStatus,
  type CoverageTotals,
  type RequirementCoverage,
} from '../schema/coverage.js';

export interface CoverageThresholds {
  /** Fail below this percentage of PASSED requirements. */
  minCoverage?: number;
  /** Fail when more requirements than this are FAILED. */
  maxFailingRequirements?: number;
}

/** The requirements in scope: not ARCHIVED, and the user's filter where given. */
function scopeOf(filter?: string): Filter {
  return f.and(f.ne('status', 'ARCHIVED'), filter ? f.user(filter, 'requirements') : undefined);
}

const linkedIds = (r: Resource<'requirements'>): string[] => {
  const rel = r.relationships?.testCases as { data?: { id?: unknown }[] } | undefined;
  return (Array.isArray(rel?.data) ? rel.data : [])
    .map((m) => m.id)
    .filter((id): id is string => typeof id === 'string');
};

/** Coverage of the requirements in scope over the cycle. */
export async function readCoverage(
  client: ServiceClient,
  cycleId: string,
  options: { requirements?: string } = {},
): Promise<Coverage> {
  return (await readCoverageOf(client, cycleId, options)).coverage;
}

/** The coverage, and the requirement records it was read from (their ids and statuses). */
async function readCoverageOf(
  client: ServiceClient,
  cycleId: string,
  options: { requirements?: string },
): Promise<{ coverage: Coverage; records: Resource<'requirements'>[] }> {
  const requirements = await client.listAll<'requirements'>('/requirements', {
    filter: scopeOf(options.requirements),
    sort: ['requirementKey'],
    fields: { requirements: ['requirementKey', 'name', 'status', 'testCases'] },
  });
  const results = new Map<string, ExecutionResult>();
  const keys = new Map<string, string>();
  for await (const page of client.pages<'test_case_executions'>('/test_case_executions', {
    filter: f.eq('testCycleId', cycleId),
    include: ['testCase'],
    fields: {
      test_case_executions: ['testCaseId', 'result', 'testCase'],
      test_cases: ['testCaseKey'],
    },
  })) {
    for (const e of page.data)
      results.set(String(e.attributes.testCaseId), e.attributes.result as ExecutionResult);
    for (const c of page.included) keys.set(c.id, String(c.attributes.testCaseKey ?? c.id));
  }
  const unnamed = [...new Set(requirements.flatMap(linkedIds))].filter((id) => !keys.has(id));
  if (unnamed.length)
    for (const filter of chunkIn('id', unnamed, {
      maxItems: 100,
      maxEncodedLength: MAX_FILTER_CHARS,
    }))
      for (const c of await client.listAll<'test_cases'>('/test_cases', {
        filter,
        fields: { test_cases: ['testCaseKey'] },
      }))
        keys.set(c.id, String(c.attributes.testCaseKey ?? c.id));
  const out: RequirementCoverage[] = requirements.map((r) => {
    const cases = linkedIds(r).map((id) => ({
      key: keys.get(id) ?? id,
      result: results.get(id) ?? null,
    }));
    return requirementCoverage(
      String(r.attributes.requirementKey ?? r.id),
      String(r.attributes.name ?? ''),
      cases,
    );
  });
  return { coverage: { requirements: out, totals: totalsOf(out) }, records: requirements };
}

/**
 * --mark-covered: each PASSED requirement set to COVERED, merged against the record as it is when
 * written (If-Match; a requirement that became COVERED or ARCHIVED meanwhile is left). Never the
 * reverse: no requirement leaves COVERED here, whatever its coverage.
 */
async function markCovered(
  client: ServiceClient,
  coverage: Coverage,
  records: Resource<'requirements'>[],
): Promise<string[]> {
  const passed = new Set(
    coverage.requirements.filter((r) => r.status === 'PASSED').map((r) => r.key),
  );
  const marked: string[] = [];
  for (const record of records) {
    const key = String(record.attributes.requirementKey ?? record.id);
    if (!passed.has(key) || !markable(record.attributes.status)) continue;
    const { written } = await updateWithRetry(client, 'requirements', record.id, {
      change: (current) =>
        markable(current.attributes.status) ? { status: 'COVERED' as const } : null,
    });
    if (written) marked.push(key);
  }
  return marked;
}

const markable = (status: unknown) => status !== 'COVERED' && status !== 'ARCHIVED';

/** The thresholds missed, each naming the requirements that missed. */
export function coverageReasons(c: Coverage, t: CoverageThresholds): string[] {
  return [
    ...(t.minCoverage === undefined ? [] : minCoverageReasons(c, t.minCoverage)),
    ...(t.maxFailingRequirements === undefined
      ? []
      : maxFailingReasons(c, t.maxFailingRequirements)),
  ];
}

export function hasCoverageThresholds(t: CoverageThresholds): boolean {
  return t.minCoverage !== undefined || t.maxFailingRequirements !== undefined;
}

/** `coverage of cycle DEMO-R3 "CI": 4 requirements, 2 PASSED (50%), 1 FAILED, 0 NOT_RUN, 1 UNCOVERED`. */
export function describeCoverage(c: Coverage): string {
  const t = c.totals;
  return `${t.requirements} requirement(s): ${t.passed} PASSED${t.coverage === null ? '' : ` (${t.coverage}%)`}, ${t.failed} FAILED, ${t.notRun} NOT_RUN, ${t.uncovered} UNCOVERED`;
}

/** What `coverage` returns: the cycle, the coverage, and the thresholds' verdict. */
export interface CoverageResult extends Coverage {
  cycle: { id: string; key: string | null; name: string };
  gate: { passed: boolean; reasons: string[] };
  /** --mark-covered: the keys of the requirements set to COVERED by this run. */
  marked?: string[];
}

/** `coverage`: the cycle found (it must exist), its coverage read, the thresholds judged. */
export async function coverageOfCycle(
  client: ServiceClient,
  target: { key?: string; name?: string },
  options: { requirements?: string; markCovered?: boolean } & CoverageThresholds,
): Promise<CoverageResult> {
  const cycle = await findCycle(client, target);
  if (!cycle)
    throw new ConfigError(
      target.key ? 'cycle-key' : 'cycle-name',
      `no test cycle ${target.key ?? `"${oneLine(target.name ?? '')}"`} in this Space.`,
    );
  const { coverage, records } = await readCoverageOf(client, cycle.id, options);
  const reasons = coverageReasons(coverage, options);
  const marked = options.markCovered ? await markCovered(client, coverage, records) : undefined;
  return {
    cycle: {
      id: cycle.id,
      key: (cycle.attributes.testCycleKey as string | undefined) ?? null,
      name: String(cycle.attributes.name ?? ''),
    },
    ...coverage,
    gate: { passed: reasons.length === 0, reasons },
    ...(marked ? { marked } : {}),
  };
}
