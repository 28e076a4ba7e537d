import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type CliIO } from '../../src/cli/main.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

test('human output is coloured only when asked (a TTY), plain otherwise', async () => {
  const emu = await emulator({
    seed: { ...caseSeed(1), testCycles: [{ name: 'Empty', status: 'ACTIVE' }] },
  });
  const run = async (color: boolean) => {
    const out: string[] = [];
    const io: CliIO = {
      stdout: (t) => out.push(t),
      stderr: () => {},
      env: { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW },
      color,
    };
    const code = await main(['gate', '--cycle-name', 'Empty', '--min-pass-rate', '50'], io);
    return { code, text: out.join('\n') };
  };
  const plain = await run(false);
  const coloured = await run(true);
  expect(plain.code).toBe(1);
  expect(plain.text).toContain(
    'gate: FAILED\n  - no executed tests to compute a pass rate (min 50%)',
  );
  expect(plain.text).not.toContain('\x1b[');
  expect(coloured.text).toContain('\x1b[31mgate: FAILED\x1b[0m');
});

test("the README's offline try-out: publish --create-missing-cases into 'Local {date}', then a re-run creates nothing", async () => {
  const emu = await emulator({ seed: caseSeed(0), rateLimit: '1000/1m' });
  const io = (out: string[]): CliIO => ({
    stdout: (t) => out.push(t),
    stderr: () => {},
    env: { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' },
  });
  const args = [
    'publish',
    '--report',
    'examples/reports/junit/*.xml',
    '--cycle-name',
    'Local {date}',
    '--create-missing-cases',
    '--json',
  ];
  const first: string[] = [];
  expect(await main(args, io(first))).toBe(0);
  const result = JSON.parse(first.join(''));
  expect(result.cycle.name).toBe(`Local ${new Date().toISOString().slice(0, 10)}`);
  expect(result.writes).toEqual({ created: 13, updated: 0, unchanged: 0, casesCreated: 13 });
  expect(result.unmatched).toEqual([]);
  const second: string[] = [];
  expect(await main(args, io(second))).toBe(0);
  expect(JSON.parse(second.join('')).writes).toEqual({
    created: 0,
    updated: 0,
    unchanged: 13,
    casesCreated: 0,
  });
});

test('publish --report DIR: a stray non-report JSON below it is skipped and named, the reports are published', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-dir-'));
  writeFileSync(
    join(dir, 'junit.xml'),
    '<testsuite name="s"><testcase classname="Suite" name="test0"/></testsuite>',
  );
  writeFileSync(join(dir, 'tool-state.json'), '{"lastRun": "2026-11-23", "cache": [1, 2]}');
  const emu = await emulator({ seed: caseSeed(1), rateLimit: '1000/1m' });
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['publish', '--report', dir, '--cycle-name', 'Dir run', '--json'], {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' },
  });
  expect(code).toBe(0);
  expect(JSON.parse(out.join('')).writes.created).toBe(1);
  expect(err.join('\n')).toMatch(
    /1 file\(s\) in the report directories are not test reports and were skipped: .*tool-state\.json \(is JSON in no known test report format/,
  );
});
