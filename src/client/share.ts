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
 *
 * A leg that can take a census (a publish: src/publish/census.ts counts every leg's results in
 * the cycle in about the last window, with one request) does not probe at all: once it shares
 * the token, it counts now and then (rarely early in its plan, more often later), works out what
 * the legs together send, and takes a part of what they leave free. Only a 429 lowers its share.
 * It sends evenly over the window (Scheduler), so that counts say paces. A lone publisher never
 * counts.
 *
 * A census counts one cycle: legs that write to cycles of their own, and other tools on the token,
 * are not in it, and room it shows may not be there. A 429 is held against the last census taken
 * in a clean window; when the others it saw and this leg's own window fall far short of the
 * limit, the census is blind, and the leg probes from the hint's share instead (at once if it never
 * saw another leg, which also keeps its growth by steps until then; at the second such 429 if it
 * did, as legs that collide at the start can fall short once).
 */
import type { RateLimit } from '../shared/rate.js';
import type { RetryPolicy } from './retry-policy.js';

/**
 * A census (Scheduler.expect): the results the service recorded in about the last window, of
 * every leg and of this one (a publish counts its cycle's executions given a result since then,
 * src/publish/census.ts).
 */
export interface CensusCount {
  /** Results of every leg, this one's included. */
  all: number;
  /** This leg's among them. */
  own: number;
  /** This leg's results since its plan began (Scheduler.expect): its requests per result. */
  ownTotal: number;
  /** How long a time `all` and `own` were counted over (ms); a window when not told. */
  spanMs?: number;
}

export interface RateShareOptions {
  /**
   * Legs publishing at once on this token (the `legs` hint): start at 1/legs of the limit. One
   * is a leg alone, as none: such a leg learns of others from 429s and counts them, as one told
   * nothing does (a job outside a matrix is told one by the action's default).
   */
  legs?: number;
  /** Jitter, in [0, 1). */
  random: () => number;
}

type State = 'hold' | 'probe' | 'prove' | 'grow';

export class RateShare {
  /** The legs this one believes share the token: the hint, or what 429s and probes told. */
  private legs: number;
  /** The `legs` hint, when it tells of other legs (above one). */
  private readonly hint: number | undefined;
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
  /** A census can be taken (Scheduler.expect): shares are found by counting, not by probes. */
  private counting = false;
  /** When the next census is due. */
  private nextCensus = Infinity;
  /** When this leg last met a 429. */
  private congestedAt = -Infinity;
  private startedAt = 0;
  private censuses = 0;
  private roomBefore = false;
  /**
   * What the last census in a clean window saw of the other legs (requests a window, their
   * censuses included).
   */
  private othersPerWindow: number | undefined;
  /** A census has seen the other legs' results: it counts in the cycle they write to. */
  private seenOthers = false;
  private blindAt: number | undefined;
  /** 429s that what the census saw could not account for. */
  private fellShort = 0;
  /** The most legs a census in a clean window saw publishing: their results' pace over this one's. */
  private mostSeen: number | undefined;

  constructor(
    private readonly limit: RateLimit,
    private readonly policy: RetryPolicy,
    private readonly options: RateShareOptions,
    now: number,
  ) {
    const told = Math.floor(options.legs ?? 1);
    this.hint = told > 1 ? told : undefined;
    this.legs = this.hint ?? 1;
    this.level = limit.count / this.legs;
    this.reached = Math.floor(this.level);
    this.since = now;
    this.settled = now;
    this.settledLevel = this.level;
    this.holdMs = this.hold(this.legs);
  }

  /**
   * This leg plans `requests` more (Scheduler.expect): with the hint, it probes with care; with a
   * census, it counts instead of probing.
   */
  expect(requests: number, census = false, now = 0): void {
    this.plan = Math.max(0, requests);
    this.answeredSincePlan = 0;
    this.counting = census;
    this.censuses = 0;
    this.startedAt = now;
    this.nextCensus = census ? now + this.censusInterval() : Infinity;
  }

  /** The census failed for good (the service refused it): probe, as without one. */
  stopCounting(): void {
    this.counting = false;
    this.nextCensus = Infinity;
  }

  /** It counts the other legs: a census is registered and the token is shared (a hint or a 429). */
  get countsOthers(): boolean {
    return this.counting && this.level < this.limit.count;
  }

  /**
   * A 429 showed that the census cannot see every leg on the token (they write to other cycles,
   * or other tools use it): this leg stopped counting and probes. When, or undefined.
   */
  get blindSince(): number | undefined {
    return this.blindAt;
  }

  /**
   * Told of more legs than its censuses ever saw publishing at once (fewer than censusFewerBelow
   * of them): the legs it was told of and the most it saw. Such a leg started at too small a
   * share and kept it until it counted (a matrix with max-parallel, too few runners, legs that
   * do not publish). Undefined when told of none, before a census in a clean window, or when the
   * census cannot see every leg (the count proves nothing then).
   */
  get fewerLegs(): { told: number; seen: number } | undefined {
    const told = this.hint;
    const seen = this.mostSeen;
    if (told === undefined || seen === undefined || this.blindAt !== undefined) return undefined;
    return seen < this.policy.censusFewerBelow * told ? { told, seen } : undefined;
  }

  /** The `legs` hint when it tells of other legs (above one); a leg told one is a leg alone. */
  get told(): number | undefined {
    return this.hint;
  }

  /** When the next census is due (Infinity: none). */
  get censusAt(): number {
    return this.countsOthers ? this.nextCensus : Infinity;
  }

  /**
   * A census came back, with `inWindow` of this leg's requests in its window. The legs publish
   * alike, so they send about as many requests a result as this one (its requests since the
   * plan began, censuses aside, over its results); with the other legs' censuses, that is what
   * the window holds. Room beyond a margin (and past a dead band that counting cannot resolve)
   * is taken in proportion to this leg's pace, and at least 1/legs of it, so that a leg squeezed
   * small is not kept small; the next census comes once the others' growth is in the window. A
   * census never lowers the share: its counts are noisy, and a 429 says too much for certain.
   */
  counted(now: number, count: CensusCount, inWindow: number): void {
    // A census still on its way when this leg stopped counting (blind, or refused) says nothing.
    if (!this.counting) return;
    const { count: limit, windowMs } = this.limit;
    const { policy } = this;
    this.censuses++;
    this.nextCensus = now + this.censusInterval();
    const perResult =
      count.ownTotal >= policy.censusMeasuredAfter
        ? Math.max(1, (this.answeredSincePlan - this.censuses) / count.ownTotal)
        : policy.censusRequestsPerResult;
    const legs = this.legsCounted();
    const theirCensuses = ((legs - 1) * windowMs) / this.meanCensusInterval();
    const mine = Math.max(1, inWindow);
    const perWindow = windowMs / Math.max(windowMs, count.spanMs ?? windowMs);
    const theirs = Math.max(0, count.all - count.own) * perWindow * perResult;
    const total = mine + theirs + theirCensuses;
    if (theirs >= policy.censusSeenAbove * limit) this.seenOthers = true;
    const room = limit * (1 - policy.censusMargin) - total;
    // The first windows hold the start's reads and creates with no result yet, and windows with
    // 429s hold requests no census sees (results fall while the window is over, and room seen
    // then feeds the storm): act only once the start and this leg's last 429 are well past.
    const cleanFrom = Math.max(
      this.startedAt + 2 * windowMs,
      this.congestedAt + policy.censusCleanWindows * windowMs,
    );
    // What a clean window says of the others is what a 429 is held against (a census while
    // results still fall after a 429 sees too few of them).
    if (now >= cleanFrom) {
      this.othersPerWindow = theirs + theirCensuses;
      this.mostSeen = Math.max(this.mostSeen ?? 0, (mine + theirs) / mine);
    }
    if (now < cleanFrom) {
      this.nextCensus = cleanFrom + 1;
    } else if (room > policy.censusDeadBand * limit) {
      // Room: taken at once when large (a leg is done), else only when the next census, soon,
      // sees it too (a count is off by a few either way, and room that is not there is a 429).
      if (room > policy.censusSureAbove * limit || this.roomBefore) {
        const part = room * Math.min(1, Math.max(mine / total, 1 / legs));
        const from = Math.max(this.level, inWindow);
        // A census that has never seen the other legs may count a cycle they do not write to: it
        // grows the share by steps, so that a 429 says so before the legs together ask for the
        // limit many times over.
        const most = this.seenOthers ? limit - 1 : policy.censusBlindGrowth * from;
        this.level = Math.min(limit - 1, most, from + part);
        // Nearly alone, the rest of a leg that is done is still leaving the window: count soon.
        const alone = theirs < policy.censusAloneBelow * mine;
        this.nextCensus =
          now + (alone ? policy.censusSoonWindows : policy.censusAgainWindows) * windowMs;
        this.roomBefore = false;
      } else {
        this.roomBefore = true;
        this.nextCensus = now + policy.censusSoonWindows * windowMs;
      }
    } else this.roomBefore = false;
    this.legs = this.legsIn(total, mine, 1);
    this.begin('hold', now);
  }

  /**
   * The legs a window of `total` requests holds when this leg has `part` of them: at least
   * `atLeast`, at most the legs the hold counts (shareHoldLegs).
   */
  private legsIn(total: number, part: number, atLeast: number): number {
    return Math.min(
      this.policy.shareHoldLegs,
      Math.max(atLeast, Math.round(total / Math.max(1, part))),
    );
  }

  /** The legs sharing the token, as the hint says (or as 429s and censuses told). */
  private legsCounted(): number {
    return this.hint ?? Math.max(1, this.legs);
  }

  /** Censuses are censusWindows apart, times the legs over censusLegs (jittered). */
  private meanCensusInterval(): number {
    const { censusWindows, censusLegs } = this.policy;
    return censusWindows * Math.max(1, this.legsCounted() / censusLegs) * this.limit.windowMs;
  }

  private censusInterval(): number {
    // Early in its plan no leg is likely done yet; later, a leg done frees room every so often.
    const { censusLateFrom, censusEarly, censusLate } = this.policy;
    const late = !this.plan || this.answeredSincePlan >= censusLateFrom * this.plan;
    return (
      this.meanCensusInterval() * (late ? censusLate : censusEarly) * (0.5 + this.options.random())
    );
  }

  /** Requests this leg may have in one window at `now`. */
  allowance(now: number): number {
    const { count } = this.limit;
    if (this.level >= count) return count;
    const held = Math.max(1, Math.floor(this.level));
    if (this.counting) return held;
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
    if (this.counting) return;
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
    this.congestedAt = now;
    if (this.counting && this.level < count) {
      // The window is full, but what the last clean census saw of the others and what went
      // through of this leg's own fall far short of it: the census cannot see every leg on this
      // token (they write to other cycles, or other tools use it). Once is enough for a census
      // that never saw another leg; one that did (some legs share the cycle) must fall short
      // twice, against a census taken after the first time (legs that collided at the start
      // can fall short once). Then probe, from the part of as many legs as the hint or this
      // window says.
      const others = this.othersPerWindow;
      if (others !== undefined && count - took - others > this.policy.censusBlindAbove * count) {
        this.fellShort++;
        this.othersPerWindow = undefined;
        if (!this.seenOthers || this.fellShort >= 2) {
          this.stopCounting();
          this.blindAt = now;
          this.legs = this.legsIn(count, took, this.hint ?? 2);
          this.level = count / this.legs;
          return this.begin('hold', now);
        }
      }
      // Counting: the window is over. Give up a part at once; a census once the window is
      // clean says where the legs stand.
      this.level = Math.max(1, this.level * this.policy.censusCut);
      return this.begin('hold', now);
    }
    this.streak = 0;
    if (this.state === 'probe' || this.state === 'prove') this.failed++;
    if (this.level >= count) {
      // The first sign of other legs: the share is what went through, and at least the part of
      // one of as many legs as the hold counts (a leg that got nothing through yet asks for a
      // small part of a window others fill, and finds more by probing).
      this.level = Math.max(took, count / this.policy.shareHoldLegs, 1);
      this.legs = this.legsIn(count, this.level, 2);
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
    return this.hint !== undefined && this.plan !== undefined;
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
