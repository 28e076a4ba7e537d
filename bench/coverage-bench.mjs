// Traceability benchmarks against the in-process emulator (built library in lib/): the requests
// of `coverage` and of an unchanged `publish --trace` against docs/design.md "Traceability:
// coverage" and "Traceability: links".
import { ServiceClient } from '../lib/client/client.js';
import { startEmulator } from '../lib/emulator/index.js';
import { publish, publishSettings, settingsFrom } from '../lib/publish/index.js';
import { coverageOfCycle, traceLinks, traceOptions } from '../lib/traceability/index.js';

import { benchSpace, TOKEN } from './space.mjs';

/** N tests Suite.test{i}, test i naming requirement i % R (a JUnit `requirement` property). */
function report(n, r) {
  return {
    file: 'bench.xml',
    format: 'junit',
    tests: Array.from({ length: n }, (_, i) => ({
      suite: ['Suite'],
      classname: 'Suite',
      name: `test${i}`,
      outcome: i % 10 === 0 ? 'failed' : 'passed',
      properties: { requirement: `BENCH-REQ${(i % r) + 1}` },
    })),
  };
}

/** requests / floor: coverage of R requirements over a cycle of N executions; an unchanged trace. */
export async function coverageFloors(n = 1000, r = 500) {
  const seed = benchSpace(n, (i) => ({ name: `case ${i}` }), {
    requirements: Array.from({ length: r }, (_, i) => ({ name: `R${i}`, status: 'APPROVED' })),
  });
  const emu = await startEmulator({ seed, rateLimit: '1000000/1m' });
  const client = new ServiceClient({ baseUrl: emu.url, token: TOKEN, rateLimit: '1000000/1m' });
  const reports = [report(n, r)];
  const settings = publishSettings(settingsFrom({ 'cycle-name': 'Bench' }), {});
  const trace = (dryRun) =>
    traceLinks(client, {
      reports,
      match: settings.match,
      trace: traceOptions(settingsFrom({})),
      remove: false,
      dryRun,
    });
  try {
    await publish(client, { ...settings, reports });
    const first = await trace(false);
    emu.resetStats();
    const again = await trace(false);
    const rerun = emu.stats();
    emu.resetStats();
    const started = performance.now();
    const coverage = await coverageOfCycle(client, { name: 'Bench' }, {});
    const ms = Math.round(performance.now() - started);
    const s = emu.stats();
    const pages = (x) => Math.ceil(x / 100);
    return {
      coverage: {
        requirements: r,
        executions: n,
        requests: s.total,
        // the cycle by name, the requirements with their linkage, the executions with their cases' keys
        floor: 1 + pages(r) + pages(n),
        ratio: +(s.total / (1 + pages(r) + pages(n))).toFixed(2),
        ms,
        totals: coverage.totals,
      },
      traceUnchanged: {
        linksMade: first.added.length,
        requests: rerun.total,
        writes: again.plannedRequests,
        // the routes, the cases by automation key, the named requirements by key
        floor: 1 + pages(n) + pages(r),
        ratio: +(rerun.total / (1 + pages(n) + pages(r))).toFixed(2),
      },
    };
  } finally {
    await client.close();
    await emu.close();
  }
}
