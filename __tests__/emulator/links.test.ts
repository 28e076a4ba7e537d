/**
 * Requirement links as JSON:API relationships (docs/service-api.md 2.12): the
 * linkage of test_cases.requirements, its updates (JSON:API 1.1 "Updating To-Many
 * Relationships": adding a member that is there and removing one that is not change nothing), the
 * related routes both ways, the relation in FiltrQL quantifiers; and the `links` resource of
 * work-item links (docs/service-api.md 2.12, its work-item links).
 */
import {
  call,
  closeEmulators,
  doc,
  emulator,
  PROJECT,
  RO,
  type Answer,
} from '../helpers/emulator.js';
import { jsonApiViolations } from '../helpers/jsonapi.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

afterEach(closeEmulators);

async function post(emu: RunningEmulator, type: string, attributes: object): Promise<Answer> {
  const res = await call(emu, 'POST', `/${type}`, {
    body: doc(type, { projectId: PROJECT, ...attributes }),
  });
  if (res.status !== 201) throw new Error(`${type}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Two cases and three requirements (DEMO-REQ1..3). */
async function space() {
  const emu = await emulator();
  const cases = [];
  for (const name of ['login', 'logout'])
    cases.push((await post(emu, 'test_cases', { name, rank: 1 })).body.data);
  const reqs = [];
  for (const name of ['Sign in', 'Sign out', 'Audit'])
    reqs.push((await post(emu, 'requirements', { name, rank: 1 })).body.data);
  return { emu, cases, reqs };
}

const members = (...ids: string[]) => ({
  data: ids.map((id) => ({ type: 'requirements', id })),
});
const idsOf = (answer: Answer) => (answer.body.data as { id: string }[]).map((d) => d.id);

test('POST adds members, once: a member already there changes nothing, and its meta stays', async () => {
  const { emu, cases, reqs } = await space();
  const path = `/test_cases/${cases[0].id}/relationships/requirements`;
  const before = await call(emu, 'GET', `/test_cases/${cases[0].id}`);
  const first = await call(emu, 'POST', path, {
    body: { data: [{ type: 'requirements', id: reqs[0].id, meta: { origin: 'testcycle' } }] },
  });
  expect(first.status).toBe(200);
  expect(first.body).toEqual({
    links: {
      self: `${emu.url}${path}`,
      related: `${emu.url}/test_cases/${cases[0].id}/requirements`,
    },
    data: [{ type: 'requirements', id: reqs[0].id, meta: { origin: 'testcycle' } }],
  });
  const again = await call(emu, 'POST', path, { body: members(reqs[0].id, reqs[1].id) });
  expect(again.body.data).toEqual([
    { type: 'requirements', id: reqs[0].id, meta: { origin: 'testcycle' } },
    { type: 'requirements', id: reqs[1].id },
  ]);
  expect(jsonApiViolations(again.body)).toEqual([]);
  // Links are no attribute of the case: its ETag stays, and no If-Match was asked for.
  expect((await call(emu, 'GET', `/test_cases/${cases[0].id}`)).etag).toBe(before.etag);
  expect((await call(emu, 'GET', path)).body).toEqual(again.body);
});

test('DELETE removes members; removing one that is not there changes nothing', async () => {
  const { emu, cases, reqs } = await space();
  const path = `/test_cases/${cases[0].id}/relationships/requirements`;
  await call(emu, 'POST', path, { body: members(reqs[0].id, reqs[1].id) });
  const removed = await call(emu, 'DELETE', path, { body: members(reqs[0].id, reqs[2].id) });
  expect(removed.status).toBe(200);
  expect(idsOf(removed)).toEqual([reqs[1].id]);
  const none = await call(emu, 'DELETE', path, { body: members() });
  expect(idsOf(none)).toEqual([reqs[1].id]);
});

test('both sides: a requirement lists its cases (paged, filterable), a case its requirements', async () => {
  const { emu, cases, reqs } = await space();
  for (const c of cases)
    await call(emu, 'POST', `/test_cases/${c.id}/relationships/requirements`, {
      body: members(reqs[0].id),
    });
  const page = await call(emu, 'GET', `/requirements/${reqs[0].id}/testCases?page[size]=1`);
  expect(page.body.meta).toEqual({ totalCount: 2 });
  expect(idsOf(page)).toEqual([cases[0].id]);
  const next = await call(emu, 'GET', page.body.links.next.slice(emu.url.length));
  expect(idsOf(next)).toEqual([cases[1].id]);
  const filtered = await call(
    emu,
    'GET',
    `/requirements/${reqs[0].id}/testCases?filter=${encodeURIComponent('name = "logout"')}`,
  );
  expect(idsOf(filtered)).toEqual([cases[1].id]);
  const linkage = await call(emu, 'GET', `/requirements/${reqs[0].id}/relationships/testCases`);
  expect(linkage.body.data).toEqual(cases.map((c) => ({ type: 'test_cases', id: c.id })));
  // The other side, and the linkage every list of the records carries (no request per record).
  const related = await call(emu, 'GET', `/test_cases/${cases[1].id}/requirements`);
  expect(
    related.body.data.map(
      (r: { attributes: { requirementKey: string } }) => r.attributes.requirementKey,
    ),
  ).toEqual(['DEMO-REQ1']);
  const list = await call(
    emu,
    'GET',
    '/requirements?fields[requirements]=requirementKey,testCases',
  );
  expect(
    list.body.data.map(
      (r: { relationships: { testCases: { data: unknown[] } } }) =>
        r.relationships.testCases.data.length,
    ),
  ).toEqual([2, 0, 0]);
  expect(jsonApiViolations(list.body, { sparse: true })).toEqual([]);
});

test('FiltrQL quantifiers over the relation, both ways', async () => {
  const { emu, cases, reqs } = await space();
  await call(emu, 'POST', `/test_cases/${cases[1].id}/relationships/requirements`, {
    body: members(reqs[1].id),
  });
  const names = async (path: string, filter: string) =>
    (await call(emu, 'GET', `${path}?filter=${encodeURIComponent(filter)}`)).body.data.map(
      (r: { attributes: { name: string } }) => r.attributes.name,
    );
  expect(await names('/test_cases', 'requirements ANY (requirementKey = "DEMO-REQ2")')).toEqual([
    'logout',
  ]);
  expect(await names('/test_cases', 'requirements NONE (requirementKey = "DEMO-REQ2")')).toEqual([
    'login',
  ]);
  expect(await names('/requirements', 'testCases ANY (name = "logout")')).toEqual(['Sign out']);
  expect(await names('/requirements', 'testCases NONE (name ~ "log")')).toEqual([
    'Sign in',
    'Audit',
  ]);
});

test('a soft-deleted requirement leaves the linkage while deleted, and comes back restored', async () => {
  const { emu, cases, reqs } = await space();
  const path = `/test_cases/${cases[0].id}/relationships/requirements`;
  await call(emu, 'POST', path, { body: members(reqs[0].id) });
  const current = await call(emu, 'GET', `/requirements/${reqs[0].id}`);
  const gone = await call(emu, 'DELETE', `/requirements/${reqs[0].id}`, {
    headers: { 'if-match': current.etag! },
  });
  expect(idsOf(await call(emu, 'GET', path))).toEqual([]);
  await call(emu, 'POST', `/requirements/${reqs[0].id}/actions/restore`, {
    headers: { 'if-match': gone.etag! },
  });
  expect(idsOf(await call(emu, 'GET', path))).toEqual([reqs[0].id]);
});

test.each<
  [string, string, (ids: { c: string; r: string }) => Parameters<typeof call>[3], number, string]
>([
  [
    'a member of another type',
    'POST',
    ({ c }) => ({ body: { data: [{ type: 'test_cases', id: c }] } }),
    409,
    'TYPE_MISMATCH',
  ],
  [
    'a requirement that does not exist',
    'POST',
    () => ({ body: members('00000000-0000-4000-8000-000000000000') }),
    409,
    'MISSING_REFERENCE',
  ],
  [
    'a body that is no list',
    'POST',
    ({ r }) => ({ body: { data: { type: 'requirements', id: r } } }),
    422,
    'INVALID_DOCUMENT',
  ],
  [
    'meta that is no object',
    'DELETE',
    ({ r }) => ({ body: { data: [{ type: 'requirements', id: r, meta: 'x' }] } }),
    422,
    'INVALID_DOCUMENT',
  ],
  ['a read-only token', 'POST', ({ r }) => ({ token: RO, body: members(r) }), 403, 'FORBIDDEN'],
])('refused: %s', async (_what, method, options, status, code) => {
  const { emu, cases, reqs } = await space();
  const path = `/test_cases/${cases[0].id}/relationships/requirements`;
  const res = await call(emu, method, path, options({ c: cases[0].id, r: reqs[0].id }));
  expect([res.status, res.body.errors[0].code]).toEqual([status, code]);
  // Checked whole before anything changes.
  expect(idsOf(await call(emu, 'GET', path))).toEqual([]);
});

test('the relationship of a case that does not exist is 404; the inverse side takes no writes', async () => {
  const { emu, reqs } = await space();
  const missing = await call(
    emu,
    'POST',
    '/test_cases/00000000-0000-4000-8000-000000000000/relationships/requirements',
    { body: members(reqs[0].id) },
  );
  expect(missing.status).toBe(404);
  const inverse = await call(emu, 'POST', `/requirements/${reqs[0].id}/relationships/testCases`, {
    body: { data: [] },
  });
  expect(inverse.status).toBe(405);
});

test('work-item links: one per case and work item, listed per case, deleted without If-Match', async () => {
  const { emu, cases } = await space();
  const made = await post(emu, 'links', {
    testCaseId: cases[0].id,
    workItem: 'PROJ-12',
    origin: 'testcycle',
  });
  expect(made.body.data.attributes).toMatchObject({
    workItem: 'PROJ-12',
    origin: 'testcycle',
    createdBy: expect.any(String),
  });
  const twice = await call(emu, 'POST', '/links', {
    body: doc('links', { projectId: PROJECT, testCaseId: cases[0].id, workItem: 'PROJ-12' }),
  });
  expect(twice.status).toBe(409);
  const listed = await call(emu, 'GET', `/test_cases/${cases[0].id}/workItemLinks`);
  expect(idsOf(listed)).toEqual([made.body.data.id]);
  const byFilter = await call(
    emu,
    'GET',
    `/links?filter=${encodeURIComponent(`testCaseId = "${cases[0].id}" AND origin = "testcycle"`)}`,
  );
  expect(idsOf(byFilter)).toEqual([made.body.data.id]);
  expect((await call(emu, 'DELETE', `/links/${made.body.data.id}`)).status).toBe(200);
  expect(idsOf(await call(emu, 'GET', `/test_cases/${cases[0].id}/workItemLinks`))).toEqual([]);
  const missingCase = await call(emu, 'POST', '/links', {
    body: doc('links', {
      projectId: PROJECT,
      testCaseId: '00000000-0000-4000-8000-000000000000',
      workItem: 'X-1',
    }),
  });
  expect(missingCase.status).toBe(409);
});
