/**
 * A second Jest run of the sample (regenerate.sh): every test that runs passes, but one test file
 * fails to load ("Test suite failed to run") and one file's afterAll hook throws. Jest exits 1;
 * its reports must tell why. jest-junit with its defaults, as the README's recipe sets it up.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.test.js'],
  reporters: [
    'default',
    ['jest-junit', { outputDirectory: 'reports/run-errors', outputName: 'junit.xml' }],
    ['jest-ctrf-json-reporter', { outputDir: 'reports/run-errors', outputFile: 'ctrf.json' }],
  ],
};
