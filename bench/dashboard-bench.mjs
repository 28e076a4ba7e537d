// Dashboard benchmark: model + HTML + Markdown for 100 cycles × 10,000 executions,
// synthetic input (no server), each run in its own process so peak RSS is that run's alone.
// `node bench/dashboard-bench.mjs` prints one run's figures; bench/run.mjs calls dashboardBench().
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { analyze, renderHtml, renderMarkdown, renderJson } from '../lib/dashboard/index.js';

const RESULTS = ['PASSED', 'FAILED', 'BLOCKED', 'SKIPPED', 'NOT_EXECUTED', 'IN_PROGRESS'];

/** A seeded xorshift: the same series every run. */
function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** `cycles` cycles of `tests` executions: 3% of the tests flip at random, 1% fail throughout. */
export function syntheticSeries(cycles = 100, tests = 10_000) {
  const random = prng(15);
  const ids = Array.from(
    { length: tests },
    (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  );
  const testMap = new Map(
    ids.map((id, i) => [
      id,
      {
        name: `Suite ${Math.floor(i / 50)} › behaves as described in scenario ${i} of the catalogue`,
        key: `DEMO-T${i + 1}`,
      },
    ]),
  );
  const series = [];
  for (let c = 0; c < cycles; c++) {
    // Each cycle its own array, as read from the service (the id strings themselves are shared).
    const history = { testIds: [...ids], results: [] };
    const byResult = Object.fromEntries(RESULTS.map((r) => [r, 0]));
    for (let i = 0; i < tests; i++) {
      let result = 'PASSED';
      if (i % 100 < 3) result = random() < 0.3 ? 'FAILED' : 'PASSED';
      else if (i % 100 === 3) result = 'FAILED';
      else if (i % 100 === 4) result = 'SKIPPED';
      else if (random() < 0.002) result = 'BLOCKED';
      history.results.push(result);
      byResult[result]++;
    }
    series.push({
      cycle: { id: `cycle-${c}`, key: `DEMO-R${c + 1}`, name: `Nightly ${c + 1}`, status: 'DONE' },
      counts: {
        passed: byResult.PASSED,
        failed: byResult.FAILED,
        blocked: byResult.BLOCKED,
        skipped: byResult.SKIPPED,
        notExecuted: byResult.NOT_EXECUTED,
        inProgress: byResult.IN_PROGRESS,
        total: tests,
      },
      history,
    });
  }
  const pages = Math.ceil(tests / 100);
  const plan = {
    listPages: 1,
    aggregates: cycles,
    historyPages: Array(cycles).fill(pages),
    total: 1 + cycles + cycles * pages,
  };
  return {
    description: 'name pattern: Nightly *',
    cycles: series,
    tests: testMap,
    requests: { plan, sent: plan.total },
    omitted: [],
  };
}

/** One measurement in this process: time of analyze + renderers, peak RSS, output sizes. */
function measureOnce() {
  const data = syntheticSeries();
  const inputRssMB = Math.round(process.memoryUsage().rss / 1024 / 1024);
  const started = performance.now();
  const model = analyze(data, { generatedAt: '2026-11-23T00:00:00Z' });
  const html = renderHtml(model);
  const markdown = renderMarkdown(model);
  const ms = Math.round(performance.now() - started);
  const json = renderJson(model);
  return {
    cycles: data.cycles.length,
    executions: data.cycles.length * data.tests.size,
    ms,
    inputRssMB,
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    htmlBytes: Buffer.byteLength(html),
    markdownBytes: Buffer.byteLength(markdown),
    jsonBytes: Buffer.byteLength(json),
    flaky: model.flaky.total,
  };
}

/** The median of `runs` runs, each in its own process. */
export function dashboardBench(runs = 5) {
  const out = [];
  for (let i = 0; i < runs; i++)
    out.push(
      JSON.parse(
        execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--one'], {
          encoding: 'utf8',
        }),
      ),
    );
  const median = (key) => [...out.map((o) => o[key])].sort((a, b) => a - b)[Math.floor(runs / 2)];
  return {
    ...out[0],
    ms: median('ms'),
    maxRssMB: median('maxRssMB'),
    inputRssMB: median('inputRssMB'),
    targets: { ms: 1000, maxRssMB: 200, htmlBytes: 2_000_000 },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--one')) console.log(JSON.stringify(measureOnce()));
  else console.log(JSON.stringify(dashboardBench(Number(process.env.BENCH_RUNS ?? 3)), null, 2));
}
