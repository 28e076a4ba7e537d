import { test, expect } from '@playwright/test';

// Same describe and test name as tests/math.spec.ts: identity across files.
test.describe('math', () => {
  test('adds', () => {
    expect(2 + 2).toBe(4);
  });
});
