// Matrix legs on one token (BENCHMARKS.md "legs"): N legs as separate processes (the built CLI,
// lib/cli/bin.js), each with its own temporary folder (TMPDIR) so that no pace file is shared, as
// separate machines share none; each publishes a disjoint shard of its own size into one cycle,
// against the in-process emulator with its limit scaled down (60 per 3 s), its window sliding or
// fixed (aligned to the clock). Measured at the emulator: the time from the first request's
// arrival to the last one's, against the combined floor of the requests that went through; the
// 429s; and whether any result was lost.
//
//   node bench/legs-bench.mjs [--legs 1,3,10] [--window sliding,fixed] [--hint no,yes] [--runs N]
//                             [--cycles one|each] [--at-once N] [--told N]
//
// runs the chosen subset (default: everything, once) after `npm run build`; `npm run bench` runs
// every case (bench/run.mjs). `--cycles each` gives every leg a cycle of its own (a cycle per
// platform): the census of one cycle then sees none of the others, and the legs must find that
// out (src/client/share.ts). `--at-once N` runs N legs at a time, the next starting when one is
// done (a matrix with max-parallel, or too few runners); with `--hint yes` each leg is told
// `--told` legs (by default all of them, as strategy.job-total would). `--legs 1 --hint yes
// --told 10` is one leg told of ten: a matrix whose other legs do not publish.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../lib/emulator/index.js';
import { benchSpace, TOKEN } from './space.mjs';

export const LEGS_LIMIT = { count: 60, windowMs: 3000 };
/** Results in all the shards of a run: a floor of about 20 windows (one minute) at 60 per 3 s. */
export const LEGS_RESULTS = 600;

/** Shard sizes of `legs` legs: the largest about twice the smallest, summing to `total`. */
export function shardSizes(legs, total = LEGS_RESULTS) {
  const weights = Array.from({ length: legs }, (_, k) => 1 + (legs > 1 ? k / (legs - 1) : 0));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((total * w) / sum));
  sizes[legs - 1] += total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/** Every 7th test fails: a result the cycle must show, not only a count. */
const failing = (i) => i % 7 === 3;

function junit(first, size) {
  const cases = Array.from({ length: size }, (_, k) => {
    const i = first + k;
    return `<testcase classname="Suite" name="test${i}">${failing(i) ? '<failure message="boom"/>' : ''}</testcase>`;
  });
  return `<testsuite name="Suite">${cases.join('')}</testsuite>\n`;
}

/** One leg: the CLI's publish, in a process of its own with a temporary folder of its own. */
function leg(url, dir, report, { legs, hint, limit, cycle }) {
  const args = [
    'lib/cli/bin.js',
    'publish',
    '--base-url',
    url,
    '--report',
    report,
    '--cycle-name',
    cycle,
    '--merge',
    'worst',
    '--rate-limit',
    `${limit.count}/${limit.windowMs}ms`,
    // Backoffs scaled like the window (3 s against 60 s): 50 ms, 100 ms after a 429.
    '--retry-base-ms',
    String(Math.max(1, Math.round((1000 * limit.windowMs) / 60_000))),
    '--json',
    ...(hint ? ['--legs', String(legs)] : []),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH, TMPDIR: dir, TESTCYCLE_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** One run of `legs` legs against one emulator. */
export async function legsRun({
  legs,
  window = 'sliding',
  hint = false,
  total = LEGS_RESULTS,
  limit = LEGS_LIMIT,
  cycles = 'one',
  atOnce = legs,
  told = legs,
}) {
  const sizes = shardSizes(legs, total);
  // The rate window's clock is the wall clock (fixed windows are aligned to it); the first and
  // the last request it counts bound the run as the service saw it.
  let first = Infinity;
  let last = -Infinity;
  const clock = {
    now: () => {
      const t = performance.timeOrigin + performance.now();
      first = Math.min(first, t);
      last = Math.max(last, t);
      return t;
    },
  };
  const emu = await startEmulator({
    seed: benchSpace(total),
    rateLimit: `${limit.count}/${limit.windowMs}ms`,
    rateWindow: window,
    clock,
  });
  const dirs = sizes.map(() => mkdtempSync(join(tmpdir(), 'testcycle-leg-')));
  const started = performance.now();
  let outcomes;
  try {
    let from = 0;
    const reports = sizes.map((size, k) => {
      const file = join(dirs[k], 'report.xml');
      writeFileSync(file, junit(from, size));
      from += size;
      return file;
    });
    // `atOnce` legs at a time: each runner takes the next leg when its leg is done.
    outcomes = [];
    let next = 0;
    const runner = async () => {
      for (let k = next++; k < reports.length; k = next++)
        outcomes[k] = await leg(emu.url, dirs[k], reports[k], {
          legs: told,
          hint,
          limit,
          cycle: cycles === 'each' ? `Legs ${k + 1}` : 'Legs',
        });
    };
    await Promise.all(Array.from({ length: Math.min(atOnce, legs) }, runner));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const processMs = performance.now() - started;
  const stats = emu.stats();
  const store = emu.service.store;
  const named = [...store.all('test_cycles')].filter((c) =>
    String(c.attributes.name).startsWith('Legs'),
  );
  const byKey = new Map(
    [...store.all('test_cases')].map((c) => [c.id, String(c.attributes.automationKey)]),
  );
  // One cycle, or one a leg: a cycle too many is a result in the wrong place.
  const executions =
    named.length === (cycles === 'each' ? legs : 1)
      ? named.flatMap((c) => [...store.byForeignKey('test_case_executions', 'testCycleId', c.id)])
      : [];
  const wrong = executions.filter((e) => {
    const i = Number(byKey.get(String(e.attributes.testCaseId))?.replace('Suite.test', ''));
    return e.attributes.result !== (failing(i) ? 'FAILED' : 'PASSED');
  });
  await emu.close();
  const tookCount = stats.total - stats.rateLimited;
  const floorMs = (Math.ceil(tookCount / limit.count) - 1) * limit.windowMs;
  const ms = last - first;
  return {
    legs,
    window,
    hint,
    cycles,
    atOnce,
    told,
    sizes,
    requests: stats.total,
    // The legs' counts of the cycle (src/publish/census.ts): the only aggregates a publish
    // without thresholds sends.
    censuses: stats.byRoute['GET /test_case_executions/aggregate'] ?? 0,
    rateLimited: stats.rateLimited,
    ms: Math.round(ms),
    floorMs,
    ratio: +(ms / floorMs).toFixed(3),
    processMs: Math.round(processMs),
    exitCodes: outcomes.map((o) => o.code),
    lost: total - (executions.length - wrong.length),
    // Legs that found their census blind (other cycles on the token) and probed instead.
    blind: outcomes.filter((o) => /the rate limit was used up while this cycle/.test(o.out + o.err))
      .length,
    // Legs that said they were told of more legs than their counts ever saw publishing at once.
    fewer: outcomes.filter((o) =>
      /Matrix legs: told of \d+ legs publishing at once/.test(o.out + o.err),
    ).length,
    errors: outcomes.filter((o) => o.code !== 0).map((o) => o.err.slice(-500)),
  };
}

/** Every case asked for, `runs` times each, in alternation (a slow moment of the machine is shared). */
export async function legsBench({
  legs = [1, 3, 10],
  windows = ['sliding', 'fixed'],
  hints = [false, true],
  runs = 1,
  cycles = 'one',
  atOnce,
  told,
  onRun = () => {},
} = {}) {
  const cases = [];
  for (const window of windows)
    for (const n of legs)
      for (const hint of hints)
        // One leg with the hint only when told of more (a leg whose matrix's other legs do
        // not publish: `--legs 1 --hint yes --told 10`).
        if (n > 1 || !hint || (told ?? 1) > 1)
          // atOnce and told left undefined take legsRun's defaults (every leg, at once).
          cases.push({ legs: n, window, hint, cycles, atOnce, told });
  const results = cases.map((c) => ({ ...c, runs: [] }));
  for (let r = 0; r < runs; r++)
    for (const [k, c] of cases.entries()) {
      const run = await legsRun(c);
      results[k].runs.push(run);
      onRun(run);
    }
  return results;
}

/** `3 legs, fixed, --legs 3` */
export const caseName = ({ legs, window, hint, cycles = 'one', atOnce = legs, told = legs }) =>
  `${legs} leg${legs > 1 ? 's' : ''}${atOnce < legs ? `, ${atOnce} at a time` : ''}, ${window}${hint ? `, --legs ${told}` : ''}${cycles === 'each' ? ', a cycle each' : ''}`;

const legsWord = (n) => `${n} leg${n === 1 ? '' : 's'}`;

export function describeRun(r) {
  return `${caseName(r).padEnd(26)} ${(r.ms / 1000).toFixed(1)} s / ${(r.floorMs / 1000).toFixed(0)} s = ${r.ratio.toFixed(2)}, ${r.rateLimited} x 429, ${r.lost === 0 ? 'nothing lost' : `${r.lost} LOST`} (${r.requests} requests, ${r.censuses} of them censuses${r.blind ? `; ${legsWord(r.blind)} found the census blind` : ''}${r.fewer ? `; ${legsWord(r.fewer)} said they were told of too many` : ''}; processes ${(r.processMs / 1000).toFixed(1)} s)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      legs: { type: 'string', default: '1,3,10' },
      window: { type: 'string', default: 'sliding,fixed' },
      hint: { type: 'string', default: 'no,yes' },
      runs: { type: 'string', default: '1' },
      cycles: { type: 'string', default: 'one' },
      'at-once': { type: 'string' },
      told: { type: 'string' },
    },
  });
  await legsBench({
    legs: values.legs.split(',').map(Number),
    windows: values.window.split(','),
    hints: values.hint.split(',').map((h) => h === 'yes'),
    runs: Number(values.runs),
    cycles: values.cycles,
    ...(values['at-once'] ? { atOnce: Number(values['at-once']) } : {}),
    ...(values.told ? { told: Number(values.told) } : {}),
    onRun: (r) => {
      console.log(describeRun(r));
      for (const e of r.errors) console.log(`  leg failed: ${e}`);
    },
  });
}
