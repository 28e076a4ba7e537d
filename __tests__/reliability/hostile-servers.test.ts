/**
 * Hostile servers: a proxy, a WAF or a broken service cannot hang the job,
 * exhaust its memory or pass a login page off as data. Every server listens on 127.0.0.1 and is
 * closed after each test; every wait is bounded by the client's own caps.
 */
import { ServiceClient } from '../../src/client/client.js';
import { ServiceError } from '../../src/shared/errors.js';
import { closeAll, startServer, type Reply } from '../helpers/http-server.js';

const TOKEN = 'tc_hostile_0123456789abcdef';
afterEach(closeAll);

/** Small caps so that the bounds are reached quickly; the defaults are the same code with 60 s. */
const RETRY = {
  retryBaseMs: 5,
  rateLimitBaseMs: 20,
  maxBackoffMs: 200,
  maxAttempts: 3,
  maxRateLimitAttempts: 5,
};

async function clientFor(handler: () => Reply) {
  const server = await startServer(handler);
  const client = new ServiceClient({ baseUrl: server.url, token: TOKEN, retry: RETRY });
  return { server, client };
}

describe('a Retry-After beyond the cap fails at once, naming the wait the service asked for', () => {
  test.each([
    ['an hour', '3600', 'wait 60 min (Retry-After)'],
    ['a date in 2099', 'Fri, 01 Jan 2099 00:00:00 GMT', /wait \d+ days \(Retry-After\)/],
    ['an overflowing number', '9'.repeat(400), 'wait without end (Retry-After)'],
  ])('%s', async (_name, retryAfter, wait) => {
    const { server, client } = await clientFor(() => ({
      status: 429,
      headers: { 'retry-after': retryAfter },
      body: { errors: [{ status: '429', code: 'RATE_LIMITED' }] },
    }));
    const error = await client.project().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(429);
    expect((error as Error).message).toMatch(wait);
    expect((error as Error).message).toContain(
      'more than the 1 s this client waits at once: try again later.',
    );
    // One request: sleeping through the cap, try after try, cannot end well.
    expect(server.log).toHaveLength(1);
  });

  test('a Retry-After within the cap is honoured, then the 429 budget ends with a clear error', async () => {
    const { server, client } = await clientFor(() => ({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { errors: [{ status: '429', code: 'RATE_LIMITED' }] },
    }));
    const error = await client.project().catch((e: unknown) => e);
    await client.close();
    expect((error as Error).message).toMatch(/Rate limit reached/);
    expect(server.log).toHaveLength(RETRY.maxRateLimitAttempts);
  });
});

describe('response bodies are read up to a limit, then refused', () => {
  test('a declared 2 GB body is refused from its Content-Length, unread', async () => {
    let written = 0;
    const { client } = await clientFor(() => ({
      status: 200,
      write: (res) => {
        res.writeHead(200, {
          'content-type': 'application/vnd.api+json',
          'content-length': String(2 * 1024 ** 3),
        });
        const chunk = Buffer.alloc(1024 * 1024, 32);
        const pump = () => {
          while (!res.destroyed && written < 2 * 1024 ** 3 && res.write(chunk))
            written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      },
    }));
    await expect(client.project()).rejects.toThrow(/over 32 MiB and was not read/);
    await client.close();
    expect(written).toBeLessThan(256 * 1024 ** 2);
  });

  test('an endless chunked body is cut at the limit, not after gigabytes', async () => {
    let written = 0;
    const rssBefore = process.memoryUsage().rss;
    const { client } = await clientFor(() => ({
      status: 200,
      write: (res) => {
        res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        const chunk = Buffer.alloc(1024 * 1024, 32);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      },
    }));
    await expect(client.project()).rejects.toThrow(/over 32 MiB and was not read/);
    await client.close();
    expect(written).toBeLessThan(512 * 1024 ** 2);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 ** 2);
  });
});

describe('an answer that is not JSON:API says what came back', () => {
  test('a 200 text/html page (a proxy login) is refused, naming the media type', async () => {
    const { client } = await clientFor(() => ({
      status: 200,
      write: (res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><body>Please sign in to the corporate proxy</body></html>');
      },
    }));
    await expect(client.project()).rejects.toThrow(
      /GET \/projects: the answer \(200\) is text\/html; charset=utf-8, not a JSON:API document \(<html><body>Please sign in/,
    );
    await client.close();
  });

  test('a JSON answer that is no JSON:API document is refused too', async () => {
    const { client } = await clientFor(() => ({ status: 200, body: [1, 2, 3] }));
    await expect(client.project()).rejects.toThrow(/not a JSON:API document/);
    await client.close();
  });
});

describe('pages larger than a page can be are refused, not recursed into', () => {
  test.each([
    ['200,000 records', 200_000, /the page holds 200000 records, over the 100/],
    ['a million records (over the byte limit too)', 1_000_000, /over 32 MiB/],
  ])('%s', async (_name, count, message) => {
    const item = '{"type":"test_cycles","id":"x","attributes":{}}';
    const body = `{"data":[${Array.from({ length: count }, () => item).join(',')}]}`;
    const { client } = await clientFor(() => ({
      status: 200,
      write: (res) => {
        res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        res.end(body);
      },
    }));
    await expect(client.page('/test_cycles')).rejects.toThrow(message);
    await client.close();
  });
});
