/**
 * A seed made from an export of a real Space (README "Starting from a real Space"): records keep
 * their ids, keys, automation keys and custom fields; keys made later never repeat a kept one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, closeEmulators, doc, emulator, PROJECT, testSeed } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { type Seed, validateSeed } from '../../src/emulator/index.js';

afterEach(closeEmulators);

const CASE_ID = '6d1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

const exported = () =>
  testSeed({
    testCases: [
      {
        id: CASE_ID,
        testCaseKey: 'DEMO-T41',
        name: 'Cart: add an item',
        automationKey: 'com.acme.CartTest.addsItem',
        status: 'ACTIVE',
        customFields: { component: 'cart' },
      },
      { name: 'no key in the export' },
      { testCaseKey: 'LEGACY-T7', name: 'moved from another project' },
    ],
    testCycles: [{ testCycleKey: 'DEMO-R9', name: 'Release 1.0', status: 'DONE' }],
  });

test('ids, keys, automation keys and custom fields are kept; new keys continue after them', async () => {
  const emu = await emulator({ seed: exported() });
  const got = await call(emu, 'GET', `/test_cases/${CASE_ID}`);
  expect(got.body.data.attributes).toMatchObject({
    testCaseKey: 'DEMO-T41',
    automationKey: 'com.acme.CartTest.addsItem',
    customFields: { component: 'cart' },
  });
  const keys = (await call(emu, 'GET', '/test_cases?sort=rank')).body.data.map(
    (d: { attributes: { testCaseKey: string } }) => d.attributes.testCaseKey,
  );
  expect(keys).toEqual(['DEMO-T41', 'DEMO-T42', 'LEGACY-T7']);
  const made = await call(emu, 'POST', '/test_cases', {
    body: doc('test_cases', { projectId: PROJECT, name: 'new', rank: 9 }),
  });
  expect(made.body.data.attributes.testCaseKey).toBe('DEMO-T43');
  const found = await call(
    emu,
    'GET',
    `/test_cases?filter=${encodeURIComponent('automationKey = "com.acme.CartTest.addsItem"')}`,
  );
  expect(found.body.data.map((d: { id: string }) => d.id)).toEqual([CASE_ID]);
  const cycle = await call(emu, 'POST', '/test_cycles', {
    body: doc('test_cycles', { projectId: PROJECT, name: 'next', rank: 9 }),
  });
  expect(cycle.body.data.attributes.testCycleKey).toBe('DEMO-R10');
});

test.each([
  [{ testCases: [{ name: 'a', id: 'not-a-uuid' }] }, /testCases\[0\]\.id must be a uuid/],
  [
    { testCases: [{ name: 'a', testCaseKey: 'has spaces' }] },
    /testCases\[0\]\.testCaseKey must be a key/,
  ],
  [
    {
      testCases: [
        { name: 'a', testCaseKey: 'DEMO-T1' },
        { name: 'b', testCaseKey: 'DEMO-T1' },
      ],
    },
    /testCases\[1\]\.testCaseKey repeats testCases\[0\]'s DEMO-T1/,
  ],
])('a bad export is named: %j', (seed, message) => {
  expect(() => validateSeed(seed, 'space.json')).toThrow(message);
});

describe('a bad seed is named by its entry, never "unexpected error"', () => {
  const UUID_A = '0b0e0f0a-1111-4222-8333-444455556666';
  test.each([
    [{ users: [null] }, /^seed: users\[0\] must be an object/],
    [{ users: [{ id: 'not-a-uuid' }] }, /^seed: users\[0\]\.id must be a uuid/],
    [{ users: [{ id: UUID_A }, { id: UUID_A }] }, /^seed: users\[1\]\.id repeats users\[0\]'s/],
    [{ users: [{ name: 5 }] }, /^seed: users\[0\]\.name must be a string/],
    [{ project: { id: 'x' } }, /^seed: project\.id must be a uuid/],
    [{ project: { key: 'A B' } }, /^seed: project\.key must be letters, digits or _/],
    [{ organization: 'acme' }, /^seed: organization must be an object/],
    [{ testCases: [7] }, /^seed: testCases\[0\] must be an object/],
    [
      {
        testCycles: [
          { name: 'a', id: UUID_A },
          { name: 'b', id: UUID_A },
        ],
      },
      /^seed: testCycles\[1\]\.id repeats testCycles\[0\]'s/,
    ],
  ])('checked before anything is made: %j', (seed, message) => {
    expect(() => validateSeed(seed)).toThrow(message);
  });

  test.each([
    // JSON.parse reads 1e400 as Infinity: what a seed file with it holds.
    [
      JSON.parse('{"testCases":[{"name":"a"},{"name":"b","rank":1e400}]}'),
      /^testCases\[1\]\.rank must be an integer\.$/,
    ],
    [{ testCases: [{ name: 'a', rank: 'first' }] }, /^testCases\[0\]\.rank must be an integer\.$/],
    [
      { testCases: [{ name: 'a' }, { name: 'a' }] },
      /^testCases\[1\]\.name: A live test_cases record named "a"/,
    ],
    [
      { testCycles: [{ name: 'a', status: 'OPEN' }] },
      /^testCycles\[0\]\.status must be one of DRAFT/,
    ],
    [
      { testCases: [{ name: 'a', rank: Number.MAX_SAFE_INTEGER }, { name: 'b' }] },
      /^testCases\[1\]\.rank is left out, and the one after the largest rank so far \(9007199254740991\)/,
    ],
  ])('refused by the create path, named by its entry: %j', async (records, message) => {
    const seed = testSeed(records as Partial<Seed>);
    expect(() => validateSeed(seed)).not.toThrow();
    await expect(emulator({ seed })).rejects.toThrow(message);
  });

  test('the CLI names the file, the entry and what to do (exit 2, no stack)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'space.json');
    writeFileSync(file, '{"testCases":[{"name":"a","rank":1e400}]}');
    const run = await runCli(['emulator', '--seed', file], {});
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--seed: ${file}: testCases[0].rank must be an integer.`);
    expect(run.err).not.toMatch(/unexpected error|\n\s+at /);
  });
});

test('keys past 2^53 stay exact: new keys continue after the largest seeded one', async () => {
  const emu = await emulator({
    seed: testSeed({
      testCases: [{ name: 'old', testCaseKey: 'DEMO-T9007199254740993' }],
      testCycles: [{ name: 'old', testCycleKey: 'DEMO-R123456789012345678901' }],
    }),
  });
  const made: string[] = [];
  for (const name of ['n1', 'n2']) {
    const answer = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name, rank: 9 }),
    });
    made.push(answer.body.data.attributes.testCaseKey);
  }
  expect(made).toEqual(['DEMO-T9007199254740994', 'DEMO-T9007199254740995']);
  const cycle = await call(emu, 'POST', '/test_cycles', {
    body: doc('test_cycles', { projectId: PROJECT, name: 'new', rank: 9 }),
  });
  expect(cycle.body.data.attributes.testCycleKey).toBe('DEMO-R123456789012345678902');
});
