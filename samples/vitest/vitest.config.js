import { defineConfig } from 'vitest/config';

// Every reporter in one run (the same as --reporter=default --reporter=junit
// --outputFile.junit=reports/junit.xml --reporter=json --outputFile.json=reports/vitest.json,
// plus the two CTRF reporters, whose options can only be given here).
export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    reporters: [
      'default',
      'junit',
      'json',
      ['vitest-ctrf-json-reporter', { outputDir: 'reports', outputFile: 'ctrf.json' }],
      ['@d2t/vitest-ctrf-json-reporter', { outputDir: 'reports', outputFile: 'ctrf-d2t.json' }],
    ],
    outputFile: {
      junit: 'reports/junit.xml',
      json: 'reports/vitest.json',
    },
  },
});
