import { test, expect } from '@playwright/test';

test.describe('math', () => {
  // Traceability (README "Traceability"): annotations of type requirement and issue, and a tag.
  test('adds', { annotation: { type: 'requirement', description: 'REQ-301' } }, () => {
    expect(1 + 1).toBe(2);
  });

  test(
    'subtracts (fails on an assertion)',
    {
      tag: '@REQ-302',
      annotation: [
        { type: 'requirement', description: 'REQ-303' },
        { type: 'issue', description: 'https://github.com/acme/shop/issues/9' },
      ],
    },
    () => {
      expect(5 - 3, 'five minus three').toBe(3);
    },
  );

  test('divides (throws a non-assertion error)', () => {
    const calculator = undefined as unknown as { divide(a: number, b: number): number };
    calculator.divide(1, 0);
  });

  // Fails on its first attempt and passes on its retry (retries: 1 in the config).
  test('is flaky: fails first, passes on retry', ({}, testInfo) => {
    expect(testInfo.retry, `attempt ${testInfo.retry + 1}`).toBeGreaterThan(0);
  });

  test('writes to stdout', () => {
    console.log('hello from the stdout test');
    expect(true).toBe(true);
  });

  test.skip('is skipped with test.skip', () => {
    expect(1).toBe(2);
  });

  test.fixme('is marked test.fixme', () => {
    expect(1).toBe(2);
  });

  test('is an expected failure (test.fail)', () => {
    test.fail();
    expect(0.1 + 0.2).toBe(0.3);
  });

  test.describe('parameterized', () => {
    for (const [a, b, sum] of [
      [1, 1, 2],
      [2, 3, 5],
      [2, 2, 5],
    ]) {
      test(`sums ${a} + ${b} = ${sum}`, () => {
        expect(a + b).toBe(sum);
      });
    }
  });

  test.describe('nested', () => {
    test.describe('deeper', () => {
      test('multiplies', () => {
        expect(3 * 4).toBe(12);
      });
    });
  });
});
