/**
 * The run of run-errors/jest.config.js again, with jest-junit's reportTestSuiteErrors: it writes a
 * file that failed to run as a testsuite of its own, and (sharing Jest's result objects) adds an
 * assertion result with status "error" and no title to that file in Jest's --json output too.
 */
module.exports = {
  ...require('./jest.config.js'),
  reporters: [
    'default',
    [
      'jest-junit',
      {
        outputDirectory: 'reports/run-errors',
        outputName: 'junit-suite-errors.xml',
        reportTestSuiteErrors: 'true',
      },
    ],
  ],
};
