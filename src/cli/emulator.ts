/** `testcycle emulator`: DESIGN.md "Emulator contract". */
import { ConfigError } from '../api/errors.js';
import { parseRateLimit } from '../api/scheduler.js';
import {
  loadSeedFile,
  parseChaos,
  SeedError,
  startEmulator,
  type Seed,
} from '../emulator/index.js';
import { integerFlag } from './args.js';
import type { CommandContext } from './main.js';

export async function runEmulatorCommand({ values, io }: CommandContext): Promise<number> {
  const str = (name: string) =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined;
  let seed: Seed | undefined;
  const seedFile = str('seed');
  if (seedFile) {
    try {
      seed = loadSeedFile(seedFile);
    } catch (error) {
      if (error instanceof SeedError) throw new ConfigError('--seed', error.message);
      throw error;
    }
  }
  const rateLimit = parseRateLimit(str('rate-limit') ?? '100/1m');
  let chaos;
  try {
    chaos = str('chaos') ? parseChaos(str('chaos')!) : undefined;
  } catch (error) {
    throw new ConfigError('--chaos', (error as Error).message.replace(/^--chaos: /, ''));
  }
  const port = integerFlag(str('port'), 'port', 0, 0);
  if (port > 65535) throw new ConfigError('--port', `${port} is not a port number (0 to 65535).`);
  const emulator = await startEmulator({
    host: str('host') ?? '127.0.0.1',
    port,
    seed,
    rateLimit,
    chaos,
  });
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
