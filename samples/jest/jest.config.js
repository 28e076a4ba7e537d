/** Jest 30 configuration for the testcycle sample: all reporters in one run. */
module.exports = {
  testEnvironment: 'allure-jest/node',
  testEnvironmentOptions: { resultsDir: 'reports/allure-results' },
  testMatch: ['<rootDir>/__tests__/**/*.test.js'],
  reporters: [
    'default',
    ['jest-junit', { outputDirectory: 'reports', outputName: 'junit.xml', includeConsoleOutput: 'true' }],
    ['jest-ctrf-json-reporter', { outputDir: 'reports', outputFile: 'ctrf.json' }],
  ],
};
