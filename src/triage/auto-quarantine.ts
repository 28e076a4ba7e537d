/**
 * The automatic quarantine rule (`--auto-quarantine FLIPS/CYCLES`, `--release-after K`): a test
 * failing now whose result flipped between pass and fail at least FLIPS times in the last CYCLES
 * cycles of the series is quarantined, with the rule as its reason and `by`
 * (src/triage/quarantine.ts RULE_BY); a quarantine the rule set is removed once the test PASSED in
 * each of the last K cycles. Only the rule's own quarantines are released: a person's stays.
 *
 * Requests: the series' newest cycles (one page), their FAILED and BLOCKED executions (one paged
 * read), the quarantined cases (one paged read), the executions of the candidates in those cycles
 * (`in` chunks); then, for each change, the definitions once (docs/design.md "Triage": checked
 * before any write), and a GET for the case's ETag and a PATCH.
 */
import { type Resource, type ServiceClient } from '../client/index.js';
import { ConfigError } from '../shared/errors.js';
import { chunkIn, f, type Filter } from '../client/index.js';
import type { ExecutionResult } from '../schema/resources.js';
import { isFailing } from './baseline.js';
import { DEFAULT_QUARANTINE_EXPIRY_DAYS, DEFAULT_QUARANTINE_FIELD } from '../shared/defaults.js';
import { MAX_FILTER_CHARS } from '../domain/index.js';
import {
  checkQuarantineField,
  formatQuarantine,
  quarantineOf,
  quarantineViewOf,
  RULE_BY,
  setQuarantineField,
} from './quarantine.js';
import { type CiIdentity, isPullRequest } from '../domain/index.js';
import {
  describeSeries,
  laneOf,
  matchesPattern,
  patternFilter,
  recordsOf,
} from '../domain/index.js';
import { chunkedReads, isStandIn, pagesOf } from '../domain/index.js';

export interface AutoQuarantineOptions {
  /** FLIPS/CYCLES of `--auto-quarantine`. */
  rule?: { flips: number; cycles: number };
  /** K of `--release-after`. */
  releaseAfter?: number;
}

/** `--auto-quarantine`: FLIPS/CYCLES, at least one flip, in 2 to 100 cycles (one page of the series). */
export function parseAutoQuarantine(value: string, key = 'auto-quarantine') {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const flips = Number(m?.[1]);
  const cycles = Number(m?.[2]);
  if (!m || flips < 1 || cycles < 2 || cycles > 100 || flips >= cycles)
    throw new ConfigError(
      key,
      `"${value}" is not FLIPS/CYCLES: e.g. 2/10, a test that flipped between pass and fail at least 2 times in the last 10 cycles; CYCLES from 2 to 100, FLIPS from 1 to CYCLES - 1.`,
    );
  return { flips, cycles };
}

export interface RuleChange {
  caseId: string;
  key: string;
  name: string;
  /** The flips counted (a quarantine), or the clean cycles (a release). */
  count: number;
}

export interface AutoQuarantineResult {
  quarantined: RuleChange[];
  released: RuleChange[];
  /** A dry run: nothing was written; these are what the run would do. */
  planned?: boolean;
  /** Requests the rule's reads cost. */
  readRequests: number;
  /** Requests the changes cost (planned in a dry run). */
  writeRequests: number;
  /** Why the rule did less than asked (a PR's run on a series that records no branch). */
  warnings?: string[];
}

/** Results of one case, oldest cycle first (undefined: no execution there). */
type History = (ExecutionResult | undefined)[];

/** Flips between pass and fail in a history; results other than PASSED, FAILED and BLOCKED are skipped. */
export function flipsOf(history: History): number {
  let flips = 0;
  let last: boolean | undefined;
  for (const r of history) {
    if (r !== 'PASSED' && !isFailing(r)) continue;
    const failing = isFailing(r);
    if (last !== undefined && failing !== last) flips++;
    last = failing;
  }
  return flips;
}

/**
 * The rule over the series of `cycle`. `planned`: a dry run's results for this cycle (they stand
 * in for the cycle's executions, which are not written yet).
 */
export async function applyAutoQuarantine(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  options: AutoQuarantineOptions & {
    series: string;
    field: string;
    now: Date;
    /** A quarantine without until ends this many days after it was set (0: never). */
    expiryDays?: number;
    planned?: Map<string, ExecutionResult>;
    /** Where this run is: a PR's run on a series that records no branch counts no flips. */
    ci?: CiIdentity;
  },
): Promise<AutoQuarantineResult> {
  const out: AutoQuarantineResult = {
    quarantined: [],
    released: [],
    readRequests: 0,
    writeRequests: 0,
  };
  const startedAt = client.stats.total;
  const records = recordsOf(options.series);
  if (!records.branch && !records.commit && isPullRequest(options.ci)) {
    // Flips count on one branch or one commit only (docs/design.md "Triage"): names that record
    // neither cannot tell this PR's cycles from the others'.
    out.warnings = [
      `auto-quarantine: nothing quarantined or released: this is a pull request's run, and the names of its series ${describeSeries(options.series)} record no branch, PR or commit, so its flips cannot be told from other branches'; put {branch} or {pr} (or {sha}) in cycle-name`,
    ];
    return out;
  }
  const window = Math.max(options.rule?.cycles ?? 0, options.releaseAfter ?? 0);
  const ids = await newestOfSeries(client, cycle, options.series, window);
  const at = new Map(ids.map((id, i) => [id, i]));
  const current = ids.length - 1;
  const histories = new Map<string, History>();
  const record = (caseId: string, cycleId: string, result: ExecutionResult) => {
    const h = histories.get(caseId) ?? new Array<ExecutionResult | undefined>(ids.length);
    h[at.get(cycleId)!] = result;
    histories.set(caseId, h);
  };
  // A dry run's cycle that does not exist yet has a stand-in id: it holds no executions.
  const stored = ids.filter((id) => !isStandIn(id));
  // Who fails now (or failed in the window), and who is quarantined: the candidates.
  const failingNow = new Set<string>();
  if (options.planned)
    for (const [caseId, r] of options.planned) if (isFailing(r)) failingNow.add(caseId);
  if (!options.planned && options.rule && stored.length)
    for await (const e of client.iterate<'test_case_executions'>('/test_case_executions', {
      filter: f.and(f.eq('testCycleId', cycle.id), f.in('result', ['FAILED', 'BLOCKED'])),
      fields: { test_case_executions: ['testCaseId'] },
    }))
      failingNow.add(String(e.attributes.testCaseId));
  // The quarantines that count now: an expired one (its until or the default expiry past) is
  // quarantined again by the rule when the test still flips.
  const quarantined = new Map<string, Resource<'test_cases'>>();
  const beforeQuarantined = client.stats.total;
  for await (const c of client.iterate<'test_cases'>('/test_cases', {
    filter: f.isNotNull(`customFields.${options.field}`),
    fields: { test_cases: ['testCaseKey', 'name', 'customFields', 'updatedAt'] },
  }))
    if (quarantineViewOf(c, options.field, options)?.active) quarantined.set(c.id, c);
  const byRule = [...quarantined.values()].filter(
    (c) => quarantineOf(c, options.field)?.by === RULE_BY,
  );
  const candidates = [
    ...(options.rule ? [...failingNow].filter((id) => !quarantined.has(id)) : []),
    ...(options.releaseAfter ? byRule.map((c) => c.id) : []),
  ];
  const names = new Map<string, { key: string; name: string }>();
  for (const c of quarantined.values())
    names.set(c.id, {
      key: String(c.attributes.testCaseKey ?? c.id),
      name: String(c.attributes.name ?? ''),
    });
  const quarantinedReads = client.stats.total - beforeQuarantined;
  // The candidates' executions in the stored cycles, `in` chunks under the URL limit. A dry run
  // reads those of the cases that exist (a case it would create has no past).
  const inCycles = (cycleIds: string[]) => ({
    maxItems: 100,
    maxEncodedLength: MAX_FILTER_CHARS - 40 * cycleIds.length,
    wrapChunk: (c: Filter) => f.and(f.in('testCycleId', cycleIds), c),
  });
  const existing = candidates.filter((id) => !isStandIn(id));
  if (existing.length && stored.length)
    for (const filter of chunkIn('testCaseId', existing, inCycles(stored)))
      for await (const page of client.pages<'test_case_executions'>('/test_case_executions', {
        filter,
        include: ['testCase'],
        fields: {
          test_case_executions: ['testCaseId', 'testCycleId', 'result'],
          test_cases: ['testCaseKey', 'name'],
        },
      })) {
        for (const c of page.included)
          names.set(c.id, {
            key: String(c.attributes.testCaseKey ?? c.id),
            name: String(c.attributes.name ?? ''),
          });
        for (const e of page.data)
          record(
            String(e.attributes.testCaseId),
            String(e.attributes.testCycleId),
            (e.attributes.result as ExecutionResult | undefined) ?? 'NOT_EXECUTED',
          );
      }
  if (options.planned) for (const [caseId, r] of options.planned) record(caseId, cycle.id, r);
  const named = (caseId: string, count: number): RuleChange => ({
    caseId,
    key: names.get(caseId)?.key ?? caseId,
    name: names.get(caseId)?.name ?? '',
    count,
  });
  if (options.rule) {
    const { flips, cycles } = options.rule;
    for (const caseId of failingNow) {
      if (quarantined.has(caseId)) continue;
      const h = (histories.get(caseId) ?? []).slice(-cycles);
      const n = flipsOf(h);
      if (n >= flips && isFailing(histories.get(caseId)?.[current]))
        out.quarantined.push(named(caseId, n));
    }
  }
  if (options.releaseAfter) {
    const k = options.releaseAfter;
    for (const c of byRule) {
      const h = histories.get(c.id) ?? [];
      const clean = h.length >= k && h.slice(-k).every((r) => r === 'PASSED');
      if (clean && ids.length >= k) out.released.push(named(c.id, k));
    }
  }
  const changes = out.quarantined.length + out.released.length;
  out.readRequests = options.planned
    ? // The run's reads, not this dry run's (docs/design.md "Dry run"): the series page, this
      // cycle's failures (pages of them once written), the quarantined cases, and the candidates'
      // executions in every cycle of the window, this one included, a page per 100 of them.
      1 +
      (options.rule ? pagesOf(failingNow.size) : 0) +
      quarantinedReads +
      chunkedReads(
        'testCaseId',
        candidates,
        inCycles(ids),
        (id) => (histories.get(id) ?? []).filter((r) => r !== undefined).length,
      )
    : client.stats.total - startedAt;
  out.writeRequests = changes ? 1 + 2 * changes : 0;
  if (options.planned) return { ...out, planned: true };
  if (!changes) return out;
  await checkQuarantineField(client, options.field);
  const rule = options.rule;
  for (const q of out.quarantined)
    await setQuarantineField(
      client,
      q.caseId,
      options.field,
      formatQuarantine({
        since: options.now.toISOString(),
        reason: `flipped ${q.count} times between pass and fail in the last ${rule!.cycles} cycles (auto-quarantine ${rule!.flips}/${rule!.cycles})`,
        by: RULE_BY,
      }),
    );
  for (const r of out.released) await setQuarantineField(client, r.caseId, options.field, null);
  return out;
}

/**
 * The ids of the newest `count` cycles of the series up to `cycle` (by rank) that ran on the same
 * branch or PR, or (where the names record no branch) the same commit (series.ts `laneOf`), oldest
 * first, this cycle last ('' for a cycle a dry run would create). One page: count is at most 100.
 */
async function newestOfSeries(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  template: string,
  count: number,
): Promise<string[]> {
  const rank = Number(cycle.attributes.rank);
  const ids: string[] = [];
  const lane = laneOf(template, String(cycle.attributes.name ?? ''), true);
  const page = await client.page<'test_cycles'>('/test_cycles', {
    filter: patternFilter(lane),
    sort: ['-rank'],
    fields: { test_cycles: ['name', 'rank'] },
  });
  for (const c of page.data) {
    if (c.id === cycle.id || !matchesPattern(lane, String(c.attributes.name ?? ''))) continue;
    if (Number(c.attributes.rank) < rank && ids.length < count - 1) ids.push(c.id);
  }
  return [...ids.reverse(), cycle.id];
}

/** The settings' words for a result's summary line. */
export function describeRuleChanges(result: AutoQuarantineResult): string[] {
  const verb = result.planned ? 'would ' : '';
  return [
    ...result.quarantined.map(
      (q) => `auto-quarantine: ${verb}quarantine ${q.key} "${q.name}" (flipped ${q.count} times)`,
    ),
    ...result.released.map(
      (r) => `auto-quarantine: ${verb}release ${r.key} "${r.name}" (${r.count} clean cycles)`,
    ),
  ];
}

/** Before the gate: the rule, when the gate asks for it (`gate.autoQuarantine` and its series). */
export async function ruleStep(
  client: ServiceClient,
  gate:
    | {
        autoQuarantine?: AutoQuarantineOptions;
        series?: string;
        quarantineField?: string;
        quarantineExpiryDays?: number;
        now?: () => Date;
        ci?: CiIdentity;
      }
    | undefined,
  cycle: Resource<'test_cycles'>,
  planned?: Map<string, ExecutionResult>,
): Promise<AutoQuarantineResult | undefined> {
  if (!gate?.autoQuarantine || !gate.series) return undefined;
  return applyAutoQuarantine(client, cycle, {
    ...gate.autoQuarantine,
    series: gate.series,
    field: gate.quarantineField ?? DEFAULT_QUARANTINE_FIELD,
    expiryDays: gate.quarantineExpiryDays ?? DEFAULT_QUARANTINE_EXPIRY_DAYS,
    now: gate.now?.() ?? new Date(),
    ...(planned ? { planned } : {}),
    ...(gate.ci ? { ci: gate.ci } : {}),
  });
}
