import { defineConfig } from 'vitest/config';

// A third vitest run of the sample (regenerate.sh): its only test passes, but leaves a rejected
// promise that nobody handles. vitest reports an unhandled error and exits 1; its reports keep
// only `success: false` (JSON).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['unhandled/*.test.js'],
    reporters: ['default', 'junit', 'json'],
    outputFile: {
      junit: '../reports/run-errors/unhandled-junit.xml',
      json: '../reports/run-errors/unhandled-vitest.json',
    },
  },
});
