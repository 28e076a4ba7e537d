// Checks the outputs of the `test-action` job's steps (.github/workflows/ci.yml), passed in as
// environment variables. Run by that job on GitHub and by __tests__/e2e/workflow.test.ts locally.
const env = process.env;
const failures = [];
function expect(what, actual, ok, wanted) {
  if (!ok) failures.push(`${what}: expected ${wanted}, got ${JSON.stringify(actual ?? '')}`);
}
const isKey = (v) => /^[A-Z][A-Z0-9]*-R\d+$/.test(v ?? '');

expect('create: cycle-key', env.CREATE_KEY, isKey(env.CREATE_KEY), 'a cycle key like SHOP-R2');
expect('create: cycle-status', env.CREATE_STATUS, env.CREATE_STATUS === 'ACTIVE', 'ACTIVE');
expect('create: populated', env.POPULATED, Number(env.POPULATED) > 0, 'a count above 0');
expect(
  'publish: cycle-key',
  env.PUBLISH_KEY,
  env.PUBLISH_KEY === env.CREATE_KEY,
  'the created cycle',
);
expect('publish: gate', env.PUBLISH_GATE, env.PUBLISH_GATE === 'passed', 'passed');
// The populated NOT_EXECUTED executions are patched with the results, not created again.
expect('publish: updated', env.PUBLISH_UPDATED, Number(env.PUBLISH_UPDATED) > 0, 'above 0');
expect('publish: created', env.PUBLISH_CREATED, env.PUBLISH_CREATED === '0', '0');
expect(
  'publish: unmatched',
  env.PUBLISH_UNMATCHED,
  Number(env.PUBLISH_UNMATCHED) > 0,
  'the example test without a case',
);
expect('gate: outcome', env.GATE_OUTCOME, env.GATE_OUTCOME === 'failure', 'failure');
expect('gate: gate', env.GATE_RESULT, env.GATE_RESULT === 'failed', 'failed');
expect(
  'gate: gate-reasons',
  env.GATE_REASONS,
  /pass rate .* is below 100%/.test(env.GATE_REASONS ?? ''),
  'the pass-rate reason',
);
expect('close: cycle-status', env.CLOSE_STATUS, env.CLOSE_STATUS === 'DONE', 'DONE');
const limited = (env.RATE_LIMITED ?? '').split(',');
expect(
  'rate-limited (per step)',
  env.RATE_LIMITED,
  limited.length === 4 && limited.every((n) => n === '0'),
  '0,0,0,0 (create, publish, gate, close)',
);

if (failures.length) {
  for (const f of failures) console.log(`::error::${f}`);
  process.exit(1);
}
console.log('every step output is as expected');
