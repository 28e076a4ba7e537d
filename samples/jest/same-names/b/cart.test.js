describe('cart', () => {
  it('totals', () => {
    expect(1 + 2).toBe(3);
  });
});
