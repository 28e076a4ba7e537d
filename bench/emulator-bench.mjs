// Emulator benchmarks at the size of a real Space (built library in lib/): seeding time, and the
// latency of a create in a small versus a large Space (creates look up by index, never by scan).
import { startEmulator } from '../lib/emulator/index.js';
import { benchSpace, TOKEN } from './space.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const seedOf = (cases) =>
  benchSpace(cases, (i) => ({ name: `case ${i}`, customFields: { component: `c${i % 20}` } }), {
    customFields: [{ name: 'component', entity: 'test_cases', type: 'string' }],
  });

/** Milliseconds from startEmulator() to listening with `cases` seeded test cases (median of runs). */
export async function seedingTime(cases, runs) {
  const seed = seedOf(cases);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const emu = await startEmulator({ seed: structuredClone(seed) });
    times.push(performance.now() - started);
    await emu.close();
  }
  return { testCases: cases, ms: Math.round(median(times)), target: { ms: 2000 } };
}

/** A Space of `records` records of `type` (test cases, or executions spread over cycles of 1,000). */
async function space(type, records) {
  const cases = type === 'test_cases' ? records : Math.min(records, 1000);
  const emu = await startEmulator({ seed: seedOf(cases), rateLimit: '100000000/1m' });
  const svc = emu.service;
  const caller = { userId: null, tokenId: '' };
  const all = [...svc.store.all('test_cases')];
  const cycle = (n) =>
    svc.createRecord(
      'test_cycles',
      { projectId: svc.projectId, rank: n, name: `cycle ${n}`, status: 'ACTIVE' },
      caller,
    );
  if (type === 'test_case_executions') {
    for (let c = 0; c * 1000 < records; c++) {
      const { id } = cycle(c + 1);
      for (let i = 0; i < 1000 && c * 1000 + i < records; i++)
        svc.createRecord(
          'test_case_executions',
          { projectId: svc.projectId, testCaseId: all[i].id, testCycleId: id },
          caller,
        );
    }
  }
  // The creates under measurement go into a fresh cycle: one execution per case there.
  const target = cycle(10_000).id;
  let n = 0;
  const body = () =>
    type === 'test_cases'
      ? { name: `new case ${n++}`, rank: 1, automationKey: `New.test${n}` }
      : { testCaseId: all[n++].id, testCycleId: target };
  return {
    close: () => emu.close(),
    post: async () => {
      const started = performance.now();
      const res = await fetch(`${emu.url}/${type}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          accept: 'application/vnd.api+json',
          'content-type': 'application/vnd.api+json',
        },
        body: JSON.stringify({
          data: { type, attributes: { projectId: svc.projectId, ...body() } },
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`POST /${type}: ${res.status}`);
      return performance.now() - started;
    },
  };
}

/**
 * Median latency of POST /{type} over HTTP in a Space of `small` and of `large` records of that
 * type. Requests alternate between the two Spaces so that machine noise falls on both alike.
 */
export async function createLatency(type, { small = 1000, large = 50_000, samples = 600 } = {}) {
  const spaces = [await space(type, small), await space(type, large)];
  const times = [[], []];
  const count = type === 'test_cases' ? samples + 50 : Math.min(samples + 50, 1000);
  for (let i = 0; i < count; i++) {
    for (const s of [0, 1]) {
      const ms = await spaces[s].post();
      if (i >= 50) times[s].push(ms);
    }
  }
  await Promise.all(spaces.map((s) => s.close()));
  const [smallMs, largeMs] = times.map((t) => +median(t).toFixed(3));
  return {
    type,
    samples: times[0].length,
    small: { records: small, medianMs: smallMs },
    large: { records: large, medianMs: largeMs },
    ratio: +(largeMs / smallMs).toFixed(2),
    target: { ratio: 1.2 },
  };
}
