/**
 * Legs of a CI matrix on a virtual clock (__tests__/helpers/clock.ts): Schedulers that share
 * nothing but one simulated rate window of the service, sliding or fixed, as separate machines on
 * one token do. Deterministic: the same seed gives the same run, to the millisecond.
 */
import { Scheduler } from '../../src/client/scheduler.js';
import { prng } from '../../src/emulator/http/chaos.js';
import type { RateLimit, RateWindowMode } from '../../src/shared/rate.js';
import { FakeClock } from './clock.js';

/** What the service saw: every request's arrival, which leg sent it and whether it went through. */
export interface Arrival {
  at: number;
  leg: number;
  ok: boolean;
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

  admit(leg: number): boolean {
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
    this.arrivals.push({ at: now, leg, ok });
    return ok;
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
  /** When it starts (ms). */
  startMs?: number;
  /** The `legs` hint it was given. */
  legs?: number;
  /** Whether it tells its Scheduler its requests at the start (Scheduler.expect). */
  expect?: boolean;
}

export interface Leg {
  scheduler: Scheduler;
  /** When its last request was answered (ms); undefined while it runs. */
  doneAt?: number;
}

/**
 * Runs the legs, each a Scheduler with the limit, the backoffs scaled to the window (as the
 * bench does) and a publish's pool of requests in flight, until all are done or `untilMs`.
 */
export async function runLegs(
  window: SimulatedWindow,
  plans: LegPlan[],
  { seed = 1, latencyMs = 4, untilMs = 600_000 } = {},
): Promise<Leg[]> {
  const { clock, limit } = window;
  const later = (ms: number) => new Promise<void>((r) => clock.after(ms, r));
  const scale = limit.windowMs / 60_000;
  const legs: Leg[] = [];
  const run = async (plan: LegPlan, k: number) => {
    const random = prng(seed * 1000 + k);
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
      },
    });
    if (plan.expect) scheduler.expect(plan.requests);
    const leg: Leg = { scheduler };
    legs[k] = leg;
    const jitter = () => latencyMs * (0.5 + random());
    const one = () =>
      scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
        await later(jitter() / 2);
        const ok = window.admit(k);
        await later(jitter() / 2);
        return { kind: 'response' as const, status: ok ? 200 : 429, value: null };
      });
    let sent = 0;
    const more = () => sent < plan.requests && clock.now() < untilMs;
    // A publish: a few reads one after another, then its pool keeps eight requests going.
    for (let i = 0; i < 3 && more(); i++, sent++) await one();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (more()) {
          sent++;
          await one();
        }
      }),
    );
    leg.doneAt = clock.now();
    scheduler.close();
  };
  await clock.run(Promise.all(plans.map(run)), untilMs + 10 * limit.windowMs, limit.windowMs / 20);
  return legs;
}
