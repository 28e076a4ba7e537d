/**
 * `--merge` over what the server holds (docs/design.md "Results and merging"): latest supersedes, worst
 * keeps the worst, and NOT_EXECUTED is no result in either mode.
 */
import { makePlan } from '../../src/publish/writes.js';
import { mergeWithServer } from '../../src/publish/results.js';

describe('mergeWithServer', () => {
  test.each([
    // [there, incoming, latest, worst]
    ['PASSED', 'FAILED', 'FAILED', 'FAILED'],
    ['FAILED', 'PASSED', 'PASSED', 'FAILED'],
    ['BLOCKED', 'PASSED', 'PASSED', 'BLOCKED'],
    ['SKIPPED', 'PASSED', 'PASSED', 'PASSED'],
    ['FAILED', 'BLOCKED', 'BLOCKED', 'FAILED'],
    ['NOT_EXECUTED', 'SKIPPED', 'SKIPPED', 'SKIPPED'],
    ['PASSED', 'NOT_EXECUTED', 'PASSED', 'PASSED'],
    ['FAILED', 'NOT_EXECUTED', 'FAILED', 'FAILED'],
    ['NOT_EXECUTED', 'NOT_EXECUTED', 'NOT_EXECUTED', 'NOT_EXECUTED'],
  ] as const)('%s there, %s incoming: latest %s, worst %s', (there, incoming, latest, worst) => {
    expect(mergeWithServer(there, incoming, 'latest')).toBe(latest);
    expect(mergeWithServer(there, incoming, 'worst')).toBe(worst);
  });

  test('a populated NOT_EXECUTED never plans a write over a recorded result', () => {
    const plan = makePlan(
      [{ id: 'e1', caseId: 'c1', result: 'FAILED' }],
      [{ caseId: 'c1', result: 'NOT_EXECUTED' }],
      'latest',
    );
    expect(plan.items.map((i) => i.kind)).toEqual(['unchanged']);
  });
});
