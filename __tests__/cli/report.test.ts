/** `testcycle report` against the emulator: the plan first, the budget kept, the files written. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type CliIO } from '../../src/cli/main.js';
import { publish } from '../../src/publish/index.js';
import { closeEmulators, emulator, RO } from '../helpers/emulator.js';
import { caseSeed, clientOf, closeAll, options, reportOf } from '../helpers/publish.js';

afterEach(async () => {
  await closeAll();
  await closeEmulators();
});

const dir = mkdtempSync(join(tmpdir(), 'testcycle-report-'));

async function series(cycles: number, tests: number) {
  const emu = await emulator({ seed: caseSeed(tests), rateLimit: '100000/1m' });
  for (let run = 1; run <= cycles; run++)
    await publish(
      clientOf(emu),
      options([reportOf(tests, (i) => (i === 0 && run % 2 ? 'failed' : 'passed'))], {
        cycle: { name: `Nightly ${run}`, create: true, reopenDone: false, close: false },
      }),
    );
  emu.resetStats();
  return emu;
}

function cli(url: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { TESTCYCLE_BASE_URL: url, TESTCYCLE_TOKEN: RO, TESTCYCLE_RATE_LIMIT: '100000/1m' },
  };
  return { io, out, err };
}

test('prints the predicted cost, sends exactly that, and writes the page and the Markdown', async () => {
  const emu = await series(4, 5);
  const { io, out, err } = cli(emu.url);
  const html = join(dir, 'a.html');
  const md = join(dir, 'a.md');
  const code = await main(
    ['report', '--series-name', 'Nightly *', '--html-file', html, '--markdown-file', md],
    io,
  );
  expect(code).toBe(0);
  const plan = /report: (\d+) requests/.exec(err.join('\n'));
  expect(plan).not.toBeNull();
  // 1 cycle list page + 4 aggregates + 1 execution page per cycle.
  expect(Number(plan![1])).toBe(9);
  expect(emu.stats().total).toBe(9);
  expect(out.join('\n')).toMatch(/^4 cycles, pass rate 80% -> 100%; 9 requests; written: /);
  expect(readFileSync(html, 'utf8')).toContain('<svg');
  // The flaky test flips every run.
  expect(readFileSync(md, 'utf8')).toMatch(/Flaky/i);
});

test('--max-requests is kept, and what was left out is said', async () => {
  const emu = await series(4, 5);
  const { io, out } = cli(emu.url);
  const code = await main(
    ['report', '--max-requests', '6', '--html-file', join(dir, 'b.html'), '--json'],
    io,
  );
  expect(code).toBe(0);
  expect(emu.stats().total).toBeLessThanOrEqual(6);
  const model = JSON.parse(out.join('\n')) as {
    cycles: { history: boolean }[];
    omitted: string[];
    requests: { sent: number; budget: number };
  };
  expect(model.requests).toMatchObject({ sent: emu.stats().total, budget: 6 });
  expect(model.cycles.filter((c) => c.history).length).toBeLessThan(4);
  expect(model.omitted.length).toBeGreaterThan(0);
});

test('series-name and series-filter together are a usage error naming the flags (exit 2, no request)', async () => {
  const emu = await series(0, 1);
  const { io, err } = cli(emu.url);
  const code = await main(
    ['report', '--series-name', 'Nightly *', '--series-filter', 'name ~ "N"'],
    io,
  );
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/--series-filter/);
  expect(emu.stats().total).toBe(0);
});
