// Publish benchmarks against the in-process emulator (built library in lib/).
import { ServiceClient } from '../lib/client/client.js';
import { startEmulator } from '../lib/emulator/index.js';
import { publish, publishSettings, settingsFrom } from '../lib/publish/index.js';

import { benchSpace as seed, TOKEN } from './space.mjs';

function report(n, outcome) {
  return {
    file: 'bench.xml',
    format: 'junit',
    tests: Array.from({ length: n }, (_, i) => {
      const o = outcome(i);
      return {
        suite: ['Suite'],
        classname: 'Suite',
        name: `test${i}`,
        outcome: o,
        attempts: [{ outcome: o }],
        properties: {},
      };
    }),
  };
}

/** The publish options of `testcycle publish --cycle-name NAME`: every other setting at its default. */
function options(reports, name) {
  return { ...publishSettings(settingsFrom({ 'cycle-name': name }), {}), reports };
}

/** requests / floor for N results: fresh cycle, re-run unchanged, 10% changed. */
export async function requestFloors(n = 1000) {
  const emu = await startEmulator({ seed: seed(n), rateLimit: '1000000/1m' });
  const client = () =>
    new ServiceClient({ baseUrl: emu.url, token: TOKEN, rateLimit: '1000000/1m' });
  const pages = Math.ceil(n / 100);
  const out = {};
  try {
    let c = client();
    await publish(c, options([report(n, () => 'passed')], 'Bench'));
    out.fresh = { requests: emu.stats().total, floor: 2 * n + pages + 4 };
    await c.close();
    emu.resetStats();
    c = client();
    await publish(c, options([report(n, () => 'passed')], 'Bench'));
    out.unchanged = {
      requests: emu.stats().total,
      // projects, cycle lookup, the execution pages with their cases embedded (no case lookup)
      floor: 2 + pages,
      writes: (emu.stats().byMethod.POST ?? 0) + (emu.stats().byMethod.PATCH ?? 0),
    };
    await c.close();
    emu.resetStats();
    c = client();
    await publish(c, options([report(n, (i) => (i % 10 === 0 ? 'failed' : 'passed'))], 'Bench'));
    out.changed10 = { requests: emu.stats().total, floor: 2 + pages + 2 * (n / 10) };
    await c.close();
  } finally {
    await emu.close();
  }
  for (const v of Object.values(out)) v.ratio = +(v.requests / v.floor).toFixed(2);
  return out;
}

/** Wall time against the rate-limit floor, the limit scaled to `count` per `windowMs`. */
export async function wallFloor({ n = 300, count = 100, windowMs = 2000, publishers = 1 } = {}) {
  const emu = await startEmulator({ seed: seed(n), rateLimit: `${count}/${windowMs}ms` });
  // Backoff scaled like the window (2 s against 60 s in production).
  const scale = windowMs / 60_000;
  const clients = Array.from(
    { length: publishers },
    () =>
      new ServiceClient({
        baseUrl: emu.url,
        token: TOKEN,
        rateLimit: `${count}/${windowMs}ms`,
        retry: {
          rateLimitBaseMs: Math.max(5, 2000 * scale),
          retryBaseMs: Math.max(5, 1000 * scale),
          maxBackoffMs: 60_000 * scale,
          maxRateLimitAttempts: 50,
        },
      }),
  );
  const started = performance.now();
  try {
    await Promise.all(
      clients.map((c, p) =>
        publish(c, options([report(n, (i) => ((i + p) % 9 === 0 ? 'failed' : 'passed'))], 'Wall')),
      ),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  const ms = performance.now() - started;
  const stats = emu.stats();
  const cycle = [...emu.service.store.all('test_cycles')].filter(
    (c) => c.attributes.name === 'Wall',
  );
  const executions =
    cycle.length === 1
      ? emu.service.store.byForeignKey('test_case_executions', 'testCycleId', cycle[0].id).length
      : -1;
  await emu.close();
  // Floor: under a sliding window of `count` per `windowMs`, request k can start no earlier than
  // floor(k / count) windows in, so the last of `total` starts after ceil(total / count) - 1 windows.
  const floorMs = Math.max(0, Math.ceil(stats.total / count) - 1) * windowMs;
  return {
    publishers,
    results: n,
    requests: stats.total,
    rateLimited: stats.rateLimited,
    ms: Math.round(ms),
    floorMs: Math.round(floorMs),
    ratio: +(ms / floorMs).toFixed(2),
    nothingLost: cycle.length === 1 && executions === n,
  };
}

/** Median latency of a filtered list over 50,000 executions. */
export async function emulatorListLatency() {
  const emu = await startEmulator({ seed: seed(1000), rateLimit: '1000000/1m' });
  const svc = emu.service;
  const caller = { userId: null, tokenId: '' };
  const cycles = Array.from({ length: 50 }, (_, i) =>
    svc.createRecord(
      'test_cycles',
      { projectId: svc.projectId, rank: i + 1, name: `cycle ${i}`, status: 'ACTIVE' },
      caller,
    ),
  );
  const cases = [...svc.store.all('test_cases')];
  const results = ['PASSED', 'FAILED', 'BLOCKED', 'SKIPPED'];
  for (let i = 0; i < 50_000; i++) {
    const r = svc.createRecord(
      'test_case_executions',
      {
        projectId: svc.projectId,
        testCaseId: cases[i % 1000].id,
        testCycleId: cycles[Math.floor(i / 1000)].id,
      },
      caller,
    );
    r.attributes.result = results[i % 4];
  }
  const filter = encodeURIComponent(
    `testCycleId = "${cycles[7].id}" AND result in ("FAILED", "BLOCKED")`,
  );
  const times = [];
  for (let i = 0; i < 51; i++) {
    const s = performance.now();
    const res = await fetch(`${emu.url}/test_case_executions?filter=${filter}&page[size]=100`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    await res.json();
    if (i > 0) times.push(performance.now() - s);
  }
  await emu.close();
  times.sort((a, b) => a - b);
  return {
    executions: 50_000,
    medianMs: +times[Math.floor(times.length / 2)].toFixed(2),
    p90Ms: +times[Math.floor(times.length * 0.9)].toFixed(2),
  };
}
