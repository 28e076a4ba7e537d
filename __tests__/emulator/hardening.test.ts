/**
 * The emulator under hostile requests: malformed paths and over-deep or
 * over-long filters are 400s that name the limit, state changes need a token, a loopback emulator
 * answers only its own host names, and idle connections are closed.
 */
import http from 'node:http';
import net from 'node:net';
import {
  call,
  closeEmulators,
  doc,
  emulator,
  PROJECT,
  RO,
  RW,
  testSeed,
} from '../helpers/emulator.js';

afterEach(closeEmulators);

const filter = (text: string) => `/test_cases?filter=${encodeURIComponent(text)}`;

test('a malformed percent-encoding in the path is a 400 naming the path, not a 500', async () => {
  const emu = await emulator();
  const answer = await call(emu, 'GET', '/test_cases/%E0%A4%A');
  expect(answer.status).toBe(400);
  expect(answer.body.errors[0]).toMatchObject({ code: 'INVALID_PATH' });
  expect(answer.body.errors[0].detail).toMatch(/malformed percent-encoding/);
});

test.each([
  [
    '3,000 nested parentheses',
    `${'('.repeat(3000)}name = "a"${')'.repeat(3000)}`,
    /Nested deeper than 64 levels/,
  ],
  ['100 nested NOTs', `${'NOT '.repeat(100)}name = "a"`, /Nested deeper than 64 levels/],
  [
    '600 ORs',
    Array.from({ length: 600 }, (_, i) => `rank=${i}`).join(' OR '),
    /More than 200 conditions/,
  ],
])('%s: a 400 with the limit in its message', async (_name, text, message) => {
  const emu = await emulator();
  const answer = await call(emu, 'GET', filter(text));
  expect(answer.status).toBe(400);
  expect(answer.body.errors[0].detail).toMatch(message);
});

test('filters within the limits still work: 64 levels, 200 conditions', async () => {
  const emu = await emulator();
  const deep = `${'('.repeat(63)}name = "a"${')'.repeat(63)}`;
  const wide = Array.from({ length: 200 }, (_, i) => `rank=${i}`).join(' OR ');
  expect((await call(emu, 'GET', filter(deep))).status).toBe(200);
  expect((await call(emu, 'GET', filter(wide))).status).toBe(200);
});

test('POST /__emulator/reset needs a read-write token: a web page cannot wipe the stats', async () => {
  const emu = await emulator();
  await call(emu, 'GET', '/projects');
  const reset = (token?: string) =>
    fetch(`${emu.origin}/__emulator/reset`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  expect((await reset()).status).toBe(403);
  expect((await reset(RO)).status).toBe(403);
  expect(emu.stats().total).toBe(1);
  expect((await reset(RW)).status).toBe(200);
  expect(emu.stats().total).toBe(0);
});

/** A request with a Host header of our choosing (fetch does not let a caller set Host). */
function withHost(origin: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}/api/v1/projects`,
      { headers: { host, authorization: `Bearer ${RW}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('on loopback, only its own host names are answered (DNS rebinding)', async () => {
  const emu = await emulator();
  const port = new URL(emu.origin).port;
  expect(await withHost(emu.origin, `127.0.0.1:${port}`)).toBe(200);
  expect(await withHost(emu.origin, `localhost:${port}`)).toBe(200);
  expect(await withHost(emu.origin, `attacker.example:${port}`)).toBe(421);
  expect(await withHost(emu.origin, `127.0.0.1.attacker.example`)).toBe(421);
});

test('an idle connection is closed by the server', async () => {
  const emu = await emulator({ idleTimeoutMs: 300 });
  const { hostname, port } = new URL(emu.origin);
  const socket = net.connect(Number(port), hostname);
  const closed = await new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    // The bound: well past the idle timeout, well within the test's.
    setTimeout(() => resolve(false), 5_000).unref();
  });
  socket.destroy();
  expect(closed).toBe(true);
});

/** A raw request with a target fetch would normalise (`//`), answered as sent. */
function rawGet(origin: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const req = http.request(
      { host: hostname, port, path: target, headers: { authorization: `Bearer ${RW}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test.each(['//', '//evil.example/api/v1/projects', '/api/v1//projects'])(
  'the malformed target %s is a 400 with a JSON:API error, not a 500 (nor another host)',
  async (target) => {
    const emu = await emulator();
    const answer = await rawGet(emu.origin, target);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0]).toMatchObject({
      status: '400',
      code: 'INVALID_PATH',
      detail: expect.stringContaining('holds no empty segment (//)'),
    });
  },
);

describe("names of Object.prototype are unknown names like any other (the service's table has none)", () => {
  const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'];
  /** A JSON body whose attributes hold `name` as an own member (JSON.parse keeps __proto__ so). */
  const bodyWith = (name: string, extra: Record<string, unknown>) =>
    `{"data":{"type":"test_cases","attributes":{${JSON.stringify(name)}:"x",${JSON.stringify(extra).slice(1, -1)}}}}`;

  test.each(PROTOTYPE_NAMES)('%s: 422 on create and update, never stored', async (name) => {
    const emu = await emulator();
    const created = await call(emu, 'POST', '/test_cases', {
      rawBody: bodyWith(name, { projectId: PROJECT, name: 'a', rank: 1 }),
    });
    expect(created.status).toBe(422);
    expect(created.body.errors[0]).toMatchObject({
      code: 'UNKNOWN_ATTRIBUTE',
      source: { pointer: `/data/attributes/${name}` },
    });
    const ok = await call(emu, 'POST', '/test_cases', {
      body: doc('test_cases', { projectId: PROJECT, name: 'b', rank: 2 }),
    });
    const id = ok.body.data.id as string;
    const updated = await call(emu, 'PATCH', `/test_cases/${id}`, {
      rawBody: `{"data":{"type":"test_cases","id":"${id}","attributes":{${JSON.stringify(name)}:"x"}}}`,
      headers: { 'if-match': ok.etag! },
    });
    expect(updated.status).toBe(422);
    expect(updated.body.errors[0].code).toBe('UNKNOWN_ATTRIBUTE');
    const stored = emu.service.store.get('test_cases', id)!.attributes;
    expect(Object.hasOwn(stored, name)).toBe(false);
    expect(emu.service.store.count('test_cases')).toBe(1);
  });

  test.each(PROTOTYPE_NAMES)(
    '%s: 400 in filter, sort, fields, include and aggregates',
    async (name) => {
      const emu = await emulator();
      const q = encodeURIComponent;
      for (const path of [
        `/test_cases?filter=${q(`${name} = "x"`)}`,
        `/test_cases?filter=${q(`${name} IS NULL`)}`,
        `/test_cases?filter=${q(`project.${name} = "x"`)}`,
        `/test_cases?filter=${q(`customFields.${name} = "x"`)}`,
        `/test_cases?filter=${q(`name = ${name}()`)}`,
        `/test_cycles?filter=${q(`${name} ANY (result = "PASSED")`)}`,
        `/test_cases?sort=${q(name)}`,
        `/test_cases?sort=-${q(name)}`,
        `/test_cases?fields[test_cases]=${q(name)}`,
        `/test_cases?include=${q(name)}`,
        `/test_cases/aggregate?aggregations[groupBy][]=${q(name)}`,
        `/test_cases/aggregate?aggregations[sum]=${q(name)}`,
      ]) {
        const answer = await call(emu, 'GET', path);
        expect([path, answer.status]).toEqual([path, 400]);
      }
    },
  );

  test('a seeded record with such a name is refused, named by its entry', async () => {
    await expect(
      emulator({ seed: testSeed({ testCases: [{ name: 'a' }, { name: 'b', constructor: 1 }] }) }),
    ).rejects.toThrow(/^testCases\[1\]\.constructor: Unknown attribute 'constructor'/);
  });
});
