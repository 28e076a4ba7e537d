/**
 * docs/service-api.md, section by section: each stated rule has a test that fails if the emulator
 * breaks it. Requests are raw (no client) so the exact answer is asserted.
 */
import {
  call,
  closeEmulators,
  doc,
  emulator,
  OWNER,
  OTHER_USER,
  RO,
  RW,
  testSeed,
  type Answer,
} from '../helpers/emulator.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { MAX_BODY_BYTES } from '../../src/schema/limits.js';
import { parseRateLimit } from '../../src/client/scheduler.js';
import { parseRate } from '../../src/emulator/http/rate-window.js';
import { ConfigError } from '../../src/shared/errors.js';

const PROJECT = '3f0c0e4e-0000-4000-8000-000000000001';

afterEach(closeEmulators);

async function create(emu: RunningEmulator, type: string, attributes: object): Promise<Answer> {
  const res = await call(emu, 'POST', `/${type}`, {
    body: doc(type, { projectId: PROJECT, ...attributes }),
  });
  if (res.status !== 201)
    throw new Error(`create ${type}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}
const mkCase = (emu: RunningEmulator, name: string, extra: object = {}) =>
  create(emu, 'test_cases', { name, rank: 1, ...extra });
const mkCycle = (emu: RunningEmulator, name: string, status = 'ACTIVE') =>
  create(emu, 'test_cycles', { name, rank: 1, status });
async function mkExecution(emu: RunningEmulator, caseId: string, cycleId: string) {
  return create(emu, 'test_case_executions', { testCaseId: caseId, testCycleId: cycleId });
}
/** A link from the emulator is absolute, on its own base URL: the path after it. */
function relative(emu: RunningEmulator, link: string): string {
  if (!link.startsWith(`${emu.url}/`)) throw new Error(`link not under ${emu.url}: ${link}`);
  return link.slice(emu.url.length);
}
const codeOf = (res: Answer) => res.body?.errors?.[0]?.code;
const sourceOf = (res: Answer) => res.body?.errors?.[0]?.source;

describe('2. Resources and their fields', () => {
  test('keys are set by the server: DEMO-T1, DEMO-R1, DEMO-E1, DEMO-REQ1', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    const cycle = await mkCycle(emu, 'c');
    const ex = await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    const req = await create(emu, 'requirements', { name: 'r', rank: 1 });
    expect(tc.body.data.attributes.testCaseKey).toBe('DEMO-T1');
    expect(cycle.body.data.attributes.testCycleKey).toBe('DEMO-R1');
    expect(ex.body.data.attributes.testCaseExecutionKey).toBe('DEMO-E1');
    expect(req.body.data.attributes.requirementKey).toBe('DEMO-REQ1');
    expect(tc.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    ['test_cases', 'testCaseKey', { name: 'x', rank: 1 }],
    ['test_cases', 'updatedAt', { name: 'x', rank: 1 }],
    ['test_cycles', 'testCycleKey', { name: 'x', rank: 1 }],
    ['test_cycles', 'id', { name: 'x', rank: 1 }],
    ['requirements', 'significance', { name: 'x', rank: 1 }],
  ])('sending server-set %s.%s gives 422 naming it', async (type, attribute, attrs) => {
    const emu = await emulator();
    const res = await call(emu, 'POST', `/${type}`, {
      body: doc(type, { projectId: PROJECT, ...attrs, [attribute]: 'x' }),
    });
    expect(res.status).toBe(422);
    expect(sourceOf(res)).toEqual({ pointer: `/data/attributes/${attribute}` });
  });

  test('names are unique among live records: 409; a soft-deleted name is free again', async () => {
    const emu = await emulator();
    const first = await mkCase(emu, 'dup');
    const second = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name: 'dup', rank: 2 }),
    });
    expect(second.status).toBe(409);
    expect(sourceOf(second)).toEqual({ pointer: '/data/attributes/name' });
    await call(emu, 'DELETE', `/test_cases/${first.body.data.id}`, {
      headers: { 'if-match': first.etag! },
    });
    expect(
      (
        await call(emu, 'POST', '/test_cases', {
          body: doc('test_cases', { projectId: PROJECT, name: 'dup', rank: 2 }),
        })
      ).status,
    ).toBe(201);
  });

  test('enums: a value outside the list gives 422', async () => {
    const emu = await emulator();
    const res = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name: 'x', rank: 1, priority: 'URGENT' }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].detail).toMatch(/CRITICAL, HIGH, MEDIUM, LOW/);
  });

  test('required attributes: missing gives 422 naming it', async () => {
    const emu = await emulator();
    const res = await call(emu, 'POST', '/test_steps', {
      body: doc('test_steps', { projectId: PROJECT, sequenceNumber: 1 }),
    });
    expect(res.status).toBe(422);
    expect(sourceOf(res)).toEqual({ pointer: '/data/attributes/testCaseId' });
  });

  test('a reference to a missing record gives 409', async () => {
    const emu = await emulator();
    const res = await call(emu, 'POST', '/test_steps', {
      body: doc('test_steps', {
        projectId: PROJECT,
        sequenceNumber: 1,
        testCaseId: '00000000-0000-4000-8000-000000000000',
      }),
    });
    expect(res.status).toBe(409);
    expect(sourceOf(res)).toEqual({ pointer: '/data/attributes/testCaseId' });
  });

  test('2.8: significance is computed from complexity and impact, and follows updates', async () => {
    const emu = await emulator();
    const req = await create(emu, 'requirements', {
      name: 'r',
      rank: 1,
      complexity: 'HIGH',
      impact: 'HIGH',
    });
    expect(req.body.data.attributes.significance).toBe('CRITICAL');
    const low = await call(emu, 'PATCH', `/requirements/${req.body.data.id}`, {
      body: doc('requirements', { impact: 'LOW' }, req.body.data.id),
      headers: { 'if-match': req.etag! },
    });
    expect(low.body.data.attributes.significance).toBe('MEDIUM');
  });

  test('2.9: GET /projects returns exactly the Space of the token', async () => {
    const emu = await emulator();
    const res = await call(emu, 'GET', '/projects');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      type: 'projects',
      id: PROJECT,
      attributes: { name: 'Demo', key: 'DEMO' },
    });
  });

  test('2.10: custom fields are read, written and filtered; an unknown key gives 422', async () => {
    const emu = await emulator();
    await mkCase(emu, 'a', { customFields: { component: 'api' } });
    await mkCase(emu, 'b', { customFields: { component: 'ui' } });
    const bad = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', {
        projectId: PROJECT,
        name: 'c',
        rank: 1,
        customFields: { team: 'x' },
      }),
    });
    expect(bad.status).toBe(422);
    expect(sourceOf(bad)).toEqual({ pointer: '/data/attributes/customFields/team' });
    const list = await call(
      emu,
      'GET',
      `/test_cases?filter=${encodeURIComponent('customFields.component = "api"')}`,
    );
    expect(list.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual([
      'a',
    ]);
    const defs = await call(emu, 'GET', '/service_custom_field');
    expect(defs.body.data.map((d: { attributes: object }) => d.attributes)).toEqual([
      { name: 'component', entity: 'test_cases', fieldType: 'string' },
      { name: 'build', entity: 'test_cycles', fieldType: 'string' },
    ]);
  });
});

describe('3. States and transitions', () => {
  test('rule 1: a result is recorded only on an ACTIVE cycle (422 CYCLE_NOT_ACTIVE on DRAFT)', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    const cycle = await mkCycle(emu, 'draft', 'DRAFT');
    const ex = await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    const res = await call(emu, 'PATCH', `/test_case_executions/${ex.body.data.id}`, {
      body: doc('test_case_executions', { result: 'PASSED' }, ex.body.data.id),
      headers: { 'if-match': ex.etag! },
    });
    expect(res.status).toBe(422);
    expect(codeOf(res)).toBe('CYCLE_NOT_ACTIVE');
    expect(sourceOf(res)).toEqual({ pointer: '/data/attributes/result' });
  });

  test('rule 2: an execution is created without a result; it starts NOT_EXECUTED, executedAt is stamped on the first result', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    const cycle = await mkCycle(emu, 'c');
    const withResult = await call(emu, 'POST', '/test_case_executions', {
      body: doc('test_case_executions', {
        projectId: PROJECT,
        testCaseId: tc.body.data.id,
        testCycleId: cycle.body.data.id,
        result: 'PASSED',
      }),
    });
    expect(withResult.status).toBe(422);
    const ex = await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    expect(ex.body.data.attributes).toMatchObject({
      result: 'NOT_EXECUTED',
      executedAt: null,
      testCaseVersion: 1,
    });
    const passed = await call(emu, 'PATCH', `/test_case_executions/${ex.body.data.id}`, {
      body: doc('test_case_executions', { result: 'PASSED' }, ex.body.data.id),
      headers: { 'if-match': ex.etag! },
    });
    expect(passed.status).toBe(200);
    expect(passed.body.data.attributes.executedAt).toEqual(expect.any(String));
    const sentExecutedAt = await call(emu, 'PATCH', `/test_case_executions/${ex.body.data.id}`, {
      body: doc('test_case_executions', { executedAt: new Date().toISOString() }, ex.body.data.id),
      headers: { 'if-match': passed.etag! },
    });
    expect(sentExecutedAt.status).toBe(422);
  });

  test('one execution per test case and cycle: a second create gives 409', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    const cycle = await mkCycle(emu, 'c');
    await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    const second = await call(emu, 'POST', '/test_case_executions', {
      body: doc('test_case_executions', {
        projectId: PROJECT,
        testCaseId: tc.body.data.id,
        testCycleId: cycle.body.data.id,
      }),
    });
    expect(second.status).toBe(409);
  });

  test('rule 3: soft delete needs If-Match, hides the record, and restore brings it back with the deleted ETag', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    const id = tc.body.data.id;
    expect((await call(emu, 'DELETE', `/test_cases/${id}`)).status).toBe(428);
    expect(
      (await call(emu, 'DELETE', `/test_cases/${id}`, { headers: { 'if-match': '"stale"' } }))
        .status,
    ).toBe(412);
    const deleted = await call(emu, 'DELETE', `/test_cases/${id}`, {
      headers: { 'if-match': tc.etag! },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.attributes.deletedAt).toEqual(expect.any(String));
    expect(deleted.etag).not.toBe(tc.etag);
    expect((await call(emu, 'GET', '/test_cases')).body.data).toHaveLength(0);
    expect((await call(emu, 'GET', '/test_cases?withDeleted=true')).body.data).toHaveLength(1);
    expect((await call(emu, 'GET', `/test_cases/${id}`)).status).toBe(404);
    expect(
      (
        await call(emu, 'POST', `/test_cases/${id}/actions/restore`, {
          headers: { 'if-match': tc.etag! },
        })
      ).status,
    ).toBe(412);
    const restored = await call(emu, 'POST', `/test_cases/${id}/actions/restore`, {
      headers: { 'if-match': deleted.etag! },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.data.attributes.deletedAt).toBeNull();
    expect((await call(emu, 'GET', '/test_cases')).body.data).toHaveLength(1);
  });

  test('rule 4: test cycles cannot be deleted', async () => {
    const emu = await emulator();
    const cycle = await mkCycle(emu, 'c');
    const res = await call(emu, 'DELETE', `/test_cycles/${cycle.body.data.id}`, {
      headers: { 'if-match': cycle.etag! },
    });
    expect(res.status).toBe(405);
    expect((await call(emu, 'GET', `/test_cycles/${cycle.body.data.id}`)).status).toBe(200);
  });
});

describe('4.1 Query parameters of every collection', () => {
  async function seeded(n: number) {
    const emu = await emulator();
    for (let i = 0; i < n; i++)
      await mkCase(emu, `case ${String(i).padStart(3, '0')}`, {
        rank: n - i,
        priority: i % 2 ? 'HIGH' : 'LOW',
      });
    return emu;
  }
  const names = (res: Answer) =>
    res.body.data.map((d: { attributes: { name: string } }) => d.attributes.name);

  test('page[size] defaults to 25 and is at most 100; totalCount and links', async () => {
    const emu = await seeded(30);
    const first = await call(emu, 'GET', '/test_cases');
    expect(first.body.data).toHaveLength(25);
    expect(first.body.meta).toEqual({ totalCount: 30 });
    expect(first.body.links.next).toContain('page%5Bnumber%5D=2');
    const second = await call(emu, 'GET', '/test_cases?page[number]=2');
    expect(second.body.data).toHaveLength(5);
    expect(second.body.links.next).toBeUndefined();
    expect((await call(emu, 'GET', '/test_cases?page[size]=101')).status).toBe(400);
    expect((await call(emu, 'GET', '/test_cases?page[size]=0')).status).toBe(400);
  });

  test('rule 1: page[number] with page[after] gives 400', async () => {
    const emu = await seeded(1);
    const res = await call(emu, 'GET', '/test_cases?page[number]=1&page[after]=');
    expect(res.status).toBe(400);
  });

  test('rule 2: cursor mode: links.next until the end, then absent; no skip or repeat while data changes', async () => {
    const emu = await seeded(10);
    const seen: string[] = [];
    let next: string | undefined = `${emu.url}/test_cases?page[size]=3&page[after]=`;
    let inserted = 0;
    while (next) {
      const res: Answer = await call(emu, 'GET', relative(emu, next));
      seen.push(...names(res));
      next = res.body.links.next;
      // Writes while reading: delete one not yet read, insert one.
      if (inserted++ === 0) {
        const all = await call(emu, 'GET', '/test_cases?page[size]=100');
        const last = all.body.data.at(-1);
        await call(emu, 'DELETE', `/test_cases/${last.id}`, {
          headers: { 'if-match': (await call(emu, 'GET', `/test_cases/${last.id}`)).etag! },
        });
        await mkCase(emu, 'zz inserted');
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain('case 000');
    expect(seen).toContain('case 008');
    expect(seen).not.toContain('case 009');
    expect(seen).toContain('zz inserted');
  });

  test('cursors with a sort: keyset order, no repeats', async () => {
    const emu = await seeded(7);
    const seen: string[] = [];
    let next: string | undefined =
      `${emu.url}/test_cases?sort=priority,-rank&page[size]=2&page[after]=`;
    while (next) {
      const res: Answer = await call(emu, 'GET', relative(emu, next));
      seen.push(...names(res));
      next = res.body.links.next;
    }
    const all = names(await call(emu, 'GET', '/test_cases?sort=priority,-rank&page[size]=100'));
    expect(seen).toEqual(all);
    expect(all).toEqual([
      'case 001',
      'case 003',
      'case 005',
      'case 000',
      'case 002',
      'case 004',
      'case 006',
    ]);
  });

  test('a cursor the server did not issue gives 400', async () => {
    const emu = await seeded(1);
    expect((await call(emu, 'GET', '/test_cases?page[after]=not-a-cursor')).status).toBe(400);
  });

  test('sort: multi-field, minus for descending', async () => {
    const emu = await seeded(4);
    expect(names(await call(emu, 'GET', '/test_cases?sort=-name'))).toEqual([
      'case 003',
      'case 002',
      'case 001',
      'case 000',
    ]);
    expect(names(await call(emu, 'GET', '/test_cases?sort=priority,name'))).toEqual([
      'case 001',
      'case 003',
      'case 000',
      'case 002',
    ]);
  });

  test('rule 3: unknown names in filter, sort, include and fields give 400 listing the valid ones', async () => {
    const emu = await seeded(1);
    for (const query of [
      'filter=nme%20%3D%20%22x%22',
      'sort=nme',
      'include=owner',
      'fields[test_cases]=nme',
    ]) {
      const res = await call(emu, 'GET', `/test_cases?${query}`);
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('UNKNOWN_FIELD');
      expect(res.body.errors[0].detail).toMatch(/Valid names: .*(name|ownerUser)/);
    }
  });

  test('unknown query parameters give 400', async () => {
    const emu = await seeded(1);
    const res = await call(emu, 'GET', '/test_cases?limit=5');
    expect(res.status).toBe(400);
    expect(sourceOf(res)).toEqual({ parameter: 'limit' });
  });

  test('sparse fieldsets, on a list, on one record and on included records', async () => {
    const emu = await seeded(1);
    const res = await call(emu, 'GET', '/test_cases?fields[test_cases]=name,rank');
    expect(res.body.data[0].attributes).toEqual({ name: 'case 000', rank: 1 });
    const one = await call(
      emu,
      'GET',
      `/test_cases/${res.body.data[0].id}?fields[test_cases]=name`,
    );
    expect(one.body.data.attributes).toEqual({ name: 'case 000' });
    const owned = await mkCase(emu, 'owned', { ownerId: OWNER });
    const withOwner = await call(
      emu,
      'GET',
      `/test_cases/${owned.body.data.id}?include=ownerUser&fields[users]=name&fields[test_cases]=ownerId`,
    );
    expect(withOwner.body.data.attributes).toEqual({ ownerId: OWNER });
    expect(withOwner.body.included).toEqual([
      {
        type: 'users',
        id: OWNER,
        attributes: { name: 'Ada' },
        links: { self: `${emu.url}/users/${OWNER}` },
      },
    ]);
  });

  test('include: to-one relations, up to 3 levels', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a', { ownerId: OWNER });
    const cycle = await mkCycle(emu, 'c');
    await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    const res = await call(
      emu,
      'GET',
      '/test_case_executions?include=testCase,testCase.ownerUser,testCycle.project',
    );
    const included = res.body.included.map((r: { type: string }) => r.type).sort();
    expect(included).toEqual(['projects', 'test_cases', 'test_cycles', 'users']);
    expect(
      (await call(emu, 'GET', '/test_case_executions?include=testCase.ownerUser.x.y')).status,
    ).toBe(400);
    expect((await call(emu, 'GET', '/test_cases?include=testSteps')).status).toBe(400);
  });

  test('rule 4: to-many routes page, filter and sort; fields[...]=id gives identifiers only', async () => {
    const emu = await emulator();
    const cycle = await mkCycle(emu, 'c');
    const other = await mkCycle(emu, 'other');
    for (const name of ['a', 'b', 'c']) {
      const tc = await mkCase(emu, name);
      await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    }
    const tc = await mkCase(emu, 'elsewhere');
    await mkExecution(emu, tc.body.data.id, other.body.data.id);
    const res = await call(
      emu,
      'GET',
      `/test_cycles/${cycle.body.data.id}/testCaseExecutions?fields[test_case_executions]=id&page[size]=2&page[after]=`,
    );
    expect(res.body.meta.totalCount).toBe(3);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0].attributes).toEqual({});
  });
});

describe('4.3 Aggregates', () => {
  test('count, grouped count, filtered; sum/avg/min/max on numeric columns', async () => {
    const emu = await emulator();
    const cycle = await mkCycle(emu, 'c');
    const results = ['PASSED', 'PASSED', 'FAILED', 'BLOCKED'];
    for (const [i, result] of results.entries()) {
      const tc = await mkCase(emu, `t${i}`, { rank: i + 1 });
      const ex = await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
      await call(emu, 'PATCH', `/test_case_executions/${ex.body.data.id}`, {
        body: doc('test_case_executions', { result }, ex.body.data.id),
        headers: { 'if-match': ex.etag! },
      });
    }
    const tc = await mkCase(emu, 'not run', { rank: 10 });
    await mkExecution(emu, tc.body.data.id, cycle.body.data.id);
    const filter = encodeURIComponent(`testCycleId = "${cycle.body.data.id}"`);
    const plain = await call(
      emu,
      'GET',
      `/test_case_executions/aggregate?filter=${filter}&aggregations[count]=true`,
    );
    expect(plain.body).toEqual({
      data: { type: 'test_case_executions_aggregate', id: 'aggregate', attributes: { count: 5 } },
      meta: { count: 5 },
    });
    const grouped = await call(
      emu,
      'GET',
      `/test_case_executions/aggregate?filter=${filter}&aggregations[count]=true&aggregations[groupBy][]=result`,
    );
    expect(grouped.body.meta).toEqual({ count: 5 });
    expect(
      Object.fromEntries(
        grouped.body.data.map((g: { attributes: { result: string; count: number } }) => [
          g.attributes.result,
          g.attributes.count,
        ]),
      ),
    ).toEqual({
      PASSED: 2,
      FAILED: 1,
      BLOCKED: 1,
      NOT_EXECUTED: 1,
    });
    expect(grouped.body.data[0]).toMatchObject({
      type: 'test_case_executions_aggregate',
      id: expect.stringMatching(/^result=/),
    });
    const sums = await call(
      emu,
      'GET',
      '/test_cases/aggregate?aggregations[sum]=rank&aggregations[max]=rank&aggregations[avg]=rank&aggregations[min]=rank',
    );
    expect(sums.body.data.attributes).toEqual({
      count: 5,
      sum: { rank: 20 },
      max: { rank: 10 },
      avg: { rank: 4 },
      min: { rank: 1 },
    });
    expect((await call(emu, 'GET', '/test_cases/aggregate?aggregations[sum]=name')).status).toBe(
      400,
    );
    expect(
      (await call(emu, 'GET', '/test_cases/aggregate?aggregations[groupBy][]=nme')).status,
    ).toBe(400);
  });
});

describe('4.4 Resource endpoints', () => {
  test('PATCH sends only what changes; type and id must match the path', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a', { priority: 'HIGH' });
    const id = tc.body.data.id;
    const ok = await call(emu, 'PATCH', `/test_cases/${id}`, {
      body: doc('test_cases', { name: 'b' }, id),
      headers: { 'if-match': tc.etag! },
    });
    expect(ok.body.data.attributes).toMatchObject({ name: 'b', priority: 'HIGH' });
    expect(
      (
        await call(emu, 'PATCH', `/test_cases/${id}`, {
          body: doc('test_cycles', { name: 'c' }, id),
          headers: { 'if-match': ok.etag! },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call(emu, 'PATCH', `/test_cases/${id}`, {
          body: doc('test_cases', { name: 'c' }, 'other'),
          headers: { 'if-match': ok.etag! },
        })
      ).status,
    ).toBe(409);
  });

  test('ETag: strong, quoted, new on every write; GET one, 201 and PATCH carry it', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    expect(tc.etag).toMatch(/^"[^"]+"$/);
    const got = await call(emu, 'GET', `/test_cases/${tc.body.data.id}`);
    expect(got.etag).toBe(tc.etag);
    const patched = await call(emu, 'PATCH', `/test_cases/${tc.body.data.id}`, {
      body: doc('test_cases', { name: 'b' }, tc.body.data.id),
      headers: { 'if-match': tc.etag! },
    });
    expect(patched.etag).not.toBe(tc.etag);
  });

  test('notifications: create, read, update without If-Match (not locked), delete returns empty attributes', async () => {
    const emu = await emulator();
    const emu2 = emu;
    const orgId = (await call(emu, 'GET', '/tokens')).body.data[0].attributes.organizationId;
    const created = await call(emu2, 'POST', '/notifications', {
      body: doc('notifications', {
        organizationId: orgId,
        projectId: PROJECT,
        recipientUserId: OTHER_USER,
        title: 'Hi',
        type: 'MENTION',
      }),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const read = await call(emu, 'PATCH', `/notifications/${id}`, {
      body: doc('notifications', { isRead: true }, id),
    });
    expect(read.body.data.attributes.isRead).toBe(true);
    const del = await call(emu, 'DELETE', `/notifications/${id}`);
    expect(del.body).toEqual({ data: { type: 'notifications', id, attributes: {} } });
    expect((await call(emu, 'GET', `/notifications/${id}`)).status).toBe(404);
    const badType = await call(emu, 'POST', '/notifications', {
      body: doc('notifications', {
        organizationId: orgId,
        projectId: PROJECT,
        recipientUserId: OTHER_USER,
        title: 'Hi',
        type: 'EMAIL',
      }),
    });
    expect(badType.status).toBe(422);
  });

  test('tokens: read only, with their attributes, never the secret', async () => {
    const emu = await emulator();
    const res = await call(emu, 'GET', '/tokens');
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0].attributes).toMatchObject({
      name: 'ci',
      role: 'read-write',
      ownerId: OWNER,
      revokedAt: null,
      delegationDepth: 0,
    });
    expect(JSON.stringify(res.body)).not.toContain(RW);
    expect(
      (await call(emu, 'POST', '/tokens', { body: doc('tokens', { name: 'x' }) })).status,
    ).toBe(405);
    const schema = await call(emu, 'GET', '/tokens/schema');
    expect(schema.body.data[0].attributes).toEqual({});
  });

  test('/openapi.json: OpenAPI 3.1 trimmed to what the token may do; Accept */*; 403 without a token', async () => {
    const emu = await emulator();
    const rw = await call(emu, 'GET', '/openapi.json', { headers: { accept: '*/*' } });
    expect(rw.status).toBe(200);
    expect(rw.body.openapi).toBe('3.1.0');
    expect(rw.body.paths['/test_cases'].post).toBeDefined();
    const ro = await call(emu, 'GET', '/openapi.json', {
      token: RO,
      headers: { accept: 'application/json' },
    });
    expect(ro.body.paths['/test_cases'].post).toBeUndefined();
    expect(ro.body.paths['/test_cases'].get).toBeDefined();
    expect((await call(emu, 'GET', '/openapi.json', { token: null })).status).toBe(403);
  });

  test('/filter-reference lists the operators and functions the parser accepts', async () => {
    const emu = await emulator();
    const res = await call(emu, 'GET', '/filter-reference');
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const reference = res.body.data.attributes;
    expect(Object.keys(reference.operators)).toEqual(['=', '!=', '>', '>=', '<', '<=', '~']);
    expect(Object.keys(reference.functions)).toContain('membersOf(role)');
  });
});

describe('4.5 Relationship routes', () => {
  test('/notifications/{id}/<rel> and /relationships/<rel>', async () => {
    const emu = await emulator();
    const orgId = (await call(emu, 'GET', '/tokens')).body.data[0].attributes.organizationId;
    const created = await call(emu, 'POST', '/notifications', {
      body: doc('notifications', {
        organizationId: orgId,
        projectId: PROJECT,
        recipientUserId: OTHER_USER,
        title: 'Hi',
        type: 'MENTION',
      }),
    });
    const id = created.body.data.id;
    const related = await call(emu, 'GET', `/notifications/${id}/fkNotificationsRecipientUser`);
    expect(related.body.data).toMatchObject({
      type: 'users',
      id: OTHER_USER,
      attributes: { name: 'Bob' },
    });
    const linkage = await call(
      emu,
      'GET',
      `/notifications/${id}/relationships/fkNotificationsRecipientUser`,
    );
    const self = `${emu.url}/notifications/${id}`;
    expect(linkage.body).toEqual({
      links: {
        self: `${self}/relationships/fkNotificationsRecipientUser`,
        related: `${self}/fkNotificationsRecipientUser`,
      },
      data: { type: 'users', id: OTHER_USER },
    });
    const empty = await call(
      emu,
      'GET',
      `/notifications/${id}/relationships/fkNotificationsActorUser`,
    );
    expect(empty.body.data).toBeNull();
    expect((await call(emu, 'GET', `/notifications/${id}/relationships/nope`)).status).toBe(404);
  });
});

describe('5. Authentication', () => {
  const seedWith = (tokens: object[]) =>
    testSeed({ tokens: [{ token: RW, ownerId: OWNER, role: 'read-write' }, ...tokens] as never });

  test.each([
    ['no token', null, 403],
    ['an unknown token', 'unknown-token-xyz', 403],
    ['an expired token', 'expired-token-xyz', 403],
    ['a token of another region', 'us-token-xyzxyz', 403],
    ['a revoked token', 'revoked-token-xyz', 401],
  ])('%s gets %i', async (_what, token, status) => {
    const emu = await emulator({
      seed: seedWith([
        { token: 'expired-token-xyz', role: 'read-write', expiresAt: '2020-01-01T00:00:00Z' },
        { token: 'us-token-xyzxyz', role: 'read-write', region: 'us' },
        { token: 'revoked-token-xyz', role: 'read-write', revokedAt: '2021-01-01T00:00:00Z' },
      ]),
    });
    const res = await call(emu, 'GET', '/projects', { token });
    expect(res.status).toBe(status);
  });

  test('a read-only token gets 403 on every write and 200 on reads', async () => {
    const emu = await emulator();
    const tc = await mkCase(emu, 'a');
    expect((await call(emu, 'GET', '/test_cases', { token: RO })).status).toBe(200);
    const writes = [
      call(emu, 'POST', '/test_cases', {
        token: RO,
        body: doc('test_cases', { projectId: PROJECT, name: 'b', rank: 1 }),
      }),
      call(emu, 'PATCH', `/test_cases/${tc.body.data.id}`, {
        token: RO,
        body: doc('test_cases', { name: 'c' }, tc.body.data.id),
        headers: { 'if-match': tc.etag! },
      }),
      call(emu, 'DELETE', `/test_cases/${tc.body.data.id}`, {
        token: RO,
        headers: { 'if-match': tc.etag! },
      }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].detail).toMatch(/read-only/);
    }
    expect((await call(emu, 'GET', '/test_cases')).body.data).toHaveLength(1);
  });

  test('an id outside the Space gives 404', async () => {
    const emu = await emulator();
    expect(
      (await call(emu, 'GET', '/test_cases/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });

  test('7: Accept application/json gives 406; omitted or JSON:API is fine', async () => {
    const emu = await emulator();
    expect(
      (await call(emu, 'GET', '/projects', { headers: { accept: 'application/json' } })).status,
    ).toBe(406);
    const res = await fetch(`${emu.url}/projects`, { headers: { authorization: `Bearer ${RW}` } });
    expect(res.status).toBe(200);
  });

  test('8: a body without Content-Type application/vnd.api+json gives 415', async () => {
    const emu = await emulator();
    const res = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name: 'a', rank: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(415);
  });
});

describe('7. Errors', () => {
  test('every error has status, title, code, detail and source where one applies', async () => {
    const emu = await emulator();
    const res = await call(emu, 'GET', '/test_cases?sort=nope');
    expect(res.body).toEqual({
      errors: [
        {
          status: '400',
          title: 'Bad Request',
          code: 'UNKNOWN_FIELD',
          detail: expect.stringContaining('nope'),
          source: { parameter: 'sort' },
        },
      ],
    });
    const filter = await call(emu, 'GET', `/test_cases?filter=${encodeURIComponent('name = ')}`);
    expect(filter.status).toBe(400);
    expect(filter.body.errors[0].detail).toMatch(/at 7 \(line 1, column 8\)/);
  });
});

describe('8. Limits', () => {
  test('a body over 1 MB gives 413: the limit is the one the client keeps (MAX_BODY_BYTES, 1,000,000 bytes)', async () => {
    const emu = await emulator();
    /** A create of exactly `bytes` bytes (ASCII), its description padded. */
    const sized = (bytes: number) => {
      const attrs = { projectId: PROJECT, name: 'big', rank: 1, description: '' };
      const empty = JSON.stringify(doc('test_cases', attrs)).length;
      const text = JSON.stringify(
        doc('test_cases', { ...attrs, description: 'x'.repeat(bytes - empty) }),
      );
      expect(text.length).toBe(bytes);
      return text;
    };
    const over = await call(emu, 'POST', '/test_cases', { rawBody: sized(MAX_BODY_BYTES + 1) });
    expect(over.status).toBe(413);
    expect(codeOf(over)).toBe('PAYLOAD_TOO_LARGE');
    expect(JSON.stringify(over.body)).toContain('over 1000000 bytes');
    const atLimit = await call(emu, 'POST', '/test_cases', { rawBody: sized(MAX_BODY_BYTES) });
    expect(atLimit.status).not.toBe(413);
  });

  test('version-locked records: PATCH without If-Match gives 428 MISSING_IF_MATCH, stale gives 412', async () => {
    const emu = await emulator();
    const cycle = await mkCycle(emu, 'c', 'DRAFT');
    const id = cycle.body.data.id;
    const missing = await call(emu, 'PATCH', `/test_cycles/${id}`, {
      body: doc('test_cycles', { status: 'ACTIVE' }, id),
    });
    expect(missing.status).toBe(428);
    expect(codeOf(missing)).toBe('MISSING_IF_MATCH');
    const stale = await call(emu, 'PATCH', `/test_cycles/${id}`, {
      body: doc('test_cycles', { status: 'ACTIVE' }, id),
      headers: { 'if-match': '"0-0"' },
    });
    expect(stale.status).toBe(412);
  });

  test.each(['100/1m', '5/2s', '1000/500ms', '3/h', ' 7 / 1.5s '])(
    'the emulator reads rate limit %j as the client does (one parser, src/shared/rate.ts)',
    (text) => {
      expect(parseRate(text)).toEqual(parseRateLimit(text));
    },
  );

  test.each(['fast', '0/1m', '10/0s', '10'])(
    'the emulator refuses rate limit %j with the client’s words',
    (text) => {
      expect(() => parseRate(text)).toThrow(ConfigError);
      expect(() => parseRate(text)).toThrow(
        `rate-limit: "${text}" is not COUNT/WINDOW; write e.g. 100/1m, 50/30s or 10/500ms (COUNT and WINDOW above 0).`,
      );
    },
  );

  test('rate limit: sliding window per token, 429 RATE_LIMITED without Retry-After; other tokens unaffected', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ rateLimit: '5/1s', clock });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await call(emu, 'GET', '/projects')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await call(emu, 'GET', '/projects');
    expect(codeOf(limited)).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBeNull();
    expect((await call(emu, 'GET', '/projects', { token: RO })).status).toBe(200);
    expect(emu.stats().rateLimited).toBe(3);
    // The window slides: a refused request counts too, and nothing leaves before its second is up.
    await clock.advance(999);
    expect((await call(emu, 'GET', '/projects')).status).toBe(429);
    await clock.advance(1);
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push((await call(emu, 'GET', '/projects')).status);
    // The refused request at 999 ms still holds one of the five places.
    expect(after).toEqual([200, 200, 200, 200, 429]);
  });

  test('rate limit, fixed window: the count starts again at every multiple of the window, 429s counted', async () => {
    // 400 ms into a window of the clock: five go, then the window is full until 1,000 ms.
    const clock = new FakeClock();
    await clock.advance(400);
    const emu = await emulator({ rateLimit: '5/1s', rateWindow: 'fixed', clock });
    const get = async (n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await call(emu, 'GET', '/projects')).status);
      return statuses;
    };
    expect(await get(7)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    await clock.advance(599);
    expect(await get(1)).toEqual([429]);
    // At 1,000 ms a new window: five more at once, though the last five went 600 ms ago (a
    // sliding window would refuse them), and a token's count is its own.
    await clock.advance(1);
    expect(await get(6)).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await call(emu, 'GET', '/projects', { token: RO })).status).toBe(200);
    expect(emu.stats().rateLimited).toBe(4);
  });
});

describe('emulator contract (docs/design.md)', () => {
  test('/__emulator/stats counts by method, route and status; /__emulator/reset clears them', async () => {
    const emu = await emulator();
    await call(emu, 'GET', '/projects');
    await call(emu, 'GET', '/test_cases/00000000-0000-4000-8000-000000000000');
    const stats = await (await fetch(`${emu.origin}/__emulator/stats`)).json();
    expect(stats).toEqual({
      total: 2,
      byMethod: { GET: 2 },
      byRoute: { 'GET /projects': 1, 'GET /test_cases/{id}': 1 },
      byStatus: { '200': 1, '404': 1 },
      rateLimited: 0,
    });
    await fetch(`${emu.origin}/__emulator/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${RW}` },
    });
    const after = (await (await fetch(`${emu.origin}/__emulator/stats`)).json()) as {
      total: number;
    };
    expect(after.total).toBe(0);
  });

  test('chaos is deterministic for a seed', async () => {
    const run = async () => {
      const emu = await emulator({ chaos: '429=0.2,5xx=0.2,seed=42' });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await call(emu, 'GET', '/projects')).status);
      await emu.close();
      return statuses;
    };
    const a = await run();
    expect(a).toEqual(await run());
    expect(a.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 503).length).toBeGreaterThan(0);
  });

  test('chaos does not depend on arrival order: the same requests in another order, created records included, meet the same faults', async () => {
    const run = async (order: number[]) => {
      const emu = await emulator({ chaos: '429=0.15,5xx=0.15,etag-bump=0.3,seed=7' });
      const met: Record<string, number[]> = {};
      const ids: Record<number, string> = {};
      // Creates until each case exists, then a GET and an If-Match PATCH of each created case.
      for (const i of order) {
        met[i] = [];
        for (;;) {
          const res = await call(emu, 'POST', '/test_cases', {
            body: doc('test_cases', { projectId: PROJECT, name: `case ${i}`, rank: 1 }),
          });
          met[i]!.push(res.status);
          if (res.status === 201) {
            ids[i] = res.body.data.id;
            break;
          }
        }
      }
      for (const i of order) {
        const got = await call(emu, 'GET', `/test_cases/${ids[i]}`);
        const patched = await call(emu, 'PATCH', `/test_cases/${ids[i]}`, {
          body: doc('test_cases', { description: 'x' }, ids[i]),
          headers: { 'if-match': got.etag ?? '"none"' },
        });
        met[i]!.push(got.status, patched.status);
      }
      await emu.close();
      return met;
    };
    const forward = Array.from({ length: 25 }, (_, i) => i);
    const a = await run(forward);
    expect(await run([...forward].reverse())).toEqual(a);
    const all = Object.values(a).flat();
    for (const status of [201, 200, 412, 429, 503]) expect(all).toContain(status);
  });

  test('chaos etag-bump makes a write with a fresh ETag fail with 412', async () => {
    const emu = await emulator({ chaos: 'etag-bump=1,seed=1' });
    const cycle = await mkCycle(emu, 'c', 'DRAFT');
    const res = await call(emu, 'PATCH', `/test_cycles/${cycle.body.data.id}`, {
      body: doc('test_cycles', { status: 'ACTIVE' }, cycle.body.data.id),
      headers: { 'if-match': cycle.etag! },
    });
    expect(res.status).toBe(412);
  });
});
