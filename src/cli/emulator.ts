/** `testcycle emulator`: docs/design.md "Emulator contract". */
import { ConfigError } from '../shared/errors.js';
import {
  loadSeedFile,
  parseChaos,
  SeedError,
  startEmulator,
  type Seed,
} from '../emulator/index.js';
import { numeric, rateSetting, text } from '../settings.js';
import type { CommandContext } from './main.js';

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
  let emulator;
  try {
    emulator = await startEmulator({
      host: text(settings, 'host')!,
      port: numeric(settings, 'port')!,
      seed,
      rateLimit,
      chaos,
    });
  } catch (error) {
    // A seeded record the create path refuses is named by its entry (testCases[3].rank ...).
    if (error instanceof SeedError) throw new ConfigError('seed', `${seedFile}: ${error.message}`);
    throw listenError(error, text(settings, 'host')!, numeric(settings, 'port')!);
  }
  io.stdout(`emulator listening on ${emulator.url}`);
  if (!seedFile) {
    for (const t of emulator.seed.tokens ?? []) io.stdout(`token (${t.role}): ${t.token}`);
  }
  try {
    await (io.interrupted ?? (() => new Promise<void>(() => {})))();
  } finally {
    await emulator.close();
  }
  return 0;
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
