import { before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';

// Same suite and test name as math.test.js: identity across files.
describe('math', () => {
  it('adds', () => {
    assert.equal(10 + 20, 30);
  });
});

describe('outer suite', () => {
  describe('inner suite', () => {
    it('passes at depth two', () => {
      assert.ok([1, 2, 3].includes(2));
    });

    describe('innermost suite', () => {
      it('fails at depth three', () => {
        assert.deepEqual({ a: 1 }, { a: 2 });
      });
    });
  });

  it('writes to stdout', () => {
    process.stdout.write('hello from process.stdout.write\n');
    console.log('hello from console.log');
  });
});

describe('names with "double" and \'single\' quotes, <tags> & ampersands', () => {
  it('handles "quotes", \'apostrophes\', <angle> & brackets', () => {
    assert.equal('<>&'.length, 3);
  });

  it('emoji 🚀 and non-ASCII: é ü 日本', () => {
    assert.equal('日本'.length, 2);
  });
});

describe('setup error', () => {
  before(() => {
    throw new Error('database connection refused (before hook)');
  });

  it('never gets to run its body', () => {
    assert.equal(1, 1);
  });
});

// Subtests: a test that runs its own tests through the test context.
test('parent test with subtests', async (t) => {
  await t.test('subtest passes', () => {
    assert.equal(typeof t.name, 'string');
  });
  await t.test('subtest with its own subtest', async (t2) => {
    await t2.test('sub-subtest passes', () => {
      assert.ok(true);
    });
  });
});
