// Sync benchmarks against the in-process emulator (built library in lib/): requests against the
// floor of docs/design.md "Sync: request budget".
import { ServiceClient } from '../lib/client/client.js';
import { startEmulator } from '../lib/emulator/index.js';
import { settingsFrom, sync, syncSettings } from '../lib/publish/index.js';

import { benchSpace, TOKEN } from './space.mjs';

/** N automated cases, keyed and named as sync keys and names the report's tests. */
const seed = (n) =>
  benchSpace(n, (i) => ({ name: `Suite.test${i}`, automationStatus: 'AUTOMATED' }));

/** The tests; `renamed(i)`: the test is renamed, its case named by an explicit key property. */
function report(n, renamed = () => false) {
  return {
    file: 'bench.xml',
    format: 'junit',
    tests: Array.from({ length: n }, (_, i) => ({
      suite: ['Suite'],
      classname: 'Suite',
      name: renamed(i) ? `test${i} renamed` : `test${i}`,
      outcome: 'passed',
      properties: renamed(i) ? { testcase: `BENCH-T${i + 1}` } : {},
    })),
  };
}

/** requests / floor for a sync of N cases: nothing changed, then 10% renamed. */
export async function syncFloors(n = 1000) {
  const emu = await startEmulator({ seed: seed(n), rateLimit: '1000000/1m' });
  const pages = Math.ceil(n / 100);
  const run = async (reports) => {
    emu.resetStats();
    const client = new ServiceClient({ baseUrl: emu.url, token: TOKEN, rateLimit: '1000000/1m' });
    try {
      const options = syncSettings(settingsFrom({ 'retire-missing': true }), {});
      const result = await sync(client, { ...options, reports });
      const s = emu.stats();
      return {
        requests: s.total,
        writes: (s.byMethod.POST ?? 0) + (s.byMethod.PATCH ?? 0) + (s.byMethod.DELETE ?? 0),
        planned: result.plannedRequests,
        renamed: result.renamed.length,
      };
    } finally {
      await client.close();
    }
  };
  const out = {};
  try {
    const unchanged = await run([report(n)]);
    // projects, then the automated cases 100 a page
    out.unchanged = { ...unchanged, floor: 1 + pages };
    const renamed = await run([report(n, (i) => i % 10 === 0)]);
    // the same reads, then per renamed case the GET that gives its ETag and the PATCH
    out.renamed10 = { ...renamed, floor: 1 + pages + 2 * (n / 10) };
  } finally {
    await emu.close();
  }
  for (const v of Object.values(out)) v.ratio = +(v.requests / v.floor).toFixed(2);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await syncFloors());
