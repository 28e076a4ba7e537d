/**
 * /openapi.json describes what the emulator really sends and accepts: the document passes a real
 * OpenAPI validator (@apidevtools/swagger-parser), and every answer of a recorded run of requests
 * (every operation, and every error status the API names) validates against its operation's
 * response schema with a real JSON Schema validator (ajv, 2020-12, the dialect of OpenAPI 3.1).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module, the plugin its .default.
const addFormats = formats.default;
import {
  call,
  closeEmulators,
  doc,
  emulator,
  OTHER_USER,
  OWNER,
  RO,
  RW,
  testSeed,
  type Answer,
  PROJECT,
} from '../helpers/emulator.js';
import { jsonApiViolations } from '../helpers/jsonapi.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

const REVOKED = 'revoked-token-0123456789';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  etag: string | null;
  request?: unknown;
  response: unknown;
}

afterAll(closeEmulators);

/**
 * Valid create and update attributes per type (a type that is never updated has no update);
 * `$name` is replaced by the id created for it.
 */
const SAMPLES: Record<string, { create: Json; update?: Json }> = {
  test_cases: {
    create: { name: 'sample case', rank: 1, ownerId: OWNER, customFields: { component: 'api' } },
    update: { priority: 'HIGH' },
  },
  test_cycles: {
    create: { name: 'sample cycle', rank: 1, status: 'ACTIVE', customFields: { build: '1' } },
    update: { customFields: { build: '2' } },
  },
  test_case_executions: {
    create: { testCaseId: '$test_cases', testCycleId: '$test_cycles' },
    update: { result: 'PASSED' },
  },
  test_steps: {
    create: { testCaseId: '$test_cases', sequenceNumber: 1, action: 'do', expectedResult: 'done' },
    update: { action: 'do again' },
  },
  requirements: {
    create: { name: 'sample requirement', rank: 1, complexity: 'HIGH', impact: 'LOW' },
    update: { impact: 'HIGH' },
  },
  test_collections: { create: { name: 'sample collection', rank: 1 }, update: { rank: 2 } },
  test_campaigns: { create: { name: 'sample campaign', rank: 1 }, update: { rank: 2 } },
  notifications: {
    create: {
      organizationId: '$organizations',
      recipientUserId: OTHER_USER,
      actorUserId: OWNER,
      title: 'Hi',
      type: 'MENTION',
    },
    update: { isRead: true },
  },
  notification_preferences: {
    create: { organizationId: '$organizations', userId: OWNER, notificationType: 'MENTION' },
    update: { inAppEnabled: false },
  },
  links: { create: { testCaseId: '$test_cases', workItem: 'PROJ-7', origin: 'testcycle' } },
};

/** A JSON pointer segment (RFC 6901). */
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Pages through an operation's answers for a status, as ajv validators of the body. */
class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { method: string; template: string; pattern: RegExp }[] = [];

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    for (const [template, item] of Object.entries(document.paths as Json))
      for (const method of Object.keys(item))
        this.templates.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{id\}/g, '[^/]+')}$`),
        });
    // Fixed segments before {id}: /test_cases/aggregate is not /test_cases/{id}.
    this.templates.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  }

  operationOf(
    method: string,
    path: string,
  ): { key: string; op: Json; pointer: string } | undefined {
    const bare = path.split('?')[0]!;
    const t = this.templates.find((t) => t.method === method && t.pattern.test(bare));
    if (!t) return undefined;
    const m = method.toLowerCase();
    const pointer = `/paths/${escape(t.template)}/${m}`;
    return { key: `${method} ${t.template}`, op: this.document.paths[t.template][m], pointer };
  }

  private resolve(value: Json): Json {
    if (!value?.$ref) return value;
    const parts = (value.$ref as string).slice(2).split('/');
    return parts.reduce((node: Json, part) => node[part], this.document);
  }

  private validator(pointer: string): ValidateFunction {
    const known = this.validators.get(pointer);
    if (known) return known;
    const v = this.ajv.compile({ $ref: `openapi#${pointer}` });
    this.validators.set(pointer, v);
    return v;
  }

  /** Where a schema sits in the document: its $ref target, or its own place (`at`). */
  private schemaPointer(schema: Json, at: string): string {
    return schema.$ref ? (schema.$ref as string).slice(1) : at;
  }

  /** What is wrong with one exchange against the document (empty: nothing). */
  violations(x: Exchange): string[] {
    const found = this.operationOf(x.method, x.path);
    const where = `${x.method} ${x.path} -> ${x.status}`;
    if (!found) return [`${where}: no operation`];
    const responses = found.op.responses as Json;
    if (!(String(x.status) in responses)) return [`${where}: status not declared`];
    const declared = responses[String(x.status)];
    const response = this.resolve(declared);
    const responseAt = declared.$ref
      ? (declared.$ref as string).slice(1)
      : `${found.pointer}/responses/${x.status}`;
    const out: string[] = [];
    const mediaType = x.contentType ?? '';
    const content = response.content?.[mediaType];
    if (!content) return [`${where}: content type ${mediaType} not declared`];
    const v = this.validator(
      this.schemaPointer(content.schema, `${responseAt}/content/${escape(mediaType)}/schema`),
    );
    if (!v(x.response))
      out.push(`${where}: ${this.ajv.errorsText(v.errors, { separator: '; ' }).slice(0, 600)}`);
    if (x.etag && !response.headers?.ETag) out.push(`${where}: ETag sent, not declared`);
    if (!x.etag && response.headers?.ETag) out.push(`${where}: ETag declared, not sent`);
    if (x.request !== undefined && x.status < 300) {
      const body = found.op.requestBody?.content?.['application/vnd.api+json']?.schema;
      if (!body) out.push(`${where}: request body not declared`);
      else {
        const rv = this.validator(
          this.schemaPointer(
            body,
            `${found.pointer}/requestBody/content/${escape('application/vnd.api+json')}/schema`,
          ),
        );
        if (!rv(x.request)) out.push(`${where}: request: ${this.ajv.errorsText(rv.errors)}`);
      }
    }
    return out;
  }
}

let emu: RunningEmulator;
let described: Json;
let contract: Contract;
const run: Exchange[] = [];

async function record(
  method: string,
  path: string,
  options: Parameters<typeof call>[3] & { on?: RunningEmulator } = {},
): Promise<Answer> {
  const res = await call(options.on ?? emu, method, path, options);
  run.push({
    method,
    path,
    status: res.status,
    contentType: res.headers.get('content-type'),
    etag: res.etag,
    request: options.body,
    response: res.body,
  });
  return res;
}

beforeAll(async () => {
  emu = await emulator({
    rateLimit: '100000/1m',
    seed: testSeed({
      tokens: [
        { token: RW, name: 'ci', ownerId: OWNER, role: 'read-write' },
        { token: RO, name: 'dash', ownerId: OWNER, role: 'read-only' },
        { token: REVOKED, role: 'read-write', revokedAt: '2021-01-01T00:00:00Z' },
      ],
      testCases: [{ name: 'seeded', ownerId: OWNER }],
    }),
  });
  described = (await call(emu, 'GET', '/openapi.json')).body;
  contract = new Contract(described);
  const ids: Record<string, string> = {
    organizations: (await call(emu, 'GET', '/tokens')).body.data[0].attributes.organizationId,
  };
  const etags: Record<string, string> = {};
  const fill = (attrs: Json): Json =>
    Object.fromEntries(
      Object.entries(attrs).map(([k, v]) => [
        k,
        typeof v === 'string' && v.startsWith('$') ? ids[v.slice(1)] : v,
      ]),
    );
  // Creates and updates of every type, in dependency order.
  for (const [type, sample] of Object.entries(SAMPLES)) {
    const created = await record('POST', `/${type}`, {
      body: doc(type, { projectId: PROJECT, ...fill(sample.create) }),
    });
    if (created.status !== 201) throw new Error(`${type}: ${JSON.stringify(created.body)}`);
    ids[type] = created.body.data.id;
    if (!sample.update) continue;
    const updated = await record('PATCH', `/${type}/${ids[type]}`, {
      body: doc(type, sample.update, ids[type]),
      headers: created.etag ? { 'if-match': created.etag } : {},
    });
    etags[type] = updated.etag ?? '';
  }
  // Requirement links (JSON:API 1.1 "Updating To-Many Relationships"): added, added again (no
  // change), read through both sides, removed.
  const linkage = `/test_cases/${ids.test_cases}/relationships/requirements`;
  const member = { data: [{ type: 'requirements', id: ids.requirements, meta: { origin: 'x' } }] };
  await record('POST', linkage, { body: member });
  await record('POST', linkage, { body: member });
  ids.users = OWNER;
  ids.projects = PROJECT;
  ids.tokens = (await call(emu, 'GET', '/tokens')).body.data[0].id;
  // Every read the document lists, with its id, and with every include it allows.
  for (const [template, item] of Object.entries(described.paths as Json)) {
    if (!item.get || template === '/openapi.json') continue;
    const type = template.split('/')[1]!;
    const path = template.replace('{id}', ids[type] ?? 'missing');
    await record('GET', path);
  }
  for (const path of [
    '/test_case_executions?include=testCase.ownerUser,testCycle.project,project',
    `/test_case_executions/${ids.test_case_executions}?include=testCase.testCaseFolder`,
    `/test_cycles/${ids.test_cycles}/testCaseExecutions?include=testCase&fields[test_cases]=name`,
    `/notifications/${ids.notifications}/fkNotificationsActorUser?fields[users]=name`,
    '/test_cases?fields[test_cases]=name,ownerUser&include=ownerUser&sort=-name&page[size]=1',
    '/test_cases?page[size]=1&page[after]=',
    '/test_cases?page[number]=2&page[size]=1&withDeleted=true',
    '/test_case_executions/aggregate?aggregations[groupBy][]=result',
    '/test_cases/aggregate?aggregations[count]=true&aggregations[sum]=rank&aggregations[avg]=rank',
    '/filter-reference',
  ])
    await record('GET', path);
  // Deletes (soft and hard) and a restore.
  const del = await record('DELETE', `/test_steps/${ids.test_steps}`, {
    headers: { 'if-match': etags.test_steps! },
  });
  await record('POST', `/test_steps/${ids.test_steps}/actions/restore`, {
    headers: { 'if-match': del.etag! },
  });
  for (const type of ['requirements', 'test_collections', 'test_campaigns', 'test_cases']) {
    const gone = await record('DELETE', `/${type}/${ids[type]}`, {
      headers: { 'if-match': etags[type]! },
    });
    await record('POST', `/${type}/${ids[type]}/actions/restore`, {
      headers: { 'if-match': gone.etag! },
    });
  }
  await record('DELETE', linkage, { body: member });
  await record('POST', linkage, { body: { data: [{ type: 'test_cases', id: ids.test_cases }] } });
  await record('DELETE', `/links/${ids.links}`);
  await record('DELETE', `/notifications/${ids.notifications}`);
  await record('DELETE', `/notification_preferences/${ids.notification_preferences}`);
  // Errors: every status docs/service-api.md section 7 names.
  const tc = ids.test_cases!;
  const fresh = await call(emu, 'GET', `/test_cases/${tc}`);
  await record('GET', '/test_cases?sort=nope');
  await record('GET', `/test_cases?filter=${encodeURIComponent('name = ')}`);
  await record('GET', '/test_cases?page[number]=1&page[after]=');
  await record('GET', '/projects', { token: REVOKED });
  await record('GET', '/projects', { token: null });
  await record('POST', '/test_cases', { token: RO, body: doc('test_cases', { name: 'x' }) });
  await record('GET', '/test_cases/00000000-0000-4000-8000-000000000000');
  await record('GET', '/projects', { headers: { accept: 'application/json' } });
  await record('POST', '/test_cases', {
    body: doc('test_cases', { projectId: PROJECT, name: 'seeded', rank: 1 }),
  });
  await record('PATCH', `/test_cases/${tc}`, {
    body: doc('test_cases', { rank: 3 }, tc),
    headers: { 'if-match': '"stale"' },
  });
  await record('PATCH', `/test_cases/${tc}`, { body: doc('test_cases', { rank: 3 }, tc) });
  await record('PATCH', `/test_cases/${tc}`, {
    body: doc('test_cases', { priority: 'URGENT' }, tc),
    headers: { 'if-match': fresh.etag! },
  });
  await record('POST', '/test_cases', {
    body: doc('test_cases', { projectId: PROJECT, name: 'y', rank: 1 }),
    headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
  });
  await record('POST', '/test_cases', { rawBody: '{not json' });
  await record('POST', `/test_cases/${tc}/actions/restore`, {
    headers: { 'if-match': fresh.etag! },
  });
  const small = await emulator({ rateLimit: '1/1m', maxBodyBytes: 64 });
  await record('POST', '/test_cases', {
    on: small,
    body: doc('test_cases', { projectId: PROJECT, name: 'z'.repeat(100), rank: 1 }),
  });
  await record('GET', '/projects', { on: small });
});

test('the document is valid OpenAPI 3.1 for both roles (swagger-parser)', async () => {
  await expect(SwaggerParser.validate(structuredClone(described) as never)).resolves.toBeDefined();
  const readOnly = (await call(emu, 'GET', '/openapi.json', { token: RO })).body;
  await expect(SwaggerParser.validate(structuredClone(readOnly) as never)).resolves.toBeDefined();
  expect(readOnly.paths['/test_cases'].post).toBeUndefined();
  expect(readOnly.components.schemas['test_cases.createRequest']).toBeUndefined();
  expect(described.components.schemas['test_cases.createRequest']).toBeDefined();
});

test('every operation: JSON:API bodies, parameters, ETag and If-Match, its error statuses', () => {
  const paths = described.paths as Json;
  const list = paths['/test_cases'].get;
  const names = (op: Json) =>
    (op.parameters ?? []).map((p: Json) => contract['resolve'](p).name).sort();
  expect(names(list)).toEqual(
    [
      'fields',
      'filter',
      'include',
      'page[after]',
      'page[number]',
      'page[size]',
      'sort',
      'withDeleted',
    ].sort(),
  );
  const patch = paths['/test_cases/{id}'].patch;
  expect(names(patch)).toEqual(['If-Match', 'id']);
  expect(Object.keys(patch.requestBody.content)).toEqual(['application/vnd.api+json']);
  expect(Object.keys(patch.responses)).toEqual([
    '200',
    '400',
    '401',
    '403',
    '404',
    '406',
    '409',
    '412',
    '413',
    '415',
    '422',
    '428',
    '429',
    'default',
  ]);
  expect(paths['/test_case_executions/{id}'].get.responses['200'].headers.ETag).toBeDefined();
  expect(paths['/test_cases/aggregate'].get).toBeDefined();
  expect(paths['/notifications/{id}/relationships/organization'].get).toBeDefined();
  for (const [path, item] of Object.entries(paths))
    for (const [method, op] of Object.entries(item as Json)) {
      const write = method === 'post' || method === 'patch';
      // A linked relationship's POST and DELETE carry the members they add or remove.
      const withBody =
        (write && !path.endsWith('/restore')) || path.endsWith('/relationships/requirements');
      const hasBody = method !== 'get' && withBody;
      expect([path, method, 'requestBody' in op]).toEqual([path, method, hasBody]);
    }
});

test('the recorded run covers every operation and every error status', () => {
  const ok = new Set(
    run.filter((x) => x.status < 300).map((x) => contract.operationOf(x.method, x.path)?.key),
  );
  const operations = Object.entries(described.paths as Json).flatMap(([path, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(operations.filter((o) => !ok.has(o) && o !== 'GET /openapi.json')).toEqual([]);
  const statuses = new Set(run.map((x) => x.status));
  for (const s of [400, 401, 403, 404, 406, 409, 412, 413, 415, 422, 428, 429])
    expect([s, statuses.has(s)]).toEqual([s, true]);
});

test('every answer of the run validates against its operation (ajv), zero violations', () => {
  expect(run.length).toBeGreaterThan(100);
  expect(run.flatMap((x) => contract.violations(x))).toEqual([]);
});

test('every answer of the run is a valid JSON:API document', () => {
  const violations = run.flatMap((x) =>
    jsonApiViolations(x.response, { sparse: x.path.includes('fields[') }).map(
      (v) => `${x.method} ${x.path}: ${v}`,
    ),
  );
  expect(violations).toEqual([]);
});

test('a body that breaks the schema is caught: the check can fail', () => {
  const list = run.find((x) => x.method === 'GET' && x.path === '/test_cases' && x.status === 200)!;
  const broken: Json = structuredClone(list.response) as Json;
  broken.data[0].attributes.priority = 'URGENT';
  delete broken.meta;
  const violations = contract.violations({ ...list, response: broken });
  expect(violations.join('\n')).toMatch(/must have required property 'meta'/);
  expect(violations.join('\n')).toMatch(/must be equal to one of the allowed values/);
  const error = run.find((x) => x.status === 404)!;
  const badError = structuredClone(error.response) as Json;
  badError.errors[0].status = 404;
  expect(contract.violations({ ...error, response: badError })).not.toEqual([]);
  // Every schema the run used is closed: an unknown top-level member fails each answer.
  const lenient = run.filter(
    (x) =>
      contract.violations({ ...x, response: { ...(x.response as Json), bogus: 1 } }).length === 0,
  );
  expect(lenient.map((x) => `${x.method} ${x.path}`)).toEqual([]);
  expect(contract.violations({ ...error, status: 418 })).toEqual([
    expect.stringMatching(/status not declared/),
  ]);
});
