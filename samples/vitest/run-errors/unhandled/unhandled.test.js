// Its test passes, but it leaves a rejected promise nobody handles: vitest reports an unhandled
// error outside any test and exits 1.
import { expect, it } from 'vitest';

it('starts a background job', () => {
  setTimeout(() => Promise.reject(new Error('background job failed')), 0);
  expect(true).toBe(true);
});
