// Fails to load: the module it imports does not exist, so vitest runs none of its tests.
import { describe, expect, it } from 'vitest';
import { total } from './no-such-module.js';

describe('totals', () => {
  it('adds the prices', () => {
    expect(total([1, 2])).toBe(3);
  });
});
