/**
 * The emulator's HTTP server (node:http). Every request runs one pipeline of steps; a step that
 * refuses throws an ApiError (answered as a JSON:API error document) or Dropped (chaos closes the
 * connection). Each step's rules live in their own file: auth, rate window, negotiation, chaos.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from '../../schema/limits.js';
import { RESOURCE_TYPES } from '../../schema/resources.js';
import { authenticate, authorize, bearerOf, type TokenInfo, tokenTable } from './auth.js';
import { Chaos, type ChaosDecision, NO_CHAOS, parseChaos, type ChaosOptions } from './chaos.js';
import { filterReference, openApiDocument } from './describe.js';
import { ApiError, MESSAGES } from '../model/errors.js';
import { hostOf, isLoopbackAddress, linkBase, readBody, send } from './http-io.js';
import { isCrossSite, livePage, livePageAllowed, PAGE_HEADERS, RequestLog } from './live-page.js';
import { checkAccept, checkContentType } from './negotiate.js';
import { parseRate, type RateLimit, RateWindow, type RateWindowMode } from './rate-window.js';
import { compileRoutes, matchRoute, type Route, type RouteMatch } from '../model/routes.js';
import { demoSeed, type Region, type Seed } from '../model/seed.js';
import { API_PREFIX } from '../data/paging.js';
import { EmulatorService, type ServiceResponse } from '../data/service.js';
import { type EmulatorStats, StatsCounter } from './stats.js';

export type { EmulatorStats } from './stats.js';

/** How an emulator starts: where it listens, what it holds, how it limits and misbehaves. */
export interface EmulatorOptions {
  /** The address it listens on; default 127.0.0.1. */
  host?: string;
  /** The port; default 0 (any free port, read it from `url`). */
  port?: number;
  /** The Space it starts with (docs/design.md "Emulator contract"); default demoSeed(). */
  seed?: Seed;
  /** `COUNT/WINDOW` like the client's flag, or parsed. Default 100/1m. */
  rateLimit?: string | RateLimit;
  /**
   * How the limit counts: the last WINDOW before each request (default), or windows aligned to the
   * clock.
   */
  rateWindow?: RateWindowMode;
  /** Faults injected, as `--chaos` takes them (`429=0.1,5xx=0.05,...`) or parsed. */
  chaos?: string | ChaosOptions;
  /** Bytes; default the service's limit, MAX_BODY_BYTES of src/schema/limits.ts. */
  maxBodyBytes?: number;
  /** A connection with no traffic for this long is closed; default 30 s. */
  idleTimeoutMs?: number;
  /** Seconds between reloads of the live page at `/`; default 5. */
  liveRefreshSeconds?: number;
  /**
   * Milliseconds for the rate window; tests pass a virtual clock. Default performance.now for a
   * sliding window, Date.now for a fixed one (its windows are aligned to the clock).
   */
  clock?: { now(): number };
}

/** An emulator listening: its addresses, its data, its request counts, and how to stop it. */
export interface RunningEmulator {
  /** Base URL ending in /api/v1. */
  url: string;
  /** The server's origin (`http://127.0.0.1:PORT`), without the API path. */
  origin: string;
  /** The data service behind the routes (its store holds the records). */
  service: EmulatorService;
  /** The seed it was started with, its tokens included. */
  seed: Seed;
  /** The request counts so far (as GET /__emulator/stats answers). */
  stats(): EmulatorStats;
  /** Starts the counts again from zero. */
  resetStats(): void;
  /** Stops listening and closes every connection. */
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

/**
 * One running emulator: what it is built from (seed, service, routes, rate window, chaos, tokens),
 * and the steps each request goes through. Everything a step reads is a field, set in the
 * constructor, except what only listening tells (`origin`, `ownHosts`), set by `listening()`.
 */
class EmulatorServer {
  readonly seed: Seed;
  readonly service: EmulatorService;
  readonly stats = new StatsCounter();
  private readonly region: Region;
  private readonly routes = compileRoutes();
  private readonly rate: RateWindow;
  private readonly chaos: Chaos;
  private readonly maxBody: number;
  private readonly tokens: Map<string, TokenInfo>;
  private readonly tokenNames: Map<string, string>;
  private readonly requestLog = new RequestLog();
  private readonly liveRefreshSeconds: number | undefined;
  /** The server's own origin, for links; known once it listens. */
  private origin = '';
  /** On loopback, only this machine's own names for it are answered (see handle()). */
  private ownHosts: Set<string> | undefined;

  constructor(options: EmulatorOptions) {
    this.seed = options.seed ?? demoSeed();
    this.region = this.seed.region ?? 'eu';
    this.service = new EmulatorService(this.seed);
    const clock = options.clock;
    this.rate = new RateWindow(
      parseRate(options.rateLimit),
      clock && (() => clock.now()),
      options.rateWindow,
    );
    this.chaos = new Chaos(
      typeof options.chaos === 'string' ? parseChaos(options.chaos) : (options.chaos ?? NO_CHAOS),
    );
    // Seeded records are named by their place in the seed (their ids may be random).
    for (const type of RESOURCE_TYPES)
      [...this.service.store.all(type)].forEach((record, i) =>
        this.chaos.name(record.id, `${type}#${i}`),
      );
    this.maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.tokens = tokenTable(this.seed, this.service);
    this.tokenNames = new Map((this.seed.tokens ?? []).map((t) => [t.token, t.name ?? t.role]));
    this.liveRefreshSeconds = options.liveRefreshSeconds;
  }

  /** The server listens at `address`: its origin, and on loopback the host names it answers. */
  listening(address: AddressInfo): string {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.ownHosts = isLoopbackAddress(address.address)
      ? new Set(['127.0.0.1', 'localhost', '[::1]', host])
      : undefined;
    this.origin = `http://${host}:${address.port}`;
    return this.origin;
  }

  /** Counts, the live page's log and the rate window start again. */
  reset(): void {
    this.stats.reset();
    this.requestLog.clear();
    this.rate.clear();
  }

  /** Every answered request is counted, and shown on the live page by its token's name. */
  private record(
    req: http.IncomingMessage,
    target: string,
    route: string,
    status: number | string,
    started: number,
  ): void {
    const method = req.method ?? 'GET';
    this.stats.count(method, route, status);
    // A refused request from another site (or for another host name: DNS rebinding) is counted
    // but not logged: a web page the user visits cannot write into the live page.
    const refused = typeof status === 'number' && status >= 400;
    if (refused && (status === 421 || isCrossSite(req.headers))) return;
    const bearer = bearerOf(req);
    this.requestLog.add({
      at: new Date().toISOString(),
      method,
      path: target,
      status,
      ms: Math.round(performance.now() - started),
      token: bearer ? (this.tokenNames.get(bearer) ?? 'unknown token') : 'no token',
    });
  }

  /** Control routes, outside /api/v1 and not counted: true when the request was one. */
  private control(req: http.IncomingMessage, res: http.ServerResponse, path: string): boolean {
    // Reading stats needs no token; what changes state needs a read-write token, so that a web
    // page cannot reset the emulator (no simple request).
    if (path === '/__emulator/stats' && req.method === 'GET') {
      send(res, 200, this.stats.current(), JSON_HEADERS);
      return true;
    }
    if (path === '/' && req.method === 'GET') {
      if (!livePageAllowed(this.ownHosts !== undefined, bearerOf(req), this.tokens))
        send(res, 403, new ApiError(403, 'FORBIDDEN', MESSAGES.livePageToken).toBody());
      else
        res.writeHead(200, PAGE_HEADERS).end(
          livePage(this.service.store, this.requestLog.latest(), {
            title: `Emulator: ${this.seed.project?.name ?? 'Space'}`,
            refreshSeconds: this.liveRefreshSeconds,
          }),
        );
      return true;
    }
    if (path !== '/__emulator/reset' || req.method !== 'POST') return false;
    const bearer = bearerOf(req);
    if (!bearer || this.tokens.get(bearer)?.role !== 'read-write')
      send(res, 403, new ApiError(403, 'FORBIDDEN', MESSAGES.controlToken).toBody());
    else {
      this.reset();
      send(res, 200, { ok: true }, JSON_HEADERS);
    }
    return true;
  }

  /** Latency, then at most one fault (docs/design.md --chaos); decided by what the request is. */
  private async meetChaos(
    method: string,
    url: URL,
    raw: Buffer | 'too-large',
  ): Promise<{ identity: string; decision?: ChaosDecision }> {
    if (!this.chaos.active) return { identity: '' };
    const identity = this.chaos.identify(
      method,
      url.pathname + url.search,
      raw === 'too-large' ? raw : raw.toString(),
    );
    const decision = this.chaos.decide(identity);
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.fault === 'reset-before') throw new Dropped();
    if (decision.fault === '5xx') throw new ApiError(503, 'UNAVAILABLE', MESSAGES.chaos5xx);
    return { identity, decision };
  }

  private dispatch(
    req: http.IncomingMessage,
    url: URL,
    match: RouteMatch,
    body: unknown,
    role: 'read-write' | 'read-only',
    caller: { userId: string | null; tokenId: string },
  ): ServiceResponse {
    const base = linkBase(req, this.origin);
    const { route } = match;
    if (route.kind === 'openapi')
      return { status: 200, body: openApiDocument(this.routes, role, base) };
    if (route.kind === 'filterReference') return { status: 200, body: filterReference(base) };
    const ifMatch = req.headers['if-match'];
    return this.service.handle({
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

  /** One request through the pipeline: host, control routes, body, chaos, auth, rate, route, write. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const started = performance.now();
    const url = requestUrl(req.url);
    const target = url ? url.pathname + url.search : (req.url ?? '');
    let routeName = `${method} (unmatched)`;
    try {
      // DNS rebinding: a web page's own host name that resolves to 127.0.0.1 must not reach us.
      if (this.ownHosts && !this.ownHosts.has(hostOf(req.headers.host)))
        throw new ApiError(421, 'MISDIRECTED_REQUEST', MESSAGES.foreignHost(req.headers.host));
      if (!url) throw new ApiError(400, 'INVALID_PATH', MESSAGES.malformedTarget(target));
      if (this.control(req, res, url.pathname)) return;
      const matched = findRoute(this.routes, method, url.pathname);
      if (matched && 'route' in matched) routeName = matched.route.name;
      // The body is read first: chaos decides by what a request is, body included.
      const raw = await readBody(req, this.maxBody);
      const { identity, decision } = await this.meetChaos(method, url, raw);
      const bearer = bearerOf(req);
      const token = authenticate(bearer, this.tokens, this.region);
      this.rate.admit(bearer!, decision?.fault === '429');
      checkAccept(req.headers.accept, matched !== undefined && isDescription(matched));
      const match = requireRoute(matched, method, url.pathname);
      authorize(token, match.route);
      const body = readJsonApiBody(raw, req.headers['content-type'], match.route, this.maxBody);
      if (decision?.etagBump) bumpBeforeWrite(this.service, match, req.headers['if-match']);
      const caller = { userId: token.ownerId, tokenId: token.id };
      const result = this.dispatch(req, url, match, body, token.role, caller);
      if (this.chaos.active && match.route.kind === 'create' && result.status === 201) {
        // A created record is named by the request that made it, the same on every run.
        const created = (result.body as { data?: { id?: unknown } } | undefined)?.data?.id;
        if (typeof created === 'string') this.chaos.name(created, `(${identity})`);
      }
      // Processed, but the answer is lost: the client must look before it repeats a create.
      if (decision?.fault === 'reset-after') throw new Dropped();
      this.record(req, target, routeName, result.status, started);
      send(res, result.status, result.body, {
        ...(result.etag ? { etag: result.etag } : {}),
        ...(match.route.kind === 'openapi' ? JSON_HEADERS : {}),
      });
    } catch (error) {
      if (error instanceof Dropped) {
        this.record(req, target, routeName, 'reset', started);
        req.socket.destroy();
      } else if (error instanceof ApiError) {
        this.record(req, target, routeName, error.status, started);
        send(res, error.status, error.toBody(), error.headers);
      } else throw error;
    }
  }
}

/** The HTTP server around `emulator`: every request through handle(), idle connections closed. */
function httpServer(emulator: EmulatorServer, idleMs: number): http.Server {
  const server = http.createServer((req, res) => {
    // No answer is sniffed into another type (a JSON error read as a page or a script).
    res.setHeader('x-content-type-options', 'nosniff');
    void emulator.handle(req, res).catch((error: unknown) => {
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
  server.timeout = idleMs;
  server.keepAliveTimeout = Math.min(5_000, idleMs);
  server.headersTimeout = Math.min(10_000, idleMs);
  server.requestTimeout = idleMs;
  return server;
}

async function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}

/** Starts an emulator of the service on 127.0.0.1 (port 0 unless told); `close()` stops it. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = new EmulatorServer(options);
  const server = httpServer(emulator, options.idleTimeoutMs ?? 30_000);
  const origin = emulator.listening(
    await listen(server, options.port ?? 0, options.host ?? '127.0.0.1'),
  );
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    service: emulator.service,
    seed: emulator.seed,
    stats: () => emulator.stats.snapshot(),
    resetStats: () => emulator.reset(),
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
  if (!ifMatch || !route.type || !['update', 'delete', 'restore'].includes(route.kind)) return;
  const record = service.store.get(route.type, match.id!);
  if (record) service.store.bump(record);
}
