// jest-circus retries: the flaky test fails on its first attempt and passes on the retry.
// The counter lives in the module, which jest-circus keeps between attempts.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

let attempts = 0;

describe('retries', () => {
  it('is flaky: fails first, passes on retry', () => {
    attempts += 1;
    expect(attempts).toBe(2);
  });

  it('is stable', () => {
    expect(attempts).toBeGreaterThan(0);
  });
});
