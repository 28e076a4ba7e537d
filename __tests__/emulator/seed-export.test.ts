/**
 * A seed made from an export of a real Space (README "Starting from a real Space"): records keep
 * their ids, keys, automation keys and custom fields; keys made later never repeat a kept one.
 */
import { call, closeEmulators, doc, emulator, PROJECT, testSeed } from '../helpers/emulator.js';
import { validateSeed } from '../../src/emulator/index.js';

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
