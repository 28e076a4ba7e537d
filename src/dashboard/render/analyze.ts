/**
 * From a series to the dashboard model: per-cycle counts and pass rates, the trend, the latest
 * cycle against the previous one, and the tests that flip. Pure and linear in the executions:
 * results are held as one byte per (test, cycle), so 100 cycles of 10,000 tests is 1 MB.
 */
import { passRate } from '../../schema/counts.js';
import { EXECUTION_RESULTS, type ExecutionResult } from '../../schema/resources.js';
import type {
  DashboardCycle,
  DashboardModel,
  FlakyTest,
  PassRateBasis,
  TestChange,
  TestRef,
  TopList,
} from './model.js';
import type { SeriesData, TestInfo } from './model.js';

/** How analyze judges a series: the pass-rate basis, the lists' length, what counts as flaky. */
export interface AnalyzeOptions {
  /** How the pass rate counts: `executed` (default) or `all`. */
  basis?: PassRateBasis;
  /** Longest list kept per table (newly failing, newly fixed, flaky); default 25. */
  top?: number;
  /** Flips between passed and failed a test needs to count as flaky; default 2 (both ways). */
  minFlips?: number;
  /** The page's title; default from the series. */
  title?: string;
  /** The time shown as the page's making (ISO); the caller gives it, so analyze stays pure. */
  generatedAt?: string;
}

export const DEFAULT_TOP = 25;
export const DEFAULT_MIN_FLIPS = 2;

/** Result codes: 0 means "not in this cycle, or no history". */
const CODE = new Map<ExecutionResult, number>(EXECUTION_RESULTS.map((r, i) => [r, i + 1]));
const RESULT_OF = [null, ...EXECUTION_RESULTS] as const;
const isFail = (r: ExecutionResult | null) => r === 'FAILED' || r === 'BLOCKED';
const isPass = (r: ExecutionResult | null) => r === 'PASSED';

const byName = new Intl.Collator('en', { numeric: true });
const round2 = (n: number) => Math.round(n * 100) / 100;

function top<T>(all: T[], n: number): TopList<T> {
  return { items: all.slice(0, n), total: all.length };
}

/**
 * The dashboard's model of a series: the pass-rate trend, the latest cycle against the previous,
 * newly failing and fixed tests, flaky ones. Pure: no request.
 */
export function analyze(data: SeriesData, options: AnalyzeOptions = {}): DashboardModel {
  const basis = options.basis ?? 'executed';
  const n = options.top ?? DEFAULT_TOP;
  const minFlips = options.minFlips ?? DEFAULT_MIN_FLIPS;

  const cycles: DashboardCycle[] = data.cycles.map(({ cycle, counts, history }) => ({
    key: cycle.key,
    name: cycle.name,
    status: cycle.status,
    ...(cycle.createdAt ? { createdAt: cycle.createdAt } : {}),
    counts,
    passRate: passRate(counts, basis),
    history: history !== undefined,
  }));
  const points = cycles.map((c) => c.passRate);
  const rated = points.filter((p): p is number => p !== null);
  const first = rated[0] ?? null;
  const last = rated.at(-1) ?? null;

  // One byte per (test, cycle): the tests' rows of results.
  const testIds = [...data.tests.keys()];
  const row = new Map(testIds.map((id, i) => [id, i]));
  const width = cycles.length;
  const codes = new Uint8Array(testIds.length * width);
  data.cycles.forEach(({ history }, c) => {
    if (!history) return;
    history.testIds.forEach((id, i) => {
      const t = row.get(id);
      if (t !== undefined) codes[t * width + c] = CODE.get(history.results[i]!) ?? 0;
    });
  });
  const resultAt = (t: number, c: number) => RESULT_OF[codes[t * width + c]!]!;
  const ref = (t: number): TestRef => refOf(testIds[t]!, data.tests.get(testIds[t]!)!);

  const latestIndex = width - 1;
  const latest = width ? cycles[latestIndex]! : undefined;
  const previous = width > 1 ? cycles[latestIndex - 1] : undefined;
  let newlyFailing: TopList<TestChange> | null = null;
  let newlyFixed: TopList<TestChange> | null = null;
  if (latest?.history && previous?.history) {
    const failing: TestChange[] = [];
    const fixed: TestChange[] = [];
    for (let t = 0; t < testIds.length; t++) {
      const now = resultAt(t, latestIndex);
      const before = resultAt(t, latestIndex - 1);
      if (now === null || before === null) continue;
      if (isFail(now) && isPass(before)) failing.push({ ...ref(t), previous: before, latest: now });
      else if (isPass(now) && isFail(before))
        fixed.push({ ...ref(t), previous: before, latest: now });
    }
    const order = (a: TestChange, b: TestChange) => byName.compare(a.name, b.name);
    newlyFailing = top(failing.sort(order), n);
    newlyFixed = top(fixed.sort(order), n);
  }

  const withHistory = cycles.filter((c) => c.history).length;
  let flaky: DashboardModel['flaky'] = null;
  if (withHistory >= 2) {
    const found: { t: number; flips: number; failures: number }[] = [];
    for (let t = 0; t < testIds.length; t++) {
      let flips = 0;
      let failures = 0;
      let lastClass = 0; // 1 pass, 2 fail; other results neither break nor make a flip
      for (let c = 0; c < width; c++) {
        const r = resultAt(t, c);
        const cls = isPass(r) ? 1 : isFail(r) ? 2 : 0;
        if (cls === 2) failures++;
        if (cls && lastClass && cls !== lastClass) flips++;
        if (cls) lastClass = cls;
      }
      if (flips >= minFlips) found.push({ t, flips, failures });
    }
    found.sort(
      (a, b) =>
        b.flips - a.flips ||
        b.failures - a.failures ||
        byName.compare(data.tests.get(testIds[a.t]!)!.name, data.tests.get(testIds[b.t]!)!.name),
    );
    const items: FlakyTest[] = found.slice(0, n).map(({ t, flips, failures }) => ({
      ...ref(t),
      flips,
      failures,
      history: cycles.map((_, c) => resultAt(t, c)),
    }));
    flaky = { items, total: found.length, cyclesWithHistory: withHistory, minFlips };
  }

  const drop =
    latest?.passRate != null && previous?.passRate != null
      ? round2(previous.passRate - latest.passRate)
      : null;
  return {
    title: options.title ?? 'testcycle dashboard',
    series: data.description,
    basis,
    ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
    cycles,
    trend: {
      points,
      first,
      last,
      change: first !== null && last !== null ? round2(last - first) : null,
    },
    latest: latest ? { cycle: latest, ...(previous ? { previous } : {}), drop } : null,
    newlyFailing,
    newlyFixed,
    flaky,
    omitted: data.omitted,
    requests: {
      predicted: data.requests.plan.total,
      sent: data.requests.sent,
      ...(data.requests.budget !== undefined ? { budget: data.requests.budget } : {}),
    },
  };
}

function refOf(id: string, info: TestInfo): TestRef {
  return {
    id,
    name: info.name,
    ...(info.key ? { key: info.key } : {}),
    ...(info.quarantine ? { quarantine: info.quarantine } : {}),
  };
}
