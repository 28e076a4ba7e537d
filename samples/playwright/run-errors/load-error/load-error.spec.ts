// Fails to load: the module it imports does not exist, so Playwright runs none of its tests.
import { expect, test } from '@playwright/test';
import { total } from './no-such-module';

test('totals @cart', () => {
  expect(total([1, 2])).toBe(3);
});
