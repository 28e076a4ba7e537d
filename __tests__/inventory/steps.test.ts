/**
 * Steps matched by their text (src/inventory/steps.ts, docs/design.md "Sync: what sync owns"): the
 * plan of each edit, as the writes it takes. A step is `text@number`, its id the text it had.
 */
import { planSteps, sequenceNumbers, type ExistingStep } from '../../src/inventory/steps.js';

const existing = (...steps: string[]): ExistingStep[] =>
  steps.map((s) => {
    const [action, n] = s.split('@') as [string, string];
    return { id: `id-${action}`, sequenceNumber: Number(n), action, expectedResult: '' };
  });

/** The plan in short: `+text@n` created, `id-x: field=value` updated, `-id` removed. */
function planOf(desired: string[], have: ExistingStep[]): string[] {
  const plan = planSteps(
    desired.map((action) => ({ action })),
    have,
  );
  return [
    ...plan.update.map(
      (u) =>
        `${u.base.id}: ${Object.entries(u.change)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
    ),
    ...plan.remove.map((s) => `-${s.id}`),
    ...plan.create.map((c) => `+${c.step.action}@${c.sequenceNumber}`),
  ];
}

describe.each([
  ['nothing changed', ['a@1', 'b@2', 'c@3'], ['a', 'b', 'c'], []],
  ['appended', ['a@1', 'b@2'], ['a', 'b', 'c'], ['+c@3']],
  [
    'inserted first: every step moves down',
    ['a@1', 'b@2'],
    ['x', 'a', 'b'],
    ['id-a: sequenceNumber=2', 'id-b: sequenceNumber=3', '+x@1'],
  ],
  ['inserted into a gap: nothing moves', ['a@1', 'b@5'], ['a', 'x', 'b'], ['+x@2']],
  ['removed: the gap stays', ['a@1', 'b@2', 'c@3'], ['a', 'c'], ['-id-b']],
  ['a changed text updates its step', ['a@1', 'b@2', 'c@3'], ['a', 'B', 'c'], ['id-b: action=B']],
  [
    'changed and inserted in one gap: the first is paired, the rest created',
    ['a@1', 'b@2', 'c@3'],
    ['a', 'B', 'x', 'c'],
    ['id-b: action=B', 'id-c: sequenceNumber=4', '+x@3'],
  ],
  [
    'a repeated text keeps both its steps',
    ['given@1', 'and@2', 'and@3'],
    ['given', 'x', 'and', 'and'],
    ['id-and: sequenceNumber=3', 'id-and: sequenceNumber=4', '+x@2'],
  ],
  [
    'a step moved to the end is removed and created again (a diff has no moves)',
    ['a@1', 'b@2', 'c@3'],
    ['b', 'c', 'a'],
    ['-id-a', '+a@4'],
  ],
  [
    'numbers a person left out of order are put in order, the fewest changed',
    ['a@3', 'b@1', 'c@4'],
    ['a', 'b', 'c'],
    ['id-a: sequenceNumber=1', 'id-b: sequenceNumber=2'],
  ],
  ['all new', [], ['a', 'b'], ['+a@1', '+b@2']],
  ['all gone', ['a@1', 'b@2'], [], ['-id-a', '-id-b']],
] as [string, string[], string[], string[]][])('%s', (_name, have, desired, writes) => {
  test(`${have.join(' ') || '(none)'} -> ${desired.join(' ') || '(none)'}`, () => {
    expect(planOf(desired, existing(...have))).toEqual(writes);
  });
});

test('numbers stay strictly increasing whatever the case held (duplicates, zero, gaps)', () => {
  const numbers = sequenceNumbers([
    ...existing('a@0', 'b@2', 'c@2', 'd@9'),
    undefined,
    ...existing('e@10'),
  ]);
  expect(numbers).toEqual([1, 2, 3, 4, 5, 10]);
});

test("an expectedResult is written only when the report gives one; a person's stays", () => {
  const have = [{ id: 's1', sequenceNumber: 1, action: 'Then 1 item', expectedResult: 'badge: 1' }];
  expect(planSteps([{ action: 'Then 1 item' }], have).update).toEqual([]);
  expect(planSteps([{ action: 'Then 1 item', expectedResult: 'one' }], have).update).toEqual([
    { base: have[0], change: { expectedResult: 'one' } },
  ]);
});

test('a long list of changed steps is diffed within bounds, pairing by place past them', () => {
  const n = 3000;
  const have = Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    sequenceNumber: i + 1,
    action: `old ${i}`,
    expectedResult: '',
  }));
  const desired = Array.from({ length: n }, (_, i) => ({ action: `new ${i}` }));
  const plan = planSteps(desired, have);
  expect(plan.update).toHaveLength(n);
  expect(plan.create).toEqual([]);
  expect(plan.remove).toEqual([]);
});
