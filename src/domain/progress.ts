/**
 * Progress of long work under the rate limit (the results written, the test cases created): a
 * line every ~10 s or at each 5% step (at most one a second, so small runs stay quiet), with the
 * time left. Requests are the unit of cost (docs/design.md "Publish: request budget"), so the
 * estimate counts requests: those left (the plan's cost of each unit still to do), against the
 * larger of two paces, the one measured so far and the one the rate limit allows, which knows the
 * requests still holding their places in its window. A run's first burst, which the window lets
 * through at once, then no longer leads the estimate to promise the rest at the same speed.
 */
import type { RateLimit } from '../shared/rate.js';
import { plural } from '../shared/words.js';
import { formatWait } from '../client/index.js';

export interface ProgressOptions {
  /** Where lines go; without it nothing is reported. */
  sink?: (line: string) => void;
  intervalMs?: number;
  /** Requests sent so far, shown beside the units done. */
  requests: () => number;
  now?: () => number;
  /** The pace the client keeps (its scheduler's rate limit); without it, only the measured pace. */
  rateLimit?: RateLimit;
  /** Requests one unit costs, as planned (a new result: a POST and a PATCH). Default 1. */
  requestsPerUnit?: number;
  /** The units, one and many (`['result', 'results']`), and what doing one is (`written`). */
  unit?: { one: string; many: string; done: string };
  /** When the requests before this work were sent, to know what is still in the window. */
  trail?: RequestTrail;
}

/** The requests sent over time, sampled when progress is told of a unit: one per run of work. */
export class RequestTrail {
  /** [time, requests sent by then], oldest first; only what a window still needs is kept. */
  private samples: [number, number][] = [];

  record(at: number, requests: number): void {
    this.samples.push([at, requests]);
  }

  /**
   * The times of the requests sent after `from`, oldest first, as far as the samples tell: a
   * request counts from the sample that first saw it, and those sent before the first sample
   * count from it (recent, which errs towards a later estimate). Older samples are dropped.
   */
  since(from: number, requests: number, now: number): number[] {
    const keep = this.samples.findIndex(([t]) => t > from);
    if (keep > 1) this.samples = this.samples.slice(keep - 1);
    const times: number[] = [];
    let counted = 0;
    for (const [t, n] of this.samples) {
      if (t > from) for (let i = counted; i < n; i++) times.push(t);
      counted = Math.max(counted, n);
    }
    for (let i = counted; i < requests; i++) times.push(now);
    return times;
  }
}

const RESULTS = { one: 'result', many: 'results', done: 'written' };

export class Progress {
  private done = 0;
  private readonly started: number;
  private readonly startRequests: number;
  private lastLine: number;
  /** Twentieths of the total reached at the last line. */
  private lastStep = 0;
  private readonly now: () => number;
  private readonly unit: { one: string; many: string; done: string };
  private readonly trail: RequestTrail;

  constructor(
    private readonly total: number,
    private readonly options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.unit = options.unit ?? RESULTS;
    this.trail = options.trail ?? new RequestTrail();
    this.started = this.now();
    this.startRequests = options.requests();
    this.trail.record(this.started, this.startRequests);
    this.lastLine = this.started;
  }

  /** The first line: what is about to be done (`what`: the parts of the total), and how long it takes at least. */
  begin(what = ''): void {
    if (this.total === 0) return;
    const least = this.limitBound(this.now(), this.total * this.perUnit);
    // Only a wait worth saying: the rate limit's share of the run, before any pace is measured.
    const wait = least > 5_000 ? `; about ${formatWait(least)} at the rate limit` : '';
    this.options.sink?.(
      `${this.verb()} ${plural(this.total, this.unit.one, this.unit.many)}${what}${wait}`,
    );
  }

  /** One more unit done (or found done already). */
  step(): void {
    this.done++;
    this.trail.record(this.now(), this.options.requests());
    this.report(false);
  }

  /** The last line, unless the last step already showed 100%. */
  end(): void {
    if (this.total > 0 && this.lastStep < 20) this.report(true);
  }

  /** Milliseconds left, by the larger of the measured pace and the rate limit's. */
  estimate(now = this.now()): number | undefined {
    const left = this.total - this.done;
    if (left <= 0) return undefined;
    const requests = left * this.perUnit;
    const sent = this.options.requests() - this.startRequests;
    const measured = sent > 0 ? (requests * (now - this.started)) / sent : 0;
    return Math.max(measured, this.limitBound(now, requests));
  }

  private get perUnit(): number {
    return this.options.requestsPerUnit ?? 1;
  }

  /**
   * The least time `requests` more take under the rate limit (docs/design.md "Rate limit": a
   * sliding window): the window has COUNT places, each free again a window after the request
   * that holds it. A free place is used at once, then every window; one that a recent request holds,
   * a window after that request, then every window. The last request goes in its place's last round.
   */
  private limitBound(now: number, requests: number): number {
    const limit = this.options.rateLimit;
    if (!limit || requests <= 0) return 0;
    const held = this.trail
      .since(now - limit.windowMs, this.options.requests(), now)
      .slice(-limit.count);
    const free = limit.count - held.length;
    const place = (requests - 1) % limit.count;
    const round = Math.floor((requests - 1) / limit.count);
    const first = place < free ? now : held[place - free]! + limit.windowMs;
    return Math.max(0, first + round * limit.windowMs - now);
  }

  private verb(): string {
    return this.unit.done === 'written' ? 'writing' : 'creating';
  }

  private report(force: boolean): void {
    const { sink } = this.options;
    if (!sink || this.total === 0) return;
    const now = this.now();
    const step = Math.floor((this.done / this.total) * 20);
    const interval = this.options.intervalMs ?? 10_000;
    const sinceLast = now - this.lastLine;
    if (
      !force &&
      sinceLast < interval &&
      (step === this.lastStep || sinceLast < Math.min(1000, interval))
    )
      return;
    this.lastLine = now;
    this.lastStep = step;
    const left = this.done > 0 ? this.estimate(now) : undefined;
    const eta = left !== undefined ? `, about ${formatWait(left)} left` : '';
    sink(
      `${this.done}/${this.total} ${this.total === 1 ? this.unit.one : this.unit.many} ${this.unit.done}, ${plural(this.options.requests(), 'request')}${eta}`,
    );
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
