// Same suite and test name as math.test.js: identity across files.
describe('math', () => {
  it('adds', () => {
    expect(10 + 20).toBe(30);
  });
});

describe('outer suite', () => {
  describe('inner suite', () => {
    it('passes at depth two', () => {
      expect([1, 2, 3]).toContain(2);
    });

    describe('innermost suite', () => {
      it('fails at depth three', () => {
        expect({ a: 1 }).toEqual({ a: 2 });
      });
    });
  });

  it('writes to stdout', () => {
    process.stdout.write('hello from process.stdout.write\n');
    console.log('hello from console.log');
    expect(true).toBe(true);
  });
});

describe('names with "double" and \'single\' quotes, <tags> & ampersands', () => {
  it('handles "quotes", \'apostrophes\', <angle> & brackets', () => {
    expect('<>&').toHaveLength(3);
  });

  it('emoji 🚀 and non-ASCII: é ü 日本', () => {
    expect('日本'.length).toBe(2);
  });
});

describe('setup error', () => {
  beforeAll(() => {
    throw new Error('database connection refused (beforeAll)');
  });

  it('never gets to run its body', () => {
    expect(1).toBe(1);
  });
});
