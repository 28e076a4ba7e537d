import t from 'tap';

// Shared identity: other-math.test.js also has t.test('math') > t.test('adds').
t.test('math', async (t) => {
  t.test('adds', async (t) => {
    t.equal(1 + 2, 3);
  });

  t.test('multiplies', async (t) => {
    t.equal(2 * 3, 6, 'two times three');
    t.equal(3 * 3, 9, 'three times three');
  });

  t.test('subtracts wrongly (assertion failure)', async (t) => {
    t.equal(5 - 3, 3, 'five minus three');
  });

  t.test('divides by a non-number (non-assertion error)', async () => {
    const calculator = undefined;
    // TypeError, not an assertion
    return calculator.divide(1, 0);
  });

  t.test('rounds (skipped)', { skip: 'not on this platform' }, async (t) => {
    t.equal(Math.round(1.5), 2);
  });

  t.test('computes square roots (todo, body fails)', { todo: true }, async (t) => {
    t.equal(Math.sqrt(9), 4);
  });

  t.todo('computes cube roots (todo, no body)');

  // The idiomatic parameterized form is a loop, one subtest per row.
  for (const [a, b, expected] of [
    [1, 1, 2],
    [2, 3, 5],
    [2, 2, 5],
  ]) {
    t.test(`sum(${a}, ${b}) = ${expected}`, async (t) => {
      t.equal(a + b, expected);
    });
  }
});
