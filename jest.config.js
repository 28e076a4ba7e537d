/** Jest 30 + ts-jest in ESM mode (run with NODE_OPTIONS=--experimental-vm-modules, see package.json). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  // The reliability suite runs on its own (npm run test:reliability).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/reliability/'],
  // The report corpus carries other projects' Jest snapshots; they are data, not ours.
  modulePathIgnorePatterns: ['<rootDir>/__tests__/fixtures/', '<rootDir>/samples/'],
  testTimeout: 30000,
  // Servers started by tests must stop by themselves; this turns a leak into a failure signal.
  detectOpenHandles: false,
  forceExit: false,
};
