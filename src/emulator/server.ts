/**
 * The emulator's HTTP server (node:http). Every request runs one pipeline of steps; a step that
 * refuses throws an ApiError (answered as a JSON:API error document) or Dropped (chaos closes the
 * connection). Each step's rules live in their own file: auth, rate window, negotiation, chaos.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from '../schema/limits.js';
import { RESOURCE_TYPES } from '../schema/resources.js';
import { authenticate, authorize, bearerOf, tokenTable } from './auth.js';
import { Chaos, type ChaosDecision, NO_CHAOS, parseChaos, type ChaosOptions } from './chaos.js';
import { filterReference, openApiDocument } from './describe.js';
import { ApiError, MESSAGES } from './errors.js';
import { hostOf, isLoopbackAddress, linkBase, readBody, send } from './http-io.js';
import { isCrossSite, livePage, livePageAllowed, PAGE_HEADERS, RequestLog } from './live-page.js';
import { checkAccept, checkContentType } from './negotiate.js';
import { parseRate, type RateLimit, RateWindow } from './rate-window.js';
import { compileRoutes, matchRoute, type Route, type RouteMatch } from './routes.js';
import { demoSeed, type Region, type Seed } from './seed.js';
import { API_PREFIX } from './paging.js';
import { EmulatorService, type ServiceResponse } from './service.js';
import { type EmulatorStats, StatsCounter } from './stats.js';

export type { EmulatorStats } from './stats.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  seed?: Seed;
  /** `COUNT/WINDOW` like the client's flag, or parsed. Default 100/1m. */
  rateLimit?: string | RateLimit;
  chaos?: string | ChaosOptions;
  /** Bytes; default the service's limit, MAX_BODY_BYTES of src/schema/limits.ts. */
  maxBodyBytes?: number;
  /** A connection with no traffic for this long is closed; default 30 s. */
  idleTimeoutMs?: number;
  /** Seconds between reloads of the live page at `/`; default 5. */
  liveRefreshSeconds?: number;
  /** Monotonic milliseconds for the rate window; tests pass a virtual clock. Default performance.now. */
  clock?: { now(): number };
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

/**
 * The request target as a URL of this server, or undefined when it is not an origin-form path:
 * `//host/x` is read as a path, never as another host, and an empty segment is malformed.
 */
function requestUrl(target: string | undefined): URL | undefined {
  const text = target ?? '/';
  if (!text.startsWith('/') || text.split('?')[0]!.includes('//')) return undefined;
  try {
    return new URL(`http://emulator${text}`);
  } catch {
    return undefined;
  }
}

/** Chaos dropped the connection: no answer is written. */
class Dropped {}

const JSON_HEADERS = { 'content-type': 'application/json' };

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? demoSeed();
  const region: Region = seed.region ?? 'eu';
  const service = new EmulatorService(seed);
  const routes = compileRoutes();
  const clock = options.clock;
  const rate = new RateWindow(parseRate(options.rateLimit), clock && (() => clock.now()));
  const chaos = new Chaos(
    typeof options.chaos === 'string' ? parseChaos(options.chaos) : (options.chaos ?? NO_CHAOS),
  );
  // Seeded records are named by their place in the seed (their ids may be random).
  for (const type of RESOURCE_TYPES)
    [...service.store.all(type)].forEach((record, i) => chaos.name(record.id, `${type}#${i}`));
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const stats = new StatsCounter();
  const tokens = tokenTable(seed, service);
  const tokenNames = new Map((seed.tokens ?? []).map((t) => [t.token, t.name ?? t.role]));
  const requestLog = new RequestLog();
  /** Every answered request is counted, and shown on the live page by its token's name. */
  function record(
    req: http.IncomingMessage,
    target: string,
    route: string,
    status: number | string,
    started: number,
  ) {
    const method = req.method ?? 'GET';
    stats.count(method, route, status);
    // A refused request from another site (or for another host name: DNS rebinding) is counted
    // but not logged: a web page the user visits cannot write into the live page.
    const refused = typeof status === 'number' && status >= 400;
    if (refused && (status === 421 || isCrossSite(req.headers))) return;
    const bearer = bearerOf(req);
    requestLog.add({
      at: new Date().toISOString(),
      method,
      path: target,
      status,
      ms: Math.round(performance.now() - started),
      token: bearer ? (tokenNames.get(bearer) ?? 'unknown token') : 'no token',
    });
  }

  /** Control routes, outside /api/v1 and not counted: true when the request was one. */
  function control(req: http.IncomingMessage, res: http.ServerResponse, path: string): boolean {
    // Reading stats needs no token; what changes state needs a read-write token, so that a web
    // page cannot reset the emulator (no simple request).
    if (path === '/__emulator/stats' && req.method === 'GET') {
      send(res, 200, stats.current(), JSON_HEADERS);
      return true;
    }
    if (path === '/' && req.method === 'GET') {
      if (!livePageAllowed(ownHosts !== undefined, bearerOf(req), tokens))
        send(res, 403, new ApiError(403, 'FORBIDDEN', MESSAGES.livePageToken).toBody());
      else
        res.writeHead(200, PAGE_HEADERS).end(
          livePage(service.store, requestLog.latest(), {
            title: `Emulator: ${seed.project?.name ?? 'Space'}`,
            refreshSeconds: options.liveRefreshSeconds,
          }),
        );
      return true;
    }
    if (path !== '/__emulator/reset' || req.method !== 'POST') return false;
    const bearer = bearerOf(req);
    if (!bearer || tokens.get(bearer)?.role !== 'read-write')
      send(res, 403, new ApiError(403, 'FORBIDDEN', MESSAGES.controlToken).toBody());
    else {
      stats.reset();
      requestLog.clear();
      rate.clear();
      send(res, 200, { ok: true }, JSON_HEADERS);
    }
    return true;
  }

  /** Latency, then at most one fault (docs/design.md --chaos); decided by what the request is. */
  async function meetChaos(
    method: string,
    url: URL,
    raw: Buffer | 'too-large',
  ): Promise<{ identity: string; decision?: ChaosDecision }> {
    if (!chaos.active) return { identity: '' };
    const identity = chaos.identify(
      method,
      url.pathname + url.search,
      raw === 'too-large' ? raw : raw.toString(),
    );
    const decision = chaos.decide(identity);
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.fault === 'reset-before') throw new Dropped();
    if (decision.fault === '5xx') throw new ApiError(503, 'UNAVAILABLE', MESSAGES.chaos5xx);
    return { identity, decision };
  }

  function dispatch(
    req: http.IncomingMessage,
    url: URL,
    match: RouteMatch,
    body: unknown,
    role: 'read-write' | 'read-only',
    caller: { userId: string | null; tokenId: string },
  ): ServiceResponse {
    const base = linkBase(req, origin);
    const { route } = match;
    if (route.kind === 'openapi') return { status: 200, body: openApiDocument(routes, role, base) };
    if (route.kind === 'filterReference') return { status: 200, body: filterReference(base) };
    const ifMatch = req.headers['if-match'];
    return service.handle({
      route,
      id: match.id,
      query: url.searchParams,
      body,
      ifMatch: typeof ifMatch === 'string' ? ifMatch : undefined,
      caller,
      path: url.pathname,
      base,
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const started = performance.now();
    const url = requestUrl(req.url);
    const target = url ? url.pathname + url.search : (req.url ?? '');
    let routeName = `${method} (unmatched)`;
    try {
      // DNS rebinding: a web page's own host name that resolves to 127.0.0.1 must not reach us.
      if (ownHosts && !ownHosts.has(hostOf(req.headers.host)))
        throw new ApiError(421, 'MISDIRECTED_REQUEST', MESSAGES.foreignHost(req.headers.host));
      if (!url) throw new ApiError(400, 'INVALID_PATH', MESSAGES.malformedTarget(target));
      if (control(req, res, url.pathname)) return;
      const matched = findRoute(routes, method, url.pathname);
      if (matched && 'route' in matched) routeName = matched.route.name;
      // The body is read first: chaos decides by what a request is, body included.
      const raw = await readBody(req, maxBody);
      const { identity, decision } = await meetChaos(method, url, raw);
      const bearer = bearerOf(req);
      const token = authenticate(bearer, tokens, region);
      rate.admit(bearer!, decision?.fault === '429');
      checkAccept(req.headers.accept, matched !== undefined && isDescription(matched));
      const match = requireRoute(matched, method, url.pathname);
      authorize(token, match.route);
      const body = readJsonApiBody(raw, req.headers['content-type'], match.route, maxBody);
      if (decision?.etagBump) bumpBeforeWrite(service, match, req.headers['if-match']);
      const caller = { userId: token.ownerId, tokenId: token.id };
      const result = dispatch(req, url, match, body, token.role, caller);
      if (chaos.active && match.route.kind === 'create' && result.status === 201) {
        // A created record is named by the request that made it, the same on every run.
        const created = (result.body as { data?: { id?: unknown } } | undefined)?.data?.id;
        if (typeof created === 'string') chaos.name(created, `(${identity})`);
      }
      // Processed, but the answer is lost: the client must look before it repeats a create.
      if (decision?.fault === 'reset-after') throw new Dropped();
      record(req, target, routeName, result.status, started);
      send(res, result.status, result.body, {
        ...(result.etag ? { etag: result.etag } : {}),
        ...(match.route.kind === 'openapi' ? JSON_HEADERS : {}),
      });
    } catch (error) {
      if (error instanceof Dropped) {
        record(req, target, routeName, 'reset', started);
        req.socket.destroy();
      } else if (error instanceof ApiError) {
        record(req, target, routeName, error.status, started);
        send(res, error.status, error.toBody(), error.headers);
      } else throw error;
    }
  }

  const server = http.createServer((req, res) => {
    // No answer is sniffed into another type (a JSON error read as a page or a script).
    res.setHeader('x-content-type-options', 'nosniff');
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(
          res,
          500,
          new ApiError(500, 'INTERNAL', `Emulator error: ${(error as Error).message}`).toBody(),
        );
    });
  });
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
    stats: () => stats.snapshot(),
    resetStats: () => {
      stats.reset();
      requestLog.clear();
      rate.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The route of a path under /api/v1, the methods it allows, or nothing; 404/400 off the API. */
function findRoute(routes: Route[], method: string, path: string): ReturnType<typeof matchRoute> {
  if (!path.startsWith(`${API_PREFIX}/`))
    throw new ApiError(404, 'NOT_FOUND', MESSAGES.noRoute(method, path));
  let segments: string[];
  try {
    segments = path
      .slice(API_PREFIX.length + 1)
      .split('/')
      .map(decodeURIComponent);
  } catch {
    throw new ApiError(400, 'INVALID_PATH', MESSAGES.badPath(path));
  }
  return matchRoute(routes, method, segments);
}

function isDescription(matched: NonNullable<ReturnType<typeof matchRoute>>): boolean {
  return 'route' in matched && matched.route.kind === 'openapi';
}

/** The matched route, or 404 (no such path) or 405 (another method's path, with Allow). */
function requireRoute(
  matched: ReturnType<typeof matchRoute>,
  method: string,
  path: string,
): RouteMatch {
  if (!matched) throw new ApiError(404, 'NOT_FOUND', MESSAGES.noRoute(method, path));
  if ('allowed' in matched)
    throw new ApiError(
      405,
      'METHOD_NOT_ALLOWED',
      MESSAGES.methodNotAllowed(method, path, matched.allowed),
      undefined,
      { allow: matched.allowed.join(', ') },
    );
  return matched;
}

/** The parsed body: 413 over the limit, 415 for another media type, 400 for invalid JSON. */
function readJsonApiBody(
  raw: Buffer | 'too-large',
  contentType: string | undefined,
  route: Route,
  maxBody: number,
): unknown {
  if (raw === 'too-large') throw new ApiError(413, 'PAYLOAD_TOO_LARGE', MESSAGES.tooLarge(maxBody));
  if (raw.length > 0 || (contentType && (route.kind === 'create' || route.kind === 'update')))
    checkContentType(contentType);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The body is not valid JSON.', { pointer: '' });
  }
}

/** Chaos etag-bump: a concurrent edit between the client's read and its write. */
function bumpBeforeWrite(
  service: EmulatorService,
  match: RouteMatch,
  ifMatch: string | undefined,
): void {
  const { route } = match;
  if (!ifMatch || !['update', 'delete', 'restore'].includes(route.kind)) return;
  const record = service.store.get(route.type!, match.id!);
  if (record) service.store.bump(record);
}
