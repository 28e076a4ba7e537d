// Parsing a 100,000-testcase JUnit file: testcycle's readReport() beside the bare fast-xml-parser
// given the same options, each run in its own process (peak RSS is per process), median of the
// runs. `node bench/parse-bench.mjs [runs]` after `npm run build` measures this alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { generateJunit } from './gen-junit.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function parseBench(runs, file = '.tmp/junit-100k.xml') {
  mkdirSync('.tmp', { recursive: true });
  if (!existsSync(file)) await generateJunit(file, 100_000);
  const all = { bare: [], testcycle: [] };
  // Alternated, so that a busy moment of the machine weighs on both sides alike.
  for (let i = 0; i < runs; i++)
    for (const mode of ['bare', 'testcycle'])
      all[mode].push(
        JSON.parse(
          execFileSync(process.execPath, ['bench/parse-worker.mjs', mode, file], {
            encoding: 'utf8',
          }),
        ),
      );
  const summary = (out) => ({
    ms: median(out.map((o) => o.ms)),
    maxRssMB: median(out.map((o) => o.maxRssMB)),
    tests: out[0].tests,
    runsMs: out.map((o) => o.ms),
    runsRssMB: out.map((o) => o.maxRssMB),
  });
  const bare = summary(all.bare);
  const ours = summary(all.testcycle);
  return {
    file: { tests: ours.tests, bytes: statSync(file).size },
    bare,
    testcycle: ours,
    timeRatio: +(ours.ms / bare.ms).toFixed(2),
    rssRatio: +(ours.maxRssMB / bare.maxRssMB).toFixed(2),
    targets: { timeRatio: 1.25, rssRatio: 1.2 },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(JSON.stringify(await parseBench(Number(process.argv[2] ?? 7)), null, 2));
