/**
 * A scripted JSON:API server for client tests: listens on 127.0.0.1:0, logs every request, and
 * is closed by the test (closeAll in afterEach), connections included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Drop the connection without an answer. */
  destroy?: boolean;
  /** Write the answer by hand (hostile servers: endless bodies, wrong media types). */
  write?: (res: http.ServerResponse) => void;
}

export type Handler = (req: LoggedRequest, index: number) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  log: LoggedRequest[];
  close(): Promise<void>;
}

const open = new Set<TestServer>();

export async function startServer(handler: Handler): Promise<TestServer> {
  const log: LoggedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: LoggedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      log.push(entry);
      void Promise.resolve(handler(entry, log.length - 1)).then((reply) => {
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        if (reply.write) {
          reply.write(res);
          return;
        }
        const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          'content-type': 'application/vnd.api+json',
          ...reply.headers,
        });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handle: TestServer = {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(handle);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(handle);
  return handle;
}

export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}

/** A deterministic PRNG for seeded tests (the emulator's chaos uses the same one). */
export { prng as seeded } from '../../src/emulator/http/chaos.js';

export function errorBody(status: number, code: string, detail: string, source?: object) {
  return {
    errors: [{ status: String(status), title: code, code, detail, ...(source ? { source } : {}) }],
  };
}
