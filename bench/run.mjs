// `npm run bench`: measured figures, written to bench/results.json and printed as a table.
// Each parse measurement runs in its own process (peak RSS is per process). See BENCHMARKS.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { generateJunit } from './gen-junit.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const results = { date: new Date().toISOString(), node: process.version, runs: RUNS };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- report parsing: 100,000-testcase JUnit file vs a bare fast-xml-parser parse ----
mkdirSync('.tmp', { recursive: true });
const file = '.tmp/junit-100k.xml';
if (!existsSync(file)) await generateJunit(file, 100_000);
const measure = (mode) => {
  const out = [];
  for (let i = 0; i < RUNS; i++)
    out.push(
      JSON.parse(
        execFileSync(process.execPath, ['bench/parse-worker.mjs', mode, file], {
          encoding: 'utf8',
        }),
      ),
    );
  return {
    ms: median(out.map((o) => o.ms)),
    maxRssMB: median(out.map((o) => o.maxRssMB)),
    tests: out[0].tests,
  };
};
const bare = measure('bare');
const ours = measure('testcycle');
results.parse = {
  file: { tests: ours.tests, bytes: statSync(file).size },
  bare,
  testcycle: ours,
  timeRatio: +(ours.ms / bare.ms).toFixed(2),
  rssRatio: +(ours.maxRssMB / bare.maxRssMB).toFixed(2),
  targets: { timeRatio: 1.5, rssRatio: 1.25 },
};

writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
const rows = [
  [
    'parse 100k JUnit: time',
    `${ours.ms} ms vs bare ${bare.ms} ms`,
    `${results.parse.timeRatio} x`,
    '<= 1.5 x',
  ],
  [
    'parse 100k JUnit: peak RSS',
    `${ours.maxRssMB} MB vs bare ${bare.maxRssMB} MB`,
    `${results.parse.rssRatio} x`,
    '<= 1.25 x',
  ],
];
const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), 6));
console.log(['figure', 'measured', 'ratio', 'target'].map((h, i) => h.padEnd(w[i])).join('  '));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join('  '));
console.log('\nwritten: bench/results.json');
