import { defineConfig } from '@playwright/test';

// No browsers here: the tests use only the test runner and expect, never the
// page/browser fixtures, so no browser download is needed.
export default defineConfig({
  testDir: './tests',
  retries: 1,
  workers: 1,
  fullyParallel: false,
  outputDir: './test-results',
  reporter: [
    ['list'],
    ['json', { outputFile: 'reports/playwright.json' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['playwright-ctrf-json-reporter', { outputDir: 'reports', outputFile: 'ctrf.json' }],
    ['allure-playwright', { resultsDir: 'reports/allure-results' }],
  ],
});
