/**
 * Legs of a CI matrix on a virtual clock (__tests__/helpers/clock.ts): Schedulers that share
 * nothing but one simulated rate window of the service, sliding or fixed, as separate machines on
 * one token do. Deterministic: the same seed gives the same run, to the millisecond.
 */
import { Scheduler } from '../../src/client/scheduler.js';
import { prng } from '../../src/emulator/http/chaos.js';
import type { RateLimit, RateWindowMode } from '../../src/shared/rate.js';
import type { CensusCount } from '../../src/client/share.js';
import type { RetryPolicy } from '../../src/client/retry-policy.js';
import { FakeClock } from './clock.js';

/** What the service saw: every request's arrival, which leg sent it and whether it went through. */
export interface Arrival {
  at: number;
  leg: number;
  ok: boolean;
  /** A write that gave a result (a publish's PATCH after its POST): what a census counts. */
  result?: boolean;
  /** A census: a read that counts the results written of late. */
  census?: boolean;
  /** The cycle a result went to (0 unless the legs write to cycles of their own). */
  cycle?: number;
}

/** The service's count for one token: every request counts, 429s included. */
export class SimulatedWindow {
  readonly arrivals: Arrival[] = [];
  private readonly sliding: number[] = [];
  private fixed = { window: -1, count: 0 };

  constructor(
    readonly clock: FakeClock,
    readonly limit: RateLimit,
    readonly mode: RateWindowMode = 'sliding',
  ) {}

  admit(leg: number, extra: Pick<Arrival, 'result' | 'census' | 'cycle'> = {}): boolean {
    const now = this.clock.now();
    let count: number;
    if (this.mode === 'fixed') {
      const window = Math.floor(now / this.limit.windowMs);
      this.fixed = { window, count: this.fixed.window === window ? this.fixed.count + 1 : 1 };
      count = this.fixed.count;
    } else {
      while (this.sliding.length && this.sliding[0]! <= now - this.limit.windowMs)
        this.sliding.shift();
      this.sliding.push(now);
      count = this.sliding.length;
    }
    const ok = count <= this.limit.count;
    this.arrivals.push({ at: now, leg, ok, ...extra });
    return ok;
  }

  /**
   * The results written to `cycle` (every leg's, and `leg`'s own) in the window before now: a
   * census, which sees no other cycle.
   */
  census(leg: number, spanMs = this.limit.windowMs, cycle = 0): CensusCount {
    const from = this.clock.now() - spanMs;
    const results = this.arrivals.filter((a) => a.ok && a.result && (a.cycle ?? 0) === cycle);
    const recent = results.filter((a) => a.at > from);
    return {
      all: recent.length,
      own: recent.filter((a) => a.leg === leg).length,
      ownTotal: results.filter((a) => a.leg === leg).length,
      spanMs,
    };
  }

  /** Requests of `leg` (every leg when undefined) that went through in [from, to). */
  took(from: number, to: number, leg?: number): number {
    return this.arrivals.filter(
      (a) => a.ok && a.at >= from && a.at < to && (leg === undefined || a.leg === leg),
    ).length;
  }

  /** 429s (of `leg`) in [from, to). */
  refused(from: number, to: number, leg?: number): number {
    return this.arrivals.filter(
      (a) => !a.ok && a.at >= from && a.at < to && (leg === undefined || a.leg === leg),
    ).length;
  }
}

export interface LegPlan {
  /** Requests this leg sends; Infinity for a leg busy until `untilMs`. */
  requests: number;
  /** When it starts (ms): after `after` is done, when given. */
  startMs?: number;
  /**
   * The leg it waits for: a matrix that runs a few legs at a time (max-parallel, or too few
   * runners) starts the next leg when one is done.
   */
  after?: number;
  /** The `legs` hint it was given. */
  legs?: number;
  /** Whether it tells its Scheduler its requests at the start (Scheduler.expect). */
  expect?: boolean;
  /** Whether it can count the others' writes too (a census, with Scheduler.expect). */
  census?: boolean;
  /** The cycle it writes its results to (0: the one every leg shares). */
  cycle?: number;
}

export interface Leg {
  scheduler: Scheduler;
  /** When its last request was answered (ms); undefined while it runs. */
  doneAt?: number;
  /** Its census showed that it cannot see every leg (Scheduler.expect's onBlind). */
  blind?: boolean;
}

/**
 * Runs the legs, each a Scheduler with the limit, the backoffs scaled to the window (as the
 * bench does) and a publish's pool of requests in flight, until all are done or `untilMs`;
 * `policy` overrides rows of the retry policy.
 */
export async function runLegs(
  window: SimulatedWindow,
  plans: LegPlan[],
  {
    seed = 1,
    latencyMs = 4,
    untilMs = 600_000,
    censusSlack = 0.6,
    countNoise = 3,
    policy = {} as Partial<RetryPolicy>,
  } = {},
): Promise<Leg[]> {
  const { clock, limit } = window;
  const later = (ms: number) => new Promise<void>((r) => clock.after(ms, r));
  const scale = limit.windowMs / 60_000;
  const legs: Leg[] = [];
  const done = plans.map(() => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  });
  const run = async (plan: LegPlan, k: number) => {
    const random = prng(seed * 1000 + k);
    if (plan.after !== undefined) await done[plan.after]!.promise;
    await later(plan.startMs ?? 0);
    const scheduler = new Scheduler({
      clock,
      random,
      rateLimit: limit,
      legs: plan.legs,
      retry: {
        rateLimitBaseMs: 2000 * scale,
        retryBaseMs: 1000 * scale,
        maxRateLimitAttempts: 1000,
        maxWaitMs: 1e9,
        ...policy,
      },
    });
    const leg: Leg = { scheduler };
    legs[k] = leg;
    const jitter = () => latencyMs * (0.5 + random());
    const census = async () => {
      let count: CensusCount | undefined;
      await scheduler.schedule({ method: 'GET', repeatable: false, first: true }, async () => {
        await later(jitter() / 2);
        const ok = window.admit(k, { census: true });
        // As a publish counts (src/publish/census.ts): from a window before its latest result
        // to the answer, so over a window and a part of one.
        if (ok) count = window.census(k, limit.windowMs * (1 + censusSlack * random()), plan.cycle);
        // Machines and networks keep no exact time: a count is off by a few either way.
        if (count && countNoise)
          count.all = Math.max(count.own, count.all + Math.round((2 * random() - 1) * countNoise));
        await later(jitter() / 2);
        return { kind: 'response' as const, status: ok ? 200 : 429, value: null };
      });
      return count;
    };
    if (plan.expect)
      scheduler.expect(plan.requests, plan.census ? census : undefined, () => (leg.blind = true));
    const one = (result = false) =>
      scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
        await later(jitter() / 2);
        const ok = window.admit(k, { result, cycle: plan.cycle });
        await later(jitter() / 2);
        return { kind: 'response' as const, status: ok ? 200 : 429, value: null };
      });
    let sent = 0;
    const more = () => sent < plan.requests && clock.now() < untilMs;
    // A publish: a few reads one after another, then its pool keeps eight requests going, two
    // writes to one record each.
    for (let i = 0; i < 3 && more(); i++, sent++) await one();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (more()) {
          // The second write of a pair writes the result: what a census counts.
          const result = (sent - 3) % 2 === 1;
          sent++;
          await one(result);
        }
      }),
    );
    leg.doneAt = clock.now();
    scheduler.close();
    done[k]!.resolve();
  };
  await clock.run(Promise.all(plans.map(run)), untilMs + 10 * limit.windowMs, limit.windowMs / 20);
  return legs;
}
