/**
 * What the emulator enforces for sync's writes (docs/service-api.md 2.4, 2.5, section 3 rule 3):
 * test steps live under their case, ARCHIVED cases are still found by their key, soft-deleted
 * steps leave the lists.
 */
import { call, closeEmulators, doc, emulator, PROJECT } from '../helpers/emulator.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

afterEach(closeEmulators);

async function newCase(emu: RunningEmulator, name: string, extra: object = {}) {
  const res = await call(emu, 'POST', '/test_cases', {
    body: doc('test_cases', { projectId: PROJECT, name, rank: 1, ...extra }),
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function newStep(emu: RunningEmulator, testCaseId: string, sequenceNumber: number) {
  return call(emu, 'POST', '/test_steps', {
    body: doc('test_steps', {
      projectId: PROJECT,
      testCaseId,
      sequenceNumber,
      action: `step ${sequenceNumber}`,
    }),
  });
}

const actions = (res: { body: { data: { attributes: { action: string } }[] } }) =>
  res.body.data.map((s) => s.attributes.action);

test('steps are listed under their own case only, and need a live case', async () => {
  const emu = await emulator();
  const a = await newCase(emu, 'a');
  const b = await newCase(emu, 'b');
  expect((await newStep(emu, a, 1)).status).toBe(201);
  expect((await newStep(emu, b, 1)).status).toBe(201);
  expect((await newStep(emu, a, 2)).status).toBe(201);
  expect(actions(await call(emu, 'GET', `/test_cases/${a}/testSteps?sort=sequenceNumber`))).toEqual(
    ['step 1', 'step 2'],
  );
  expect(actions(await call(emu, 'GET', `/test_cases/${b}/testSteps`))).toEqual(['step 1']);
  // A soft-deleted case takes no new step: the reference is to a missing record (409).
  const gone = await call(emu, 'GET', `/test_cases/${b}`);
  expect(
    (await call(emu, 'DELETE', `/test_cases/${b}`, { headers: { 'if-match': gone.etag! } })).status,
  ).toBe(200);
  const refused = await newStep(emu, b, 2);
  expect(refused.status).toBe(409);
  expect(refused.body.errors[0].source).toEqual({ pointer: '/data/attributes/testCaseId' });
});

test('a soft-deleted step leaves the lists (the case route and /test_steps) unless withDeleted=true', async () => {
  const emu = await emulator();
  const a = await newCase(emu, 'a');
  await newStep(emu, a, 1);
  const second = await newStep(emu, a, 2);
  const deleted = await call(emu, 'DELETE', `/test_steps/${second.body.data.id}`, {
    headers: { 'if-match': second.etag! },
  });
  expect(deleted.status).toBe(200);
  expect(deleted.body.data.attributes.deletedAt).toEqual(expect.any(String));
  expect(actions(await call(emu, 'GET', `/test_cases/${a}/testSteps`))).toEqual(['step 1']);
  const filter = encodeURIComponent(`testCaseId = "${a}"`);
  expect(actions(await call(emu, 'GET', `/test_steps?filter=${filter}`))).toEqual(['step 1']);
  expect(
    actions(
      await call(emu, 'GET', `/test_steps?filter=${filter}&withDeleted=true&sort=sequenceNumber`),
    ),
  ).toEqual(['step 1', 'step 2']);
});

test('an ARCHIVED case is still matched by its automationKey', async () => {
  const emu = await emulator();
  const id = await newCase(emu, 'archived one', {
    automationKey: 'src/a.test.js › gone',
    automationStatus: 'AUTOMATED',
  });
  const read = await call(emu, 'GET', `/test_cases/${id}`);
  const archived = await call(emu, 'PATCH', `/test_cases/${id}`, {
    body: doc('test_cases', { status: 'ARCHIVED' }, id),
    headers: { 'if-match': read.etag! },
  });
  expect(archived.status).toBe(200);
  const filter = encodeURIComponent('automationKey = "src/a.test.js › gone"');
  const found = await call(emu, 'GET', `/test_cases?filter=${filter}`);
  expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  expect(found.body.data[0].attributes.status).toBe('ARCHIVED');
});
