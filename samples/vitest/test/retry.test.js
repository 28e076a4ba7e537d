import { describe, it, expect } from 'vitest';

// Vitest retries: the flaky test fails on its first attempt and passes on the retry.
// The counter lives in the module, which Vitest keeps between attempts.
let attempts = 0;

describe('retries', () => {
  it('is flaky: fails first, passes on retry', { retry: 1 }, () => {
    attempts += 1;
    expect(attempts).toBe(2);
  });

  it('is stable', () => {
    expect(attempts).toBeGreaterThan(0);
  });
});
