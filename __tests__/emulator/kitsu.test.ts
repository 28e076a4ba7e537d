/**
 * A third-party JSON:API client (kitsu, on axios) against the emulator: what a user's own tools do.
 * kitsu camel-cases and pluralises types by default; the API's types are snake_case plurals.
 */
import Kitsu from 'kitsu';
import {
  closeEmulators,
  emulator,
  OTHER_USER,
  OWNER,
  RW,
  testSeed,
  PROJECT,
} from '../helpers/emulator.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- kitsu's answers are untyped records */
type Answer = {
  data: any;
  links?: Record<string, string>;
  meta?: any;
  headers?: any;
  status: number;
};

let emu: RunningEmulator;
let api: Kitsu;

beforeAll(async () => {
  emu = await emulator({
    seed: testSeed({
      testCases: Array.from({ length: 7 }, (_, i) => ({
        name: `case ${i}`,
        status: i === 3 ? 'DRAFT' : 'ACTIVE',
        ownerId: i % 2 ? OTHER_USER : OWNER,
      })),
    }),
  });
  api = new Kitsu({
    baseURL: emu.url,
    headers: { Authorization: `Bearer ${RW}` },
    camelCaseTypes: false,
    pluralize: false,
    resourceCase: 'none',
  });
});
afterAll(closeEmulators);

/** Every page of a list, following links.next verbatim (absolute, so axios ignores its base URL). */
async function allPages(first: Answer): Promise<any[]> {
  const records = [...first.data];
  let page = first;
  while (page.links?.next) {
    page = (await api.request({
      url: page.links.next,
      method: 'GET',
      type: 'test_cases',
    })) as Answer;
    records.push(...page.data);
  }
  return records;
}

test('list with filter, sort, include and fields; included owners attach to their cases', async () => {
  const res = (await api.get('test_cases', {
    params: {
      filter: 'status = "ACTIVE"',
      sort: '-rank',
      include: 'ownerUser',
      fields: { test_cases: 'name,rank,ownerUser', users: 'name' },
      page: { size: 2 },
    },
  })) as Answer;
  expect(res.meta).toEqual({ totalCount: 6 });
  expect(res.data[0]).toMatchObject({
    type: 'test_cases',
    name: 'case 6',
    rank: 7,
    ownerUser: { data: { type: 'users', id: OWNER, name: 'Ada' } },
  });
  expect(res.data[0].status).toBeUndefined();
  const all = await allPages(res);
  expect(all.map((c) => c.name)).toEqual([
    'case 6',
    'case 5',
    'case 4',
    'case 2',
    'case 1',
    'case 0',
  ]);
  expect(all.map((c) => c.ownerUser.data.name)).toEqual(['Ada', 'Bob', 'Ada', 'Ada', 'Bob', 'Ada']);
});

test('cursor pages: page[after] from links.next until it is absent', async () => {
  const first = (await api.get('test_cases', {
    params: { sort: 'name', page: { size: 3, after: '' } },
  })) as Answer;
  const all = await allPages(first);
  expect(all.map((c) => c.name)).toEqual(Array.from({ length: 7 }, (_, i) => `case ${i}`));
});

test('create, update with If-Match, soft-delete and restore', async () => {
  const created = (await api.create('test_cases', {
    name: 'made by kitsu',
    rank: 100,
    projectId: PROJECT,
    customFields: { component: 'api' },
  })) as Answer;
  expect(created.status).toBe(201);
  expect(created.data).toMatchObject({
    type: 'test_cases',
    name: 'made by kitsu',
    testCaseKey: 'DEMO-T8',
    customFields: { component: 'api' },
  });
  const id: string = created.data.id;
  let etag: string = created.headers.etag;

  await expect(api.update('test_cases', { id, name: 'no lock' })).rejects.toMatchObject({
    errors: [{ status: '428', code: 'MISSING_IF_MATCH' }],
  });
  const updated = (await api.update(
    'test_cases',
    { id, name: 'renamed by kitsu', priority: 'HIGH' },
    { headers: { 'If-Match': etag } },
  )) as Answer;
  expect(updated.data).toMatchObject({ id, name: 'renamed by kitsu', priority: 'HIGH' });
  etag = updated.headers.etag;

  const deleted = (await api.remove('test_cases', id, {
    headers: { 'If-Match': etag },
  })) as Answer;
  expect(deleted.data.deletedAt).toEqual(expect.any(String));
  await expect(api.get(`test_cases/${id}`)).rejects.toMatchObject({
    errors: [{ status: '404' }],
  });
  const listed = (await api.get('test_cases', {
    params: { filter: 'name = "renamed by kitsu"', withDeleted: true } as object,
  })) as Answer;
  expect(listed.data.map((c: any) => c.id)).toEqual([id]);

  const restored = (await api.request({
    method: 'POST',
    url: `test_cases/${id}/actions/restore`,
    type: 'test_cases',
    body: { id },
    headers: { 'If-Match': deleted.headers.etag },
  })) as Answer;
  expect(restored.data).toMatchObject({ id, deletedAt: null, name: 'renamed by kitsu' });
  const again = (await api.get(`test_cases/${id}`, { params: { include: 'ownerUser' } })) as Answer;
  // No owner: kitsu keeps only the relationship's links (it drops `data: null`).
  expect(again.data.ownerUser).toEqual({
    links: {
      self: `${emu.url}/test_cases/${id}/relationships/ownerUser`,
      related: `${emu.url}/test_cases/${id}/ownerUser`,
    },
  });
});

test('executions: include the case and the cycle, filter through a relation', async () => {
  const cycle = (await api.create('test_cycles', {
    name: 'kitsu cycle',
    rank: 1,
    projectId: PROJECT,
    status: 'ACTIVE',
  })) as Answer;
  const cases = (await api.get('test_cases', {
    params: { sort: 'name', page: { size: 2 } },
  })) as Answer;
  for (const c of cases.data)
    await api.create('test_case_executions', {
      projectId: PROJECT,
      testCaseId: c.id,
      testCycleId: cycle.data.id,
    });
  const res = (await api.get('test_case_executions', {
    params: {
      filter: 'testCycle.name = "kitsu cycle"',
      include: 'testCase.ownerUser,testCycle',
      sort: 'testCaseExecutionKey',
    },
  })) as Answer;
  expect(res.data).toHaveLength(2);
  expect(res.data[0].testCase.data).toMatchObject({
    name: 'case 0',
    ownerUser: { data: { name: 'Ada' } },
  });
  expect(res.data[1].testCase.data).toMatchObject({
    name: 'case 1',
    ownerUser: { data: { name: 'Bob' } },
  });
  expect(res.data[0].testCycle.data).toMatchObject({ name: 'kitsu cycle', status: 'ACTIVE' });
});

test('requirement links: POST and DELETE on the relationship, read back through both sides', async () => {
  const testCase = (await api.get('test_cases', {
    params: { sort: 'name', page: { size: 1 } },
  })) as Answer;
  const caseId: string = testCase.data[0].id;
  const requirement = (await api.create('requirements', {
    name: 'Sign in',
    rank: 1,
    projectId: PROJECT,
  })) as Answer;
  const url = `test_cases/${caseId}/relationships/requirements`;
  // kitsu serialises a list body into resource identifiers: {data: [{type, id}]}.
  const added = (await api.request({
    method: 'POST',
    url,
    type: 'requirements',
    body: [{ id: requirement.data.id }],
  })) as Answer;
  expect(added.data).toEqual([{ type: 'requirements', id: requirement.data.id }]);
  const cases = (await api.get(`requirements/${requirement.data.id}/testCases`)) as Answer;
  expect(cases.data.map((c: any) => c.name)).toEqual(['case 0']);
  // A case's linkage rides on the case itself: kitsu hands it over as the relationship's data.
  const read = (await api.get(`test_cases/${caseId}`, {
    params: { fields: { test_cases: 'name,requirements' } },
  })) as Answer;
  expect(read.data.requirements.data).toEqual([{ type: 'requirements', id: requirement.data.id }]);
  const removed = (await api.request({
    method: 'DELETE',
    url,
    type: 'requirements',
    axiosOptions: { data: { data: [{ type: 'requirements', id: requirement.data.id }] } },
  })) as Answer;
  expect(removed.data).toEqual([]);
});
