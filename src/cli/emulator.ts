/** `testcycle emulator`: docs/design.md "Emulator contract". */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../shared/errors.js';
import { formatRateLimit, type RateLimit } from '../shared/rate.js';
import {
  loadSeedFile,
  parseChaos,
  SeedError,
  startEmulator,
  type RunningEmulator,
  type Seed,
} from '../emulator/index.js';
import { choice, flag, numeric, rateSetting, text } from '../settings/index.js';
import type { RateWindowMode } from '../shared/rate.js';
import type { CommandContext } from './context.js';

/** Set in the environment of the emulator that `--detach` starts: it reports to its parent. */
const DETACHED = 'TESTCYCLE_EMULATOR_DETACHED';
/** A detached emulator nobody uses any more stops by itself (docs/design.md "Emulator contract"). */
export const DETACHED_IDLE_MS = 3_600_000;

/** What a detached emulator tells the command that started it, once it listens. */
interface Listening {
  url: string;
  token?: string;
  rateLimit: string;
}

export async function runEmulatorCommand({ settings, io }: CommandContext): Promise<number> {
  let seed: Seed | undefined;
  const seedFile = text(settings, 'seed');
  if (seedFile) {
    try {
      seed = loadSeedFile(seedFile);
    } catch (error) {
      if (error instanceof SeedError) throw new ConfigError('seed', error.message);
      throw error;
    }
  }
  const rateLimit = rateSetting(settings, 'emulator-rate-limit');
  const chaosSpec = text(settings, 'chaos');
  let chaos;
  try {
    chaos = chaosSpec ? parseChaos(chaosSpec) : undefined;
  } catch (error) {
    throw new ConfigError('chaos', (error as Error).message.replace(/^--chaos: /, ''));
  }
  const host = text(settings, 'host')!;
  const port = numeric(settings, 'port')!;
  if (flag(settings, 'detach')) {
    // Every setting is checked here first; the child runs the same command in the foreground.
    const args = ['emulator', '--host', host, '--port', String(port)];
    args.push('--rate-limit', formatRateLimit(rateLimit));
    args.push('--rate-window', choice<RateWindowMode>(settings, 'rate-window')!);
    if (seedFile) args.push('--seed', resolve(seedFile));
    if (chaosSpec) args.push('--chaos', chaosSpec);
    return detach(args, io);
  }
  let emulator;
  try {
    emulator = await startEmulator({
      host,
      port,
      seed,
      rateLimit,
      rateWindow: choice<RateWindowMode>(settings, 'rate-window'),
      chaos,
    });
  } catch (error) {
    // A seeded record the create path refuses is named by its entry (testCases[3].rank ...).
    if (error instanceof SeedError) throw new ConfigError('seed', `${seedFile}: ${error.message}`);
    throw listenError(error, host, port);
  }
  // Listen for a stop before saying so: a supervisor that sends SIGTERM as soon as it reads the
  // line must find the handler in place (src/cli/bin.ts), not the default that kills at once.
  const stop = (io.interrupted ?? (() => new Promise<void>(() => {})))();
  io.stdout(`emulator listening on ${emulator.url}`);
  if (!seedFile) {
    for (const t of emulator.seed.tokens ?? []) io.stdout(`token (${t.role}): ${t.token}`);
  }
  const detached = io.env[DETACHED] === '1' && process.send !== undefined;
  if (detached) reportToParent(emulator, rateLimit);
  try {
    await Promise.race([
      stop,
      ...(detached ? [untilIdle(() => emulator.stats().total, DETACHED_IDLE_MS)] : []),
    ]);
  } finally {
    await emulator.close();
  }
  return 0;
}

/** The child's side of --detach: where it listens and the token to use, then no more messages. */
function reportToParent(emulator: RunningEmulator, rateLimit: RateLimit): void {
  const token = emulator.seed.tokens?.find(
    (t) =>
      t.role === 'read-write' &&
      !t.revokedAt &&
      !(t.expiresAt && Date.parse(t.expiresAt) < Date.now()),
  )?.token;
  const listening: Listening = { url: emulator.url, token, rateLimit: formatRateLimit(rateLimit) };
  process.send!(listening, () => process.disconnect());
}

/**
 * `--detach`: the same command in a process of its own (its output in a log file), and the shell
 * lines that point testcycle at it once it listens. The child's own error (a port in use) is this
 * command's, with its exit code.
 */
async function detach(args: string[], io: CommandContext['io']): Promise<number> {
  const log = join(tmpdir(), `testcycle-emulator-${process.pid}-${Date.now()}.log`);
  const out = openSync(log, 'w');
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  const child = spawn(process.execPath, [bin, ...args], {
    detached: true,
    stdio: ['ignore', out, out, 'ipc'],
    env: { ...io.env, [DETACHED]: '1' },
  });
  closeSync(out);
  const outcome = await new Promise<Listening | number>((done) => {
    child.once('message', (m) => done(m as Listening));
    child.once('exit', (code) => done(code ?? 1));
    child.once('error', () => done(1));
  });
  if (typeof outcome === 'number') {
    const said = readFileSync(log, 'utf8').trim();
    io.stderr(said || `the emulator stopped before it listened (exit ${outcome}); see ${log}`);
    return outcome || 1;
  }
  child.unref();
  child.disconnect();
  const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  io.stdout(
    [
      `export TESTCYCLE_BASE_URL=${quote(outcome.url)}`,
      ...(outcome.token ? [`export TESTCYCLE_TOKEN=${quote(outcome.token)}`] : []),
      `export TESTCYCLE_RATE_LIMIT=${quote(outcome.rateLimit)}`,
      `export TESTCYCLE_EMULATOR_PID=${child.pid}`,
      `# the emulator runs in the background (its output: ${log}); stop it with: kill "$TESTCYCLE_EMULATOR_PID"`,
    ].join('\n'),
  );
  return 0;
}

/** Time for the idle watch; tests pass a virtual one (__tests__/helpers/clock.ts). */
export interface IdleClock {
  now(): number;
  after(ms: number, fn: () => void): () => void;
}

const systemIdleClock: IdleClock = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms).unref();
    return () => clearTimeout(timer);
  },
};

/** Resolves once `count` (the requests answered) has not changed for `idleMs`. */
export function untilIdle(
  count: () => number,
  idleMs: number,
  clock: IdleClock = systemIdleClock,
): Promise<void> {
  return new Promise((done) => {
    let seen = count();
    let since = clock.now();
    const check = () => {
      const now = clock.now();
      if (count() !== seen) [seen, since] = [count(), now];
      if (now - since >= idleMs) return done();
      clock.after(Math.min(60_000, idleMs - (now - since)), check);
    };
    clock.after(Math.min(60_000, idleMs), check);
  });
}

/** The listen errors a person causes, in their terms (the port or host to change); others as they are. */
function listenError(error: unknown, host: string, port: number): unknown {
  switch ((error as { code?: unknown }).code) {
    case 'EADDRINUSE':
      return new ConfigError(
        'port',
        `${port} is in use on ${host} (another emulator still running?): stop what listens there, or use --port 0 for any free port.`,
      );
    case 'EACCES':
      return new ConfigError(
        'port',
        `${port} needs privileges on this machine (ports below 1024 do): use --port 0 for any free port, or one above 1023.`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        'host',
        `${host} is no address of this machine: use 127.0.0.1 (the default), or an address of one of its interfaces.`,
      );
    case 'ENOTFOUND':
      return new ConfigError(
        'host',
        `${host} does not resolve to an address: use 127.0.0.1 (the default), or an address of one of this machine's interfaces.`,
      );
    default:
      return error;
  }
}
