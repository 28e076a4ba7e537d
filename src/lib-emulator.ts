/**
 * The emulator's entry point (`import { startEmulator, demoSeed } from 'testcycle/emulator'`): the
 * service emulated, for tests and offline pipelines. Public contract like src/lib.ts;
 * etc/testcycle-emulator.api.md records the surface (`npm run api`).
 */
import './shared/node-version.js';

export {
  startEmulator,
  demoSeed,
  loadSeedFile,
  SeedError,
  type EmulatorOptions,
  type RunningEmulator,
  type EmulatorStats,
  type Seed,
} from './emulator/index.js';
/** How the emulator's rate limit counts (`EmulatorOptions.rateWindow`). */
export type { RateWindowMode } from './shared/rate.js';
