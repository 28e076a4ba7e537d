import { describe, expect, it } from 'vitest';

describe('cart', () => {
  it('adds an item', () => {
    expect([1].concat(2)).toEqual([1, 2]);
  });

  it('removes an item', () => {
    expect([1, 2].filter((x) => x !== 2)).toEqual([1]);
  });
});
