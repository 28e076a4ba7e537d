/**
 * Progress of long work: a line at each 5% step (at most one a second) or every interval, with the
 * time left from the requests left, at the larger of the measured pace and the rate limit's; and
 * estimates that hold from the first one when a run's first burst goes through the window at once.
 */
import { Scheduler } from '../../src/client/scheduler.js';
import { formatDuration, Progress, RequestTrail } from '../../src/domain/progress.js';
import { FakeClock } from '../helpers/clock.js';

function runOf(total: number, msPerResult: number, intervalMs?: number) {
  let now = 0;
  const lines: string[] = [];
  const progress = new Progress(total, {
    sink: (line) => lines.push(line),
    intervalMs,
    requests: () => now / 100,
    now: () => now,
    requestsPerUnit: 6,
  });
  progress.begin(` (${total - 2} new, 2 changed, 5 unchanged)`);
  for (let i = 0; i < total; i++) {
    now += msPerResult;
    progress.step();
  }
  progress.end();
  return lines;
}

test('a slow publish: a line at each 5% step, with the time left at the pace so far', () => {
  const lines = runOf(100, 600);
  expect(lines[0]).toBe('writing 100 results (98 new, 2 changed, 5 unchanged)');
  // 5, 10, ... 100: twenty lines after the first, no duplicate at the end.
  expect(lines).toHaveLength(21);
  expect(lines[1]).toBe('5/100 results written, 30 requests, about 57 s left');
  expect(lines[10]).toBe('50/100 results written, 300 requests, about 30 s left');
  expect(lines[20]).toBe('100/100 results written, 600 requests');
});

test('a fast publish stays quiet: at most one line a second, and the last one', () => {
  const lines = runOf(100, 5);
  expect(lines).toEqual([
    'writing 100 results (98 new, 2 changed, 5 unchanged)',
    '100/100 results written, 5 requests',
  ]);
});

test('nothing to write: no line', () => {
  expect(runOf(0, 10)).toEqual([]);
});

/**
 * A publish through the real scheduler on a virtual clock: `units` units of `perUnit` requests,
 * each answered after `latencyMs`, four at once, under `count` a minute. Every line with its time.
 */
async function paced(options: {
  units: number;
  perUnit: number;
  latencyMs: number;
  count: number;
  before?: number;
  unit?: { one: string; many: string; done: string };
}) {
  const clock = new FakeClock();
  const rateLimit = { count: options.count, windowMs: 60_000 };
  const scheduler = new Scheduler({ clock, rateLimit, concurrency: 4 });
  const send = () =>
    scheduler.schedule<number>({ method: 'POST', repeatable: false }, () => {
      return new Promise((resolve) =>
        clock.after(options.latencyMs, () => resolve({ kind: 'response', status: 201, value: 0 })),
      );
    });
  const trail = new RequestTrail();
  trail.record(clock.now(), 0);
  // The reads before the work (the project, the cycle, the case lookups).
  for (let i = 0; i < (options.before ?? 0); i++) await clock.run(send());
  const lines: [number, string][] = [];
  const progress = new Progress(options.units, {
    sink: (line) => lines.push([clock.now(), line]),
    requests: () => scheduler.stats.total,
    now: () => clock.now(),
    rateLimit,
    requestsPerUnit: options.perUnit,
    trail,
    unit: options.unit,
  });
  const started = clock.now();
  progress.begin();
  let next = 0;
  const worker = async () => {
    while (next < options.units) {
      next++;
      for (let r = 0; r < options.perUnit; r++) await send();
      progress.step();
    }
  };
  await clock.run(Promise.all([worker(), worker(), worker(), worker()]));
  progress.end();
  return { lines, started, finished: clock.now() };
}

const CASES = { one: 'test case', many: 'test cases', done: 'created' };

/** `about 18 min 3 s left` (or `at the rate limit`) in ms. */
function leftOf(line: string): number | undefined {
  const m = /about ((?:(\d+) min)? ?(?:(\d+) s)?) (?:left|at the rate limit)/.exec(line);
  return m ? (Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : undefined;
}

describe('the time left holds within 20% from the first estimate on', () => {
  test.each([
    [
      '1,000 new results at 100 a minute',
      { units: 1000, perUnit: 2, latencyMs: 40, count: 100, before: 6 },
    ],
    [
      '300 new results at 100 a minute, slow answers',
      { units: 300, perUnit: 2, latencyMs: 900, count: 100, before: 6 },
    ],
    [
      '400 test cases created at 100 a minute',
      { units: 400, perUnit: 1, latencyMs: 60, count: 100, before: 8 },
    ],
    [
      '2,000 new results at 6000 a minute (the pace, not the limit)',
      { units: 2000, perUnit: 2, latencyMs: 30, count: 6000 },
    ],
  ])(
    '%s',
    async (_what, options) => {
      const { lines, started, finished } = await paced(options);
      const estimates = lines
        .map(([at, line]) => [finished - at, leftOf(line), line] as const)
        .filter(([, left]) => left !== undefined);
      expect(estimates.length).toBeGreaterThan(5);
      for (const [actual, left, line] of estimates) {
        // A minute's rounding aside: within 20% of what was really left, or 5 s near the end.
        expect({ line, off: Math.abs(left! - actual) <= Math.max(0.2 * actual, 5_000) }).toEqual({
          line,
          off: true,
        });
      }
      // The first line already says how long the rate limit makes it (when that is long).
      if (options.count === 100) expect(lines[0]![1]).toMatch(/ at the rate limit$/);
      expect(finished - started).toBeGreaterThan(0);
    },
    60_000,
  );
});

test('creating test cases shows a count, as the writes do', async () => {
  const { lines } = await paced({
    units: 150,
    perUnit: 1,
    latencyMs: 50,
    count: 100,
    unit: CASES,
  });
  expect(lines[0]![1]).toBe('creating 150 test cases; about 60 s at the rate limit');
  expect(lines.at(-1)![1]).toBe('150/150 test cases created, 150 requests');
  expect(
    lines
      .slice(1, -1)
      .every(([, l]) => /^\d+\/150 test cases created, \d+ requests, about /.test(l)),
  ).toBe(true);
});

test.each([
  [250, '250ms'],
  [4_400, '4s'],
  [59_600, '1m00s'],
  [754_000, '12m34s'],
])('formatDuration(%i) is %s', (ms, text) => {
  expect(formatDuration(ms)).toBe(text);
});
