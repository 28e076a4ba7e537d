/**
 * A leg's share of the rate limit (src/client/share.ts, docs/architecture.md "Retry policy"): legs
 * that share nothing but the service's window, on a virtual clock (__tests__/helpers/legs.ts).
 * Timings are asserted in windows of virtual time; nothing here sleeps or depends on the machine.
 */
import { FakeClock } from '../helpers/clock.js';
import { runLegs, SimulatedWindow } from '../helpers/legs.js';
import type { RateWindowMode } from '../../src/shared/rate.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/client/retry-policy.js';
import { RateShare } from '../../src/client/share.js';
import { ServiceClient } from '../../src/client/client.js';
import { Scheduler } from '../../src/client/scheduler.js';
import { clientSettings } from '../../src/client/index.js';
import { settingsFrom } from '../../src/shared/setting-readers.js';
import { jobClientSettings } from '../../src/job/job.js';

const LIMIT = { count: 20, windowMs: 1000 };
const W = LIMIT.windowMs;

/** [start, requests of `leg` that went through] for each whole window from `from` to `to`. */
function perWindow(window: SimulatedWindow, leg: number, from: number, to: number) {
  const out: [number, number][] = [];
  for (let t = from; t + W <= to; t += W) out.push([t, window.took(t, t + W, leg)]);
  return out;
}

describe.each<RateWindowMode>(['sliding', 'fixed'])('a %s window', (mode) => {
  test('a lone publisher is never slowed: the whole limit from its first request, no 429', async () => {
    const window = new SimulatedWindow(new FakeClock(), LIMIT, mode);
    const requests = 10 * LIMIT.count + 1;
    await runLegs(window, [{ requests }]);
    expect(window.refused(0, Infinity)).toBe(0);
    // The floor: request k cannot go before floor(k / 20) windows; the last one went then, give
    // or take the round trips that pacing by answers adds (a few ms a window) and the first
    // window's spread (at most a fifth of it).
    const last = window.arrivals.at(-1)!.at - window.arrivals[0]!.at;
    expect(last).toBeGreaterThanOrEqual(10 * W - (mode === 'fixed' ? W : 0));
    expect(last).toBeLessThan(10 * W + 0.2 * W + 10 * 15);
  });

  test('a 429 lowers the pace; without one it climbs back to the whole limit within a few windows', async () => {
    const window = new SimulatedWindow(new FakeClock(), LIMIT, mode);
    // B, told of two legs, holds half the limit for about ten windows; A, alone as it thinks,
    // starts at the whole limit a little later and runs on.
    const [a, b] = await runLegs(
      window,
      [
        { requests: Infinity, startMs: 300 },
        { requests: 100, legs: 2 },
      ],
      { untilMs: 30 * W },
    );
    const bDone = b!.doneAt!;
    // A met a 429 in its first window and fell: in a sliding window to about the half B leaves
    // it; in a fixed one, where B's requests early in each window find room first, further.
    expect(window.refused(0, 2 * W, 0)).toBeGreaterThan(0);
    const meanwhile = perWindow(window, 0, 2 * W, bDone - W).map(([, n]) => n);
    expect(meanwhile.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...meanwhile)).toBeLessThanOrEqual(mode === 'sliding' ? 13 : 10);
    if (mode === 'sliding') expect(Math.min(...meanwhile)).toBeGreaterThanOrEqual(7);
    // B done, A takes the whole limit within four windows (one request more per window would
    // take ten), and keeps it without a 429 (pacing by answers leaves a few ms a window).
    const back = Math.ceil((bDone + 4 * W) / W) * W;
    expect(a!.scheduler.currentAllowance).toBe(LIMIT.count);
    expect(perWindow(window, 0, back, 30 * W).filter(([, n]) => n < 18)).toEqual([]);
    expect(window.refused(back, Infinity)).toBe(0);
  });
});

describe('four busy legs told of each other (legs 4) on one token', () => {
  const run = async (mode: RateWindowMode) => {
    const window = new SimulatedWindow(new FakeClock(), LIMIT, mode);
    await runLegs(
      window,
      [0, 1, 2, 3].map((k) => ({ requests: Infinity, startMs: 150 * k, legs: 4 })),
      { untilMs: 60 * W },
    );
    const shares = [0, 1, 2, 3].map((k) => window.took(20 * W, 60 * W, k));
    return { window, shares, total: window.took(20 * W, 60 * W) };
  };

  test('in a sliding window they stay on about a quarter each, and the limit is used', async () => {
    const { shares, total } = await run('sliding');
    // Windows 20 to 60: each leg between half and one and a half of a fair quarter.
    for (const share of shares) {
      expect(share).toBeGreaterThanOrEqual(0.5 * (total / 4));
      expect(share).toBeLessThanOrEqual(1.5 * (total / 4));
    }
    // What probes cost (a 429 takes a place in the window): most of the limit still goes.
    expect(total).toBeGreaterThanOrEqual(0.8 * 40 * LIMIT.count);
  });

  test('in a fixed window the limit is used in full (the legs first in each window take more)', async () => {
    const { total } = await run('fixed');
    expect(total).toBeGreaterThanOrEqual(0.95 * 40 * LIMIT.count);
  });
});

describe.each<RateWindowMode>(['sliding', 'fixed'])(
  'three legs told of each other and of their own writes (Scheduler.expect), a %s window',
  (mode) => {
    // The bench's shapes (bench/legs-bench.mjs): 600 results in shards of 1x, 1.5x and 2x, two
    // requests a result and four more, 60 requests per 3 s, legs starting up to 0.2 s apart.
    const limit = { count: 60, windowMs: 3000 };
    const run = async (seed: number) => {
      const window = new SimulatedWindow(new FakeClock(), limit, mode);
      const plans = [1, 1.5, 2].map((w, k) => ({
        requests: 2 * Math.round((600 * w) / 4.5) + 4,
        startMs: 70 * k,
        legs: 3,
        expect: true,
      }));
      await runLegs(window, plans, { seed, latencyMs: 10, untilMs: 200 * limit.windowMs });
      const took = window.took(0, Infinity);
      const floor = (Math.ceil(took / limit.count) - 1) * limit.windowMs;
      const wall = window.arrivals.at(-1)!.at - window.arrivals[0]!.at;
      return { ratio: wall / floor, refused: window.refused(0, Infinity) };
    };

    test('they probe late in their plans: near the floor, and few 429s', async () => {
      const runs = [];
      for (const seed of [1, 2, 3, 4]) runs.push(await run(seed));
      // Without the plan, probes while the legs fill the window cost 19 to 100 429s a run.
      for (const { ratio, refused } of runs) {
        expect(ratio).toBeLessThanOrEqual(1.2);
        expect(refused).toBeLessThanOrEqual(25);
      }
      expect(runs.reduce((n, r) => n + r.refused, 0)).toBeLessThanOrEqual(80);
    });
  },
);

test('the legs setting (--legs, input legs) reaches the pace: legs 3 starts at a third of the limit', async () => {
  const settings = clientSettings(
    settingsFrom({ 'base-url': 'https://eu.example.com', token: 'tok-0123456789', legs: '3' }),
  );
  expect(settings.legs).toBe(3);
  const client = new ServiceClient({ ...settings, clock: new FakeClock() });
  expect(client.scheduler.currentAllowance).toBe(33);
  await client.close();
  const alone = new ServiceClient({ ...settings, legs: undefined, clock: new FakeClock() });
  expect(alone.scheduler.currentAllowance).toBe(100);
  await alone.close();
});

describe.each<RateWindowMode>(['sliding', 'fixed'])(
  'legs that count every leg’s results (a census), a %s window',
  (mode) => {
    // The bench's shapes (bench/legs-bench.mjs), as above; each leg can count the results every
    // leg wrote in the last window (src/publish/census.ts), at the price of one request.
    const limit = { count: 60, windowMs: 3000 };
    const run = async (
      legs: number,
      seed: number,
      census = true,
      {
        cycles = 1,
        hint = true,
        policy = {},
        atOnce = legs,
        told = hint ? legs : undefined,
      }: {
        cycles?: number;
        hint?: boolean;
        policy?: Partial<RetryPolicy>;
        atOnce?: number;
        told?: number | undefined;
      } = {},
    ) => {
      const window = new SimulatedWindow(new FakeClock(), limit, mode);
      const weights = Array.from({ length: legs }, (_, k) => 1 + k / (legs - 1));
      const sum = weights.reduce((a, b) => a + b, 0);
      const plans = weights.map((w, k) => ({
        requests: 2 * Math.round((600 * w) / sum) + 4,
        // `atOnce` legs run at a time: the next starts when one is done.
        startMs: k < atOnce ? 70 * k : 0,
        after: k < atOnce ? undefined : k - atOnce,
        legs: told,
        expect: true,
        census,
        cycle: k % cycles,
      }));
      const ran = await runLegs(window, plans, {
        seed,
        latencyMs: 10,
        untilMs: 200 * limit.windowMs,
        policy,
      });
      const censuses = window.arrivals.filter((a) => a.census).length;
      // The floor of the publish's own requests: what the censuses cost shows in the wall time.
      const took = window.took(0, Infinity) - censuses;
      const floor = (Math.ceil(took / limit.count) - 1) * limit.windowMs;
      const wall = window.arrivals.at(-1)!.at - window.arrivals[0]!.at;
      const blind = ran.filter((leg) => leg.blind).length;
      // Legs that say they were told of more legs than their counts ever saw (Scheduler.fewerLegs).
      const fewer = ran.filter((leg) => leg.scheduler.fewerLegs).length;
      return {
        ratio: wall / floor,
        refused: window.refused(0, Infinity),
        censuses,
        took,
        blind,
        fewer,
      };
    };

    test('three legs: near the floor with at most three 429s, for about one request in thirty', async () => {
      for (const seed of [1, 2, 3, 4]) {
        const { ratio, refused, censuses, took, blind } = await run(3, seed);
        // Probing instead (the test above) costs 19 to 100 429s a run.
        expect(blind).toBe(0);
        expect(refused).toBeLessThanOrEqual(3);
        expect(ratio).toBeLessThanOrEqual(1.13);
        expect(censuses / took).toBeLessThan(0.035);
      }
    });

    test('ten legs: at most ten 429s, where probing for room costs dozens', async () => {
      for (const seed of [1, 2]) {
        const counted = await run(10, seed);
        expect(counted.blind).toBe(0);
        expect(counted.refused).toBeLessThanOrEqual(10);
        expect(counted.ratio).toBeLessThanOrEqual(1.25);
        const probed = await run(10, seed, false);
        expect(probed.refused).toBeGreaterThan(counted.refused + 10);
      }
    });

    // A matrix that runs two legs at a time (max-parallel: 2, or two free runners) starts a leg
    // when one is done. Told how many run at once, the legs publish near the floor. Told every
    // leg of the matrix, a leg starts at a tenth of the limit and keeps about that until its
    // first count, late in its plan (no leg is likely done early): the README's matrix recipe
    // gives the smaller of strategy.max-parallel and strategy.job-total.
    test('ten legs two at a time: told two, near the floor; told ten, over twice as slow', async () => {
      for (const seed of [1, 2]) {
        const two = await run(10, seed, true, { atOnce: 2, told: 2 });
        expect(two.refused).toBeLessThanOrEqual(10);
        expect(two.ratio).toBeLessThanOrEqual(1.3);
        const ten = await run(10, seed, true, { atOnce: 2, told: 10 });
        expect(ten.ratio).toBeGreaterThan(2 * two.ratio);
        // Told ten, most legs never count more than four at once, and say so when done.
        expect(two.fewer).toBe(0);
        expect(ten.fewer).toBeGreaterThanOrEqual(6);
      }
    });

    test('a leg told of more legs than its counts ever saw says so when done; legs that all publish do not', async () => {
      for (const seed of [1, 2]) {
        expect((await run(3, seed)).fewer).toBe(0);
        expect((await run(10, seed)).fewer).toBe(0);
        // Alone, told of ten: it counts one, itself.
        const window = new SimulatedWindow(new FakeClock(), limit, mode);
        const [alone] = await runLegs(
          window,
          [{ requests: 1204, legs: 10, expect: true, census: true }],
          { seed, latencyMs: 10, untilMs: 200 * limit.windowMs },
        );
        expect(alone!.scheduler.fewerLegs).toEqual({ told: 10, seen: expect.any(Number) });
        expect(alone!.scheduler.fewerLegs!.seen).toBeLessThan(1.2);
      }
    });

    // A census counts one cycle. Legs that write to cycles of their own (a cycle per platform),
    // or other tools on the token, send what it cannot see: it shows room that is not there.
    // Believed, it sends the legs into the limit window after window; a 429 that the census
    // cannot account for makes them probe instead.
    const unseeing = { censusBlindAbove: Infinity, censusBlindGrowth: Infinity };
    test.each([
      [3, 'cycles of their own', 3, true],
      [10, 'cycles of their own', 10, true],
      [10, 'two cycles', 2, true],
      [3, 'cycles of their own, without legs', 3, false],
    ])(
      '%i legs writing to %s: a 429 shows the census blind, and they probe',
      async (legs, _, cycles, hint) => {
        const sum = { blind: 0, believed: 0, blindRatio: 0, believedRatio: 0 };
        const seeds = [1, 2, 3, 4];
        for (const seed of seeds) {
          const blind = await run(legs, seed, true, { cycles, hint });
          const believed = await run(legs, seed, true, { cycles, hint, policy: unseeing });
          expect(believed.blind).toBe(0);
          expect(believed.refused).toBeGreaterThan(30);
          // The legs that counted alone stopped counting (all but perhaps one, done before a 429
          // told it); with legs it could not all see, some.
          expect(blind.blind).toBeGreaterThanOrEqual(cycles === legs ? legs - 1 : 1);
          sum.blind += blind.refused;
          sum.believed += believed.refused;
          sum.blindRatio += blind.ratio / seeds.length;
          sum.believedRatio += believed.ratio / seeds.length;
        }
        // Probing costs 429s too, and more in a fixed window (a probe early in a full window
        // goes through): there, only legs told of each other that each count alone gain.
        if (mode === 'sliding' || (hint && cycles === legs))
          expect(sum.blind).toBeLessThan(0.7 * sum.believed);
        if (mode === 'sliding') expect(sum.blindRatio).toBeLessThan(sum.believedRatio);
      },
    );
  },
);

test('a lone publisher never takes a census, and a leg whose census is refused probes instead', async () => {
  const window = new SimulatedWindow(new FakeClock(), LIMIT, 'sliding');
  await runLegs(window, [{ requests: 10 * LIMIT.count, expect: true, census: true }]);
  expect(window.arrivals.filter((a) => a.census)).toEqual([]);
  expect(window.refused(0, Infinity)).toBe(0);

  const clock = new FakeClock();
  const scheduler = new Scheduler({ clock, rateLimit: LIMIT, legs: 2, random: () => 0.5 });
  let asked = 0;
  scheduler.expect(100, async () => {
    asked++;
    throw new Error('refused');
  });
  const later = (ms: number) => new Promise<void>((r) => clock.after(ms, r));
  const sends = Array.from({ length: 60 }, () =>
    scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
      await later(5);
      return { kind: 'response' as const, status: 200, value: null };
    }),
  );
  await clock.run(Promise.all(sends), 60 * W, W / 20);
  scheduler.close();
  expect(asked).toBe(1);
});

test('a leg that counts sends evenly over the window, one that does not in bursts', async () => {
  const gaps = async (census: boolean) => {
    const clock = new FakeClock();
    const scheduler = new Scheduler({ clock, rateLimit: LIMIT, legs: 2, random: () => 0.5 });
    scheduler.expect(100, census ? async () => undefined : undefined);
    const sent: number[] = [];
    const later = (ms: number) => new Promise<void>((r) => clock.after(ms, r));
    const all = Array.from({ length: 40 }, () =>
      scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
        sent.push(clock.now());
        await later(5);
        return { kind: 'response' as const, status: 200, value: null };
      }),
    );
    await clock.run(Promise.all(all), 60 * W, W / 50);
    scheduler.close();
    // After the first window (the start's spread), the gaps between sends.
    const steady = sent.filter((t) => t >= sent[0]! + W);
    return steady.slice(1).map((t, i) => t - steady[i]!);
  };
  // Half the limit each: 10 a window, so 100 ms apart, give or take a tenth.
  expect(Math.min(...(await gaps(true)))).toBeGreaterThanOrEqual(0.9 * (W / 10) - 1);
  expect(Math.min(...(await gaps(false)))).toBeLessThan(20);
});

test("without legs, a job takes the CI's count of its parallel copies (GitLab parallel, CircleCI, Buildkite); legs given wins", () => {
  const given = (extra: Record<string, string> = {}) =>
    settingsFrom({ 'base-url': 'https://eu.example.com', token: 'tok-0123456789', ...extra });
  expect(jobClientSettings(given(), { CI_NODE_TOTAL: '4' }).legs).toBe(4);
  expect(jobClientSettings(given(), { CIRCLE_NODE_TOTAL: '3' }).legs).toBe(3);
  expect(jobClientSettings(given(), { BUILDKITE_PARALLEL_JOB_COUNT: '6' }).legs).toBe(6);
  expect(jobClientSettings(given({ legs: '2' }), { CI_NODE_TOTAL: '4' }).legs).toBe(2);
  // A job alone, and what is no count, leave the whole limit to the job.
  for (const value of ['1', '', ' ', 'three', '2.5', '-3', '1e3', '100000'])
    expect(jobClientSettings(given(), { CI_NODE_TOTAL: value }).legs).toBeUndefined();
  expect(jobClientSettings(given(), {}).legs).toBeUndefined();
  // Through the client: a third of the limit for each of three copies.
  const client = new ServiceClient({
    ...jobClientSettings(given(), { CI_NODE_TOTAL: '3' }),
    clock: new FakeClock(),
  });
  expect(client.scheduler.currentAllowance).toBe(33);
  void client.close();
});

// The action's default gives a job outside a matrix `legs` 1 (strategy.job-total): it must pace
// as a job told nothing, learning of other users of the token from its 429s and counting them.
test('a leg told of one leg is a leg alone: it paces, meets a 429 and counts as one told nothing', () => {
  const limit = { count: 60, windowMs: 3000 };
  const run = (legs: number | undefined) => {
    const share = new RateShare(limit, DEFAULT_RETRY_POLICY, { legs, random: () => 0.5 }, 0);
    share.expect(600, true, 0);
    const seen: unknown[] = [share.allowance(0), share.countsOthers];
    // Someone else on the token: a 429 with thirty of this job's own in the window.
    share.congested(500, 30, 30);
    seen.push(share.allowance(600), share.countsOthers);
    // A clean census: ten of the others' results beside ten of its own; room of about twenty.
    const clean = 500 + DEFAULT_RETRY_POLICY.censusCleanWindows * limit.windowMs + 1;
    share.counted(clean, { all: 20, own: 10, ownTotal: 10, spanMs: limit.windowMs }, 30);
    seen.push(share.allowance(clean), share.fewerLegs);
    return seen;
  };
  const alone = run(undefined);
  expect(alone).toEqual([60, false, 30, true, expect.any(Number), undefined]);
  // It takes a part of the room, as one of the two it learned of; not all of it.
  expect(alone[4]).toBeGreaterThan(30);
  expect(alone[4]).toBeLessThan(30 + 19);
  expect(run(1)).toEqual(alone);
  expect(run(0)).toEqual(alone);
  // Told of two, it starts at half the limit.
  expect(run(2)[0]).toBe(30);
});

describe('a census that cannot see every leg (RateShare)', () => {
  const limit = { count: 60, windowMs: 3000 };
  const start = () => {
    const share = new RateShare(limit, DEFAULT_RETRY_POLICY, { legs: 3, random: () => 0.5 }, 0);
    share.expect(600, true, 0);
    return share;
  };
  // Past the start's clean windows: what a census sees now counts.
  const t = 3 * limit.windowMs;
  const alone = { all: 10, own: 10, ownTotal: 10, spanMs: limit.windowMs };
  const shared = { all: 30, own: 10, ownTotal: 10, spanMs: limit.windowMs };

  test('one that never saw another leg grows a share at most twofold; a 429 it cannot account for makes the leg probe', () => {
    const share = start();
    expect(share.allowance(t)).toBe(20);
    // Alone in its cycle, as it sees: room for about forty more, of which it takes twenty.
    share.counted(t, alone, 20);
    expect(share.allowance(t)).toBe(2 * 20);
    expect(share.censusAt).toBeLessThan(Infinity);
    // The window is full, with twenty of this leg's own in it and none the census saw.
    share.congested(t + 500, 20, 8);
    expect(share.blindSince).toBe(t + 500);
    expect(share.censusAt).toBe(Infinity);
    expect(share.countsOthers).toBe(false);
    // It probes from a third of the limit, as the hint says (and not yet: early in its plan).
    expect(share.allowance(t + 600)).toBe(20);
    // A census that was on its way says nothing now, even once the window is clean again.
    const clean = t + 500 + DEFAULT_RETRY_POLICY.censusCleanWindows * limit.windowMs + 100;
    share.counted(clean, alone, 20);
    expect(share.allowance(clean)).toBe(20);
  });

  test('one that saw other legs must fall short twice, each time against a census taken after a 429', () => {
    const share = start();
    share.counted(t, shared, 20);
    const grown = share.allowance(t);
    expect(grown).toBeGreaterThan(20);
    expect(grown).toBeLessThan(40);
    // Full, with twenty of its own and the twenty of the others it saw: fifteen more it cannot see.
    share.congested(t + 500, 20, 8);
    expect(share.blindSince).toBeUndefined();
    expect(share.allowance(t + 500)).toBe(Math.floor(grown * DEFAULT_RETRY_POLICY.censusCut));
    // Another 429 with no census since is not held against the old one.
    share.congested(t + 1500, 20, 8);
    expect(share.blindSince).toBeUndefined();
    // A census once the window is clean, then a 429 short again: blind.
    const clean = t + 1500 + DEFAULT_RETRY_POLICY.censusCleanWindows * limit.windowMs + 1;
    share.counted(clean, shared, 20);
    share.congested(clean + 500, 20, 8);
    expect(share.blindSince).toBe(clean + 500);
    expect(share.censusAt).toBe(Infinity);
  });

  test('a 429 the census accounts for only lowers the share', () => {
    const share = start();
    share.counted(t, shared, 20);
    // Full, with forty of its own and the twenty of the others it saw.
    share.congested(t + 500, 40, 8);
    share.congested(t + 1500 + 2 * limit.windowMs, 40, 8);
    expect(share.blindSince).toBeUndefined();
    expect(share.countsOthers).toBe(true);
  });
});
