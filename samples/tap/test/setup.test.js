import t from 'tap';

t.test('setup error', async (t) => {
  t.before(() => {
    throw new Error('database connection refused');
  });
  t.test('never gets to run its body', async (t) => {
    t.pass('unreachable');
  });
});
