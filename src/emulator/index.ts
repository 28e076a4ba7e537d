export {
  startEmulator,
  type EmulatorOptions,
  type EmulatorStats,
  type RunningEmulator,
} from './server.js';
export { demoSeed, loadSeedFile, validateSeed, SeedError, type Seed } from './seed.js';
export { parseChaos, type ChaosOptions } from './chaos.js';
export { parseFilter } from './filtrql/parser.js';
