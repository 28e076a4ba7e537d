// The cost of the triage gate against the in-process emulator (built library in lib/): a
// new-failure gate over a 1,000-test baseline, counted by the emulator. See BENCHMARKS.md.
import { ServiceClient } from '../lib/client/client.js';
import { startEmulator } from '../lib/emulator/index.js';
import {
  addQuarantine,
  gateCycle,
  gateSettings,
  publish,
  publishSettings,
  settingsFrom,
} from '../lib/publish/index.js';

import { benchSpace, TOKEN } from './space.mjs';

const seed = (n) =>
  benchSpace(n, undefined, {
    customFields: [{ name: 'quarantine', entity: 'test_cases', type: 'string' }],
  });

const report = (n, failed) => ({
  file: 'bench.xml',
  format: 'junit',
  tests: Array.from({ length: n }, (_, i) => {
    const outcome = failed(i) ? 'failed' : 'passed';
    return {
      suite: ['Suite'],
      classname: 'Suite',
      name: `test${i}`,
      outcome,
      attempts: [{ outcome }],
      properties: {},
    };
  }),
});

/**
 * A baseline of n results (3% failing) and a cycle of the same n tests (3% failing, half of them
 * the baseline's, 5 tests quarantined); then `gate --max-new-failures 0` on the second cycle with
 * a fresh client, and, for comparison, `gate --min-pass-rate 0` (aggregate and quarantine read).
 */
export async function triageGateCost(n = 1000) {
  const emu = await startEmulator({ seed: seed(n), rateLimit: '1000000/1m' });
  const client = () =>
    new ServiceClient({ baseUrl: emu.url, token: TOKEN, rateLimit: '1000000/1m' });
  const run = async (name, failed) => {
    const c = client();
    await publish(c, {
      ...publishSettings(settingsFrom({ 'cycle-name': 'Nightly {run_number}' }), {
        TESTCYCLE_RUN_NUMBER: name,
      }),
      reports: [report(n, failed)],
    });
    await c.close();
  };
  try {
    await run('1', (i) => i % 33 === 0); // ~3%: the baseline
    await run('2', (i) => i % 66 === 0 || i % 33 === 7); // half the same, half new
    const c = client();
    for (let i = 1; i <= 5; i++)
      await addQuarantine(c, {
        field: 'quarantine',
        caseKey: `BENCH-T${i * 7 + 1}`,
        reason: 'bench',
      });
    await c.close();
    const gate = async (values) => {
      emu.resetStats();
      const g = client();
      const started = performance.now();
      const result = await gateCycle(
        g,
        { name: 'Nightly 2' },
        gateSettings(settingsFrom({ 'cycle-name': 'Nightly {run_number}', ...values })),
      );
      const ms = Math.round(performance.now() - started);
      await g.close();
      return { result, requests: emu.stats().total, ms };
    };
    const plain = await gate({ 'min-pass-rate': 0 });
    const triage = await gate({ 'max-new-failures': 0 });
    const t = triage.result.triage;
    const failingNow = t.newFailures.length + t.stillFailing.length;
    return {
      baseline: n,
      newFailures: t.newFailures.length,
      stillFailing: failingNow - t.newFailures.length,
      fixed: t.fixed.length,
      quarantined: t.quarantined.length,
      requests: triage.requests,
      // cycle lookup, aggregate, the failing-or-quarantined read, the series page, the baseline's
      // pages, the fixed candidates' read
      floor:
        1 + 1 + Math.ceil((failingNow + t.quarantined.length) / 100) + 1 + Math.ceil(n / 100) + 1,
      withoutNewFailureGate: plain.requests,
      ms: triage.ms,
    };
  } finally {
    await emu.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await triageGateCost(Number(process.argv[2] ?? 1000)), null, 2));
