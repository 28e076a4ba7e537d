/** The reliability suite (npm run test:reliability): bounded, seeded, run by .ci/run after npm test. */
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/__tests__/reliability/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 120000,
};
