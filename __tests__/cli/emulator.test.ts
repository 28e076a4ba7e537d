import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DETACHED_IDLE_MS, untilIdle } from '../../src/cli/emulator.js';
import { main, type CliIO } from '../../src/cli/main.js';
import { FakeClock } from '../helpers/clock.js';
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

  test('listens for a stop before it says it listens', async () => {
    const t = io();
    let asked = 0;
    const askedWhenListening: number[] = [];
    const value: CliIO = {
      ...t.io,
      stdout: (line) => {
        if (line.includes('listening')) askedWhenListening.push(asked);
        t.out.push(line);
      },
      interrupted: () => {
        asked++;
        return t.io.interrupted!();
      },
    };
    const done = main(['emulator', '--seed', seedFile(testSeed())], value);
    await waitFor(() => t.out.length > 0);
    t.stop();
    expect(await done).toBe(0);
    expect(askedWhenListening).toEqual([1]);
  });

  test('without a seed, a demo Space is made and both tokens are printed', async () => {
    const t = io();
    const done = main(['emulator'], t.io);
    await waitFor(() => t.out.length >= 3);
    expect(t.out.slice(1)).toEqual([
      expect.stringMatching(/^token \(read-write\): \S+$/),
      expect.stringMatching(/^token \(read-only\): \S+$/),
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

describe('testcycle emulator --detach', () => {
  /** A bash script run from the repository root, as a user types it. */
  const sh = (script: string) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) =>
      execFile(
        'bash',
        ['-e', '-c', script],
        { env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 60_000 },
        (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
      ),
    );
  const pids: number[] = [];
  afterAll(() => {
    // A test that broke before its kill: the emulator would still stop by itself, after an hour.
    for (const pid of pids) {
      try {
        process.kill(pid);
      } catch {
        // stopped already
      }
    }
  });

  test('prints the lines for eval, runs in the background, and stops on kill', async () => {
    const r = await sh(`
      eval "$(node lib/cli/bin.js emulator --seed examples/seed.json --rate-limit 6000/1m --detach)"
      echo "pid=$TESTCYCLE_EMULATOR_PID rate=$TESTCYCLE_RATE_LIMIT"
      node lib/cli/bin.js check
      node lib/cli/bin.js parse --report examples/reports/junit
      kill "$TESTCYCLE_EMULATOR_PID"
      for _ in $(seq 100); do kill -0 "$TESTCYCLE_EMULATOR_PID" 2>/dev/null || break; sleep 0.05; done
      kill -0 "$TESTCYCLE_EMULATOR_PID" 2>/dev/null && echo still running || echo stopped`);
    const pid = /pid=(\d+)/.exec(r.out)?.[1];
    if (pid) pids.push(Number(pid));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('rate=6000/1m');
    expect(r.out).toMatch(/^ok: http:\/\/127\.0\.0\.1:\d+\/api\/v1 reaches Space Acme Shop /m);
    expect(r.out).toMatch(/^\d+ runs of \d+ tests/m);
    expect(r.out.trim().split('\n').at(-1)).toBe('stopped');
  });

  test("the child's error is the command's: a port in use, exit 2", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const r = await sh(`node lib/cli/bin.js emulator --port ${port} --detach`);
      expect(r).toEqual({
        code: 2,
        out: '',
        err: `testcycle emulator: --port: ${port} is in use on 127.0.0.1 (another emulator still running?): stop what listens there, or use --port 0 for any free port.\n`,
      });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  test('a detached emulator stops by itself after an hour without a request, not before', async () => {
    const clock = new FakeClock();
    let requests = 0;
    let idle = false;
    void untilIdle(() => requests, DETACHED_IDLE_MS, clock).then(() => (idle = true));
    await clock.advance(50 * 60_000);
    requests++; // a request at 50 minutes: the hour starts again
    await clock.advance(50 * 60_000);
    expect(idle).toBe(false);
    await clock.advance(11 * 60_000);
    expect(idle).toBe(true);
    expect(DETACHED_IDLE_MS).toBe(3_600_000);
  });
});
