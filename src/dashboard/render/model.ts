/**
 * The dashboard model: what the HTML page, the Markdown summary and `--json` show, as plain data
 * (JSON as is). Built by analyze() from a series read by readSeries(); renderers are pure
 * functions of it.
 */
import type { CycleCounts } from '../../schema/counts.js';
import type { ExecutionResult } from '../../schema/resources.js';

import type { PassRateBasis } from '../../schema/counts.js';

export type { PassRateBasis };

export interface DashboardCycle {
  key: string;
  name: string;
  status: string;
  createdAt?: string;
  counts: CycleCounts;
  /** Percent with two decimals; null when nothing counts for the basis. */
  passRate: number | null;
  /** Its per-test history was read (newly failing/fixed and flaky use only such cycles). */
  history: boolean;
}

export interface TestRef {
  /** The test case's id (the identity across cycles). */
  id: string;
  name: string;
  key?: string;
  /** Quarantined (the case's quarantine field, src/triage/quarantine.ts), as the page marks it. */
  quarantine?: QuarantineMark;
}

/** A quarantine as the page shows it beside a test. */
export interface QuarantineMark {
  reason: string;
  until?: string;
  by: string;
}

/** A test whose result changed between the previous and the latest cycle. */
export interface TestChange extends TestRef {
  previous: ExecutionResult;
  latest: ExecutionResult;
}

/** A test whose result flips between passed and failed (or blocked) over the window. */
export interface FlakyTest extends TestRef {
  /** Changes between passed and failed/blocked from one cycle to the next it ran in. */
  flips: number;
  failures: number;
  /** One entry per cycle of the model (oldest first); null: not in that cycle, or no history read. */
  history: (ExecutionResult | null)[];
}

/** The first `items` of a longer list: pages show top-N lists and say how many more there are. */
export interface TopList<T> {
  items: T[];
  total: number;
}

/** What a dashboard shows, made by analyze and read by the renderers (HTML, Markdown, JSON). */
export interface DashboardModel {
  /** The page's title. */
  title: string;
  /** How the series was chosen (filter text or name pattern). */
  series: string;
  /** How the pass rates count. */
  basis: PassRateBasis;
  /** ISO time the model was made (given by the caller: analyze stays pure). */
  generatedAt?: string;
  /** Oldest first, newest last. */
  cycles: DashboardCycle[];
  /** The pass rate across the cycles. */
  trend: {
    /** Pass rate per cycle, aligned with `cycles`. */
    points: (number | null)[];
    first: number | null;
    last: number | null;
    /** last - first, in points. */
    change: number | null;
  };
  /** The newest cycle against the one before; null when the series is empty. */
  latest: {
    cycle: DashboardCycle;
    previous?: DashboardCycle;
    /** Points the pass rate fell since the previous cycle (negative: it rose). */
    drop: number | null;
  } | null;
  /** Failed or blocked in the latest cycle, passed in the previous; null: a history is missing. */
  newlyFailing: TopList<TestChange> | null;
  /** Passed in the latest cycle, failed or blocked in the previous; null: a history is missing. */
  newlyFixed: TopList<TestChange> | null;
  /** null: fewer than two cycles with history. */
  flaky: (TopList<FlakyTest> & { cyclesWithHistory: number; minFlips: number }) | null;
  /** What was left out and why (budget, missing histories). */
  omitted: string[];
  /** The requests the reading was predicted to cost, those it sent, and the budget. */
  requests: { predicted: number; sent: number; budget?: number };
}

/** How each result is shown, in stacking order (bottom first): one table both renderers read. */
export const RESULT_STYLES: readonly {
  result: ExecutionResult;
  count: Exclude<keyof CycleCounts, 'total'>;
  label: string;
  color: string;
  letter: string;
  /** For the Markdown history strip. */
  mark: string;
}[] = [
  { result: 'PASSED', count: 'passed', label: 'Passed', color: '#1a7f37', letter: 'P', mark: '🟩' },
  { result: 'FAILED', count: 'failed', label: 'Failed', color: '#cf222e', letter: 'F', mark: '🟥' },
  {
    result: 'BLOCKED',
    count: 'blocked',
    label: 'Blocked',
    color: '#9a6700',
    letter: 'B',
    mark: '🟧',
  },
  {
    result: 'SKIPPED',
    count: 'skipped',
    label: 'Skipped',
    color: '#8c959f',
    letter: 'S',
    mark: '⬜',
  },
  {
    result: 'NOT_EXECUTED',
    count: 'notExecuted',
    label: 'Not executed',
    color: '#d0d7de',
    letter: 'N',
    mark: '⬜',
  },
  {
    result: 'IN_PROGRESS',
    count: 'inProgress',
    label: 'In progress',
    color: '#0969da',
    letter: 'I',
    mark: '🟦',
  },
];

export const STYLE_OF = new Map(RESULT_STYLES.map((s) => [s.result, s]));

// The series as read from the service (src/dashboard/series.ts), the input of analyze().

export interface SeriesCycle {
  id: string;
  key: string;
  name: string;
  status: string;
  rank?: number;
  createdAt?: string;
}

export interface TestInfo {
  name: string;
  key?: string;
  automationKey?: string;
  /** Its quarantine, when the case's quarantine field holds one (src/triage/quarantine.ts). */
  quarantine?: QuarantineMark;
}

export interface SeriesCycleData {
  cycle: SeriesCycle;
  counts: CycleCounts;
  /** Absent when the history was not read (budget, or history off). */
  history?: CycleHistory;
}

/**
 * A cycle's results by test case, as two parallel arrays: one id string per test is shared by
 * every cycle (interned), so 100 cycles of 10,000 executions take about 16 MB, not a Map's 100.
 */
export interface CycleHistory {
  testIds: string[];
  results: ExecutionResult[];
}

export interface RequestPlan {
  /** Pages of the cycle list (already read when the plan is made). */
  listPages: number;
  /** One per cycle (more only for a service whose grouped aggregate cannot be read). */
  aggregates: number;
  /** Execution pages per cycle, oldest first; 0 for a cycle whose history is left out or empty. */
  historyPages: number[];
  total: number;
}

/** A series of cycles as read (readSeries): what analyze makes a model of. */
export interface SeriesData {
  /** How the series was chosen, for people: the filter text or the pattern. */
  description: string;
  /** The FiltrQL sent for the cycle list (undefined: every cycle). */
  filterSent?: string;
  /** The cycles, oldest first, with their counts and, when read, their executions. */
  cycles: SeriesCycleData[];
  /** The tests met in the histories, by test case id. */
  tests: Map<string, TestInfo>;
  /** The requests planned and sent, and the budget. */
  requests: {
    /** The plan made before per-test history was read. */
    plan: RequestPlan;
    /** Requests this read sent (logical requests; the scheduler's retries are not counted). */
    sent: number;
    budget?: number;
  };
  /** What was left out and why, one sentence each (empty when nothing was). */
  omitted: string[];
}
