import { defineConfig } from '@playwright/test';

// Two more Playwright runs of the sample (regenerate.sh), no browsers, as in the sample's config:
// - the first shard of two, with --grep @cart: its tests pass; its reports must tell that the run
//   was partial (a shard, a filter);
// - with SAMPLE_LOAD_ERROR set, load-error/ alone: a spec file fails to load, which stops
//   Playwright before any test runs (exit 1); its reports must tell why.
const prefix = process.env.SAMPLE_LOAD_ERROR ? 'load-error-' : '';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // load-error/ only in the run that asks for it (regenerate.sh): one file that fails to load stops
  // Playwright before any test runs.
  testIgnore: process.env.SAMPLE_LOAD_ERROR ? [] : ['load-error/**'],
  workers: 1,
  fullyParallel: false,
  outputDir: '../test-results',
  reporter: [
    ['list'],
    ['json', { outputFile: `../reports/run-errors/${prefix}playwright.json` }],
    ['junit', { outputFile: `../reports/run-errors/${prefix}junit.xml` }],
    ['playwright-ctrf-json-reporter', { outputDir: 'reports/run-errors', outputFile: `${prefix}ctrf.json` }],
  ],
});
