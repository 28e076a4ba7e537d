/**
 * Flags shared by every command that talks to the service (DESIGN.md "common"), resolved from
 * argv first, then the environment. Only this adapter reads process.env.
 */
import { normalizeBaseUrl } from '../api/base-url.js';
import { ConfigError } from '../api/errors.js';
import { parseRateLimit, type RateLimit } from '../api/scheduler.js';

/** Parsed and checked, so that a bad flag fails before any report is read or request sent. */
export interface CommonOptions {
  baseUrl: URL;
  token: string;
  concurrency: number;
  timeoutMs: number;
  rateLimit: RateLimit;
  verbose: boolean;
  linkTemplate?: string;
  /** Backoff base (ms); TESTCYCLE_RETRY_BASE_MS, for emulators and tests with injected faults. */
  retry?: { retryBaseMs: number; rateLimitBaseMs: number };
}

export const COMMON_FLAGS = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  concurrency: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'rate-limit': { type: 'string' },
  'link-template': { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const COMMON_HELP = `common:
  --base-url URL        the region's address, with or without /api/v1 (env TESTCYCLE_BASE_URL)
  --token TOKEN         API token (env TESTCYCLE_TOKEN, preferred: flags show up in process lists)
  --concurrency N       requests in flight at once (default 4)
  --timeout-ms MS       per request (default 30000)
  --rate-limit C/W      at most C requests per window W, e.g. 100/1m, 30/30s (default 100/1m)
  --link-template URL   e.g. https://app.example/cycles/{key}, for links in summaries
  --verbose             log every request (the token is always masked)`;

export function integerFlag(
  value: string | undefined,
  name: string,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(`--${name}`, `"${value}" is not a whole number of at least ${min}.`);
  }
  return n;
}

export function commonOptions(
  values: Record<string, string | boolean | string[] | undefined>,
  env: NodeJS.ProcessEnv,
): CommonOptions {
  const str = (name: string) =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined;
  const baseUrl = str('base-url') ?? env.TESTCYCLE_BASE_URL ?? '';
  const token = str('token') ?? env.TESTCYCLE_TOKEN ?? '';
  if (!baseUrl)
    throw new ConfigError(
      '--base-url',
      'is required (or set TESTCYCLE_BASE_URL): the address of your region.',
    );
  if (!token)
    throw new ConfigError('--token', 'is required: set TESTCYCLE_TOKEN from your CI secret store.');
  const rateLimitSource = str('rate-limit') ? '--rate-limit' : 'TESTCYCLE_RATE_LIMIT';
  return {
    baseUrl: normalizeBaseUrl(baseUrl, str('base-url') ? '--base-url' : 'TESTCYCLE_BASE_URL'),
    token,
    concurrency: integerFlag(str('concurrency'), 'concurrency', 4),
    timeoutMs: integerFlag(str('timeout-ms'), 'timeout-ms', 30_000, 100),
    rateLimit: parseRateLimit(
      str('rate-limit') ?? env.TESTCYCLE_RATE_LIMIT ?? '100/1m',
      rateLimitSource,
    ),
    verbose: values.verbose === true,
    linkTemplate: str('link-template'),
    ...(env.TESTCYCLE_RETRY_BASE_MS ? { retry: retryBase(env.TESTCYCLE_RETRY_BASE_MS) } : {}),
  };
}

function retryBase(value: string): { retryBaseMs: number; rateLimitBaseMs: number } {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 1)
    throw new ConfigError(
      'TESTCYCLE_RETRY_BASE_MS',
      `"${value}" is not a number of milliseconds of at least 1.`,
    );
  // 429 backoff keeps its ratio to the 5xx backoff (2 s vs 1 s by default).
  return { retryBaseMs: ms, rateLimitBaseMs: ms * 2 };
}
