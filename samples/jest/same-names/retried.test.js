// Retried by jest-circus without logErrorsBeforeRetry: the report's only mark is `invocations`.
// The counter lives in the module, which jest-circus keeps between attempts.
jest.retryTimes(2);

let attempts = 0;

describe('checkout', () => {
  it('is flaky: fails first, passes on retry', () => {
    attempts += 1;
    expect(attempts).toBe(2);
  });
});
