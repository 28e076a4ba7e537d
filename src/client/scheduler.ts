/**
 * One scheduler owns pacing, concurrency and retries (like @octokit/plugin-throttling); request
 * code never sleeps or loops by itself.
 *
 * Pacing: at most `count` requests in any `windowMs`, where a request counts from the moment its
 * response arrived and while it is in flight. The server saw each request no later than we saw
 * its answer, so this never exceeds a sliding, fixed or token-bucket limit of the same size.
 * With a SharedPace (pace.ts), the answers other processes on the same token received count too.
 */
import { INTERRUPTED_IN_A_WAIT, InterruptedError } from '../shared/errors.js';
import { DEFAULT_CONCURRENCY } from '../shared/defaults.js';
import { DEFAULT_RATE_LIMIT, formatRateLimit, type RateLimit } from '../shared/rate.js';
import type { SharedPace } from './pace.js';
import { type RetryPolicy, retryPolicy, secondRoundPauseMs } from './retry-policy.js';
import { errorCode } from './transport.js';

export { type RetryPolicy, DEFAULT_RETRY_POLICY } from './retry-policy.js';

export {
  type RateLimit,
  DEFAULT_RATE_LIMIT,
  formatRateLimit,
  parseRateLimit,
} from '../shared/rate.js';

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
/** Waits longer than this are announced (with what they wait for and until when). */
export const ANNOUNCE_WAIT_MS = 5_000;
/** Once a run is interrupted, a request may still wait this long for its turn; no longer. */
export const STOP_GRACE_MS = 3_000;

/** Time, injectable: tests drive a virtual clock instead of sleeping. */
export interface Clock {
  /** Monotonic milliseconds. */
  now(): number;
  /** Wall-clock milliseconds (Date.now), for times shared between processes and shown to people. */
  wall(): number;
  /** Calls `fn` after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wall: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** TLS spoken to a plain HTTP port (or the reverse): repeating it cannot help. */
const WRONG_PROTOCOL_CODES = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
]);

export type AttemptOutcome<T> =
  | { kind: 'response'; status: number; retryAfterMs?: number; value: T }
  | { kind: 'network'; error: unknown; sent: boolean };

export interface SchedulerOptions {
  rateLimit?: RateLimit;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Jitter source; tests pass a seeded one. */
  random?: () => number;
  clock?: Clock;
  /** The pace of other processes on the same token (the steps of one job). */
  shared?: SharedPace;
  /** Told of every wait over ANNOUNCE_WAIT_MS: what it waits for and until when (throttled). */
  onWait?: (line: string) => void;
}

export interface ScheduleRequest {
  method: string;
  /** `GET /projects`: names the request in wait lines. */
  label?: string;
  /** Safe to send again after a 5xx or a lost answer (GET, or PATCH/DELETE with If-Match). */
  repeatable: boolean;
  /** Once aborted, an attempt still waiting for its turn is never sent: InterruptedError. */
  signal?: AbortSignal;
}

export type ScheduleResult<T> = (
  | { kind: 'response'; status: number; value: T }
  | { kind: 'network'; error: unknown; sent: boolean }
) & {
  attempts: number;
  /** Why the scheduler stopped retrying before its attempts ran out, in words for people. */
  gaveUp?: string;
};

export class Scheduler {
  readonly stats: RequestStats = emptyStats();
  readonly rateLimit: RateLimit;
  readonly concurrency: number;
  readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly clock: Clock;
  private readonly shared: SharedPace | undefined;
  private readonly onWait: ((line: string) => void) | undefined;

  /** Answer times of the requests inside the current window, oldest first. */
  private readonly completions: number[] = [];
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;
  private timerAt = Infinity;
  /** No request starts before this time (after a 429). */
  private pausedUntil = 0;
  private consecutiveRateLimits = 0;
  /** The pace in force: lowered on 429, recovering by one request per window of successes. */
  private allowance: number;
  private lastCut = -Infinity;
  /** Time spent in backoffs and 429 pauses so far (the policy's maxWaitMs bounds it). */
  private waitedMs = 0;
  /** Wait lines: the end of the last wait announced, and no new line before quietUntil. */
  private announcedUntil = -Infinity;
  private quietUntil = -Infinity;
  /** Set once the run is interrupted: no wait longer than STOP_GRACE_MS starts or goes on. */
  private stopping = false;
  private readonly sleepers = new Set<() => void>();

  constructor(options: SchedulerOptions = {}) {
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.policy = retryPolicy(options.retry);
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? systemClock;
    this.allowance = this.rateLimit.count;
    this.shared = options.shared;
    this.onWait = options.onWait;
    // What the steps before this one spent is still in the window: count it, on this clock.
    const now = this.clock.now();
    const wall = this.clock.wall();
    for (const at of this.shared?.recent(this.rateLimit.windowMs) ?? [])
      this.completions.push(now - (wall - at));
  }

  /** Writes this process's recent answer times for the processes after it; no timer is left. */
  close(): void {
    this.shared?.flush();
    this.stopTimer();
  }

  private stopTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Infinity;
  }

  /**
   * Once `signal` aborts (SIGINT, a cancelled job), requests that would wait longer than
   * STOP_GRACE_MS for their turn or a retry are not sent: InterruptedError. Shorter waits finish,
   * so a write already under way completes when it can.
   */
  stopWaitingOn(signal: AbortSignal | undefined): void {
    if (!signal) return;
    const stop = () => {
      this.stopping = true;
      for (const wake of [...this.sleepers]) wake();
      this.pump();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  }

  /** How long a caller waits before a second round for work whose retries all failed. */
  get retryPauseMs(): number {
    return secondRoundPauseMs(this.policy);
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
    const what = request.label ?? request.method;
    for (let attempts = 1; ; attempts++) {
      await this.acquire(request.signal);
      if (request.signal?.aborted) {
        // Aborted between its turn and its send (from a promise callback, not a signal handler):
        // still unsent, so it is dropped like any request that was waiting.
        this.inFlight--;
        this.pump();
        throw new InterruptedError();
      }
      let outcome: AttemptOutcome<T>;
      try {
        outcome = await attempt(attempts);
      } catch (error) {
        outcome = { kind: 'network', error, sent: true };
      } finally {
        this.release();
      }
      this.count(request.method, outcome, attempts > 1);
      const done = (gaveUp?: string): ScheduleResult<T> => ({ ...outcome, attempts, gaveUp });

      if (outcome.kind === 'response') {
        if (outcome.status === 429) {
          rateLimited++;
          const asked = outcome.retryAfterMs;
          if (asked !== undefined && asked > this.policy.maxBackoffMs)
            return done(
              `The service asked to wait ${formatWait(asked)} (Retry-After) before the next request, more than the ${formatWait(this.policy.maxBackoffMs)} this client waits at once: try again later.`,
            );
          if (rateLimited >= this.policy.maxRateLimitAttempts) return done();
          const over = this.onRateLimited(asked, what);
          if (over) return done(over);
          continue;
        }
        this.onAnswered();
        if (outcome.status >= 500 && request.repeatable && ++failures < this.policy.maxAttempts) {
          const over = await this.backoff(
            failures,
            this.policy.maxAttempts,
            `${what}: ${outcome.status}`,
            request,
          );
          if (over) return done(over);
          continue;
        }
        return done();
      }
      const code = errorCode(outcome.error);
      if (code !== undefined && WRONG_PROTOCOL_CODES.has(code)) return done();
      // Nothing listens there: a short budget, a wrong port does not heal in seconds.
      const budget =
        code === 'ECONNREFUSED' ? this.policy.maxRefusedAttempts : this.policy.maxAttempts;
      // No answer. A request that never left (refused, DNS) may always go again; one that may have
      // reached the server only when repeating it is harmless.
      if ((request.repeatable || !outcome.sent) && ++failures < budget) {
        const over = await this.backoff(failures, budget, `${what}: no answer`, request);
        if (over) return done(over);
        continue;
      }
      return done();
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

  private delay(baseMs: number, attempt: number): number {
    const exp = Math.min(this.policy.maxBackoffMs, baseMs * 2 ** (attempt - 1));
    // Up to 25% jitter so that publishers sharing a token do not retry in lockstep.
    return Math.min(this.policy.maxBackoffMs, exp * (1 + 0.25 * this.random()));
  }

  /** Spends a wait from the run's budget; the reason to give up when the budget cannot pay it. */
  private spend(ms: number): string | undefined {
    if (this.waitedMs + ms > this.policy.maxWaitMs)
      return `Retries stopped: this run already waited ${formatWait(this.waitedMs)} for retries, and the next wait would pass the ${formatWait(this.policy.maxWaitMs)} allowed (max-wait).`;
    this.waitedMs += ms;
    return undefined;
  }

  /**
   * Waits before retry `failure` of the `budget` attempts this kind of failure has; a reason to
   * give up instead, when waiting cannot be afforded.
   */
  private async backoff(
    failure: number,
    budget: number,
    what: string,
    request: ScheduleRequest,
  ): Promise<string | undefined> {
    const ms = this.delay(this.policy.retryBaseMs, failure);
    const over = this.spend(ms);
    if (over) return over;
    this.announce(ms, `${what}; retry ${failure} of ${budget - 1}`);
    await this.sleep(ms, request.signal);
    return undefined;
  }

  /** A wait the run can be interrupted out of (beyond STOP_GRACE_MS): InterruptedError. */
  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const stopNow = () => this.stopping && ms > STOP_GRACE_MS;
      const interrupted = () => new InterruptedError(INTERRUPTED_IN_A_WAIT);
      if (stopNow() || signal?.aborted) return reject(interrupted());
      const wake = () => {
        this.sleepers.delete(wake);
        cancel();
        signal?.removeEventListener('abort', wake);
        if (stopNow() || signal?.aborted) reject(interrupted());
        else resolve();
      };
      const cancel = this.clock.after(ms, () => {
        this.sleepers.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      });
      this.sleepers.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  private onRateLimited(retryAfterMs: number | undefined, what: string): string | undefined {
    this.consecutiveRateLimits++;
    const asked = retryAfterMs !== undefined;
    const wait = asked
      ? retryAfterMs
      : this.delay(this.policy.rateLimitBaseMs, this.consecutiveRateLimits);
    const now = this.clock.now();
    // Concurrent 429s of one burst share one pause: only what extends it is spent.
    const extra = Math.max(0, now + wait - Math.max(this.pausedUntil, now));
    const over = this.spend(extra);
    if (over) return over;
    this.pausedUntil = Math.max(this.pausedUntil, now + wait);
    this.announce(
      wait,
      `${what}: rate limited (429)${asked ? ', as long as the service asked (Retry-After)' : ''}`,
    );
    // Halve the pace, once per window: concurrent 429s of one burst are one signal.
    if (now - this.lastCut >= this.rateLimit.windowMs / 4) {
      this.allowance = Math.max(1, this.allowance / 2);
      this.lastCut = now;
    }
    return undefined;
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

  /** One line for a wait over ANNOUNCE_WAIT_MS, at most one every 10 s unless a wait grows. */
  private announce(ms: number, what: string): void {
    if (!this.onWait || ms <= ANNOUNCE_WAIT_MS) return;
    const now = this.clock.now();
    const end = now + ms;
    if (now < this.quietUntil && end <= this.announcedUntil + ANNOUNCE_WAIT_MS) return;
    this.announcedUntil = Math.max(this.announcedUntil, end);
    this.quietUntil = now + 2 * ANNOUNCE_WAIT_MS;
    const until = new Date(this.clock.wall() + ms).toISOString().slice(11, 19);
    this.onWait(`waiting ${formatWait(ms)} (until ${until} UTC): ${what}`);
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const onAbort = () => {
        if (!this.drop(waiter)) return;
        reject(new InterruptedError());
      };
      const waiter: Waiter = {
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        stop: () => {
          signal?.removeEventListener('abort', onAbort);
          reject(new InterruptedError(INTERRUPTED_IN_A_WAIT));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private drop(waiter: Waiter): boolean {
    const at = this.waiters.indexOf(waiter);
    if (at < 0) return false;
    this.waiters.splice(at, 1);
    return true;
  }

  private release(): void {
    this.inFlight--;
    this.completions.push(this.clock.now());
    this.shared?.record(this.clock.wall());
    this.pump();
  }

  private pump(): void {
    while (this.waiters.length > 0) {
      const now = this.clock.now();
      if (now < this.pausedUntil) return this.wait(this.pausedUntil, now, false);
      if (this.inFlight >= this.concurrency) return; // release() pumps again
      const windowStart = now - this.rateLimit.windowMs;
      while (this.completions.length > 0 && this.completions[0]! <= windowStart)
        this.completions.shift();
      if (this.inFlight + this.completions.length >= Math.floor(this.allowance)) {
        // Full: the oldest answer leaves the window first (or an in-flight one answers).
        if (this.completions.length > 0)
          this.wait(this.completions[0]! + this.rateLimit.windowMs, now, true);
        return;
      }
      this.inFlight++;
      this.waiters.shift()!.go();
    }
  }

  /** The queue waits until `at`: announced when long, cut short once the run is interrupted. */
  private wait(at: number, now: number, pacing: boolean): void {
    if (this.stopping && at - now > STOP_GRACE_MS) {
      for (const waiter of this.waiters.splice(0)) waiter.stop();
      // Nothing waits now: a timer left for the old wait would only keep the process alive.
      this.stopTimer();
      return;
    }
    // A 429's pause was announced when it began.
    if (pacing) {
      const slowed =
        this.allowance < this.rateLimit.count
          ? `, slowed to ${this.currentAllowance} after 429s`
          : '';
      const shared = this.shared ? ', shared with the other steps on this token' : '';
      this.announce(
        at - now,
        `the rate limit (${formatRateLimit(this.rateLimit)}${shared}${slowed}), ${this.waiters.length} request(s) queued`,
      );
    }
    this.wakeAt(at);
  }

  private wakeAt(at: number): void {
    if (this.cancelTimer && this.timerAt <= at) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.clock.after(Math.max(0, Math.ceil(at - this.clock.now())) + 1, () => {
      this.cancelTimer = undefined;
      this.timerAt = Infinity;
      this.pump();
    });
  }
}

interface Waiter {
  go: () => void;
  stop: () => void;
}

/** `45 s`, `2 min 5 s`, `1 h 0 min`: a wait as people read it. */
export function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return 'without end';
  const s = Math.ceil(ms / 1000);
  if (s >= 2 * 86_400) return `${Math.round(s / 86_400)} days`;
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
