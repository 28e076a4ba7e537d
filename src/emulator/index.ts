export {
  startEmulator,
  type EmulatorOptions,
  type EmulatorStats,
  type RunningEmulator,
} from './http/server.js';
export { demoSeed, loadSeedFile, validateSeed, SeedError, type Seed } from './model/seed.js';
export { parseChaos, type ChaosOptions } from './http/chaos.js';
export { parseFilter } from './filtrql/parser.js';
