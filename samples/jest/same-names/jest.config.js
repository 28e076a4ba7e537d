/**
 * A third Jest run of the sample (regenerate.sh): the same describe and test name in two files
 * (one fails, one passes), read through jest-junit as the README's recipe sets it up (no file
 * attribute), and a test retried into a pass by jest.retryTimes without logErrorsBeforeRetry,
 * whose only mark is `invocations`.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.test.js'],
  reporters: [
    'default',
    ['jest-junit', { outputDirectory: 'reports/same-names', outputName: 'junit.xml' }],
    ['jest-ctrf-json-reporter', { outputDir: 'reports/same-names', outputFile: 'ctrf.json' }],
  ],
};
