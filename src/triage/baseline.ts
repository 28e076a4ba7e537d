/**
 * The baseline of the new-failure gate (`--max-new-failures`): the cycle a run is compared with
 * (docs/design.md "Triage"). Like with like: a pull request's run compares with the latest complete
 * cycle of the base branch's series (`baseline-series`), never another PR's cycle; any other run
 * with the previous cycle of its own series, of its own branch or PR where the template names it
 * (src/domain/series.ts `laneOf`, as the trend gate finds it); `--baseline-cycle` names one (a
 * key, else a name, else a pattern's latest complete cycle). Reading it costs one paged read of
 * its executions (100 a page, docs/service-api.md 4.1).
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { ConfigError } from '../shared/errors.js';
import { DEFAULT_BASELINE_SERIES } from '../shared/defaults.js';
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from '../schema/resources.js';
import { type CiIdentity, isPullRequest } from '../domain/index.js';
import { findCycle } from '../domain/index.js';
import {
  compilePattern,
  type CycleRef,
  describeSeries,
  laneOf,
  literalParts,
  matchesPattern,
  type NamePattern,
  type NoPreviousCycle,
  patternFilter,
  previousInSeries,
  SERIES_PAGES,
} from '../domain/index.js';

/** Which cycle the new failures are counted against (setting `baseline`). */
export type BaselineMode = 'auto' | 'previous' | 'series';

export interface BaselineOptions {
  /** A cycle's key or name, or a pattern (`--baseline-cycle`): wins over `baseline`. */
  baselineCycle?: string;
  /** The cycle-name template of this run's series (`baseline previous`). */
  series?: string;
  /**
   * `auto` (the default): a pull request's run against `baselineSeries`, any other against the
   * previous cycle of `series`; `previous` and `series` pick one for every run.
   */
  baseline?: BaselineMode;
  /** The base branch's series (`baseline-series`, default `Nightly {date}`). */
  baselineSeries?: string;
  /** Where this run is (src/domain/context.ts): a PR's run, its target branch. */
  ci?: CiIdentity;
}

function refOf(c: Resource<'test_cycles'>): CycleRef {
  return {
    id: c.id,
    key: String(c.attributes.testCycleKey ?? c.id),
    name: String(c.attributes.name ?? ''),
  };
}

/** The series a run's baseline comes from, as `baseline` (and the run's identity) decide. */
export function baselineSource(options: BaselineOptions): 'cycle' | 'previous' | 'series' {
  if (options.baselineCycle !== undefined) return 'cycle';
  const mode = options.baseline ?? 'auto';
  if (mode === 'auto') return isPullRequest(options.ci) ? 'series' : 'previous';
  return mode;
}

/** The baseline cycle, or why there is none (the trend gate's "no previous cycle" cases). */
export async function findBaseline(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  options: BaselineOptions,
): Promise<CycleRef | NoPreviousCycle> {
  const source = baselineSource(options);
  if (source === 'cycle') {
    const named = options.baselineCycle!;
    const pattern = literalParts(named).length > 1;
    // A pattern (`Nightly main {date}`, `Nightly *`): the latest complete cycle of that series.
    // Otherwise keys are opaque (docs/service-api.md 2): a key first, then a name; one lookup each.
    const found = pattern
      ? await latestComplete(client, compilePattern(named), cycle.id)
      : ((await findCycle(client, { key: named })) ?? (await findCycle(client, { name: named })));
    if (!found || 'why' in found)
      throw new ConfigError(
        'baseline-cycle',
        `no test cycle has the key or name "${oneLine(named)}" in this Space${found ? ` (as a pattern: ${found.why})` : ''}.`,
      );
    if (found.id === cycle.id)
      throw new ConfigError(
        'baseline-cycle',
        `"${oneLine(named)}" is the cycle being gated; name another cycle to compare with.`,
      );
    return refOf(found);
  }
  const name = String(cycle.attributes.name ?? '');
  if (source === 'series') {
    const ci = options.ci;
    // `{branch}` of the base branch's series is the PR's target (or, outside a PR, this branch).
    const branch = ci?.baseBranch ?? ci?.branch;
    const pattern = compilePattern(
      options.baselineSeries ?? DEFAULT_BASELINE_SERIES,
      branch ? { branch } : {},
    );
    // A PR's own series (its template names {pr}) never gives the baseline, whatever the pattern.
    const own =
      options.series && /\{pr\}/.test(options.series) ? compilePattern(options.series) : undefined;
    const found = await latestComplete(client, pattern, cycle.id, own);
    return 'why' in found ? found : refOf(found);
  }
  if (!options.series) return { first: false, why: 'no cycle-name template names a series' };
  return previousInSeries(client, cycle, laneOf(options.series, name));
}

/**
 * The newest complete cycle (by rank) of a series other than `except`: DONE, or followed by a
 * later cycle of the series (a later run started the next one, so none writes into it any more).
 * The newest cycle still ACTIVE may be half written (the nightly running while a PR is gated): it
 * is never the baseline. Cycles `own` matches (a PR's own series) are skipped. At most
 * SERIES_PAGES pages, newest first: usually one request.
 */
async function latestComplete(
  client: ServiceClient,
  pattern: NamePattern,
  except: string,
  own?: NamePattern,
): Promise<Resource<'test_cycles'> | NoPreviousCycle> {
  let seen = 0;
  let pages = 0;
  const incomplete: string[] = [];
  for await (const page of client.pages<'test_cycles'>('/test_cycles', {
    filter: patternFilter(pattern),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank', 'status', 'testCycleKey'] },
  })) {
    for (const c of page.data) {
      const name = String(c.attributes.name ?? '');
      if (!matchesPattern(pattern, name) || (own && matchesPattern(own, name))) continue;
      const later = seen++ > 0;
      if (c.id === except) continue;
      if (later || c.attributes.status === 'DONE') return c;
      incomplete.push(
        `${String(c.attributes.testCycleKey ?? c.id)} (${String(c.attributes.status)})`,
      );
    }
    if (++pages >= SERIES_PAGES) break;
  }
  const series = describeSeries(pattern);
  return {
    first: false,
    why: incomplete.length
      ? `the series ${series} has no complete cycle: its newest, ${incomplete.join(', ')}, is not DONE and no later cycle of the series follows it`
      : `no cycle of the series ${series} in this Space`,
  };
}

/** Every execution's result in the baseline, by test case: one paged read, two fields. */
export async function readBaseline(
  client: ServiceClient,
  baselineId: string,
): Promise<Map<string, ExecutionResult>> {
  const results = new Map<string, ExecutionResult>();
  for await (const e of client.iterate<'test_case_executions'>(
    `/test_cycles/${encodeURIComponent(baselineId)}/testCaseExecutions`,
    { fields: { test_case_executions: ['testCaseId', 'result'] } },
  ))
    results.set(
      String(e.attributes.testCaseId),
      (e.attributes.result as ExecutionResult | undefined) ?? 'NOT_EXECUTED',
    );
  return results;
}

export const isFailing = (r: ExecutionResult | undefined): boolean =>
  r === 'FAILED' || r === 'BLOCKED';
