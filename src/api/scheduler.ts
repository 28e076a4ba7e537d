/**
 * One scheduler owns pacing, concurrency and retries (like @octokit/plugin-throttling); request
 * code never sleeps or loops by itself.
 *
 * Pacing: at most `count` requests in any `windowMs`, where a request counts from the moment its
 * response arrived and while it is in flight. The server saw each request no later than we saw
 * its answer, so this never exceeds a sliding, fixed or token-bucket limit of the same size.
 * With a SharedPace (pace.ts), the answers other processes on the same token received count too.
 */
import { ConfigError, InterruptedError } from './errors.js';
import type { SharedPace } from './pace.js';

export interface RateLimit {
  count: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { count: 100, windowMs: 60_000 };
export const DEFAULT_CONCURRENCY = 4;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A rate limit as users write it: `100/1m` (the largest unit that divides the window). */
export function formatRateLimit({ count, windowMs }: RateLimit): string {
  const [unit, ms] = Object.entries(UNIT_MS)
    .reverse()
    .find(([, ms]) => windowMs % ms === 0)!;
  return `${count}/${windowMs / ms}${unit}`;
}

/** `COUNT/WINDOW`, WINDOW like 1m, 30s, 500ms (DESIGN.md `--rate-limit`). */
export function parseRateLimit(text: string, parameter = 'rate-limit'): RateLimit {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/.exec(text);
  const count = match ? Number(match[1]) : NaN;
  const windowMs = match ? Number(match[2] ?? '1') * UNIT_MS[match[3]!]! : NaN;
  if (!match || !(count >= 1) || !(windowMs >= 1)) {
    throw new ConfigError(
      parameter,
      `"${text}" is not COUNT/WINDOW; write e.g. 100/1m, 50/30s or 10/500ms (COUNT and WINDOW above 0).`,
    );
  }
  return { count, windowMs };
}

export interface RetryPolicy {
  /** Attempts for 5xx and network failures that are safe to repeat (first attempt included). */
  maxAttempts: number;
  /** Attempts when the service answers 429 (a 429 was not processed, so any method may repeat). */
  maxRateLimitAttempts: number;
  /** First backoff after a 5xx or network failure, doubling per attempt. */
  retryBaseMs: number;
  /** First backoff after a 429, doubling per consecutive 429 (DESIGN.md: 2 s doubling, cap 60 s). */
  rateLimitBaseMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  maxRateLimitAttempts: 10,
  retryBaseMs: 1000,
  rateLimitBaseMs: 2000,
  maxBackoffMs: 60_000,
};

export interface RequestStats {
  /** Every attempt sent, retries included: the service counts them all against the limit. */
  total: number;
  byMethod: Record<string, number>;
  byStatus: Record<string, number>;
  /** Attempts that repeated an earlier one. */
  retried: number;
  /** Answers with 429. */
  rateLimited: number;
  /** Attempts that got no answer. */
  networkErrors: number;
}

export function emptyStats(): RequestStats {
  return { total: 0, byMethod: {}, byStatus: {}, retried: 0, rateLimited: 0, networkErrors: 0 };
}

/** What one attempt produced, as the scheduler needs to see it. */
export type AttemptOutcome<T> =
  | { kind: 'response'; status: number; retryAfterMs?: number; value: T }
  | { kind: 'network'; error: unknown; sent: boolean };

export interface SchedulerOptions {
  rateLimit?: RateLimit;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Jitter source; tests pass a seeded one. */
  random?: () => number;
  now?: () => number;
  /** The pace of other processes on the same token (the steps of one job). */
  shared?: SharedPace;
  /** The wall clock, for times shared between processes (default Date.now). */
  wallNow?: () => number;
}

export interface ScheduleRequest {
  method: string;
  /** Safe to send again after a 5xx or a lost answer (GET, or PATCH/DELETE with If-Match). */
  repeatable: boolean;
  /** Once aborted, an attempt still waiting for its turn is never sent: InterruptedError. */
  signal?: AbortSignal;
}

export type ScheduleResult<T> =
  | { kind: 'response'; status: number; value: T; attempts: number }
  | { kind: 'network'; error: unknown; sent: boolean; attempts: number };

export class Scheduler {
  readonly stats: RequestStats = emptyStats();
  readonly rateLimit: RateLimit;
  readonly concurrency: number;
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly wallNow: () => number;
  private readonly shared: SharedPace | undefined;

  /** Answer times of the requests inside the current window, oldest first. */
  private readonly completions: number[] = [];
  private inFlight = 0;
  private readonly waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  /** No request starts before this time (after a 429). */
  private pausedUntil = 0;
  private consecutiveRateLimits = 0;
  /** The pace in force: lowered on 429, recovering by one request per window of successes. */
  private allowance: number;
  private lastCut = -Infinity;

  constructor(options: SchedulerOptions = {}) {
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => performance.now());
    this.allowance = this.rateLimit.count;
    this.wallNow = options.wallNow ?? Date.now;
    this.shared = options.shared;
    // What the steps before this one spent is still in the window: count it, on this clock.
    const now = this.now();
    const wall = this.wallNow();
    for (const at of this.shared?.recent(this.rateLimit.windowMs) ?? [])
      this.completions.push(now - (wall - at));
  }

  /** Writes this process's recent answer times for the processes after it. */
  close(): void {
    this.shared?.flush();
  }

  /**
   * How long a caller waits before a second round for work whose retries all failed: as long as
   * the scheduler's own longest backoff, so a short outage is over by then.
   */
  get retryPauseMs(): number {
    const { retryBaseMs, maxAttempts, maxBackoffMs } = this.policy;
    return Math.min(maxBackoffMs, retryBaseMs * 2 ** (maxAttempts - 1));
  }

  /** The pace currently allowed (requests per window); below the limit after 429s. */
  get currentAllowance(): number {
    return Math.floor(this.allowance);
  }

  /** Run one logical request: pace it, send attempts, retry what is safe to retry. */
  async schedule<T>(
    request: ScheduleRequest,
    /** Sends one attempt; `n` counts them from 1 (a retry is n > 1). */
    attempt: (n: number) => Promise<AttemptOutcome<T>>,
  ): Promise<ScheduleResult<T>> {
    let failures = 0;
    let rateLimited = 0;
    for (let attempts = 1; ; attempts++) {
      await this.acquire(request.signal);
      let outcome: AttemptOutcome<T>;
      try {
        outcome = await attempt(attempts);
      } catch (error) {
        outcome = { kind: 'network', error, sent: true };
      } finally {
        this.release();
      }
      this.count(request.method, outcome, attempts > 1);

      if (outcome.kind === 'response') {
        if (outcome.status === 429) {
          rateLimited++;
          this.onRateLimited(outcome.retryAfterMs);
          if (rateLimited < this.policy.maxRateLimitAttempts) continue;
        } else {
          this.onAnswered();
          if (outcome.status >= 500 && request.repeatable && ++failures < this.policy.maxAttempts) {
            await sleep(this.backoff(this.policy.retryBaseMs, failures));
            continue;
          }
        }
        return { kind: 'response', status: outcome.status, value: outcome.value, attempts };
      }
      // No answer. A request that never left (refused, DNS) may always go again; one that may have
      // reached the server only when repeating it is harmless.
      if ((request.repeatable || !outcome.sent) && ++failures < this.policy.maxAttempts) {
        await sleep(this.backoff(this.policy.retryBaseMs, failures));
        continue;
      }
      return { kind: 'network', error: outcome.error, sent: outcome.sent, attempts };
    }
  }

  private count(method: string, outcome: AttemptOutcome<unknown>, isRetry: boolean): void {
    const s = this.stats;
    s.total++;
    s.byMethod[method] = (s.byMethod[method] ?? 0) + 1;
    if (isRetry) s.retried++;
    if (outcome.kind === 'response') {
      s.byStatus[outcome.status] = (s.byStatus[outcome.status] ?? 0) + 1;
      if (outcome.status === 429) s.rateLimited++;
    } else {
      s.networkErrors++;
    }
  }

  private backoff(baseMs: number, attempt: number): number {
    const exp = Math.min(this.policy.maxBackoffMs, baseMs * 2 ** (attempt - 1));
    // Up to 25% jitter so that publishers sharing a token do not retry in lockstep.
    return Math.min(this.policy.maxBackoffMs, exp * (1 + 0.25 * this.random()));
  }

  private onRateLimited(retryAfterMs: number | undefined): void {
    this.consecutiveRateLimits++;
    // A Retry-After is honoured up to the backoff cap: an hour, a date in 2099 or an overflowing
    // number from a proxy must not hang the job (the 429 budget then ends it with a clear error).
    const wait = Math.min(
      this.policy.maxBackoffMs,
      retryAfterMs ?? this.backoff(this.policy.rateLimitBaseMs, this.consecutiveRateLimits),
    );
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + wait);
    // Halve the pace, once per window: concurrent 429s of one burst are one signal.
    const now = this.now();
    if (now - this.lastCut >= this.rateLimit.windowMs / 4) {
      this.allowance = Math.max(1, this.allowance / 2);
      this.lastCut = now;
    }
  }

  private onAnswered(): void {
    this.consecutiveRateLimits = 0;
    if (this.allowance < this.rateLimit.count) {
      // Additive recovery: about one more request per window for each window of successes.
      this.allowance = Math.min(
        this.rateLimit.count,
        this.allowance + 1 / Math.max(1, this.allowance),
      );
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const onAbort = () => {
        const at = this.waiters.indexOf(turn);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        reject(new InterruptedError());
      };
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(turn);
      this.pump();
    });
  }

  private release(): void {
    this.inFlight--;
    this.completions.push(this.now());
    this.shared?.record(this.wallNow());
    this.pump();
  }

  private pump(): void {
    while (this.waiters.length > 0) {
      const now = this.now();
      if (now < this.pausedUntil) return this.wakeAt(this.pausedUntil);
      if (this.inFlight >= this.concurrency) return; // release() pumps again
      const windowStart = now - this.rateLimit.windowMs;
      while (this.completions.length > 0 && this.completions[0]! <= windowStart)
        this.completions.shift();
      if (this.inFlight + this.completions.length >= Math.floor(this.allowance)) {
        // Full: the oldest answer leaves the window first (or an in-flight one answers).
        if (this.completions.length > 0)
          this.wakeAt(this.completions[0]! + this.rateLimit.windowMs);
        return;
      }
      this.inFlight++;
      this.waiters.shift()!();
    }
  }

  private wakeAt(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(0, Math.ceil(at - this.now())) + 1,
    );
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
