// Shared identity: tests/other-math.test.js also has describe('math') > it('adds').
describe('math', () => {
  it('adds', () => {
    expect(1 + 2).toBe(3);
  });

  // Traceability (README "Traceability"): jest has no metadata channel, so a requirement key is a
  // token in the test's name.
  it('REQ-401 doubles', () => {
    expect(2 * 2).toBe(4);
  });

  it('multiplies', () => {
    expect(2 * 3).toBe(6);
  });

  it('subtracts wrongly (assertion failure)', () => {
    expect(5 - 3).toBe(3);
  });

  it('divides by a non-number (non-assertion error)', () => {
    const calculator = undefined;
    // TypeError, not an assertion
    return calculator.divide(1, 0);
  });

  it.skip('rounds (skipped)', () => {
    expect(Math.round(1.5)).toBe(2);
  });

  it.todo('computes square roots (todo)');

  test.each([
    [1, 1, 2],
    [2, 3, 5],
    [2, 2, 5],
  ])('sum(%i, %i) = %i', (a, b, expected) => {
    expect(a + b).toBe(expected);
  });
});
