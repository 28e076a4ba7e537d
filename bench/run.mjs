// `npm run bench`: measured figures, written to bench/results.json and printed as a table.
// Each parse measurement runs in its own process (peak RSS is per process). See BENCHMARKS.md.
import { statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dashboardBench } from './dashboard-bench.mjs';
import { packageFootprint } from './package-bench.mjs';
import { emulatorListLatency, requestFloors, wallFloor } from './publish-bench.mjs';
import { createLatency, seedingTime } from './emulator-bench.mjs';
import { syncFloors } from './sync-bench.mjs';
import { coverageFloors } from './coverage-bench.mjs';
import { triageGateCost } from './triage-bench.mjs';
import { hostileReadTimes } from './hostile-bench.mjs';
import { parseBench } from './parse-bench.mjs';
import { caseName, legsBench } from './legs-bench.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const results = { date: new Date().toISOString(), node: process.version, runs: RUNS };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- report parsing: 100,000-testcase JUnit file vs fast-xml-parser with the same options ----
results.parse = await parseBench(RUNS);
const { bare, testcycle: ours } = results.parse;

// ---- hostile reports that could cost time: 5,000 nested elements, an entity bomb ----
results.hostile = { ms: await hostileReadTimes(RUNS, '.tmp'), target: { ms: 500 } };

// ---- requests / floor for 1,000 results ----
results.requests = await requestFloors(1000);

// ---- requests / floor for a sync of 1,000 cases: nothing changed, 10% renamed ----
results.sync = await syncFloors(1000);
// ---- traceability: coverage of 500 requirements over 1,000 executions; an unchanged --trace ----
results.traceability = await coverageFloors(1000, 500);
// ---- the new-failure gate over a 1,000-test baseline (requests / floor) ----
results.triage = await triageGateCost(1000);

// ---- wall time / rate-limit floor, the limit scaled to 100 per 2 s ----
results.wall = {
  alone: await wallFloor({ n: 300, publishers: 1 }),
  threeSharingAToken: await wallFloor({ n: 300, publishers: 3 }),
};

// ---- matrix legs on one token, as separate processes: 1, 3 and 10 legs, sliding and fixed
// windows, with and without the legs hint (BENCHMARKS.md "Legs on one token"); BENCH_LEGS_RUNS
// rounds of every case. A subset alone: node bench/legs-bench.mjs --legs 3 --window fixed ----
const legsRuns = Number(process.env.BENCH_LEGS_RUNS ?? 1);
results.legs = await legsBench({ runs: legsRuns });
// Legs in cycles of their own on one token: each census sees no other leg, and a 429 it cannot
// account for must send the legs to probing (docs/architecture.md "The request pipeline").
results.legsOwnCycles = await legsBench({
  legs: [3, 10],
  hints: [true],
  cycles: 'each',
  runs: legsRuns,
});
// Ten legs two at a time (max-parallel: 2), told the two that run at once, as the action's default
// for legs tells them (told all ten, they took 3.34 x the floor: BENCHMARKS.md).
results.legsAtOnce = await legsBench({
  legs: [10],
  hints: [true],
  atOnce: 2,
  told: 2,
  runs: legsRuns,
});

// ---- action cold start: node dist/index.js to its first output, and to the process's exit ----
const coldStart = () =>
  new Promise((resolve) => {
    const started = performance.now();
    let firstByte;
    const child = spawn(process.execPath, ['dist/index.js'], {
      env: { PATH: process.env.PATH, INPUT_TOKEN: '' },
    });
    child.stdout.once('data', () => (firstByte = performance.now() - started));
    child.on('exit', () => resolve({ firstByte, exit: performance.now() - started }));
  });
const starts = [];
for (let i = 0; i < RUNS + 2; i++) starts.push(await coldStart());
results.action = {
  coldStartMs: Math.round(median(starts.slice(2).map((s) => s.firstByte))),
  processMs: Math.round(median(starts.slice(2).map((s) => s.exit))),
  bundleBytes: statSync('dist/index.js').size,
  target: { coldStartMs: 300 },
};

// ---- emulator: a filtered list over 50,000 executions ----
results.emulator = { ...(await emulatorListLatency()), target: { medianMs: 50 } };

// ---- emulator at the size of a real Space: seeding, and a create's latency small vs large ----
results.emulatorScale = {
  seeding: await seedingTime(50_000, RUNS),
  createTestCase: await createLatency('test_cases'),
  createExecution: await createLatency('test_case_executions'),
};

// ---- dashboard: model + HTML + Markdown, 100 cycles x 10,000 executions (synthetic) ----
results.dashboard = dashboardBench(RUNS);

// ---- the npm package: tarball size and files, and what npm install adds ----
results.package = packageFootprint();

writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
const r = results.requests;
const w = results.wall;

/**
 * A row of the legs cases: every run's wall/floor and 429s (and blind legs, cycles apart; legs
 * that said they were told of too many).
 */
function legsRow(c, target) {
  const ratios = c.runs.map((r) => r.ratio);
  const blind = (r) =>
    (c.cycles === 'each' ? `, ${r.blind} of ${c.legs} legs blind` : '') +
    (r.fewer ? `, ${r.fewer} of ${c.legs} legs told of too many` : '');
  return [
    `wall/floor, ${caseName(c)} (60 per 3 s)`,
    c.runs
      .map(
        (r) =>
          `${r.ratio.toFixed(2)} (${r.rateLimited} x 429${blind(r)}${r.lost ? `, ${r.lost} LOST` : ''})`,
      )
      .join(', '),
    `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
    `${target}, nothing lost`,
  ];
}
const rows = [
  [
    'requests/floor, 1,000 results, fresh cycle',
    `${r.fresh.requests} / ${r.fresh.floor}`,
    `${r.fresh.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, re-run unchanged',
    `${r.unchanged.requests} / ${r.unchanged.floor} (${r.unchanged.writes} writes)`,
    `${r.unchanged.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, 10% changed',
    `${r.changed10.requests} / ${r.changed10.floor}`,
    `${r.changed10.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, sync of 1,000 cases, nothing changed',
    `${results.sync.unchanged.requests} / ${results.sync.unchanged.floor} (${results.sync.unchanged.writes} writes)`,
    `${results.sync.unchanged.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, sync, 10% renamed',
    `${results.sync.renamed10.requests} / ${results.sync.renamed10.floor} (${results.sync.renamed10.writes} writes)`,
    `${results.sync.renamed10.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, coverage of 500 requirements over 1,000 executions',
    `${results.traceability.coverage.requests} / ${results.traceability.coverage.floor}, ${results.traceability.coverage.ms} ms`,
    `${results.traceability.coverage.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, publish --trace re-run, 1,000 tests, nothing changed',
    `${results.traceability.traceUnchanged.requests} / ${results.traceability.traceUnchanged.floor} (${results.traceability.traceUnchanged.writes} writes)`,
    `${results.traceability.traceUnchanged.ratio}`,
    '1.00',
  ],
  [
    'requests/floor, new-failure gate, 1,000-test baseline',
    `${results.triage.requests} / ${results.triage.floor} (without it ${results.triage.withoutNewFailureGate}), ${results.triage.ms} ms`,
    `${(results.triage.requests / results.triage.floor).toFixed(2)}`,
    '1.00',
  ],
  [
    'wall/floor, alone (100 per 2 s)',
    `${w.alone.ms} ms / ${w.alone.floorMs} ms, ${w.alone.rateLimited} x 429`,
    `${w.alone.ratio}`,
    '<= 1.10, 0 x 429',
  ],
  [
    'wall/floor, 3 publishers, one token',
    `${w.threeSharingAToken.ms} ms / ${w.threeSharingAToken.floorMs} ms, ${w.threeSharingAToken.rateLimited} x 429, ${w.threeSharingAToken.nothingLost ? 'nothing lost' : 'LOST RESULTS'}`,
    `${w.threeSharingAToken.ratio}`,
    'nothing lost',
  ],
  ...results.legs.map((c) =>
    legsRow(
      c,
      c.legs === 1
        ? '<= 1.02, 0 x 429'
        : c.legs === 3
          ? '<= 1.10, <= 3 x 429'
          : '<= 1.15, <= 10 x 429',
    ),
  ),
  ...results.legsOwnCycles.map((c) =>
    legsRow(c, 'the legs find the census blind and probe (was 70-340 x 429)'),
  ),
  ...results.legsAtOnce.map((c) => legsRow(c, 'near the floor (told all ten: 3.34)')),
  [
    'parse 100k JUnit: time',
    `${ours.ms} ms vs bare ${bare.ms} ms`,
    `${results.parse.timeRatio} x`,
    '<= 1.25 x',
  ],
  [
    'parse 100k JUnit: peak RSS',
    `${ours.maxRssMB} MB vs bare ${bare.maxRssMB} MB`,
    `${results.parse.rssRatio} x`,
    '<= 1.2 x',
  ],
  ...Object.entries(results.hostile.ms).map(([name, ms]) => [
    `hostile report: ${name} read or refused`,
    `${ms} ms`,
    '',
    '< 500 ms',
  ]),
  [
    'action cold start (to first output; whole process)',
    `${results.action.coldStartMs} ms; ${results.action.processMs} ms, bundle ${(results.action.bundleBytes / 1e6).toFixed(2)} MB`,
    '',
    '< 300 ms',
  ],
  [
    'emulator: filtered list, 50,000 executions',
    `median ${results.emulator.medianMs} ms, p90 ${results.emulator.p90Ms} ms`,
    '',
    '< 50 ms median',
  ],
  [
    'emulator: start with 50,000 seeded test cases',
    `${results.emulatorScale.seeding.ms} ms`,
    '',
    '< 2,000 ms',
  ],
  ...[results.emulatorScale.createTestCase, results.emulatorScale.createExecution].map((c) => [
    `emulator: POST /${c.type}, 50,000 vs 1,000 records`,
    `median ${c.large.medianMs} ms vs ${c.small.medianMs} ms`,
    `${c.ratio} x`,
    '<= 1.2 x',
  ]),
  [
    'dashboard: 100 cycles x 10,000 executions',
    `${results.dashboard.ms} ms, peak RSS ${results.dashboard.maxRssMB} MB, HTML ${(results.dashboard.htmlBytes / 1e6).toFixed(2)} MB`,
    '',
    '< 1 s, < 200 MB, HTML < 2 MB',
  ],
];
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length), 6));
console.log(
  ['figure', 'measured', 'ratio', 'target'].map((h, i) => h.padEnd(widths[i])).join('  '),
);
for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  '));
console.log('\nwritten: bench/results.json');
