import t from 'tap';

t.test('math', async (t) => {
  t.test('adds', async (t) => {
    t.equal(2 + 2, 4);
  });
});

t.test('outer suite', async (t) => {
  t.test('inner suite', async (t) => {
    t.test('passes at depth two', async (t) => {
      t.ok(true);
    });
    t.test('innermost suite', async (t) => {
      t.test('fails at depth three', async (t) => {
        t.same({ a: 1 }, { a: 2 });
      });
    });
  });
  t.test('writes to stdout', async (t) => {
    console.log('hello from console.log');
    t.pass('wrote');
  });
});

t.test(`names with "double" and 'single' quotes, <tags> & ampersands`, async (t) => {
  t.test(`handles "quotes", 'apostrophes', <angle> & brackets`, async (t) => {
    t.pass('fine');
  });
  t.test('emoji 🚀 and non-ASCII: é ü 日本', async (t) => {
    t.pass('fine');
  });
});

t.test('planned', async (t) => {
  // Plans two assertions and makes one: tap fails the subtest on its plan.
  t.plan(2);
  t.ok(true, 'the only assertion');
});
