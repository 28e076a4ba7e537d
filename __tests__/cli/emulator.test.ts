import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type CliIO } from '../../src/cli/main.js';
import { testSeed, RW } from '../helpers/emulator.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const value: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: {},
    interrupted: () => stopped,
  };
  return { io: value, out, err, stop };
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

function seedFile(seed: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'testcycle-seed-')), 'seed.json');
  writeFileSync(file, typeof seed === 'string' ? seed : JSON.stringify(seed));
  return file;
}

describe('testcycle emulator', () => {
  test('prints its URL first, serves the seeded Space, and stops on interrupt', async () => {
    const t = io();
    const done = main(['emulator', '--seed', seedFile(testSeed()), '--rate-limit', '50/1s'], t.io);
    await waitFor(() => t.out.length > 0);
    expect(t.out[0]).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const url = t.out[0]!.replace('emulator listening on ', '');
    const res = await fetch(`${url}/projects`, { headers: { authorization: `Bearer ${RW}` } });
    expect(
      ((await res.json()) as { data: { attributes: { key: string } }[] }).data[0]!.attributes.key,
    ).toBe('DEMO');
    expect(t.out.join('\n')).not.toContain(RW); // a seeded token is the user's own: not echoed
    t.stop();
    expect(await done).toBe(0);
    await expect(fetch(`${url}/projects`)).rejects.toThrow();
  });

  test('without a seed, a demo Space is made and both tokens are printed', async () => {
    const t = io();
    const done = main(['emulator'], t.io);
    await waitFor(() => t.out.length >= 3);
    expect(t.out.slice(1)).toEqual([
      expect.stringMatching(/^token \(read-write\): tc_rw_/),
      expect.stringMatching(/^token \(read-only\): tc_ro_/),
    ]);
    t.stop();
    expect(await done).toBe(0);
  });

  test.each([
    ['{ not json', /--seed: .*seed\.json: not valid JSON/],
    [
      { tokens: [{ token: 'short', role: 'read-write' }] },
      /tokens\[0\]\.token must be a string of at least 8 characters/,
    ],
    [
      { tokens: [{ token: 'long-enough', role: 'admin' }] },
      /tokens\[0\]\.role must be one of read-write, read-only/,
    ],
    [{ region: 'mars' }, /region must be one of eu, us, in/],
  ])('a bad seed file exits 2 naming the file and field: %j', async (seed, message) => {
    const t = io();
    expect(await main(['emulator', '--seed', seedFile(seed)], t.io)).toBe(2);
    expect(t.err.join('\n')).toMatch(message);
  });

  test.each([
    [['--chaos', '429=2'], /--chaos: 429=2 must be a probability/],
    [['--chaos', 'boom=1'], /--chaos: unknown key "boom"/],
    [['--port', '70000'], /--port: "70000" is not a whole number from 0 to 65535/],
    [['--rate-window', 'leaky'], /--rate-window: "leaky" is not one of sliding, fixed/],
    [['--seed', '/nonexistent/seed.json'], /--seed: .*cannot read the seed file \(ENOENT\)/],
  ])('bad flags exit 2: %j', async (argv, message) => {
    const t = io();
    expect(await main(['emulator', ...argv], t.io)).toBe(2);
    expect(t.err.join('\n')).toMatch(message);
  });

  test('the built CLI (lib/cli/bin.js) stops on SIGTERM with exit code 0', async () => {
    const child = spawn(
      process.execPath,
      ['lib/cli/bin.js', 'emulator', '--seed', seedFile(testSeed())],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('listening'));
    expect(out).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1\n/);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });
});
