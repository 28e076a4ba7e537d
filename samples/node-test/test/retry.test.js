import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

// node:test has no in-run retry. Its own mechanism is --test-rerun-failures=<state file>:
// a second run with the same state file replays the tests that passed and runs only the
// failed ones again, and t.attempt tells which run this is (0 on the first).
describe('retries', () => {
  it('is flaky: fails on the first run, passes on the rerun', (t) => {
    assert.ok(t.attempt >= 1, `attempt ${t.attempt}: fails on the first run`);
  });

  it('is stable', () => {
    assert.ok(true);
  });
});
