/**
 * One HTTP exchange over undici, nothing more: pacing and retries belong to the Scheduler.
 * EnvHttpProxyAgent honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY; TLS verification stays on.
 */
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { DEFAULT_TIMEOUT_MS } from '../shared/defaults.js';
import { isLoopbackHost } from './base-url.js';

/** One HTTP request as a Transport sends it. */
export interface TransportRequest {
  /** The HTTP method. */
  method: string;
  /** The whole URL, query included. */
  url: URL;
  /** The headers, lower-case names (the token among them: never log them). */
  headers: Record<string, string>;
  /** The body, already serialised. */
  body?: string;
}

/** One HTTP answer as a Transport gives it back. */
export interface TransportResponse {
  /** The HTTP status. */
  status: number;
  /** The headers, lower-case names. */
  headers: Record<string, string | undefined>;
  /** The body as text. */
  body: string;
  /** The body was over the limit and was not read to its end (the body is then empty). */
  tooLarge?: boolean;
}

/**
 * Far above any answer of the service (a page of 100 records with included ones is well under
 * 1 MB), and low enough that a hostile or broken server cannot exhaust the runner's memory.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Sends one HTTP request and gives back its answer; the client's only way out (tests pass their
 * own).
 */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export interface TransportOptions {
  /** Whole request, headers and body (docs/design.md `--timeout-ms`, default 30000). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  dispatcher?: Dispatcher;
  maxResponseBytes?: number;
}

/** Error codes that mean the request never left this machine, so repeating it is always safe. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown }; name?: unknown } | undefined;
  const code = e?.code ?? e?.cause?.code;
  if (typeof code === 'string') return code;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TIMEOUT';
  return undefined;
}

export function wasNotSent(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** A short reason for a failed exchange, for people. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed by the server before it answered';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timed out';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'TIMEOUT':
      return `no answer within ${timeoutMs} ms (timeout-ms)`;
    default:
      return code ?? (error instanceof Error ? error.message : 'unknown network error');
  }
}

/**
 * The default Transport: undici, through the environment's proxy (never for a loopback address),
 * with the response size limit and the timeout.
 */
export function createUndiciTransport(
  options: TransportOptions = {},
): Transport & { close(): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const agentOptions = {
    connect: { timeout: options.connectTimeoutMs ?? Math.min(timeoutMs, 10_000) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const proxied = options.dispatcher ?? new EnvHttpProxyAgent(agentOptions);
  // A loopback address is this machine: a proxy would only see the token in cleartext.
  const direct = options.dispatcher ?? new Agent(agentOptions);
  const send: Transport = async (req) => {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      dispatcher: isLoopbackHost(req.url.hostname) ? direct : proxied,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const refuse = () => {
      res.body.destroy();
      return { status: res.statusCode, headers, body: '', tooLarge: true };
    };
    if (Number(headers['content-length'] ?? 0) > maxBytes) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return refuse();
      chunks.push(chunk);
    }
    return { status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') };
  };
  return Object.assign(send, {
    close: async () => {
      if (!options.dispatcher) await Promise.all([proxied.close(), direct.close()]);
    },
  });
}
