/**
 * The store's indexes answer what a create looks up (unique names, one execution per case and
 * cycle, the next rank); these tests pin that the indexes follow every write, not only inserts.
 */
import { call, closeEmulators, doc, emulator, testSeed, PROJECT } from '../helpers/emulator.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

afterEach(closeEmulators);

const post = (emu: RunningEmulator, type: string, attributes: object) =>
  call(emu, 'POST', `/${type}`, { body: doc(type, { projectId: PROJECT, ...attributes }) });

test('a rename frees the old name and takes the new one', async () => {
  const emu = await emulator();
  const a = await post(emu, 'test_cases', { name: 'old', rank: 1 });
  const renamed = await call(emu, 'PATCH', `/test_cases/${a.body.data.id}`, {
    body: doc('test_cases', { name: 'new' }, a.body.data.id),
    headers: { 'if-match': a.etag! },
  });
  expect(renamed.status).toBe(200);
  expect((await post(emu, 'test_cases', { name: 'new', rank: 2 })).status).toBe(409);
  expect((await post(emu, 'test_cases', { name: 'old', rank: 2 })).status).toBe(201);
});

test('a restore whose name was taken meanwhile gives 409; freed again, it succeeds', async () => {
  const emu = await emulator();
  const a = await post(emu, 'test_cases', { name: 'x', rank: 1 });
  const deleted = await call(emu, 'DELETE', `/test_cases/${a.body.data.id}`, {
    headers: { 'if-match': a.etag! },
  });
  const b = await post(emu, 'test_cases', { name: 'x', rank: 2 });
  expect(b.status).toBe(201);
  const restore = () =>
    call(emu, 'POST', `/test_cases/${a.body.data.id}/actions/restore`, {
      headers: { 'if-match': deleted.etag! },
    });
  expect((await restore()).status).toBe(409);
  await call(emu, 'PATCH', `/test_cases/${b.body.data.id}`, {
    body: doc('test_cases', { name: 'y' }, b.body.data.id),
    headers: { 'if-match': b.etag! },
  });
  expect((await restore()).status).toBe(200);
});

test('one execution per case and cycle, whatever the number of cycles', async () => {
  const emu = await emulator();
  const tc = await post(emu, 'test_cases', { name: 'a', rank: 1 });
  const cycles = [];
  for (let i = 0; i < 3; i++)
    cycles.push((await post(emu, 'test_cycles', { name: `c${i}`, rank: 1 })).body.data.id);
  for (const cycle of cycles) {
    const attrs = { testCaseId: tc.body.data.id, testCycleId: cycle };
    expect((await post(emu, 'test_case_executions', attrs)).status).toBe(201);
    const again = await post(emu, 'test_case_executions', attrs);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toMatch(/same testCaseId and testCycleId/);
  }
});

test('seeded records get ranks 1..n in seed order, and the seed keeps names unique', async () => {
  const emu = await emulator({
    seed: testSeed({ testCases: [{ name: 'a' }, { name: 'b' }, { name: 'c', rank: 10 }] }),
  });
  const ranks = [...emu.service.store.all('test_cases')].map((r) => r.attributes.rank);
  expect(ranks).toEqual([1, 2, 10]);
  expect(emu.service.nextRank('test_cases')).toBe(11);
  await expect(
    emulator({ seed: testSeed({ testCases: [{ name: 'a' }, { name: 'a' }] }) }),
  ).rejects.toThrow(/named "a" exists already/);
});
