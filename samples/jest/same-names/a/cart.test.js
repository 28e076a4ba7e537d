describe('cart', () => {
  it('totals', () => {
    expect(0.1 + 0.2).toBe(0.3);
  });
});
