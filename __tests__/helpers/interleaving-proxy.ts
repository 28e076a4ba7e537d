/**
 * A strict server for race tests: a proxy on 127.0.0.1 in front of the emulator that
 *  - answers a create (201) without an ETag, as docs/service-api.md allows, so the
 *    client must read the record before its first write;
 *  - takes the requests of every client one at a time, in an order drawn from a seed among those
 *    waiting, so any client may get in between another's read and its write;
 *  - lets another writer in at every gap (after each answer, before the client sees it), through
 *    `atGap`, which writes to the emulator directly.
 * Nothing here sleeps: a turn waits a few passes of the event loop so the other clients' requests
 * already on their way are queued before one is drawn.
 */
import { prng } from '../../src/emulator/http/chaos.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startServer, type LoggedRequest, type Reply, type TestServer } from './http-server.js';

export interface Exchange {
  method: string;
  /** The path below /api/v1, with its query. */
  path: string;
  requestBody: unknown;
  status: number;
  body: unknown;
}

export interface InterleavingProxy {
  /** The base URL clients use (with /api/v1). */
  url: string;
  /** Every exchange in the order the emulator answered it. */
  log: Exchange[];
  /** Draws of the seeded generator, for the test's own choices (reproducible with the seed). */
  random: () => number;
  close(): Promise<void>;
}

const FORWARDED = ['authorization', 'accept', 'content-type', 'if-match', 'user-agent'];

export async function startInterleavingProxy(
  emu: RunningEmulator,
  options: { seed: number; atGap?: (exchange: Exchange) => Promise<void> },
): Promise<InterleavingProxy> {
  const random = prng(options.seed);
  const target = new URL(emu.url);
  const prefix = target.pathname.replace(/\/$/, '');
  const log: Exchange[] = [];
  const waiting: { request: LoggedRequest; answer: (reply: Reply) => void }[] = [];
  let pumping = false;
  let origin = '';

  const forward = async (request: LoggedRequest): Promise<Reply> => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const res = await fetch(`${target.origin}${request.url}`, {
      method: request.method,
      headers,
      body: request.body === '' ? undefined : request.body,
    });
    // Links the emulator builds from its own address lead back through the proxy.
    const text = (await res.text()).replaceAll(target.origin, origin);
    const body: unknown = text ? JSON.parse(text) : undefined;
    const replyHeaders: Record<string, string> = {};
    for (const [name, value] of res.headers) {
      if (['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
        continue;
      if (name === 'etag' && res.status === 201) continue;
      replyHeaders[name] = value;
    }
    log.push({
      method: request.method,
      path: request.url.slice(prefix.length),
      requestBody: request.body ? JSON.parse(request.body) : undefined,
      status: res.status,
      body,
    });
    return { status: res.status, body, headers: replyHeaders };
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (waiting.length > 0) {
        // Let requests already sent by the other clients arrive before one is drawn.
        for (let i = 0; i < 8; i++) await new Promise((r) => setImmediate(r));
        const [job] = waiting.splice(Math.floor(random() * waiting.length), 1);
        const reply = await forward(job!.request);
        if (options.atGap) await options.atGap(log.at(-1)!);
        job!.answer(reply);
      }
    } finally {
      pumping = false;
    }
  };

  const server: TestServer = await startServer(
    (request) =>
      new Promise<Reply>((answer) => {
        waiting.push({ request, answer });
        void pump();
      }),
  );
  origin = server.url;
  return { url: `${server.url}${prefix}`, log, random, close: () => server.close() };
}
