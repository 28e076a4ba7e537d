/**
 * The rate limit (docs/service-api.md 8): a sliding window per token; every request counts, 429s
 * included, so a client that ignores 429s stays limited.
 */
import { DEFAULT_RATE_LIMIT, parseRateLimit, type RateLimit } from '../../shared/rate.js';
import { ApiError, MESSAGES } from '../model/errors.js';

export type { RateLimit } from '../../shared/rate.js';

/** `COUNT/WINDOW` like the client's flag (100/1m, 5/2s, 1000/500ms), or as parsed; default the service's. */
export function parseRate(value: string | RateLimit | undefined): RateLimit {
  if (!value) return DEFAULT_RATE_LIMIT;
  return typeof value === 'string' ? parseRateLimit(value) : value;
}

export class RateWindow {
  /** Arrival times of every request that carried each token. */
  private readonly windows = new Map<string, number[]>();

  /** `now`: monotonic milliseconds; tests pass a virtual clock's. */
  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts a request of `token`; 429 if over the limit (or when chaos injects one). */
  admit(token: string, inject429 = false): void {
    const now = this.now();
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
