/**
 * The share of the rate limit one process takes (docs/architecture.md "The request pipeline",
 * "Retry policy"): matrix legs on separate machines publish with one token and share no pace
 * file, so each finds its share by itself. The Scheduler owns it and asks it for the pace in
 * force; nothing else decides pacing.
 *
 * A leg holds its share (the whole limit alone; 1/N with the `legs` hint; after a first 429,
 * what went through), and now and then probes: one request above it. A probe that meets a 429
 * costs that one request, and the share stays. A probe that goes through means room: a leg is
 * done, so this one grows by that leg's part (from 1/N to 1/(N-1) of the limit), one request
 * after another as each goes through, and probes again soon, since more legs may be done. The
 * other legs find the same room at their own probes, so the limit is shared out again within a
 * few windows, and N busy legs stay on about 1/N each. A leg met by 429s twice within two
 * windows while holding asks too much with the others, and gives up a part of its share.
 *
 * A leg told both of the other legs (the hint) and of its own plan (Scheduler.expect) probes
 * with care, since N legs at 1/N each fill the window and a probe then only costs a 429: not
 * before it is past shareProbeFrom of its plan (no leg is likely done before that, and a leg
 * about to finish gains nothing), then soon (sharePlannedHold), twice as late after each probe
 * that met a 429; and a probe that went through is held one request above the share for
 * shareProofWindows before it counts as room (in a window aligned to the clock, a probe early in
 * the window goes through though the window is full). A leg starved below shareStarved of the
 * fair share probes as before.
 */
import type { RateLimit } from '../shared/rate.js';
import type { RetryPolicy } from './retry-policy.js';

export interface RateShareOptions {
  /** Legs publishing at once on this token (the `legs` hint): start at 1/legs of the limit. */
  legs?: number;
  /** Jitter, in [0, 1). */
  random: () => number;
}

type State = 'hold' | 'probe' | 'prove' | 'grow';

export class RateShare {
  /** The legs this one believes share the token: the hint, or what 429s and probes told. */
  private legs: number;
  /** The pace held (requests per window). */
  private level: number;
  private state: State = 'hold';
  /** When the state began. */
  private since: number;
  /** How long the level is held before a probe (jittered). */
  private holdMs: number;
  /** The most requests this leg had in its window, since the state began, without a 429. */
  private reached: number;
  /** Growing after a probe found room: up to this pace. */
  private target = 0;
  /** Since when the pace has been `settledLevel`: a window at it says what it gets through. */
  private settled: number;
  private settledLevel: number;
  /** Probes in a row that found room: each takes twice as many legs' parts as the one before. */
  private streak = 0;
  /** Probes in a row that met a 429, while planned: each doubles the hold before the next. */
  private failed = 0;
  /** The requests this leg plans from `plannedAt` on (Scheduler.expect), and those answered. */
  private plan: number | undefined;
  private answeredSincePlan = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly policy: RetryPolicy,
    private readonly options: RateShareOptions,
    now: number,
  ) {
    this.legs = Math.max(1, Math.floor(options.legs ?? 1));
    this.level = limit.count / this.legs;
    this.reached = Math.floor(this.level);
    this.since = now;
    this.settled = now;
    this.settledLevel = this.level;
    this.holdMs = this.hold(this.legs);
  }

  /** This leg plans `requests` more (Scheduler.expect): with the hint, it probes with care. */
  expect(requests: number): void {
    this.plan = Math.max(0, requests);
    this.answeredSincePlan = 0;
  }

  /** Requests this leg may have in one window at `now`. */
  allowance(now: number): number {
    const { count } = this.limit;
    if (this.level >= count) return count;
    const held = Math.max(1, Math.floor(this.level));
    if (this.state === 'hold' && now >= this.since + this.holdMs && !this.early())
      this.begin('probe', now);
    if (this.state === 'probe' || this.state === 'prove') return held + 1;
    if (this.state === 'grow') return Math.min(Math.floor(this.target), this.reached + 1);
    return held;
  }

  /** The next request above the share is a probe that has not yet found room. */
  probing(now: number): boolean {
    this.allowance(now);
    return this.state === 'probe';
  }

  /** The most requests this leg had in its window without meeting a 429. */
  get proven(): number {
    return this.reached;
  }

  /** An answer that was no 429, with `inWindow` of this leg's requests in the window. */
  answered(inWindow: number, now: number): void {
    this.answeredSincePlan++;
    this.reached = Math.max(this.reached, inWindow);
    const held = Math.max(1, Math.floor(this.level));
    if (this.planned()) {
      // Room only once one request above the share has gone through for a while.
      if (this.state === 'probe' && inWindow > held) this.begin('prove', now);
      if (
        this.state === 'prove' &&
        now - this.since >= this.policy.shareProofWindows * this.limit.windowMs
      )
        this.state = 'probe';
    }
    if (this.state === 'probe' && inWindow > held) {
      // Room: a leg is done. Grow by its part, as the others will when they probe (by two
      // legs' parts after two such probes in a row, four after three: legs finish in runs).
      this.failed = 0;
      this.target = Math.max(held + 1, this.limit.count / Math.max(1, this.legs - this.gone()));
      this.begin('grow', now);
    }
    if (this.state === 'grow' && this.reached >= Math.floor(this.target)) {
      this.legs = Math.max(1, this.legs - this.gone());
      this.level = this.target;
      this.streak++;
      // More legs may be done: probe again soon, not after a whole hold.
      this.begin('hold', now, 1);
    }
  }

  /**
   * A 429, or an answer saying the limit is used up, when `took` of this leg's requests in the
   * window went through.
   */
  congested(now: number, took: number, sent: number): void {
    const { count } = this.limit;
    this.streak = 0;
    if (this.state === 'probe' || this.state === 'prove') this.failed++;
    if (this.level >= count) {
      // The first sign of other legs: the share is what went through, and at least the part of
      // one of as many legs as the hold counts (a leg that got nothing through yet asks for a
      // small part of a window others fill, and finds more by probing).
      this.level = Math.max(took, count / this.policy.shareHoldLegs, 1);
      this.legs = Math.min(this.policy.shareHoldLegs, Math.max(2, Math.round(count / this.level)));
    } else if (
      took < Math.floor(this.level) - 1 &&
      sent >= Math.floor(this.level) - 1 &&
      now - this.settled >= this.limit.windowMs
    ) {
      // Not even the share went through in a whole window at it, though this leg asked for it:
      // the legs together ask too much. Keep what did.
      this.level = this.fairer(Math.max(1, took));
    } else if (this.state !== 'grow') {
      // The share went through, only a probe (or a request knocked by another leg's probe)
      // met the 429: the share stays, unless it is above the fair one.
      this.level = this.fairer(this.level);
    } else if (this.state === 'grow') {
      // Less room than a leg's part: the share grows by what went through.
      this.level = Math.max(this.level, Math.min(this.target, took));
    }
    this.begin('hold', now);
  }

  /** A share above the fair one (the limit over the legs) keeps a part of itself, down to fair. */
  private fairer(level: number): number {
    const fair = this.limit.count / this.legs;
    return level > fair ? Math.max(fair, level * this.policy.shareKeep) : level;
  }

  /** Told of other legs (the hint, above one) and of this leg's own plan: probes with care. */
  private planned(): boolean {
    return (this.options.legs ?? 1) > 1 && this.plan !== undefined;
  }

  /**
   * Too early to probe: planned, not yet past shareProbeFrom of the plan (or within a share of
   * its end), and not starved below the fair share.
   */
  private early(): boolean {
    if (!this.planned()) return false;
    const plan = this.plan!;
    const done = this.answeredSincePlan;
    const starved = this.level * this.legs < this.policy.shareStarved * this.limit.count;
    return !starved && (done < this.policy.shareProbeFrom * plan || plan - done < this.level);
  }

  /** The legs a probe that finds room takes to be done. */
  private gone(): number {
    return 2 ** Math.min(this.streak, 5);
  }

  private begin(state: State, now: number, holdLegs = this.legs): void {
    if (this.level !== this.settledLevel) {
      this.settledLevel = this.level;
      this.settled = now;
    }
    this.state = state;
    this.since = now;
    this.reached = Math.min(this.reached, Math.floor(this.level));
    if (state === 'hold') this.holdMs = this.hold(holdLegs);
  }

  /**
   * How long to hold before probing: in proportion to the legs sharing the token (up to
   * shareHoldLegs), so that they together probe about as often however many there are. Spread
   * by up to half either way, so that legs do not probe together.
   */
  private hold(legs: number): number {
    // A share far below the fair one (starved by legs that found room first) looks sooner.
    const starved = Math.max(0.25, Math.min(1, (this.level * legs) / this.limit.count));
    return (
      this.policy.shareHoldWindows *
      starved *
      Math.min(legs, this.policy.shareHoldLegs) *
      this.limit.windowMs *
      (this.planned() ? this.policy.sharePlannedHold * 2 ** Math.min(this.failed, 3) : 1) *
      (0.5 + this.options.random())
    );
  }
}
