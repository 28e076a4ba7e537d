import { jest } from '@jest/globals';
import net from 'node:net';
import { ServiceClient, updateWithRetry } from '../../src/client/client.js';
import type { Transport } from '../../src/client/transport.js';
import { ConfigError, NetworkError, ServiceError } from '../../src/shared/errors.js';
import { f } from '../../src/client/filter.js';
import { FakeClock } from '../helpers/clock.js';
import { createLogger, Redactor } from '../../src/shared/redact.js';
import {
  closeAll,
  errorBody,
  seeded,
  startServer,
  type LoggedRequest,
} from '../helpers/http-server.js';

const TOKEN = 'tc_live_9f8e7d6c5b4a3210fedcba9876543210';
const fast = { retryBaseMs: 1, rateLimitBaseMs: 5, maxBackoffMs: 50 };

const clients: ServiceClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeAll();
});

function client(url: string, extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  const c = new ServiceClient({
    baseUrl: url,
    token: TOKEN,
    retry: fast,
    random: seeded(1),
    ...extra,
  });
  clients.push(c);
  return c;
}

const resource = (type: string, id: string, attributes: object = {}) => ({
  data: { type, id, attributes },
});

describe('requests', () => {
  test('sends the bearer token and JSON:API media types to base/api/v1', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: { data: [{ type: 'projects', id: 'p1', attributes: { name: 'Demo' } }] },
    }));
    const project = await client(server.url).project();
    expect(project).toMatchObject({ type: 'projects', id: 'p1', attributes: { name: 'Demo' } });
    const [req] = server.log as [LoggedRequest];
    expect(req.url).toBe('/api/v1/projects');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers.accept).toBe('application/vnd.api+json');
    expect(req.headers['content-type']).toBeUndefined();
  });

  test('create sends one resource document with Content-Type and keeps the 201 ETag', async () => {
    const server = await startServer(() => ({
      status: 201,
      headers: { etag: '"v1"' },
      body: resource('test_case_executions', 'e1', { result: 'NOT_EXECUTED', futureField: 1 }),
    }));
    const created = await client(server.url).create('test_case_executions', {
      projectId: 'p',
      testCaseId: 'c',
      testCycleId: 'r',
    });
    expect(created.etag).toBe('"v1"');
    expect(created.attributes.futureField).toBe(1); // unknown attributes are kept
    expect(server.log[0]!.headers['content-type']).toBe('application/vnd.api+json');
    expect(JSON.parse(server.log[0]!.body)).toEqual({
      data: {
        type: 'test_case_executions',
        attributes: { projectId: 'p', testCaseId: 'c', testCycleId: 'r' },
      },
    });
  });

  test('PATCH and DELETE of version-locked types carry If-Match; without an ETag they are refused locally', async () => {
    const server = await startServer(() => ({
      status: 200,
      headers: { etag: '"v3"' },
      body: resource('test_cases', 'c1'),
    }));
    const c = client(server.url);
    const updated = await c.update('test_cases', 'c1', { name: 'x' }, '"v2"');
    expect(updated.etag).toBe('"v3"');
    await c.delete('test_cases', 'c1', '"v3"');
    expect(server.log.map((r) => [r.method, r.url, r.headers['if-match']])).toEqual([
      ['PATCH', '/api/v1/test_cases/c1', '"v2"'],
      ['DELETE', '/api/v1/test_cases/c1', '"v3"'],
    ]);
    await expect(c.update('test_cycles', 'r1', { status: 'ACTIVE' })).rejects.toThrow(
      /version-locked/,
    );
    expect(server.log).toHaveLength(2);
  });

  test('weak ETags are not used for If-Match', async () => {
    const server = await startServer(() => ({
      status: 200,
      headers: { etag: 'W/"v1"' },
      body: resource('test_cases', 'c1'),
    }));
    expect((await client(server.url).get('test_cases', 'c1')).etag).toBeUndefined();
  });

  test('a body over 1 MB is refused before anything is sent', async () => {
    const server = await startServer(() => ({ status: 201, body: resource('test_cases', 'c1') }));
    await expect(
      client(server.url).create('test_cases', {
        name: 'x'.repeat(1_100_000),
        projectId: 'p',
        rank: 1,
      }),
    ).rejects.toThrow(/1 MB/);
    expect(server.log).toHaveLength(0);
  });

  test('a link to another origin is refused, so the token never leaves the base URL', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: {
        data: [{ type: 'test_cases', id: 'c1', attributes: {} }],
        links: { next: 'https://evil.example/api/v1/test_cases?page[after]=x' },
      },
    }));
    await expect(client(server.url).listAll('/test_cases')).rejects.toThrow(/another origin/);
    expect(server.log).toHaveLength(1);
  });

  test('token and base URL are checked up front', () => {
    expect(() => new ServiceClient({ baseUrl: 'http://eu.example.com', token: TOKEN })).toThrow(
      ConfigError,
    );
    expect(() => new ServiceClient({ baseUrl: 'https://eu.example.com', token: '' })).toThrow(
      /^token: is required/,
    );
    expect(
      () => new ServiceClient({ baseUrl: 'https://eu.example.com', token: `Bearer ${TOKEN}` }),
    ).toThrow(/without "Bearer"/);
  });
});

describe('errors (docs/service-api.md section 7)', () => {
  test.each([
    [401, undefined, /revoked/],
    [403, 'FORBIDDEN', /region/],
    [404, undefined, /outside the Space/],
    [409, undefined, /Conflict/],
    [412, undefined, /stale ETag/],
    [422, undefined, /attribute result/],
    [428, 'MISSING_IF_MATCH', /If-Match/],
  ])('%i gives a ServiceError with code, detail, source and a hint', async (status, code, hint) => {
    const server = await startServer(() => ({
      status,
      body: errorBody(status, code ?? `E${status}`, 'the detail', {
        pointer: '/data/attributes/result',
      }),
    }));
    const error = await client(server.url)
      .request('PATCH', '/test_case_executions/e1', { body: { data: {} }, ifMatch: '"x"' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    const e = error as ServiceError;
    expect(e).toMatchObject({
      status,
      code: code ?? `E${status}`,
      detail: 'the detail',
      method: 'PATCH',
      path: '/test_case_executions/e1',
      kind: 'service',
    });
    expect(e.attribute).toBe('result');
    expect(e.hint).toMatch(hint);
    expect(e.message).toContain('the detail');
  });

  test('400 names the parameter', async () => {
    const server = await startServer(() => ({
      status: 400,
      body: errorBody(400, 'UNKNOWN_FIELD', 'unknown field nme; valid: name, rank', {
        parameter: 'filter',
      }),
    }));
    const e = (await client(server.url)
      .page('/test_cases', { filter: f.eq('name', 'x') })
      .catch((x: unknown) => x)) as ServiceError;
    expect(e.message).toMatch(/parameter filter/);
    expect(e.message).toMatch(/valid: name, rank/);
  });

  test('a non-JSON error body still gives a clear error', async () => {
    const server = await startServer(() => ({ status: 502, body: undefined }));
    const e = (await client(server.url, { retry: { ...fast, maxAttempts: 2 } })
      .project()
      .catch((x: unknown) => x)) as ServiceError;
    expect(e).toBeInstanceOf(ServiceError);
    expect(e.status).toBe(502);
    expect(e.attempts).toBe(2);
    expect(e.message).toMatch(/GET \/projects failed with 502/);
  });
});

describe('paging (docs/service-api.md 4.1)', () => {
  test('cursor mode: page size 100, empty page[after] first, then links.next verbatim', async () => {
    const ids = Array.from({ length: 250 }, (_, i) => `id${i}`);
    const server = await startServer((req) => {
      const url = new URL(req.url, 'http://x');
      const after = url.searchParams.get('page[after]') ?? '';
      const start = after ? parseInt(after.split('/')[1]!, 10) : 0;
      const slice = ids.slice(start, start + 100);
      const end = start + slice.length;
      return {
        status: 200,
        body: {
          data: slice.map((id) => ({ type: 'test_case_executions', id, attributes: {} })),
          meta: { totalCount: ids.length },
          // An opaque cursor with characters that must not be re-encoded.
          links:
            end < ids.length
              ? {
                  next: `/api/v1/test_cycles/r1/testCaseExecutions?page%5Bsize%5D=100&page%5Bafter%5D=c%2F${end}%2Bz`,
                }
              : {},
        },
      };
    });
    const got = await client(server.url).listAll('/test_cycles/r1/testCaseExecutions', {
      fields: { test_case_executions: ['testCaseId', 'result'] },
    });
    expect(got.map((r) => r.id)).toEqual(ids);
    expect(server.log.map((r) => decodeURIComponent(r.url))).toEqual([
      '/api/v1/test_cycles/r1/testCaseExecutions?fields[test_case_executions]=testCaseId,result&page[size]=100&page[after]=',
      '/api/v1/test_cycles/r1/testCaseExecutions?page[size]=100&page[after]=c/100+z',
      '/api/v1/test_cycles/r1/testCaseExecutions?page[size]=100&page[after]=c/200+z',
    ]);
    expect(server.log[1]!.url).toContain('page%5Bafter%5D=c%2F100%2Bz');
  });

  test('page-number mode stops at the last page', async () => {
    const server = await startServer((req) => {
      const n = Number(new URL(req.url, 'http://x').searchParams.get('page[number]'));
      const count = n < 3 ? 2 : 1;
      return {
        status: 200,
        body: {
          data: Array.from({ length: count }, (_, i) => ({
            type: 'users',
            id: `u${n}${i}`,
            attributes: {},
          })),
          meta: { totalCount: 5 },
          links: { next: 'x' },
        },
      };
    });
    const got: string[] = [];
    for await (const u of client(server.url).iterateNumbered('/users', { pageSize: 2 }))
      got.push(u.id);
    expect(got).toEqual(['u10', 'u11', 'u20', 'u21', 'u30']);
    expect(server.log).toHaveLength(3);
  });

  test('filters are url-encoded and use the builder', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: { data: [], meta: { totalCount: 0 } },
    }));
    await client(server.url).page('/test_cycles', {
      filter: f.eq('name', 'Nightly "2026" & co'),
      after: '',
    });
    const url = new URL(server.log[0]!.url, 'http://x');
    expect(url.searchParams.get('filter')).toBe('name = "Nightly \\"2026\\" & co"');
  });
});

describe('ETags and 412', () => {
  test('updateWithRetry re-reads on 412, re-merges, and retries', async () => {
    let version = 1;
    let result = 'NOT_EXECUTED';
    const server = await startServer((req) => {
      if (req.method === 'GET')
        return {
          status: 200,
          headers: { etag: `"v${version}"` },
          body: resource('test_case_executions', 'e1', { result }),
        };
      if (req.headers['if-match'] !== `"v${version}"`)
        return { status: 412, body: errorBody(412, 'PRECONDITION_FAILED', 'stale') };
      result = JSON.parse(req.body).data.attributes.result;
      version++;
      return {
        status: 200,
        headers: { etag: `"v${version}"` },
        body: resource('test_case_executions', 'e1', { result }),
      };
    });
    const c = client(server.url);
    // Someone else wrote after our read: our ETag "v1" is stale.
    version = 2;
    result = 'BLOCKED';
    const merges: string[] = [];
    const out = await updateWithRetry(c, 'test_case_executions', 'e1', {
      current: {
        type: 'test_case_executions',
        id: 'e1',
        attributes: { result: 'NOT_EXECUTED' },
        etag: '"v1"',
      },
      change: (current) => {
        merges.push(String(current.attributes.result));
        return { result: 'FAILED' as const };
      },
    });
    expect(out).toMatchObject({ written: true, attempts: 2 });
    expect(merges).toEqual(['NOT_EXECUTED', 'BLOCKED']);
    expect(server.log.map((r) => `${r.method} ${r.headers['if-match'] ?? ''}`)).toEqual([
      'PATCH "v1"',
      'GET ',
      'PATCH "v2"',
    ]);
  });

  test('updateWithRetry writes nothing when the merge finds nothing to change', async () => {
    const server = await startServer(() => ({
      status: 200,
      headers: { etag: '"v1"' },
      body: resource('test_case_executions', 'e1', { result: 'PASSED' }),
    }));
    const out = await updateWithRetry(client(server.url), 'test_case_executions', 'e1', {
      change: (current) =>
        current.attributes.result === 'PASSED' ? null : { result: 'PASSED' as const },
    });
    expect(out.written).toBe(false);
    expect(server.log.map((r) => r.method)).toEqual(['GET']);
  });

  test('updateWithRetry is bounded', async () => {
    const server = await startServer((req) =>
      req.method === 'GET'
        ? { status: 200, headers: { etag: '"v"' }, body: resource('test_cases', 'c1') }
        : { status: 412, body: errorBody(412, 'STALE', 'stale') },
    );
    await expect(
      updateWithRetry(client(server.url), 'test_cases', 'c1', {
        change: () => ({ name: 'n' }),
        maxAttempts: 3,
      }),
    ).rejects.toMatchObject({ status: 412 });
    expect(server.log.filter((r) => r.method === 'PATCH')).toHaveLength(3);
  });
});

describe('rate limit', () => {
  test('300 requests against a sliding window of 50 per second: zero 429s, within 10% of the floor', async () => {
    // The service is played on a virtual clock (a transport answering after 5 ms of virtual
    // time): the pace is asserted exactly, and cannot flake on a busy machine.
    const count = 50;
    const windowMs = 1000;
    const clock = new FakeClock();
    const arrivals: number[] = [];
    const transport: Transport = (req) => {
      const at = clock.now();
      // The service counts every request, 429s included, over the last window.
      const inWindow = arrivals.filter((t) => t > at - windowMs).length;
      arrivals.push(at);
      const answer =
        inWindow >= count
          ? { status: 429, body: errorBody(429, 'RATE_LIMITED', 'slow down') }
          : { status: 200, body: resource('test_cases', req.url.pathname.split('/').pop()!) };
      return new Promise((resolve) =>
        clock.after(5, () =>
          resolve({
            status: answer.status,
            headers: { 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify(answer.body),
          }),
        ),
      );
    };
    const c = client('http://127.0.0.1:1', {
      rateLimit: `${count}/1s`,
      concurrency: 4,
      clock,
      transport,
    });
    const got = await clock.run(
      Promise.all(Array.from({ length: 300 }, (_, i) => c.get('test_cases', `c${i}`))),
      60_000,
      1,
    );
    expect(got.map((r) => r.id)).toEqual(Array.from({ length: 300 }, (_, i) => `c${i}`));
    // Floor: 300 requests in windows of 50 need 5 full windows after the first burst.
    const floor = (300 / count - 1) * windowMs;
    expect(c.stats.rateLimited).toBe(0);
    expect(c.stats.total).toBe(300);
    expect(clock.now()).toBeGreaterThanOrEqual(floor);
    expect(clock.now()).toBeLessThanOrEqual(floor * 1.1);
  });

  test('a server answering 429 to 30% of requests loses nothing and no create is sent twice', async () => {
    const random = seeded(7);
    const created = new Map<string, number>();
    const server = await startServer((req) => {
      if (random() < 0.3) return { status: 429, body: errorBody(429, 'RATE_LIMITED', 'slow down') };
      const name = JSON.parse(req.body).data.attributes.name as string;
      created.set(name, (created.get(name) ?? 0) + 1);
      return { status: 201, headers: { etag: '"1"' }, body: resource('test_cases', name) };
    });
    // 429s at random, unrelated to the pace, slow the client's pace down to a crawl: the waits run
    // on a virtual clock, so this test is about what is sent, not how long it takes.
    const clock = new FakeClock();
    const c = client(server.url, {
      rateLimit: '1000/1s',
      retry: { ...fast, maxRateLimitAttempts: 20 },
      clock,
    });
    const names = Array.from({ length: 200 }, (_, i) => `case ${i}`);
    const results = await clock.run(
      Promise.all(names.map((name) => c.create('test_cases', { name, projectId: 'p', rank: 1 }))),
    );
    expect(results.map((r) => r.id)).toEqual(names);
    expect([...created.values()].every((n) => n === 1)).toBe(true);
    expect(created.size).toBe(200);
    expect(c.stats.rateLimited).toBeGreaterThan(30);
    expect(c.stats.total).toBe(200 + c.stats.rateLimited);
  });
});

describe('dropped connections', () => {
  test('GETs and If-Match PATCHes survive resets; nothing is lost', async () => {
    const random = seeded(3);
    const state = new Map<string, string>();
    const server = await startServer((req) => {
      if (random() < 0.25) return { status: 0, destroy: true };
      const id = req.url.split('/').pop()!;
      if (req.method === 'PATCH') state.set(id, JSON.parse(req.body).data.attributes.result);
      return {
        status: 200,
        headers: { etag: '"x"' },
        body: resource('test_case_executions', id, { result: state.get(id) }),
      };
    });
    const c = client(server.url, { rateLimit: '1000/1s', retry: { ...fast, maxAttempts: 10 } });
    const ids = Array.from({ length: 100 }, (_, i) => `e${i}`);
    await Promise.all(
      ids.map((id) => c.update('test_case_executions', id, { result: 'PASSED' }, '"x"')),
    );
    await Promise.all(ids.map((id) => c.get('test_case_executions', id)));
    expect(ids.every((id) => state.get(id) === 'PASSED')).toBe(true);
    expect(c.stats.networkErrors).toBeGreaterThan(10);
    expect(c.stats.retried).toBe(c.stats.networkErrors);
  });

  test('a POST whose answer was lost is not repeated: the caller gets a NetworkError that says it may have been processed', async () => {
    const server = await startServer(() => ({ status: 0, destroy: true }));
    const error = await client(server.url)
      .create('test_case_executions', { projectId: 'p', testCaseId: 'c', testCycleId: 'r' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).maybeProcessed).toBe(true);
    expect(server.log.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a refused connection is retried on its own short budget, then reported with the address', async () => {
    const server = await startServer(() => ({ status: 200 }));
    const url = server.url;
    await server.close();
    const c = client(url, { retry: { ...fast, maxAttempts: 5, maxRefusedAttempts: 2 } });
    const error = (await c.project().catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(
      /^GET \/projects failed: connection refused \(after 2 attempts\)\. Nothing listens at 127\.0\.0\.1:\d+: check the host and port of the base URL/,
    );
    expect(error.maybeProcessed).toBe(false);
    expect(c.stats.total).toBe(2);
  });

  test('https against a plain-HTTP port is not retried and asks "http or https?"', async () => {
    const server = await startServer(() => ({ status: 200, body: { data: [] } }));
    const c = client(server.url.replace('http:', 'https:'), { retry: { ...fast, maxAttempts: 5 } });
    const error = (await c.project().catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/does not speak TLS there: http or https\?/);
    expect(c.stats.total).toBe(1);
  });

  test('a 404 on the first request blames the base URL and shows the address asked', async () => {
    const server = await startServer(() => ({
      status: 404,
      body: {
        errors: [
          { status: '404', code: 'NOT_FOUND', detail: 'No route GET /api/v2/api/v1/projects.' },
        ],
      },
    }));
    const c = client(`${server.url}/api/v2`);
    const error = (await c.project().catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toContain(`testcycle asked ${server.url}/api/v2/api/v1/projects`);
    expect(error.message).toContain('Check the base URL');
    expect(error.message).not.toContain('the record does not exist');
  });

  test('a server that does not answer times out', async () => {
    const server = await startServer(() => new Promise(() => {}));
    const c = client(server.url, { timeoutMs: 100, retry: { ...fast, maxAttempts: 2 } });
    await expect(c.project()).rejects.toThrow(/no answer within 100 ms/);
    expect(server.log).toHaveLength(2);
  });
});

describe('secrets', () => {
  test('with debug logging, the token appears in no log line, error message or error field', async () => {
    const server = await startServer((req, i) => {
      if (i === 0)
        return {
          status: 403,
          body: errorBody(
            403,
            'FORBIDDEN',
            `token ${TOKEN} is expired; header was ${req.headers.authorization}`,
          ),
        };
      return { status: 0, destroy: true };
    });
    const lines: string[] = [];
    const redactor = new Redactor();
    const logger = createLogger((_level, message) => lines.push(message), redactor, 'debug');
    const c = client(server.url, { logger, redactor, retry: { ...fast, maxAttempts: 2 } });
    const errors = [
      await c.project().catch((e: unknown) => e),
      await c
        .create('test_cases', { name: TOKEN, projectId: 'p', rank: 1 })
        .catch((e: unknown) => e),
      await c
        .page('/test_cases', { filter: f.eq('name', TOKEN), after: '' })
        .catch((e: unknown) => e),
    ];
    const stdout = jest.fn();
    for (const e of errors) {
      stdout(
        (e as Error).message,
        JSON.stringify(e),
        String((e as Error).stack),
        JSON.stringify(Object.entries(e as object)),
      );
    }
    const everything = JSON.stringify(stdout.mock.calls) + lines.join('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(everything).not.toContain(TOKEN);
    expect(everything).toContain('***');
  });
});

describe('proxies', () => {
  /** Runs `body` with HTTP(S)_PROXY set to `proxyUrl` and no NO_PROXY; restores the environment. */
  async function withProxy(proxyUrl: string, body: () => Promise<void>): Promise<void> {
    const names = [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'NO_PROXY',
      'http_proxy',
      'https_proxy',
      'no_proxy',
    ];
    const saved = Object.fromEntries(names.map((k) => [k, process.env[k]]));
    for (const k of names) delete process.env[k];
    process.env.HTTP_PROXY = proxyUrl;
    process.env.HTTPS_PROXY = proxyUrl;
    try {
      await body();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }
  const projectBody = (id: string) => ({
    status: 200,
    body: { data: [{ type: 'projects', id, attributes: {} }] },
  });

  test('HTTPS_PROXY carries requests to other hosts (EnvHttpProxyAgent): a CONNECT tunnel', async () => {
    // A bare TCP proxy that records the request line and closes: the target is never contacted.
    const lines: string[] = [];
    const proxy = net.createServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        lines.push(chunk.toString('latin1').split('\r\n')[0]!);
        socket.destroy();
      }),
    );
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as net.AddressInfo;
    try {
      await withProxy(`http://127.0.0.1:${port}`, async () => {
        const c = new ServiceClient({
          baseUrl: 'https://service.test/',
          token: TOKEN,
          retry: { retryBaseMs: 1, maxAttempts: 1 },
        });
        await expect(c.project()).rejects.toThrow(NetworkError);
        await c.close();
      });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
    expect(lines[0]).toBe('CONNECT service.test:443 HTTP/1.1');
  });

  test.each(['127.0.0.1', 'localhost'])(
    'a loopback base URL (%s) never goes through the proxy: the token stays on this machine',
    async (host) => {
      const proxy = await startServer(() => projectBody('via-proxy'));
      const direct = await startServer(() => projectBody('direct'));
      await withProxy(proxy.url, async () => {
        const port = new URL(direct.url).port;
        const c = new ServiceClient({ baseUrl: `http://${host}:${port}/`, token: TOKEN });
        expect((await c.project()).id).toBe('direct');
        await c.close();
      });
      expect(proxy.log).toHaveLength(0);
      expect(direct.log[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    },
  );
});
