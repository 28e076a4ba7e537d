// `npm run soak -- FIRST LAST [CHAOS]`: the reliability suite's chaos case over many seeds, for
// hunting rare failures. Each seed: the CLI publishes 300 results into a fresh emulator with the
// injected faults, and the final state is checked result by result. Prints one line per seed.
// CHAOS defaults to the suite's rates; seed=N is appended per run.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../lib/emulator/index.js';

const [
  first = '1',
  last = first,
  chaos = '429=0.04,5xx=0.04,reset=0.03,latency=0-4,etag-bump=0.08',
] = process.argv.slice(2);
const TOKEN = 'soak-token-0123456789';
const N = 300;
const dir = mkdtempSync(join(tmpdir(), 'testcycle-soak-'));
const outcomeOf = (i, seed) =>
  (i * 7 + seed) % 10 < 2 ? 'FAILED' : (i * 3 + seed) % 13 === 0 ? 'SKIPPED' : 'PASSED';
const element = { FAILED: '<failure message="boom"/>', SKIPPED: '<skipped/>', PASSED: '' };

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['lib/cli/bin.js', ...args], { env });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

let failed = 0;
for (let seed = Number(first); seed <= Number(last); seed++) {
  const file = join(dir, `soak${seed}.xml`);
  const cases = Array.from(
    { length: N },
    (_, i) =>
      `<testcase classname="Suite" name="test${i}">${element[outcomeOf(i, seed)]}</testcase>`,
  );
  writeFileSync(
    file,
    `<testsuites><testsuite name="s">${cases.join('')}</testsuite></testsuites>\n`,
  );
  const emu = await startEmulator({
    seed: {
      project: { key: 'SOAK' },
      tokens: [{ token: TOKEN, role: 'read-write' }],
      testCases: Array.from({ length: N }, (_, i) => ({
        name: `case ${i}`,
        automationKey: `Suite.test${i}`,
        status: 'ACTIVE',
      })),
    },
    rateLimit: '100000/1m',
    chaos: `${chaos},seed=${seed}`,
  });
  const { code, stderr } = await run(['publish', '--report', file, '--cycle-name', 'Soak'], {
    PATH: process.env.PATH,
    TESTCYCLE_RETRY_BASE_MS: '20', // dense injected faults: short backoff, as in the suite
    TESTCYCLE_BASE_URL: emu.url,
    TESTCYCLE_TOKEN: TOKEN,
    TESTCYCLE_RATE_LIMIT: '100000/1m',
  });
  // The final state, from the emulator's store: one execution per case with the report's result.
  const store = emu.service.store;
  const cycles = [...store.all('test_cycles')].filter((c) => c.attributes.name === 'Soak');
  const byCase = new Map();
  for (const e of cycles.flatMap((c) =>
    store.byForeignKey('test_case_executions', 'testCycleId', c.id),
  )) {
    const key = store.get('test_cases', String(e.attributes.testCaseId)).attributes.automationKey;
    byCase.set(key, [...(byCase.get(key) ?? []), e.attributes.result]);
  }
  const wrong = Array.from({ length: N }, (_, i) => i).filter((i) => {
    const got = byCase.get(`Suite.test${i}`);
    return got?.length !== 1 || got[0] !== outcomeOf(i, seed);
  });
  const exact = cycles.length === 1 && byCase.size === N && wrong.length === 0;
  const requests = emu.stats().total;
  await emu.close();
  if (code !== 0 || !exact) failed++;
  console.log(
    `seed ${seed}: exit ${code}, ${requests} requests, ${exact ? 'exact' : `NOT exact (${wrong.length} wrong)`}` +
      (code === 0 ? '' : `\n${stderr.trim().split('\n').slice(-3).join('\n')}`),
  );
}
console.log(`${failed} of ${Number(last) - Number(first) + 1} seeds failed`);
process.exitCode = failed ? 1 : 0;
