import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

// Shared identity: other-math.test.js also has describe('math') > it('adds').
describe('math', () => {
  it('adds', () => {
    assert.equal(1 + 2, 3);
  });

  it('multiplies', () => {
    assert.equal(2 * 3, 6);
  });

  it('subtracts wrongly (assertion failure)', () => {
    assert.equal(5 - 3, 3);
  });

  it('divides by a non-number (non-assertion error)', () => {
    const calculator = undefined;
    // TypeError, not an assertion
    return calculator.divide(1, 0);
  });

  it('rounds (skipped)', { skip: true }, () => {
    assert.equal(Math.round(1.5), 2);
  });

  it('computes square roots (todo, body fails)', { todo: true }, () => {
    assert.equal(Math.sqrt(9), 4);
  });

  it('computes cube roots (todo, no body)', { todo: 'not written yet' });

  // node:test has no parameterized tests: the idiomatic form is a loop, one test per row.
  for (const [a, b, expected] of [
    [1, 1, 2],
    [2, 3, 5],
    [2, 2, 5],
  ]) {
    it(`sum(${a}, ${b}) = ${expected}`, () => {
      assert.equal(a + b, expected);
    });
  }
});
