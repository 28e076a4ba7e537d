/** `testcycle emulator`: docs/design.md "Emulator contract". */
import { ConfigError } from '../shared/errors.js';
import {
  loadSeedFile,
  parseChaos,
  SeedError,
  startEmulator,
  type Seed,
} from '../emulator/index.js';
import { choice, numeric, rateSetting, text } from '../settings.js';
import type { RateWindowMode } from '../shared/rate.js';
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
      rateWindow: choice<RateWindowMode>(settings, 'rate-window'),
      chaos,
    });
  } catch (error) {
    // A seeded record the create path refuses is named by its entry (testCases[3].rank ...).
    if (error instanceof SeedError) throw new ConfigError('seed', `${seedFile}: ${error.message}`);
    throw error;
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
