/**
 * The JSON:API client of the service (docs/service-api.md). Every request goes through one Scheduler
 * (pacing, concurrency, retries) and is logged through the Redactor. Resource methods are thin:
 * they build paths and documents from src/schema and leave decisions to src/publish.
 */
import { VERSION } from '../shared/version.js';
import {
  type AttributesOf,
  type ResourceType,
  type WritableAttributesOf,
  isVersionLocked,
} from '../schema/resources.js';
import { normalizeBaseUrl } from './base-url.js';
import {
  ConfigError,
  NetworkError,
  ServiceError,
  type ServiceErrorObject,
} from '../shared/errors.js';
import { f, type Filter, toFiltrQL } from './filter.js';
import { oneLine, Redactor, type Logger, silentLogger } from '../shared/redact.js';
import {
  type AttemptOutcome,
  type Clock,
  type RateLimit,
  type RequestStats,
  type RetryPolicy,
  type ScheduleResult,
  DEFAULT_RATE_LIMIT,
  Scheduler,
  parseRateLimit,
} from './scheduler.js';
import { DEFAULT_TIMEOUT_MS } from '../shared/defaults.js';
import { PaceFile } from './pace.js';
import { isRepeatable } from './retry-policy.js';
import {
  type Transport,
  type TransportResponse,
  createUndiciTransport,
  MAX_RESPONSE_BYTES,
  describeNetworkError,
  errorCode,
  wasNotSent,
} from './transport.js';

export const MEDIA_TYPE = 'application/vnd.api+json';
import { MAX_BODY_BYTES, MAX_PAGE_SIZE } from '../schema/limits.js';

export { MAX_BODY_BYTES, MAX_PAGE_SIZE };
/** Included records a page may carry: up to 3 levels of to-one relations per record (4.1). */
const MAX_INCLUDED = 3 * MAX_PAGE_SIZE;

/** One record of the service, as JSON:API gives it. */
export interface Resource<T extends ResourceType = ResourceType> {
  /** Its resource type (`test_cases`). */
  type: T;
  /** Its id (a UUID). */
  id: string;
  /** Its attributes, typed by its resource type (src/schema/resources.ts). */
  attributes: AttributesOf<T>;
  /** Its relationships, as the service gave them. */
  relationships?: Record<string, unknown>;
  /** The strong ETag of the response that carried this record, when it was a single read or write. */
  etag?: string;
}

/**
 * How a list is asked for (docs/service-api.md 4): filter, order, related records, fields, page
 * size.
 */
export interface ListParams {
  /** A FiltrQL filter, built with `f` (never from text by hand). */
  filter?: Filter;
  /** Attributes to order by, `-` first for descending (`-updatedAt`). */
  sort?: string[];
  /** Related records to include in the same answer (`testCase`). */
  include?: string[];
  /** Only these attributes of each type (sparse fieldsets): fewer bytes. */
  fields?: Partial<Record<ResourceType, string[]>>;
  /** Soft-deleted records too. */
  withDeleted?: boolean;
  /** 1..100; default 100 for iteration (fewest requests). */
  pageSize?: number;
}

/** One page of a list. */
export interface Page<T extends ResourceType = ResourceType> {
  /** The records of this page. */
  data: Resource<T>[];
  /** The related records `include` asked for. */
  included: Resource[];
  /** How many records the whole list holds, when the service said. */
  totalCount?: number;
  /** links.next, verbatim. */
  next?: string;
}

export interface AggregateParams {
  filter?: Filter;
  count?: boolean;
  groupBy?: string[];
  /** Before the requests already waiting (RequestOptions.first). */
  first?: boolean;
}

export interface ApiResponse {
  status: number;
  etag?: string;
  headers: Record<string, string | undefined>;
  document: JsonApiDocument | undefined;
}

export interface JsonApiDocument {
  data?: unknown;
  included?: unknown[];
  meta?: Record<string, unknown>;
  links?: Record<string, unknown>;
  errors?: ServiceErrorObject[];
}

/**
 * How a ServiceClient talks to the service: where, with which token, at what pace, with which
 * retries.
 */
export interface ClientOptions {
  /** The region's address, with or without /api/v1. */
  baseUrl: string | URL;
  /** The API token; masked in everything the client writes. */
  token: string;
  /** `COUNT/WINDOW` or parsed; default 100/1m. */
  rateLimit?: string | RateLimit;
  /** Requests in flight at once; default 4. */
  concurrency?: number;
  /**
   * Processes publishing at once on this token from machines that share nothing (a CI matrix):
   * each starts at 1/legs of the rate limit and adapts from there (src/client/share.ts).
   */
  legs?: number;
  /** How long one attempt may take, whole request; default 30 s. */
  timeoutMs?: number;
  /** Budgets of the retry policy to change (DEFAULT_RETRY_POLICY). */
  retry?: Partial<RetryPolicy>;
  /** Where it logs its waits and retries; default silent. */
  logger?: Logger;
  /** Shared with the adapters' loggers, so the token is masked wherever text is written. */
  redactor?: Redactor;
  /** How one request is sent; default undici (createUndiciTransport). Tests pass their own. */
  transport?: Transport;
  /** The jitter's source; tests pass a seeded one. */
  random?: () => number;
  /** Time for pacing and waits; tests pass a virtual one. */
  clock?: Clock;
  /** The product in the User-Agent header (`my-tool`; this package's version unless it has one). */
  userAgent?: string;
  /**
   * A directory where processes on the same token and base URL share their pace (the steps of
   * one CI job; the action uses RUNNER_TEMP). Without it the client paces alone.
   */
  sharedPaceDir?: string;
}

export type RequestMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: [string, string][];
  body?: unknown;
  ifMatch?: string;
  /** Once aborted, the request is not sent if it is still waiting for its turn: InterruptedError. */
  signal?: AbortSignal;
  /** Any JSON answer is taken, not only a JSON:API document (the server's /openapi.json). */
  anyJson?: boolean;
  /** Goes before the requests already waiting for their turn (a census counts the present). */
  first?: boolean;
}

/** For a caller's first request of a unit of work: abort before it is sent and nothing was done. */
export interface Cancellable {
  signal?: AbortSignal;
}

/** One logical request, built once and sent as often as the scheduler decides. */
interface PreparedRequest {
  method: RequestMethod;
  url: URL;
  /** The path and query relative to the base URL, as errors and logs show it (no token). */
  shownPath: string;
  headers: Record<string, string>;
  body?: string;
  /** Safe to send again after a 5xx or a lost answer. */
  repeatable: boolean;
  /** `GET /projects`: names the request in wait lines. */
  label: string;
  anyJson?: boolean;
}

/**
 * The client of the service (docs/service-api.md): every request paced, retried where safe
 * (RETRY_RULES), its errors turned into ServiceError or NetworkError, its token never written.
 */
export class ServiceClient {
  /** The region's API address, ending in /api/v1. */
  readonly baseUrl: URL;
  /** Paces and retries every request; its `policy` holds the retry budgets. */
  readonly scheduler: Scheduler;
  /** Masks the token (and any secret added) in what the client writes. */
  readonly redactor: Redactor;
  private readonly token: string;
  private readonly logger: Logger;
  private readonly transport: Transport & { close?: () => Promise<void> };
  private readonly timeoutMs: number;
  private readonly userAgent: string;

  constructor(options: ClientOptions) {
    this.baseUrl =
      options.baseUrl instanceof URL ? options.baseUrl : normalizeBaseUrl(options.baseUrl);
    if (!options.token || !options.token.trim()) {
      throw new ConfigError('token', 'is required (set it from a secret).');
    }
    if (/\s/.test(options.token.trim())) {
      throw new ConfigError('token', 'must be the token alone, without "Bearer" or spaces.');
    }
    this.token = options.token.trim();
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(this.token);
    this.logger = options.logger ?? silentLogger;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const rateLimit =
      typeof options.rateLimit === 'string' ? parseRateLimit(options.rateLimit) : options.rateLimit;
    this.scheduler = new Scheduler({
      rateLimit,
      concurrency: options.concurrency,
      legs: options.legs,
      retry: options.retry,
      random: options.random,
      clock: options.clock,
      // Every wait over 5 s says what it waits for and until when.
      onWait: (line) => this.logger.info(line),
      answerTimeoutMs: this.timeoutMs,
      shared: options.sharedPaceDir
        ? new PaceFile(
            options.sharedPaceDir,
            this.baseUrl.href,
            this.token,
            (rateLimit ?? DEFAULT_RATE_LIMIT).windowMs,
          )
        : undefined,
    });
    this.transport = options.transport ?? createUndiciTransport({ timeoutMs: this.timeoutMs });
    this.userAgent = userAgentOf(options.userAgent);
  }

  /** The requests sent so far: by method and status, retries, 429s, lost answers. */
  get stats(): RequestStats {
    return this.scheduler.stats;
  }

  /** Closes the connections; the client sends nothing after. */
  async close(): Promise<void> {
    this.scheduler.close();
    await this.transport.close?.();
  }

  /** One logical request: paced, retried where safe, and turned into a ServiceError on 4xx/5xx. */
  async request(
    method: RequestMethod,
    target: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> {
    const prepared = this.prepare(method, target, options);
    const result = await this.scheduler.schedule<TransportResponse>(
      {
        method,
        label: prepared.label,
        repeatable: prepared.repeatable,
        signal: options.signal,
        first: options.first,
      },
      (attempt) => this.send(prepared, attempt),
    );
    return this.answerOf(prepared, result);
  }

  /** The request as sent: URL, headers and body (refused over the body limit), and whether a repeat is safe. */
  private prepare(method: RequestMethod, target: string, options: RequestOptions): PreparedRequest {
    const url = this.resolve(target, options.query);
    const shownPath = this.display(url);
    const headers: Record<string, string> = {
      accept: MEDIA_TYPE,
      authorization: `Bearer ${this.token}`,
      'user-agent': this.userAgent,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      // Text sent to the service is stored and shown to anyone: no secret of the run in it.
      body = JSON.stringify(options.body, (_key, value: unknown) =>
        typeof value === 'string' ? this.redactor.redact(value) : value,
      );
      if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
        throw new ConfigError(
          shownPath,
          `the request body would be ${Buffer.byteLength(body)} bytes, over the service's 1 MB limit; shorten the long values.`,
        );
      }
      headers['content-type'] = MEDIA_TYPE;
    }
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    return {
      method,
      url,
      shownPath,
      headers,
      body,
      // A write that may have been processed is sent again only when If-Match makes a repeat
      // harmless (the repeat gets 412); a plain POST never is (docs/design.md: the caller looks first).
      repeatable: isRepeatable(method, options.ifMatch !== undefined),
      label: `${method} ${shownPath.replace(/\?.*/s, '')}`,
      anyJson: options.anyJson,
    };
  }

  /** One attempt through the transport, as the scheduler sees it; logged (never its headers). */
  private async send(
    { method, url, shownPath, headers, body }: PreparedRequest,
    attempt: number,
  ): Promise<AttemptOutcome<TransportResponse>> {
    const started = performance.now();
    // The request log (verbose): method, path, status, time and retries; never headers.
    const retry = attempt > 1 ? `, retry ${attempt - 1}` : '';
    try {
      const res = await this.transport({ method, url, headers, body });
      this.logger.debug(
        `${method} ${shownPath} -> ${res.status} (${Math.round(performance.now() - started)} ms${retry})`,
      );
      return {
        kind: 'response',
        status: res.status,
        retryAfterMs: parseRetryAfter(res.headers['retry-after']),
        value: res,
      };
    } catch (error) {
      this.logger.debug(
        `${method} ${shownPath} -> ${describeNetworkError(error, this.timeoutMs)} (${Math.round(performance.now() - started)} ms${retry})`,
      );
      return { kind: 'network', error, sent: !wasNotSent(error) };
    }
  }

  /**
   * What the scheduler ended with, as the caller gets it: the document, or a NetworkError (no
   * answer), a ServiceError (4xx/5xx after retries), or a ServiceError of status 0 (an answer the
   * client cannot use: too large, not JSON:API).
   */
  private answerOf(
    { method, shownPath, anyJson }: PreparedRequest,
    result: ScheduleResult<TransportResponse>,
  ): ApiResponse {
    if (result.kind === 'network') {
      throw new NetworkError(
        method,
        shownPath,
        this.redactor.redact(describeNetworkError(result.error, this.timeoutMs)),
        result.sent,
        result.attempts,
        undefined,
        result.gaveUp ?? this.networkHint(result.error),
      );
    }
    const res = result.value;
    const refuse = (detail: string) =>
      new ServiceError({ status: 0, method, path: shownPath, errors: [{ detail }] });
    if (res.tooLarge)
      throw refuse(
        `the answer (${res.status}) was over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB and was not read (the service's pages are far smaller); check the base URL and any proxy in between`,
      );
    const document = parseDocument(res.body);
    const usable = anyJson
      ? document !== undefined && /[/+]json\b/i.test(res.headers['content-type'] ?? 'json')
      : isJsonApi(res.headers['content-type'], document);
    if (res.status < 400 && res.body.trim() && !usable)
      throw refuse(
        `the answer (${res.status}) is ${res.headers['content-type'] ? oneLine(res.headers['content-type']).slice(0, 80) : 'without a Content-Type'}, not a JSON:API document (${oneLine(res.body.slice(0, 60))}...): a proxy's login or error page? Check the base URL and any proxy in between`,
      );
    if (res.status >= 400) {
      throw new ServiceError({
        status: res.status,
        method,
        path: shownPath,
        errors: redactErrors(document?.errors, this.redactor),
        attempts: result.attempts,
        hint: result.gaveUp,
      });
    }
    return {
      status: res.status,
      etag: strongEtag(res.headers.etag),
      headers: res.headers,
      document,
    };
  }

  // ---- resources ----

  /**
   * GET /projects: the one Space of the token (docs/service-api.md 2.9). Every run asks it first, so a
   * 404 here means no API answers at this address: the base URL is wrong, not a record.
   */
  async project(): Promise<Resource<'projects'>> {
    const res = await this.request('GET', '/projects').catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404)
        throw new ServiceError({
          status: 404,
          method: 'GET',
          path: '/projects',
          errors: error.errors,
          hint: `No API of the service answers at this base URL: testcycle asked ${this.baseUrl.href}/projects. Check the base URL: the region's address (https://HOST), or that address ending in /api/v1, with no other path.`,
        });
      throw error;
    });
    const data = res.document?.data;
    const first = Array.isArray(data) ? data[0] : data;
    if (!first) {
      throw new ServiceError({
        status: res.status,
        method: 'GET',
        path: '/projects',
        errors: [{ detail: 'no project in the answer' }],
      });
    }
    return toResource<'projects'>(first);
  }

  /**
   * The server's description of itself (`GET /openapi.json`), or undefined where it serves none
   * (404): read to find routes the service's own description does not show before anything is
   * written through them, never to guess one (docs/design.md "Traceability").
   */
  async openApi(): Promise<Record<string, unknown> | undefined> {
    try {
      const res = await this.request('GET', '/openapi.json', { anyJson: true });
      return res.document as Record<string, unknown> | undefined;
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** One record by its id, with the ETag a write to it needs. */
  async get<T extends ResourceType>(
    type: T,
    id: string,
    params: Omit<ListParams, 'filter' | 'sort' | 'pageSize'> & Cancellable = {},
  ): Promise<Resource<T>> {
    const res = await this.request('GET', `/${type}/${encodeURIComponent(id)}`, {
      query: listQuery(params),
      signal: params.signal,
    });
    return { ...toResource<T>(res.document?.data), etag: res.etag };
  }

  /**
   * Creates a record (POST); never repeated blindly after a lost answer
   * (NetworkError.maybeProcessed).
   */
  async create<T extends ResourceType>(
    type: T,
    attributes: WritableAttributesOf<T>,
    options: Cancellable = {},
  ): Promise<Resource<T>> {
    const res = await this.request('POST', `/${type}`, {
      body: { data: { type, attributes } },
      signal: options.signal,
    });
    return { ...toResource<T>(res.document?.data), etag: res.etag };
  }

  /**
   * PATCH only the attributes that change. Version-locked types need the ETag of the last read
   * (docs/service-api.md 8: none gives 428, a stale one 412); use updateWithRetry for the re-read loop.
   */
  async update<T extends ResourceType>(
    type: T,
    id: string,
    attributes: WritableAttributesOf<T>,
    etag?: string,
  ): Promise<Resource<T>> {
    requireEtag(type, etag, 'update');
    const res = await this.request('PATCH', `/${type}/${encodeURIComponent(id)}`, {
      body: { data: { type, id, attributes } },
      ifMatch: etag,
    });
    return { ...toResource<T>(res.document?.data), etag: res.etag };
  }

  /**
   * Deletes a record (a soft-deleted type keeps it, restorable); version-locked types need the
   * ETag.
   */
  async delete<T extends ResourceType>(type: T, id: string, etag?: string): Promise<Resource<T>> {
    requireEtag(type, etag, 'delete');
    const res = await this.request('DELETE', `/${type}/${encodeURIComponent(id)}`, {
      ifMatch: etag,
    });
    return { ...toResource<T>(res.document?.data), etag: res.etag };
  }

  /** POST /{type}/{id}/actions/restore with the deleted record's ETag (docs/service-api.md 3, rule 3). */
  async restore<T extends ResourceType>(type: T, id: string, etag: string): Promise<Resource<T>> {
    const res = await this.request('POST', `/${type}/${encodeURIComponent(id)}/actions/restore`, {
      ifMatch: etag,
    });
    return { ...toResource<T>(res.document?.data), etag: res.etag };
  }

  /** One page; `after` in cursor mode ('' for the first page), or `number` in page-number mode. */
  async page<T extends ResourceType>(
    path: string,
    params: ListParams & Cancellable & ({ after: string } | { number: number } | object) = {},
  ): Promise<Page<T>> {
    const query = listQuery(params);
    query.push(['page[size]', String(params.pageSize ?? MAX_PAGE_SIZE)]);
    if ('after' in params) query.push(['page[after]', params.after]);
    if ('number' in params) query.push(['page[number]', String(params.number)]);
    return this.readPage<T>(path, query, params.signal);
  }

  /**
   * The record whose `field` is exactly `value`, or undefined. The filter (f.same) may match more
   * than that record, for values the service would evaluate or a service that compares loosely;
   * what comes back is compared here, so a lookup never trusts the service's first record.
   */
  async findExact<T extends ResourceType>(
    path: string,
    field: string,
    value: string,
    params: Omit<ListParams, 'filter'> & { and?: Filter } = {},
  ): Promise<Resource<T> | undefined> {
    const { and, ...rest } = params;
    const filter = f.and(and, f.same(field, value));
    for await (const record of this.iterate<T>(path, { ...rest, filter }))
      if (record.attributes[field] === value) return record;
    return undefined;
  }

  /**
   * Every record of a list in cursor mode (docs/service-api.md 4.1): page size 100, links.next taken
   * verbatim; cursors do not skip or repeat records while data changes.
   */
  async *iterate<T extends ResourceType>(
    path: string,
    params: ListParams = {},
  ): AsyncGenerator<Resource<T>> {
    for await (const page of this.pages<T>(path, params)) yield* page.data;
  }

  /** The pages of a list in cursor mode, for callers that decide after the first one. */
  async *pages<T extends ResourceType>(
    path: string,
    params: ListParams = {},
  ): AsyncGenerator<Page<T>> {
    let page = await this.page<T>(path, { ...params, after: '' });
    for (;;) {
      yield page;
      if (!page.next || page.data.length === 0) return;
      page = await this.readPage<T>(page.next);
    }
  }

  /** Every record of a list in page-number mode, for servers or routes without cursors. */
  async *iterateNumbered<T extends ResourceType>(
    path: string,
    params: ListParams = {},
  ): AsyncGenerator<Resource<T>> {
    const size = params.pageSize ?? MAX_PAGE_SIZE;
    for (let number = 1; ; number++) {
      const page = await this.page<T>(path, { ...params, number });
      yield* page.data;
      const seen = (number - 1) * size + page.data.length;
      if (
        page.data.length < size ||
        !page.next ||
        (page.totalCount !== undefined && seen >= page.totalCount)
      )
        return;
    }
  }

  /** Every record of a list, page after page (see iterate to stop early). */
  async listAll<T extends ResourceType>(
    path: string,
    params: ListParams = {},
  ): Promise<Resource<T>[]> {
    const out: Resource<T>[] = [];
    for await (const item of this.iterate<T>(path, params)) out.push(item);
    return out;
  }

  /** GET /{type}/aggregate (docs/service-api.md 4.3); the caller reads the shape it expects. */
  async aggregate(type: ResourceType, params: AggregateParams): Promise<JsonApiDocument> {
    const query: [string, string][] = [];
    if (params.filter) query.push(['filter', toFiltrQL(params.filter)]);
    if (params.count ?? true) query.push(['aggregations[count]', 'true']);
    for (const column of params.groupBy ?? []) query.push(['aggregations[groupBy][]', column]);
    const res = await this.request('GET', `/${type}/aggregate`, { query, first: params.first });
    return res.document ?? {};
  }

  private async readPage<T extends ResourceType>(
    target: string,
    query?: [string, string][],
    signal?: AbortSignal,
  ): Promise<Page<T>> {
    const res = await this.request('GET', target, { query, signal });
    const doc = res.document ?? {};
    // A page holds at most 100 records (docs/service-api.md 4.1), and each at most a few included ones.
    const tooMany = (what: string, count: number, max: number) => {
      if (count > max)
        throw new ServiceError({
          status: 0,
          method: 'GET',
          path: this.redactor.redact(target),
          errors: [{ detail: `the page holds ${count} ${what}, over the ${max} a page can hold` }],
        });
    };
    tooMany('records', Array.isArray(doc.data) ? doc.data.length : 0, MAX_PAGE_SIZE);
    tooMany(
      'included records',
      Array.isArray(doc.included) ? doc.included.length : 0,
      MAX_INCLUDED,
    );
    const data = Array.isArray(doc.data) ? doc.data.map((item) => toResource<T>(item)) : [];
    const next = doc.links?.next;
    const totalCount = doc.meta?.totalCount;
    return {
      data,
      included: (doc.included ?? []).map((item) => toResource(item)),
      totalCount: typeof totalCount === 'number' ? totalCount : undefined,
      next: typeof next === 'string' && next ? next : undefined,
    };
  }

  /** A path under the base URL, or a link from the service (links.next), kept on the base origin. */
  private resolve(target: string, query?: [string, string][]): URL {
    let url: URL;
    if (/^https?:\/\//i.test(target)) {
      url = new URL(target);
    } else if (
      target.startsWith(this.baseUrl.pathname + '/') ||
      target.startsWith(this.baseUrl.pathname + '?')
    ) {
      url = new URL(target, this.baseUrl.origin);
    } else {
      url = new URL(this.baseUrl.href + (target.startsWith('/') ? target : `/${target}`));
    }
    if (url.origin !== this.baseUrl.origin) {
      // Never send the token to another host, whatever a link says.
      throw new ServiceError({
        status: 0,
        method: 'GET',
        path: this.redactor.redact(url.href),
        errors: [
          {
            detail: `the service linked to another origin (${url.origin}); refusing to send the token there`,
          },
        ],
      });
    }
    if (query?.length) {
      const extra = query
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&');
      url.search = url.search ? `${url.search}&${extra}` : `?${extra}`;
    }
    return url;
  }

  /** What a person can do about a request that got no answer, from what went wrong. */
  private networkHint(error: unknown): string | undefined {
    const where = this.baseUrl.host;
    switch (errorCode(error)) {
      case 'ECONNREFUSED':
        return `Nothing listens at ${where}: check the host and port of the base URL, and that the service (or testcycle emulator) is running there.`;
      case 'ERR_SSL_WRONG_VERSION_NUMBER':
      case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      case 'EPROTO':
        return `The server at ${where} does not speak TLS there: http or https? A plain-HTTP server (such as testcycle emulator) needs an http:// base URL.`;
      default:
        return undefined;
    }
  }

  private display(url: URL): string {
    const path = url.pathname.startsWith(this.baseUrl.pathname)
      ? url.pathname.slice(this.baseUrl.pathname.length) || '/'
      : url.pathname;
    let search = url.search;
    try {
      search = decodeURIComponent(search);
    } catch {
      // keep it encoded
    }
    const text = this.redactor.redact(path + search);
    return text.length > 300 ? `${text.slice(0, 297)}...` : text;
  }
}

/** 412 loop (docs/service-api.md 8, docs/design.md): re-read, let the caller re-merge, retry (bounded). */
export async function updateWithRetry<T extends ResourceType>(
  client: ServiceClient,
  type: T,
  id: string,
  options: {
    /** The record as last read, with its ETag; read first when absent or without an ETag. */
    current?: Resource<T>;
    /** The attributes to change given the current record, or null when nothing needs writing. */
    change: (current: Resource<T>) => WritableAttributesOf<T> | null;
    maxAttempts?: number;
    /** For the first read only: aborted before it is sent, nothing was written. */
    signal?: AbortSignal;
  },
): Promise<{ resource: Resource<T>; written: boolean; attempts: number }> {
  // Each 412 means another writer got in between: progress, so a few more rounds than for faults.
  const maxAttempts = options.maxAttempts ?? client.scheduler.policy.conflictRounds;
  let current = options.current?.etag ? options.current : undefined;
  for (let attempt = 1; ; attempt++) {
    current ??= await client.get(type, id, attempt === 1 ? { signal: options.signal } : {});
    const change = options.change(current);
    if (!change || Object.keys(change).length === 0)
      return { resource: current, written: false, attempts: attempt };
    try {
      const resource = await client.update(type, id, change, current.etag);
      return { resource, written: true, attempts: attempt };
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status !== 412 || attempt >= maxAttempts)
        throw error;
      current = undefined;
    }
  }
}

/**
 * `testcycle/0.1.0`: a product name without a version gets this package's, so the service's logs
 * tell which release sent a request (the adapters pass `testcycle-cli`, `testcycle-action`).
 */
export function userAgentOf(product = 'testcycle'): string {
  return product.includes('/') ? product : `${product}/${VERSION}`;
}

function requireEtag(type: ResourceType, etag: string | undefined, what: string): void {
  if (isVersionLocked(type) && !etag) {
    // A programming error, not a user's: callers read the record (or keep the 201's ETag) first.
    throw new Error(
      `${type} is version-locked: ${what} needs the ETag of the last read (If-Match)`,
    );
  }
}

function listQuery(params: ListParams): [string, string][] {
  const query: [string, string][] = [];
  if (params.filter) query.push(['filter', toFiltrQL(params.filter)]);
  if (params.sort?.length) query.push(['sort', params.sort.join(',')]);
  if (params.include?.length) query.push(['include', params.include.join(',')]);
  for (const [type, names] of Object.entries(params.fields ?? {})) {
    if (names?.length) query.push([`fields[${type}]`, names.join(',')]);
  }
  if (params.withDeleted) query.push(['withDeleted', 'true']);
  return query;
}

function toResource<T extends ResourceType>(value: unknown): Resource<T> {
  const item = (value ?? {}) as Partial<Resource<T>>;
  if (typeof item.id !== 'string' || typeof item.type !== 'string') {
    throw new ServiceError({
      status: 0,
      method: 'GET',
      path: '(response)',
      errors: [{ detail: 'the answer is not a JSON:API resource (missing type or id)' }],
    });
  }
  // Unknown attributes are kept and ignored (docs/service-api.md 9: additive changes).
  return {
    type: item.type,
    id: item.id,
    attributes: (item.attributes ?? {}) as AttributesOf<T>,
    ...(item.relationships ? { relationships: item.relationships } : {}),
  };
}

function parseDocument(body: string): JsonApiDocument | undefined {
  if (!body.trim()) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as JsonApiDocument) : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON body (any JSON media type) that is a JSON:API document: an object with a top-level member. */
function isJsonApi(
  contentType: string | undefined,
  document: JsonApiDocument | undefined,
): boolean {
  if (contentType && !/[/+]json\b/i.test(contentType)) return false;
  return (
    document !== undefined &&
    ['data', 'errors', 'meta', 'links', 'included'].some((member) => member in document)
  );
}

function redactErrors(
  errors: ServiceErrorObject[] | undefined,
  redactor: Redactor,
): ServiceErrorObject[] | undefined {
  if (!Array.isArray(errors)) return undefined;
  return errors.map((e) => ({
    ...e,
    ...(typeof e.detail === 'string' ? { detail: redactor.redact(e.detail) } : {}),
    ...(typeof e.title === 'string' ? { title: redactor.redact(e.title) } : {}),
  }));
}

/** Weak `W/` ETags cannot be used with If-Match; treat them as absent so the caller re-reads. */
export function strongEtag(value: string | undefined): string | undefined {
  if (!value || value.startsWith('W/')) return undefined;
  return value;
}

/** Retry-After in seconds or as an HTTP date (the service sends none, a proxy might). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
