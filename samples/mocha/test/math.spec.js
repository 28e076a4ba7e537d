'use strict';
const assert = require('node:assert');

// In-process counter: the retried test fails on its first attempt and passes on its retry.
let flakyAttempts = 0;

describe('math', function () {
  it('adds', function () {
    assert.strictEqual(1 + 1, 2);
  });

  it('subtracts (fails on an assertion)', function () {
    assert.strictEqual(5 - 3, 3, 'five minus three');
  });

  it('divides (throws a non-assertion error)', function () {
    const calculator = undefined;
    return calculator.divide(1, 0);
  });

  describe('parameterized', function () {
    for (const [a, b, sum] of [
      [1, 1, 2],
      [2, 3, 5],
      [2, 2, 5],
    ]) {
      it(`sums ${a} + ${b} = ${sum}`, function () {
        assert.strictEqual(a + b, sum);
      });
    }
  });

  describe('nested', function () {
    describe('deeper', function () {
      it('multiplies', function () {
        assert.strictEqual(3 * 4, 12);
      });
    });
  });

  it('is flaky: fails first, passes on retry', function () {
    this.retries(1);
    flakyAttempts += 1;
    assert.ok(flakyAttempts > 1, `attempt ${flakyAttempts} fails`);
  });

  it('writes to stdout', function () {
    console.log('hello from the stdout test');
    assert.ok(true);
  });

  it.skip('is skipped with it.skip', function () {
    assert.fail('never runs');
  });

  it('is pending (no body)');
});
