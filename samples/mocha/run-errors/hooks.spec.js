// Run errors (docs/design.md "Run errors"): hooks outside the tests that threw. Mocha lists them
// in `failures` only, never in `tests`, and exits non-zero; the tests of a suite whose before
// hook threw are in neither.
const assert = require('assert');

describe('db', () => {
  after(() => {
    throw new Error('could not close the connection');
  });
  it('reads', () => assert.ok(true));
});

describe('api', () => {
  before(() => {
    throw new Error('server did not start');
  });
  it('lists', () => assert.ok(true));
  it('gets', () => assert.ok(true));
});
