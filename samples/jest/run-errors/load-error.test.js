// Fails to load: the module it needs does not exist, so Jest runs none of its tests.
const { total } = require('./no-such-module');

describe('totals', () => {
  it('adds the prices', () => {
    expect(total([1, 2])).toBe(3);
  });
});
