/**
 * The rate limit (docs/service-api.md 8; docs/design.md "Emulator contract"): COUNT requests per
 * WINDOW per token, every request counted, 429s included, so a client that ignores 429s stays
 * limited. The service does not say how it counts, so the window is either sliding (the last
 * WINDOW before each request, the default) or fixed (windows aligned to the clock: the count
 * starts again at every multiple of WINDOW), and a client is measured against both.
 */
import {
  DEFAULT_RATE_LIMIT,
  parseRateLimit,
  type RateLimit,
  type RateWindowMode,
} from '../../shared/rate.js';
import { ApiError, MESSAGES } from '../model/errors.js';

export type { RateLimit, RateWindowMode } from '../../shared/rate.js';

/** `COUNT/WINDOW` like the client's flag (100/1m, 5/2s, 1000/500ms), or as parsed; default the service's. */
export function parseRate(value: string | RateLimit | undefined): RateLimit {
  if (!value) return DEFAULT_RATE_LIMIT;
  return typeof value === 'string' ? parseRateLimit(value) : value;
}

export class RateWindow {
  /** Sliding: arrival times of every request that carried each token. */
  private readonly windows = new Map<string, number[]>();
  /** Fixed: the window (its index since the epoch) and the requests counted in it, per token. */
  private readonly counts = new Map<string, { window: number; count: number }>();

  /**
   * `now`: milliseconds; tests pass a virtual clock's. A sliding window needs a monotonic clock
   * (performance.now by default); a fixed one is aligned to the wall clock (Date.now).
   */
  constructor(
    readonly limit: RateLimit,
    now?: () => number,
    readonly mode: RateWindowMode = 'sliding',
  ) {
    this.now = now ?? (mode === 'fixed' ? Date.now : () => performance.now());
  }

  private readonly now: () => number;

  /** Counts a request of `token`; 429 if over the limit (or when chaos injects one). */
  admit(token: string, inject429 = false): void {
    const over = this.mode === 'fixed' ? this.countFixed(token) : this.countSliding(token);
    if (over || inject429)
      throw new ApiError(
        429,
        'RATE_LIMITED',
        MESSAGES.rateLimited(this.limit.count, this.limit.windowMs),
      );
  }

  private countSliding(token: string): boolean {
    const now = this.now();
    const window = this.windows.get(token) ?? [];
    while (window.length && window[0]! <= now - this.limit.windowMs) window.shift();
    window.push(now);
    this.windows.set(token, window);
    return window.length > this.limit.count;
  }

  private countFixed(token: string): boolean {
    const window = Math.floor(this.now() / this.limit.windowMs);
    const entry = this.counts.get(token);
    const count = entry?.window === window ? entry.count + 1 : 1;
    this.counts.set(token, { window, count });
    return count > this.limit.count;
  }

  clear(): void {
    this.windows.clear();
    this.counts.clear();
  }
}
