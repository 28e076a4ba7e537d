/**
 * The baseline of the new-failure gate (`--max-new-failures`): the cycle a run is compared with,
 * either the previous cycle of the series, found as the trend gate finds it (src/publish/series.ts
 * `previousInSeries`), or a cycle named by `--baseline-cycle` (a key, else a name). Reading it
 * costs one paged read of its executions (100 a page, docs/service-api.md 4.1).
 */
import type { Resource, ServiceClient } from '../api/client.js';
import { ConfigError } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from '../schema/resources.js';
import { findCycle } from './cycle.js';
import {
  type CycleRef,
  literalParts,
  matchesPattern,
  type NoPreviousCycle,
  patternFilter,
  previousInSeries,
} from './series.js';

export interface BaselineOptions {
  /** A cycle's key or name (`--baseline-cycle`); absent: the previous cycle of `series`. */
  baselineCycle?: string;
  /** The cycle-name template of the series (`--baseline previous`). */
  series?: string;
}

function refOf(c: Resource<'test_cycles'>): CycleRef {
  return {
    id: c.id,
    key: String(c.attributes.testCycleKey ?? c.id),
    name: String(c.attributes.name ?? ''),
  };
}

/** The baseline cycle, or why there is none (the trend gate's "no previous cycle" cases). */
export async function findBaseline(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  options: BaselineOptions,
): Promise<CycleRef | NoPreviousCycle> {
  if (options.baselineCycle !== undefined) {
    const named = options.baselineCycle;
    // A pattern (`Nightly main {date}`, `Nightly *`): the newest cycle of that series. Otherwise
    // keys are opaque (docs/service-api.md 2): a key first, then a name; one lookup each at most.
    const found =
      literalParts(named).length > 1
        ? await newestOf(client, named, cycle.id)
        : ((await findCycle(client, { key: named })) ?? (await findCycle(client, { name: named })));
    if (!found)
      throw new ConfigError(
        'baseline-cycle',
        `no test cycle has the key or name "${oneLine(named)}" in this Space${literalParts(named).length > 1 ? ' (as a pattern: no other cycle of that series)' : ''}.`,
      );
    if (found.id === cycle.id)
      throw new ConfigError(
        'baseline-cycle',
        `"${oneLine(named)}" is the cycle being gated; name another cycle to compare with.`,
      );
    return refOf(found);
  }
  if (!options.series) return { first: false, why: 'no cycle-name template names a series' };
  return previousInSeries(client, cycle, options.series);
}

/** The newest cycle (by rank) whose name the pattern matches, other than `except`: one page. */
async function newestOf(
  client: ServiceClient,
  pattern: string,
  except: string,
): Promise<Resource<'test_cycles'> | undefined> {
  for await (const c of client.iterate<'test_cycles'>('/test_cycles', {
    filter: patternFilter(pattern),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank', 'testCycleKey'] },
  }))
    if (c.id !== except && matchesPattern(pattern, String(c.attributes.name ?? ''))) return c;
  return undefined;
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
