/**
 * A series of cycles, read through the ServiceClient for a dashboard.
 *
 * A *series* is the set of cycles one pipeline produces run after run, chosen either by
 *  - a FiltrQL filter the user writes (`--series-filter 'name ~ "Nightly"'`), parsed by the safe
 *    user-filter path so it stays inside its parentheses; or
 *  - a name pattern (`--series-name 'Nightly *'`, or the cycle-name template itself, `Nightly
 *    {date}`): the literal parts must appear in that order, and every `*` and every placeholder
 *    (`{date}`, `{sha7}`, `{env:STAGE}` ...) stands for any text. The service only offers a
 *    case-insensitive "contains" (`~`), so the request asks for names containing each literal
 *    part and the exact, case-sensitive match is made here on what comes back.
 * Cycles are ordered by `rank`, the documented order of test cycles (docs/service-api.md 2.6), which
 * publish sets to one past the highest rank on create, so rank order is creation order. The last
 * N of the series are read and returned oldest first (newest last).
 *
 * Cost (requests are the unit of cost: docs/service-api.md 8): list pages of cycles (one for N <= 100
 * with a filter), ONE grouped aggregate per cycle for its counts, then, for per-test history, the
 * cycle's executions in pages of 100: ceil(total / 100) pages per cycle, total from the aggregate.
 * The prediction is made before the history is read; a `maxRequests` budget is honoured by
 * leaving out the oldest cycles' histories first (then the oldest cycles' counts), and the result
 * says what was left out. Every request goes through the client's one scheduler (its pacing).
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { MAX_PAGE_SIZE } from '../client/index.js';
import { ConfigError, ServiceError } from '../shared/errors.js';
import { f, type Filter, toFiltrQL } from '../client/index.js';
import { cycleCounts, readGrouped } from '../domain/index.js';
import { countsFrom, type CycleCounts } from '../schema/counts.js';
import { DEFAULT_LAST } from '../shared/defaults.js';
import { matchesPattern, patternFilter } from '../domain/index.js';
import { EXECUTION_RESULTS, type ExecutionResult } from '../schema/resources.js';
import { quarantineOf } from '../triage/index.js';

import type {
  CycleHistory,
  RequestPlan,
  SeriesCycle,
  SeriesCycleData,
  SeriesData,
  TestInfo,
} from './render/index.js';

/** Which cycles form the series: a FiltrQL filter, or a name pattern. */
export type SeriesSpec =
  /** FiltrQL text a user wrote, e.g. `name ~ "Nightly" AND status = "DONE"`. */
  | { filter: string; namePattern?: undefined }
  /** `Nightly *` or a cycle-name template such as `Nightly {date}`. */
  | { namePattern: string; filter?: undefined };

/** How much of a series readSeries reads, and within what budget of requests. */
export interface ReadSeriesOptions {
  /** How many of the newest cycles; default 20. */
  last?: number;
  /** Read each cycle's executions for per-test history (newly failing/fixed, flaky); default true. */
  history?: boolean;
  /** At most this many requests in all. */
  maxRequests?: number;
  /** Executions per page, 1..100; default 100 (fewest requests). */
  pageSize?: number;
  /** Called once counts are known and before the costly part, with the whole prediction. */
  onPlan?: (plan: RequestPlan) => void;
  /** The test-case custom field of quarantines: the embedded cases carry it, the page marks them. */
  quarantineField?: string;
}

function seriesFilter(spec: SeriesSpec): Filter | undefined {
  if (spec.filter !== undefined) return f.user(spec.filter, 'series-filter');
  if (!spec.namePattern.trim())
    throw new ConfigError('series-name', 'is empty: give a name pattern such as "Nightly *".');
  return patternFilter(spec.namePattern);
}

function inSeries(spec: SeriesSpec, name: string): boolean {
  return spec.namePattern === undefined || matchesPattern(spec.namePattern, name);
}

function toCycle(r: Resource<'test_cycles'>): SeriesCycle {
  const a = r.attributes;
  return {
    id: r.id,
    key: typeof a.testCycleKey === 'string' ? a.testCycleKey : r.id,
    name: typeof a.name === 'string' ? a.name : '',
    status: typeof a.status === 'string' ? a.status : '',
    ...(typeof a.rank === 'number' ? { rank: a.rank } : {}),
    ...(typeof a.createdAt === 'string' ? { createdAt: a.createdAt } : {}),
  };
}

/** Pages of executions for a cycle holding `total` of them. */
export function historyPagesFor(total: number, pageSize = MAX_PAGE_SIZE): number {
  return Math.ceil(total / pageSize);
}

/** The whole prediction: list pages + one aggregate per cycle + execution pages per cycle. */
export function predictRequests(input: {
  listPages: number;
  aggregates: number;
  historyPages: number[];
}): RequestPlan {
  const history = input.historyPages.reduce((sum, n) => sum + n, 0);
  return { ...input, total: input.listPages + input.aggregates + history };
}

/** Counts a request against the budget before it is sent. */
class Budget {
  sent = 0;
  constructor(readonly max: number | undefined) {}
  get left(): number {
    return this.max === undefined ? Infinity : this.max - this.sent;
  }
  take(): void {
    this.sent++;
  }
}

function checkCount(value: number | undefined, parameter: string, min: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min))
    throw new ConfigError(parameter, `must be a whole number of at least ${min} (got ${value}).`);
}

/**
 * The newest cycles of the series, newest first, reading list pages while the budget leaves room
 * for at least one aggregate after them. Pages come from client.pages (links.next verbatim, 4.1),
 * which asks for the next page only when the loop goes on.
 */
async function newestCycles(
  client: ServiceClient,
  spec: SeriesSpec,
  want: number,
  budget: Budget,
  extra?: Filter,
): Promise<{ cycles: SeriesCycle[]; pages: number; filter?: Filter; complete: boolean }> {
  const conditions = [seriesFilter(spec), extra].filter((c): c is Filter => c !== undefined);
  const filter = conditions.length ? f.and(...conditions) : undefined;
  const cycles: SeriesCycle[] = [];
  let pages = 0;
  if (budget.left < 2) return { cycles, pages, filter, complete: false };
  budget.take();
  for await (const page of client.pages<'test_cycles'>('/test_cycles', {
    ...(filter ? { filter } : {}),
    sort: ['-rank'],
    // A filter's matches are all in the series; a pattern's may not be (exact match made here).
    pageSize: spec.filter !== undefined ? Math.min(want, MAX_PAGE_SIZE) : MAX_PAGE_SIZE,
  })) {
    pages++;
    for (const r of page.data) {
      const cycle = toCycle(r);
      if (inSeries(spec, cycle.name)) cycles.push(cycle);
      if (cycles.length === want) return { cycles, pages, filter, complete: true };
    }
    if (!page.next || page.data.length === 0) break;
    if (budget.left < 2) return { cycles, pages, filter, complete: false };
    budget.take();
  }
  return { cycles, pages, filter, complete: true };
}

/** What the gate's cycleCounts sends when the grouped answer cannot be read: it again, then one per result. */
const UNGROUPED_COST = 1 + EXECUTION_RESULTS.length;

/**
 * One cycle's counts: one grouped aggregate (docs/service-api.md 4.3), read as the gate reads it. A
 * service whose grouped answer cannot be read is asked as the gate asks it (one ungrouped count
 * per result, docs/design.md) when the budget allows.
 */
async function cycleCountsWithin(
  client: ServiceClient,
  cycleId: string,
  budget: Budget,
  grouping: { unreadable: boolean },
): Promise<CycleCounts | undefined> {
  if (!grouping.unreadable) {
    budget.take();
    const doc = await client.aggregate('test_case_executions', {
      filter: f.eq('testCycleId', cycleId),
      count: true,
      groupBy: ['result'],
    });
    const grouped = readGrouped(doc);
    if (grouped) return countsFrom(grouped);
    grouping.unreadable = true;
  }
  if (budget.left < UNGROUPED_COST) return undefined;
  for (let i = 0; i < UNGROUPED_COST; i++) budget.take();
  return cycleCounts(client, cycleId);
}

const RESULTS = new Set<string>(EXECUTION_RESULTS);

/**
 * A cycle's executions with their test cases embedded (include=testCase), page by page while the
 * budget allows; undefined when the budget ran out before the last page (a partial history would
 * invent changes). A service that refuses the include (400) is read without it, names unknown.
 */
async function readHistory(
  client: ServiceClient,
  cycleId: string,
  tests: Map<string, TestInfo>,
  budget: Budget,
  options: { pageSize: number; include: boolean; ids: Map<string, string>; field?: string },
): Promise<CycleHistory | undefined> {
  const path = `/test_cycles/${encodeURIComponent(cycleId)}/testCaseExecutions`;
  for (;;) {
    const include = options.include;
    const history: CycleHistory = { testIds: [], results: [] };
    if (budget.left < 1) return undefined;
    budget.take();
    try {
      for await (const page of client.pages<'test_case_executions'>(path, {
        fields: {
          test_case_executions: ['testCaseId', 'result'],
          ...(include
            ? {
                test_cases: [
                  'name',
                  'testCaseKey',
                  'automationKey',
                  ...(options.field ? ['customFields'] : []),
                ],
              }
            : {}),
        },
        ...(include ? { include: ['testCase'] } : {}),
        pageSize: options.pageSize,
      })) {
        for (const r of page.included)
          if (r.type === 'test_cases') tests.set(r.id, testInfo(r, options.field));
        for (const r of page.data) {
          const read = String(r.attributes.testCaseId ?? '');
          if (!read) continue;
          let caseId = options.ids.get(read);
          if (caseId === undefined) options.ids.set(read, (caseId = read));
          const result = String(r.attributes.result ?? 'NOT_EXECUTED');
          history.testIds.push(caseId);
          history.results.push((RESULTS.has(result) ? result : 'NOT_EXECUTED') as ExecutionResult);
          if (!tests.has(caseId)) tests.set(caseId, { name: caseId });
        }
        if (!page.next || page.data.length === 0) break;
        if (budget.left < 1) return undefined;
        budget.take();
      }
      return history;
    } catch (error) {
      const refusedInclude =
        include &&
        history.testIds.length === 0 &&
        error instanceof ServiceError &&
        error.status === 400;
      if (!refusedInclude) throw error;
      options.include = false;
    }
  }
}

function testInfo(r: Resource, field: string | undefined): TestInfo {
  const a = r.attributes as Record<string, unknown>;
  const q = field ? quarantineOf(r, field) : undefined;
  return {
    name: typeof a.name === 'string' ? a.name : r.id,
    ...(typeof a.testCaseKey === 'string' ? { key: a.testCaseKey } : {}),
    ...(typeof a.automationKey === 'string' ? { automationKey: a.automationKey } : {}),
    ...(q
      ? { quarantine: { reason: q.reason, by: q.by, ...(q.until ? { until: q.until } : {}) } }
      : {}),
  };
}

/** Reads the last N cycles of a series, their counts and (budget allowing) their per-test history. */
export async function readSeries(
  client: ServiceClient,
  spec: SeriesSpec,
  options: ReadSeriesOptions = {},
): Promise<SeriesData> {
  const last = options.last ?? DEFAULT_LAST;
  checkCount(last, 'last', 1);
  checkCount(options.maxRequests, 'max-requests', 2);
  checkCount(options.pageSize, 'page-size', 1);
  const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const budget = new Budget(options.maxRequests);
  const omitted: string[] = [];

  const listed = await newestCycles(client, spec, last, budget);
  if (!listed.complete)
    omitted.push(
      `the cycle list was read only to ${listed.cycles.length} cycles: the budget of ${budget.max} requests ran out`,
    );

  // Counts, newest first, so a short budget leaves out the oldest.
  const counted: SeriesCycleData[] = [];
  const grouping = { unreadable: false };
  let aggregates = 0;
  for (const cycle of listed.cycles) {
    if (budget.left < 1) break;
    const before = budget.sent;
    const counts = await cycleCountsWithin(client, cycle.id, budget, grouping);
    aggregates += budget.sent - before;
    if (!counts) break;
    counted.push({ cycle, counts });
  }
  if (counted.length < listed.cycles.length)
    omitted.push(
      `${listed.cycles.length - counted.length} oldest cycles left out entirely (no room for their counts in ${budget.max} requests)`,
    );

  // History: newest first while it fits; the oldest cycles' histories are dropped first.
  const wanted = options.history ?? true;
  const historyPages = counted.map(() => 0);
  if (wanted) {
    let left = budget.left;
    for (let i = 0; i < counted.length; i++) {
      const pages = historyPagesFor(counted[i]!.counts.total, pageSize);
      if (pages > left) break;
      historyPages[i] = pages;
      left -= pages;
    }
  }
  const plan = predictRequests({
    listPages: listed.pages,
    aggregates,
    historyPages: [...historyPages].reverse(),
  });
  options.onPlan?.(plan);

  const tests = new Map<string, TestInfo>();
  const include = {
    pageSize,
    include: true,
    ids: new Map<string, string>(),
    field: options.quarantineField,
  };
  const withoutHistory: string[] = [];
  for (let i = 0; i < counted.length; i++) {
    const item = counted[i]!;
    if (!wanted) continue;
    if (item.counts.total === 0) {
      item.history = { testIds: [], results: [] };
      continue;
    }
    const history =
      historyPages[i]! > 0
        ? await readHistory(client, item.cycle.id, tests, budget, include)
        : undefined;
    if (history) item.history = history;
    else withoutHistory.push(item.cycle.key);
  }
  if (withoutHistory.length)
    omitted.push(
      `per-test history left out for the ${withoutHistory.length} oldest cycles (${withoutHistory.reverse().join(', ')}): it needs more than the ${budget.max} requests allowed`,
    );

  return {
    description:
      spec.filter !== undefined ? `filter: ${spec.filter}` : `name pattern: ${spec.namePattern}`,
    ...(listed.filter ? { filterSent: toFiltrQL(listed.filter) } : {}),
    cycles: counted.reverse(),
    tests,
    requests: {
      plan,
      sent: budget.sent,
      ...(budget.max !== undefined ? { budget: budget.max } : {}),
    },
    omitted,
  };
}
