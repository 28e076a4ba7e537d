/**
 * The emulator's HTTP server (node:http). Every request runs one pipeline with early returns:
 * stats -> chaos -> auth -> rate limit -> media types -> route -> permission -> body -> handle -> write.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, MESSAGES } from './errors.js';
import { Chaos, NO_CHAOS, parseChaos, type ChaosOptions } from './chaos.js';
import { openApiDocument, filterReference } from './describe.js';
import { compileRoutes, matchRoute, type Route } from './routes.js';
import { demoSeed, type Region, type Role, type Seed } from './seed.js';
import { checkAccept, checkContentType, MEDIA_TYPE } from './negotiate.js';
import { API_PREFIX, EmulatorService } from './service.js';
import { RESOURCE_TYPES } from '../schema/resources.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  seed?: Seed;
  /** `COUNT/WINDOW` like the client's flag, or parsed. Default 100/1m. */
  rateLimit?: string | { count: number; windowMs: number };
  chaos?: string | ChaosOptions;
  /** Bytes; default 1 MiB (SERVICE-API.md 8). */
  maxBodyBytes?: number;
  /** A connection with no traffic for this long is closed; default 30 s. */
  idleTimeoutMs?: number;
}

export interface EmulatorStats {
  total: number;
  byMethod: Record<string, number>;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  rateLimited: number;
}

export interface RunningEmulator {
  /** Base URL ending in /api/v1. */
  url: string;
  origin: string;
  service: EmulatorService;
  seed: Seed;
  stats(): EmulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}

interface TokenInfo {
  id: string;
  role: Role;
  ownerId: string | null;
  expiresAt: number;
  revokedAt: number | null;
  region: Region;
}

function parseRate(value: EmulatorOptions['rateLimit']): { count: number; windowMs: number } {
  if (!value) return { count: 100, windowMs: 60_000 };
  if (typeof value !== 'string') return value;
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/.exec(value);
  if (!m || Number(m[1]) < 1)
    throw new Error(`--rate-limit: "${value}" is not COUNT/WINDOW, e.g. 100/1m`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[3] as 'ms' | 's' | 'm' | 'h'];
  return { count: Number(m[1]), windowMs: Number(m[2] ?? '1') * unit };
}

function emptyStats(): EmulatorStats {
  return { total: 0, byMethod: {}, byRoute: {}, byStatus: {}, rateLimited: 0 };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? demoSeed();
  const region: Region = seed.region ?? 'eu';
  const service = new EmulatorService(seed);
  const routes = compileRoutes();
  const limit = parseRate(options.rateLimit);
  const chaos = new Chaos(
    typeof options.chaos === 'string' ? parseChaos(options.chaos) : (options.chaos ?? NO_CHAOS),
  );
  // Seeded records are named by their place in the seed (their ids may be random).
  for (const type of RESOURCE_TYPES)
    [...service.store.all(type)].forEach((record, i) => chaos.name(record.id, `${type}#${i}`));
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  let stats = emptyStats();

  const tokens = new Map<string, TokenInfo>();
  const tokenRecords = [...service.store.all('tokens')];
  (seed.tokens ?? []).forEach((t, i) => {
    tokens.set(t.token, {
      id: tokenRecords[i]!.id,
      role: t.role,
      ownerId: t.ownerId ?? null,
      expiresAt: Date.parse(String(tokenRecords[i]!.attributes.expiresAt)),
      revokedAt: t.revokedAt ? Date.parse(t.revokedAt) : null,
      region: t.region ?? region,
    });
  });
  /** Sliding window per token: arrival times of every request that carried it. */
  const windows = new Map<string, number[]>();

  const count = (method: string, route: string, status: number | string) => {
    stats.total++;
    stats.byMethod[method] = (stats.byMethod[method] ?? 0) + 1;
    stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1;
    stats.byStatus[String(status)] = (stats.byStatus[String(status)] ?? 0) + 1;
    if (status === 429) stats.rateLimited++;
  };

  const send = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': MEDIA_TYPE,
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(
          res,
          500,
          new ApiError(500, 'INTERNAL', `Emulator error: ${(error as Error).message}`).toBody(),
        );
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://emulator');
    let routeName = `${method} (unmatched)`;
    const fail = (error: ApiError, headers: Record<string, string> = {}) => {
      count(method, routeName, error.status);
      send(res, error.status, error.toBody(), headers);
    };
    // DNS rebinding: a web page's own host name that resolves to 127.0.0.1 must not reach us.
    if (ownHosts && !ownHosts.has(hostOf(req.headers.host)))
      return fail(new ApiError(421, 'MISDIRECTED_REQUEST', MESSAGES.foreignHost(req.headers.host)));
    // Control routes: outside /api/v1 and not counted. Reading stats needs no token; what changes
    // state needs a read-write token, so a web page cannot reset the emulator (no simple request).
    if (url.pathname === '/__emulator/stats' && method === 'GET')
      return send(res, 200, stats, { 'content-type': 'application/json' });
    if (url.pathname === '/__emulator/reset' && method === 'POST') {
      const bearer = bearerOf(req);
      if (!bearer || tokens.get(bearer)?.role !== 'read-write')
        return send(res, 403, new ApiError(403, 'FORBIDDEN', MESSAGES.controlToken).toBody());
      stats = emptyStats();
      windows.clear();
      return send(res, 200, { ok: true }, { 'content-type': 'application/json' });
    }

    if (!url.pathname.startsWith(`${API_PREFIX}/`))
      return fail(new ApiError(404, 'NOT_FOUND', MESSAGES.noRoute(method, url.pathname)));
    let segments: string[];
    try {
      segments = url.pathname
        .slice(API_PREFIX.length + 1)
        .split('/')
        .map(decodeURIComponent);
    } catch {
      return fail(new ApiError(400, 'INVALID_PATH', MESSAGES.badPath(url.pathname)));
    }
    const matched = matchRoute(routes, method, segments);
    if (matched && 'route' in matched) routeName = matched.route.name;

    // The body is read first: chaos decides by what a request is, body included.
    const raw = await readBody(req, maxBody);
    // Chaos: latency, then at most one fault for this request.
    const identity = chaos.active
      ? chaos.identify(
          method,
          url.pathname + url.search,
          raw === 'too-large' ? raw : raw.toString(),
        )
      : '';
    const decision = chaos.active ? chaos.decide(identity) : undefined;
    if (decision && decision.latencyMs > 0)
      await new Promise((r) => setTimeout(r, decision.latencyMs));
    const fault = decision?.fault ?? 'none';
    if (fault === 'reset-before') {
      count(method, routeName, 'reset');
      req.socket.destroy();
      return;
    }
    if (fault === '5xx') return fail(new ApiError(503, 'UNAVAILABLE', MESSAGES.chaos5xx));

    // Auth (SERVICE-API.md 5).
    const bearer = bearerOf(req);
    if (!bearer) return fail(new ApiError(403, 'FORBIDDEN', MESSAGES.noToken));
    const token = tokens.get(bearer);
    if (!token) return fail(new ApiError(403, 'FORBIDDEN', MESSAGES.badToken));
    if (token.revokedAt !== null && token.revokedAt <= Date.now())
      return fail(new ApiError(401, 'UNAUTHORIZED', MESSAGES.revoked));
    if (token.expiresAt <= Date.now())
      return fail(new ApiError(403, 'FORBIDDEN', MESSAGES.expired));
    if (token.region !== region)
      return fail(new ApiError(403, 'FORBIDDEN', MESSAGES.otherRegion(token.region, region)));

    // Rate limit (SERVICE-API.md 8): sliding window per token; every request counts, 429s included.
    const now = performance.now();
    const window = windows.get(bearer) ?? [];
    while (window.length && window[0]! <= now - limit.windowMs) window.shift();
    window.push(now);
    windows.set(bearer, window);
    if (window.length > limit.count || fault === '429') {
      return fail(
        new ApiError(429, 'RATE_LIMITED', MESSAGES.rateLimited(limit.count, limit.windowMs)),
      );
    }

    // Media types (SERVICE-API.md 5.7, 5.8; JSON:API 1.1 content negotiation).
    const isDescription = matched && 'route' in matched && matched.route.kind === 'openapi';
    try {
      checkAccept(req.headers.accept, isDescription === true);
    } catch (error) {
      return fail(error as ApiError);
    }

    if (!matched)
      return fail(new ApiError(404, 'NOT_FOUND', MESSAGES.noRoute(method, url.pathname)));
    if ('allowed' in matched) {
      return fail(
        new ApiError(
          405,
          'METHOD_NOT_ALLOWED',
          MESSAGES.methodNotAllowed(method, url.pathname, matched.allowed),
        ),
        {
          allow: matched.allowed.join(', '),
        },
      );
    }
    const route: Route = matched.route;
    if (route.write && token.role === 'read-only')
      return fail(new ApiError(403, 'FORBIDDEN', MESSAGES.readOnly));

    // Body.
    if (raw === 'too-large')
      return fail(new ApiError(413, 'PAYLOAD_TOO_LARGE', MESSAGES.tooLarge(maxBody)));
    let body: unknown;
    const contentType = req.headers['content-type'];
    if (raw.length > 0 || (contentType && (route.kind === 'create' || route.kind === 'update'))) {
      try {
        checkContentType(contentType);
      } catch (error) {
        return fail(error as ApiError);
      }
    }
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return fail(
          new ApiError(400, 'INVALID_JSON', 'The body is not valid JSON.', { pointer: '' }),
        );
      }
    }

    const ifMatch =
      typeof req.headers['if-match'] === 'string' ? req.headers['if-match'] : undefined;
    if (
      ifMatch &&
      decision?.etagBump &&
      (route.kind === 'update' || route.kind === 'delete' || route.kind === 'restore')
    ) {
      // A concurrent edit between the client's read and its write.
      const record = service.store.get(route.type!, matched.id!);
      if (record) service.store.bump(record);
    }

    let result;
    try {
      if (route.kind === 'openapi')
        result = { status: 200, body: openApiDocument(routes, token.role, linkBase(req, origin)) };
      else if (route.kind === 'filterReference')
        result = { status: 200, body: filterReference(linkBase(req, origin)) };
      else {
        result = service.handle({
          route,
          id: matched.id,
          query: url.searchParams,
          body,
          ifMatch,
          caller: { userId: token.ownerId, tokenId: token.id },
          path: url.pathname,
          base: linkBase(req, origin),
        });
      }
    } catch (error) {
      if (error instanceof ApiError) return fail(error);
      throw error;
    }
    if (chaos.active && route.kind === 'create' && result.status === 201) {
      // A created record is named by the request that made it, the same on every run.
      const created = (result.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof created === 'string') chaos.name(created, `(${identity})`);
    }
    if (fault === 'reset-after') {
      // Processed, but the answer is lost: the client must look before it repeats a create.
      count(method, routeName, 'reset');
      req.socket.destroy();
      return;
    }
    count(method, routeName, result.status);
    const etag = 'etag' in result && result.etag ? { etag: result.etag } : undefined;
    send(res, result.status, result.body, {
      ...(etag ?? {}),
      ...(route.kind === 'openapi' ? { 'content-type': 'application/json' } : {}),
    });
  }

  // Idle and slow connections are closed: a client that opens sockets and sends nothing cannot
  // hold the server's connections forever.
  const idleMs = options.idleTimeoutMs ?? 30_000;
  server.timeout = idleMs;
  server.keepAliveTimeout = Math.min(5_000, idleMs);
  server.headersTimeout = Math.min(10_000, idleMs);
  server.requestTimeout = idleMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // On loopback, only this machine's own names for it are answered (see handle()).
  const ownHosts = isLoopbackAddress(address.address)
    ? new Set(['127.0.0.1', 'localhost', '[::1]', host])
    : undefined;
  const origin = `http://${host}:${address.port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    service,
    seed,
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
      windows.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The token of an `Authorization: Bearer <token>` header. */
function bearerOf(req: http.IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** The host name of a Host header, without its port (`[::1]` keeps its brackets). */
function hostOf(header: string | undefined): string {
  const value = (header ?? '').trim().toLowerCase();
  return value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0]!;
}

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^127\./.test(address) || address === '::ffff:127.0.0.1';
}

/**
 * `http://HOST/api/v1` for absolute links: the request's Host when it is a plain host[:port]
 * (it is echoed into links, so nothing else gets through), else the address the server listens on.
 */
function linkBase(req: http.IncomingMessage, origin: string): string {
  const host = req.headers.host ?? '';
  const plain = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host);
  return `${plain ? `http://${host}` : origin}${API_PREFIX}`;
}

function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
