/**
 * The rate limit (docs/service-api.md 8): a sliding window per token; every request counts, 429s
 * included, so a client that ignores 429s stays limited.
 */
import { ApiError, MESSAGES } from './errors.js';

export interface RateLimit {
  count: number;
  windowMs: number;
}

/** `COUNT/WINDOW` like the client's flag (100/1m, 5/2s, 1000/500ms), or as parsed. Default 100/1m. */
export function parseRate(value: string | RateLimit | undefined): RateLimit {
  if (!value) return { count: 100, windowMs: 60_000 };
  if (typeof value !== 'string') return value;
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/.exec(value);
  if (!m || Number(m[1]) < 1)
    throw new Error(`--rate-limit: "${value}" is not COUNT/WINDOW, e.g. 100/1m`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[3] as 'ms' | 's' | 'm' | 'h'];
  return { count: Number(m[1]), windowMs: Number(m[2] ?? '1') * unit };
}

export class RateWindow {
  /** Arrival times of every request that carried each token. */
  private readonly windows = new Map<string, number[]>();

  constructor(readonly limit: RateLimit) {}

  /** Counts a request of `token`; 429 if over the limit (or when chaos injects one). */
  admit(token: string, inject429 = false): void {
    const now = performance.now();
    const window = this.windows.get(token) ?? [];
    while (window.length && window[0]! <= now - this.limit.windowMs) window.shift();
    window.push(now);
    this.windows.set(token, window);
    if (window.length > this.limit.count || inject429)
      throw new ApiError(
        429,
        'RATE_LIMITED',
        MESSAGES.rateLimited(this.limit.count, this.limit.windowMs),
      );
  }

  clear(): void {
    this.windows.clear();
  }
}
