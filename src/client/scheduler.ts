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
import {
  RETRY_RULES,
  retryBudget,
  type RetryPolicy,
  retryPolicy,
  secondRoundPauseMs,
} from './retry-policy.js';
import { RateShare, type CensusCount } from './share.js';
import { errorCode } from './transport.js';

export { type RetryPolicy, DEFAULT_RETRY_POLICY } from './retry-policy.js';
export type { CensusCount } from './share.js';

export {
  type RateLimit,
  DEFAULT_RATE_LIMIT,
  formatRateLimit,
  parseRateLimit,
} from '../shared/rate.js';

/** The requests a client sent, counted as the service counts them. */
export interface RequestStats {
  /** Every attempt sent, retries included: the service counts them all against the limit. */
  total: number;
  /** Attempts by HTTP method. */
  byMethod: Record<string, number>;
  /** Answers by status. */
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
  /**
   * Legs publishing at once on this token from machines that share nothing (a CI matrix): the
   * pace starts at 1/legs of the limit instead of all of it, and adapts from there (share.ts).
   */
  legs?: number;
  /** Told of every wait over ANNOUNCE_WAIT_MS: what it waits for and until when (throttled). */
  onWait?: (line: string) => void;
  /**
   * How long the transport waits for one answer (the client's timeout-ms): an answer still
   * missing after ANNOUNCE_WAIT_MS is announced with the time the attempt gives up.
   */
  answerTimeoutMs?: number;
}

export interface ScheduleRequest {
  method: string;
  /** `GET /projects`: names the request in wait lines. */
  label?: string;
  /** Safe to send again after a 5xx or a lost answer (GET, or PATCH/DELETE with If-Match). */
  repeatable: boolean;
  /** Once aborted, an attempt still waiting for its turn is never sent: InterruptedError. */
  signal?: AbortSignal;
  /** Goes before the requests already waiting (a census: what it counts is the present). */
  first?: boolean;
}

/** Counts the writes of every leg in about the last window (see RateShare.counted). */
export type Census = () => Promise<CensusCount | undefined>;

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
  readonly clock: Clock;
  private readonly shared: SharedPace | undefined;
  private readonly onWait: ((line: string) => void) | undefined;
  private readonly answerTimeoutMs: number | undefined;

  /** Answer times of the requests inside the current window, oldest first. */
  private readonly completions: number[] = [];
  /** Which of `completions` the service took (not a 429): what this leg's share really was. */
  private readonly took: boolean[] = [];
  private tookCount = 0;
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;
  private timerAt = Infinity;
  /** No request starts before this time (after a 429). */
  private pausedUntil = 0;
  private consecutiveRateLimits = 0;
  /** The pace in force: this leg's share of the limit, lowered on 429 and probing upward. */
  private readonly share: RateShare;
  private lastCut = -Infinity;
  /**
   * The first window's requests go out no closer than this, from `spreadFrom` on, so legs that
   * start together do not burst together (a lone process loses a fraction of one window, once).
   */
  private readonly spreadMs: number;
  private spreadFrom = -Infinity;
  private spreadNext = -Infinity;
  /** Round trip of recent attempts (rising at once, falling slowly): when a probe must leave. */
  private rttMs = 0;
  /**
   * Other processes use this token (the legs hint, or a 429 met): pace with care near the share.
   */
  private sharing: boolean;
  /** Time spent in backoffs and 429 pauses so far (the policy's maxWaitMs bounds it). */
  private waitedMs = 0;
  /** Wait lines: the end of the last wait announced, and no new line before quietUntil. */
  private announcedUntil = -Infinity;
  private quietUntil = -Infinity;
  /** Set once the run is interrupted: no wait longer than STOP_GRACE_MS starts or goes on. */
  private stopping = false;
  private readonly sleepers = new Set<() => void>();
  /** Counts every leg's results (Scheduler.expect); one census at a time. */
  private census: Census | undefined;
  private censusRunning = false;
  private cancelCensus: (() => void) | undefined;
  private censusTimerAt = Infinity;
  private onBlind: (() => void) | undefined;
  private lastSentAt = -Infinity;

  constructor(options: SchedulerOptions = {}) {
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.policy = retryPolicy(options.retry);
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? systemClock;
    this.shared = options.shared;
    this.onWait = options.onWait;
    this.answerTimeoutMs = options.answerTimeoutMs;
    // What the steps before this one spent is still in the window: count it, on this clock.
    const now = this.clock.now();
    const wall = this.clock.wall();
    for (const at of this.shared?.recent(this.rateLimit.windowMs) ?? []) {
      this.completions.push(now - (wall - at));
      this.took.push(true);
      this.tookCount++;
    }
    this.share = new RateShare(
      this.rateLimit,
      this.policy,
      { legs: options.legs, random: this.random },
      now,
    );
    // Legs told they share the token start at a random point of the window, so that each one's
    // requests fall apart from the others' (a probe's 429 then meets only its own leg). What the
    // hint tells is the share's to read (one leg is a leg alone).
    const told = this.share.told;
    this.sharing = told !== undefined;
    if (told !== undefined) {
      this.pausedUntil = now + this.phaseMs();
      this.announce(
        this.pausedUntil - now,
        `a start at a random point of the rate window, apart from the other legs (${told} in all)`,
      );
    }
    this.spreadMs =
      (this.policy.startSpread * this.random() * this.rateLimit.windowMs) /
      Math.max(1, this.share.allowance(now));
  }

  /** Writes this process's recent answer times for the processes after it; no timer is left. */
  close(): void {
    this.shared?.flush();
    this.stopTimer();
    this.stopCensusTimer();
    this.census = undefined;
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

  /**
   * This process plans `requests` more requests (a publish's writes). Sharing the token (the
   * `legs` hint, or a 429 met), it finds its share by `census` when given one (a count of every
   * leg's results), else by probing late in its plan (share.ts). `onBlind` is told once if a
   * 429 shows that the census cannot see every leg on the token: the leg then probes.
   */
  expect(requests: number, census?: Census, onBlind?: () => void): void {
    const blind = this.share.blindSince !== undefined;
    this.census = blind ? undefined : census;
    this.onBlind = onBlind;
    this.share.expect(requests, this.census !== undefined, this.clock.now());
    this.censusSoon();
  }

  /**
   * Wakes for the next census when it is due. Set again wherever the share's census time changes
   * (expect, a census's answer, a 429), not on every answer.
   */
  private censusSoon(): void {
    const at = this.share.censusAt;
    if (at === this.censusTimerAt) return;
    this.stopCensusTimer();
    if (!Number.isFinite(at)) return;
    this.censusTimerAt = at;
    this.cancelCensus = this.clock.after(Math.max(0, at - this.clock.now()) + 1, () => {
      this.cancelCensus = undefined;
      this.censusTimerAt = Infinity;
      this.takeCensus(this.clock.now());
    });
  }

  private stopCensusTimer(): void {
    this.cancelCensus?.();
    this.cancelCensus = undefined;
    this.censusTimerAt = Infinity;
  }

  /**
   * Takes a census when the share asks for one: one at a time, first in the queue (what it
   * counts is the present), never fatal.
   */
  private takeCensus(now: number): void {
    if (!this.census || this.censusRunning) return;
    if (now < this.share.censusAt) return this.censusSoon();
    this.censusRunning = true;
    this.census()
      .then(
        (count) => {
          const at = this.clock.now();
          this.expire(at);
          if (count) this.share.counted(at, count, this.inFlight + this.completions.length);
        },
        () => {
          // Refused for good (the census says why, to its caller): pace by probing.
          this.census = undefined;
          this.share.stopCounting();
        },
      )
      .finally(() => {
        this.censusRunning = false;
        this.censusSoon();
      });
  }

  /**
   * Told of more legs (the `legs` hint) than its counts of the cycle ever saw publishing at once:
   * the legs it was told of and the most it saw (RateShare.fewerLegs), for a publish to say so.
   */
  get fewerLegs(): { told: number; seen: number } | undefined {
    return this.share.fewerLegs;
  }

  /** The pace currently allowed (requests per window): this process's share of the limit. */
  get currentAllowance(): number {
    return Math.floor(this.share.allowance(this.clock.now()));
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
      await this.acquire(request.signal, request.first);
      if (request.signal?.aborted) {
        // Aborted between its turn and its send (from a promise callback, not a signal handler):
        // still unsent, so it is dropped like any request that was waiting.
        this.inFlight--;
        this.pump();
        throw new InterruptedError();
      }
      let outcome: AttemptOutcome<T>;
      const sentAt = this.clock.now();
      const stopWatching = this.watchAnswer(what, attempts);
      try {
        outcome = await attempt(attempts);
      } catch (error) {
        outcome = { kind: 'network', error, sent: true };
      } finally {
        stopWatching();
      }

      const rtt = this.clock.now() - sentAt;
      this.rttMs = rtt > this.rttMs ? rtt : 0.9 * this.rttMs + 0.1 * rtt;
      this.release(outcome.kind !== 'response' || outcome.status !== 429);
      this.count(request.method, outcome, attempts > 1);
      const done = (gaveUp?: string): ScheduleResult<T> => ({ ...outcome, attempts, gaveUp });

      // Whether and on which budget it goes again: RETRY_RULES (src/client/retry-policy.ts).
      if (outcome.kind === 'response') {
        const budget = retryBudget(request.repeatable, outcome);
        if (budget === 'maxRateLimitAttempts') {
          rateLimited++;
          const asked = outcome.retryAfterMs;
          const atMost = this.policy[RETRY_RULES.retryAfterAtMost];
          if (asked !== undefined && asked > atMost)
            return done(
              `The service asked to wait ${formatWait(asked)} (Retry-After) before the next request, more than the ${formatWait(atMost)} this client waits at once: try again later.`,
            );
          if (rateLimited >= this.policy[budget]) return done();
          const over = this.onRateLimited(asked, what);
          if (over) return done(over);
          continue;
        }
        this.consecutiveRateLimits = 0;
        if (budget && ++failures < this.policy[budget]) {
          const over = await this.backoff(
            failures,
            this.policy[budget],
            `${what}: ${outcome.status}`,
            request,
          );
          if (over) return done(over);
          continue;
        }
        return done();
      }
      // No answer. A request that never left (refused, DNS) may always go again; one that may have
      // reached the server only when repeating it is harmless.
      const budget = retryBudget(request.repeatable, {
        code: errorCode(outcome.error),
        sent: outcome.sent,
      });
      if (budget && ++failures < this.policy[budget]) {
        const over = await this.backoff(
          failures,
          this.policy[budget],
          `${what}: no answer`,
          request,
        );
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

  private delay(baseMs: number, attempt: number, capMs = this.policy.maxBackoffMs): number {
    const exp = Math.min(capMs, baseMs * 2 ** (attempt - 1));
    // Up to 25% jitter so that publishers sharing a token do not retry in lockstep.
    return Math.min(capMs, exp * (1 + 0.25 * this.random()));
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
    // The first sign of other legs: from now on pace as one of several, and resume at a random
    // point of the window (unless the service said when), apart from the others.
    const phase = this.sharing || asked ? 0 : this.phaseMs();
    this.sharing = true;
    // Without Retry-After, never longer than one window: by then the window has room again,
    // and this leg's share (share.ts), not the pause, keeps it below the limit.
    const wait = asked
      ? retryAfterMs
      : phase +
        this.delay(
          this.policy.rateLimitBaseMs,
          this.consecutiveRateLimits,
          Math.min(this.policy.maxBackoffMs, this.rateLimit.windowMs),
        );
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
    // Lower this leg's share, once per burst: concurrent 429s of one burst are one signal.
    if (now - this.lastCut >= this.rateLimit.windowMs / 4) {
      this.share.congested(now, this.tookInWindow(now), this.inFlight + this.completions.length);
      this.lastCut = now;
      if (this.census && this.share.blindSince !== undefined) {
        this.census = undefined;
        this.onBlind?.();
      }
      // A first 429 may make this leg one that counts: its census is due from now on.
      this.censusSoon();
    }
    return undefined;
  }

  /** A random point of up to sharePhaseWindows windows: where a leg sharing the token starts. */
  private phaseMs(): number {
    return this.random() * this.policy.sharePhaseWindows * this.rateLimit.windowMs;
  }

  /** This leg's requests in the window that the service took (not answered 429). */
  private tookInWindow(now: number): number {
    this.expire(now);
    return this.tookCount;
  }

  /** Drops the answers that left the window. */
  private expire(now: number): void {
    const windowStart = now - this.rateLimit.windowMs;
    while (this.completions.length > 0 && this.completions[0]! <= windowStart) {
      this.completions.shift();
      if (this.took.shift()) this.tookCount--;
    }
  }

  /**
   * A server that takes the connection and never answers must not mean silence until the
   * timeout (and its retries) run out: an answer missing after ANNOUNCE_WAIT_MS is a wait like
   * any other, announced with how long the attempt may still take. Returns the cancel.
   */
  private watchAnswer(what: string, attempt: number): () => void {
    if (!this.onWait) return () => {};
    return this.clock.after(ANNOUNCE_WAIT_MS, () => {
      const retry = attempt > 1 ? ` (retry ${attempt - 1})` : '';
      const asked = `the answer to ${what}${retry}, sent ${formatWait(ANNOUNCE_WAIT_MS)} ago`;
      if (this.answerTimeoutMs === undefined) return this.onWait?.(`waiting for ${asked}`);
      // The whole wait is over 5 s already, so it is told even when little of it is left.
      this.announce(
        this.answerTimeoutMs - ANNOUNCE_WAIT_MS,
        `${asked} (no answer yet; it gives up at timeout-ms ${this.answerTimeoutMs})`,
        { minMs: 0, upTo: true },
      );
    });
  }

  /** One line for a wait over ANNOUNCE_WAIT_MS, at most one every 10 s unless a wait grows. */
  private announce(
    ms: number,
    what: string,
    { minMs = ANNOUNCE_WAIT_MS, upTo = false }: { minMs?: number; upTo?: boolean } = {},
  ): void {
    if (!this.onWait || ms <= minMs) return;
    const now = this.clock.now();
    const end = now + ms;
    if (now < this.quietUntil && end <= this.announcedUntil + ANNOUNCE_WAIT_MS) return;
    this.announcedUntil = Math.max(this.announcedUntil, end);
    this.quietUntil = now + 2 * ANNOUNCE_WAIT_MS;
    const until = new Date(this.clock.wall() + ms).toISOString().slice(11, 19);
    this.onWait(`waiting ${upTo ? 'up to ' : ''}${formatWait(ms)} (until ${until} UTC): ${what}`);
  }

  private acquire(signal?: AbortSignal, first = false): Promise<void> {
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
      if (first) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
      this.pump();
    });
  }

  private drop(waiter: Waiter): boolean {
    const at = this.waiters.indexOf(waiter);
    if (at < 0) return false;
    this.waiters.splice(at, 1);
    return true;
  }

  private release(took: boolean): void {
    this.inFlight--;
    this.completions.push(this.clock.now());
    this.took.push(took);
    if (took) {
      this.tookCount++;
      this.share.answered(this.inFlight + this.completions.length, this.clock.now());
    }
    this.shared?.record(this.clock.wall());
    this.pump();
  }

  private pump(): void {
    while (this.waiters.length > 0) {
      const now = this.clock.now();
      if (now < this.pausedUntil) return this.wait(this.pausedUntil, now, false);
      if (this.inFlight >= this.concurrency) return; // release() pumps again
      this.expire(now);
      const allowance = Math.floor(this.share.allowance(now));
      if (this.inFlight + this.completions.length >= allowance) {
        // Full: the oldest answer leaves the window first (or an in-flight one answers).
        if (this.completions.length > 0)
          this.wait(this.completions[0]! + this.rateLimit.windowMs, now, true);
        return;
      }
      // Sharing the token, a leg near its share sends one request at a time: if the window is
      // full, one 429 tells it so, not every request it had in flight.
      if (
        this.sharing &&
        this.inFlight > 0 &&
        this.inFlight + this.completions.length >=
          Math.min(allowance, this.share.proven) - this.concurrency
      )
        return; // release() pumps again
      if (now < this.spreadNext && now < this.spreadFrom + this.rateLimit.windowMs)
        return this.wait(this.spreadNext, now, false);
      // A probe goes just before this leg's oldest answer leaves the window: if it meets a 429,
      // this leg's next request is the one held back, so the window it overfilled empties
      // before another leg's next request arrives (a probe costs its own 429, not another's).
      if (
        this.share.probing(now) &&
        this.inFlight + this.completions.length >= this.share.proven &&
        this.completions.length > 0
      ) {
        const probeAt = this.completions[0]! + this.rateLimit.windowMs - 2 * this.rttMs - 1;
        if (now < probeAt) return this.wait(probeAt, now, true);
      }
      // A leg that counts (a census) sends evenly over the window, not in one burst as its oldest
      // answers leave it: the others' counts then say their pace, and a window aligned to the
      // clock sees each leg's share in every part of it.
      if (this.share.countsOthers) {
        const next =
          this.lastSentAt + (this.rateLimit.windowMs / allowance) * this.policy.censusEven;
        if (now < next) return this.wait(next, now, false);
      }
      this.lastSentAt = now;
      if (this.spreadFrom === -Infinity) this.spreadFrom = now;
      this.spreadNext = now + this.spreadMs;
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
      const allowance = this.currentAllowance;
      const slowed =
        allowance < this.rateLimit.count ? `, this run's share ${allowance} per window` : '';
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
