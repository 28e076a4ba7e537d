/**
 * JSON:API 1.1 beyond docs/service-api.md: relationship objects and their links, full linkage of
 * compound documents, relations as fields, content negotiation, and absolute links from the Host.
 */
import http from 'node:http';
import {
  call,
  closeEmulators,
  doc,
  emulator,
  OWNER,
  type Answer,
  PROJECT,
} from '../helpers/emulator.js';
import { jsonApiViolations } from '../helpers/jsonapi.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

afterEach(closeEmulators);

async function space(emu: RunningEmulator) {
  const post = async (type: string, attributes: object): Promise<Answer> => {
    const res = await call(emu, 'POST', `/${type}`, {
      body: doc(type, { projectId: PROJECT, ...attributes }),
    });
    if (res.status !== 201) throw new Error(`${type}: ${res.status}`);
    return res;
  };
  const tc = await post('test_cases', { name: 'a', rank: 1, ownerId: OWNER });
  const cycle = await post('test_cycles', { name: 'c', rank: 1, status: 'ACTIVE' });
  const ex = await post('test_case_executions', {
    testCaseId: tc.body.data.id,
    testCycleId: cycle.body.data.id,
  });
  return { tc: tc.body.data, cycle: cycle.body.data, ex: ex.body.data };
}

describe('relationships', () => {
  test('every to-one relation has links and linkage; to-many ones a related link, linked ones linkage too', async () => {
    const emu = await emulator();
    const { tc } = await space(emu);
    const self = `${emu.url}/test_cases/${tc.id}`;
    expect(tc.links).toEqual({ self });
    expect(tc.relationships).toEqual({
      ownerUser: {
        links: { self: `${self}/relationships/ownerUser`, related: `${self}/ownerUser` },
        data: { type: 'users', id: OWNER },
      },
      testCaseFolder: {
        links: {
          self: `${self}/relationships/testCaseFolder`,
          related: `${self}/testCaseFolder`,
        },
        data: null,
      },
      project: {
        links: { self: `${self}/relationships/project`, related: `${self}/project` },
        data: { type: 'projects', id: PROJECT },
      },
      testSteps: { links: { related: `${self}/testSteps` } },
      testCaseExecutions: { links: { related: `${self}/testCaseExecutions` } },
      // A linked relation carries its linkage, and has a relationship route of its own.
      requirements: {
        links: { self: `${self}/relationships/requirements`, related: `${self}/requirements` },
        data: [],
      },
      workItemLinks: { links: { related: `${self}/workItemLinks` } },
    });
  });

  test('every relationship link answers, and agrees with the linkage', async () => {
    const emu = await emulator();
    const { ex } = await space(emu);
    const got = await call(emu, 'GET', `/test_case_executions/${ex.id}`);
    for (const [name, rel] of Object.entries(
      got.body.data.relationships as Record<
        string,
        { links: { self?: string; related: string }; data?: unknown }
      >,
    )) {
      const related = await call(emu, 'GET', rel.links.related.slice(emu.url.length));
      expect([name, related.status]).toEqual([name, 200]);
      expect(jsonApiViolations(related.body)).toEqual([]);
      if (rel.links.self) {
        const linkage = await call(emu, 'GET', rel.links.self.slice(emu.url.length));
        expect(linkage.body.data).toEqual(rel.data);
        expect(related.body.data).toMatchObject(rel.data as object);
      }
    }
  });

  test('compound documents: full linkage, each included record once', async () => {
    const emu = await emulator();
    await space(emu);
    const res = await call(
      emu,
      'GET',
      '/test_case_executions?include=testCase,testCase.ownerUser,testCycle.project',
    );
    expect(res.body.included.map((r: { type: string }) => r.type).sort()).toEqual([
      'projects',
      'test_cases',
      'test_cycles',
      'users',
    ]);
    expect(jsonApiViolations(res.body)).toEqual([]);
    // The check itself fails on a document whose included record nothing links to.
    const broken = structuredClone(res.body);
    delete broken.data[0].relationships.testCycle;
    expect(jsonApiViolations(broken)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^included test_cycles\/.* is not linked$/)]),
    );
  });

  test('fields[type] takes relation names too; unknown names give 400 listing both kinds', async () => {
    const emu = await emulator();
    const { tc } = await space(emu);
    const res = await call(emu, 'GET', `/test_cases/${tc.id}?fields[test_cases]=name,ownerUser`);
    expect(res.body.data.attributes).toEqual({ name: 'a' });
    expect(Object.keys(res.body.data.relationships)).toEqual(['ownerUser']);
    const bad = await call(emu, 'GET', '/test_cases?fields[test_cases]=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toMatch(/Valid names: .*name.*ownerUser.*testSteps/);
  });
});

describe('content negotiation (JSON:API 1.1)', () => {
  test.each([
    [undefined, 200],
    ['application/vnd.api+json', 200],
    ['*/*', 200],
    ['application/vnd.api+json; profile="https://example.com/p"', 200],
    ['application/vnd.api+json; q=0.9', 200],
    ['application/vnd.api+json; charset=utf-8', 406],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 406],
    ['application/vnd.api+json; charset=utf-8, application/vnd.api+json', 200],
    ['application/vnd.api+json; charset=utf-8, */*', 406],
    ['application/json', 406],
    ['text/html', 406],
  ])('Accept %s gives %i', async (accept, status) => {
    const emu = await emulator();
    const res = await fetch(`${emu.url}/projects`, {
      headers: {
        authorization: `Bearer ${'rw-token-0123456789abcdef'}`,
        ...(accept ? { accept } : {}),
      },
    });
    expect(res.status).toBe(status);
    if (status === 406) {
      const body = (await res.json()) as { errors: { code: string }[] };
      expect(body.errors[0]!.code).toBe('NOT_ACCEPTABLE');
    }
  });

  test.each([
    ['application/vnd.api+json', 201],
    ['application/vnd.api+json; profile="https://example.com/p"', 201],
    ['application/vnd.api+json; charset=utf-8', 415],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 415],
    ['application/json', 415],
  ])('Content-Type %s gives %i', async (contentType, status) => {
    const emu = await emulator();
    const res = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name: 'a', rank: 1 }),
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
  });

  test('openapi.json alone may be asked for as application/json', async () => {
    const emu = await emulator();
    const res = await call(emu, 'GET', '/openapi.json', {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
  });
});

describe('links', () => {
  /** A GET with a chosen Host header (fetch does not let one set it). */
  const getWithHost = (emu: RunningEmulator, path: string, host: string) =>
    new Promise<{ status: number; body: Answer['body'] }>((resolve, reject) => {
      const url = new URL(emu.url + path);
      const req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { host, authorization: 'Bearer rw-token-0123456789abcdef' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
    });

  test('links are absolute, on the host the request named', async () => {
    const emu = await emulator();
    await space(emu);
    const port = new URL(emu.url).port;
    const res = await getWithHost(emu, '/test_cases?page[size]=1', `localhost:${port}`);
    expect(res.status).toBe(200);
    const base = `http://localhost:${port}/api/v1`;
    expect(res.body.links.self).toBe(`${base}/test_cases?page%5Bsize%5D=1`);
    expect(res.body.links.first).toBe(`${base}/test_cases?page%5Bsize%5D=1&page%5Bnumber%5D=1`);
    expect(res.body.data[0].links.self).toMatch(new RegExp(`^${base}/test_cases/[0-9a-f-]{36}$`));
  });

  test('every list, single and error answer is a valid JSON:API document', async () => {
    const emu = await emulator();
    const { tc } = await space(emu);
    for (const path of [
      '/test_cases',
      `/test_cases/${tc.id}?include=ownerUser,project`,
      `/test_cases/${tc.id}/testCaseExecutions?include=testCycle`,
      '/test_case_executions/aggregate?aggregations[groupBy][]=result',
      '/service_custom_field',
      '/filter-reference',
      '/tokens/schema',
      '/test_cases?sort=nope',
    ])
      expect([path, jsonApiViolations((await call(emu, 'GET', path)).body)]).toEqual([path, []]);
  });
});
