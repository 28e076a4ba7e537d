import { parseRateLimit, Scheduler } from '../../src/client/scheduler.js';
import {
  isRepeatable,
  RETRY_RULES,
  retryBudget,
  type RetryRules,
} from '../../src/client/retry-policy.js';
import { ConfigError, InterruptedError } from '../../src/shared/errors.js';
import { FakeClock, settle } from '../helpers/clock.js';

describe('parseRateLimit', () => {
  test.each([
    ['100/1m', 100, 60_000],
    ['50/30s', 50, 30_000],
    ['10/500ms', 10, 500],
    ['5/m', 5, 60_000],
    [' 7 / 2h ', 7, 7_200_000],
  ])('%s', (text, count, windowMs) => {
    expect(parseRateLimit(text)).toEqual({ count, windowMs });
  });

  test.each(['100', '0/1m', '100/0s', 'x/1m', '100/1d', '-1/1m'])(
    'refuses %j naming the setting',
    (text) => {
      expect(() => parseRateLimit(text)).toThrow(ConfigError);
      expect(() => parseRateLimit(text)).toThrow(/^rate-limit: .*COUNT\/WINDOW/);
    },
  );
});

/**
 * Every test runs on a virtual clock (__tests__/helpers/clock.ts): waits and pacing are asserted
 * to the millisecond and cannot flake on a busy machine.
 */
describe('Scheduler', () => {
  const respond = (status: number) => async () => ({
    kind: 'response' as const,
    status,
    value: status,
  });
  /** A scheduler on a virtual clock, without jitter unless a test asks for it. */
  function onClock(options: ConstructorParameters<typeof Scheduler>[0] = {}) {
    const clock = new FakeClock();
    const scheduler = new Scheduler({ clock, random: () => 0, ...options });
    /** An answer after `ms` of virtual time. */
    const later = (ms: number) => new Promise<void>((r) => clock.after(ms, r));
    return { clock, scheduler, later };
  }

  test('an aborted request still waiting for its turn is never sent; the queue goes on without it', async () => {
    const { clock, scheduler } = onClock({
      rateLimit: { count: 1, windowMs: 100 },
      concurrency: 1,
    });
    const sent: string[] = [];
    const send = (name: string) => async () => {
      sent.push(`${name}@${clock.now()}`);
      return { kind: 'response' as const, status: 200, value: name };
    };
    const stop = new AbortController();
    const first = scheduler.schedule({ method: 'GET', repeatable: true }, send('first'));
    const dropped = scheduler
      .schedule({ method: 'POST', repeatable: false, signal: stop.signal }, send('dropped'))
      .catch((e: unknown) => e);
    const last = scheduler.schedule({ method: 'GET', repeatable: true }, send('last'));
    stop.abort();
    expect(await clock.run(dropped)).toBeInstanceOf(InterruptedError);
    await clock.run(Promise.all([first, last]));
    // `last` took the place `dropped` left: one window after `first`.
    expect(sent).toEqual(['first@0', expect.stringMatching(/^last@10[01]$/)]);
    // Already aborted: refused at once.
    await expect(
      scheduler.schedule({ method: 'GET', repeatable: true, signal: stop.signal }, send('never')),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(scheduler.stats.total).toBe(2);
  });

  test('aborted after its turn came but before it was sent (from a promise callback): never sent', async () => {
    const { scheduler } = onClock({ concurrency: 2, rateLimit: { count: 100, windowMs: 1000 } });
    const ok = { kind: 'response' as const, status: 200, value: 0 };
    const stop = new AbortController();
    const answers: ((o: typeof ok) => void)[] = [];
    const answered = () => new Promise<typeof ok>((r) => answers.push(r));
    const a = scheduler.schedule({ method: 'GET', repeatable: true }, answered);
    // The second answer aborts, in the same round of callbacks in which the first answer's slot
    // is handed to the waiting POST.
    const b = scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
      const outcome = await answered();
      stop.abort();
      return outcome;
    });
    const sent: string[] = [];
    const waiting = scheduler
      .schedule({ method: 'POST', repeatable: false, signal: stop.signal }, async () => {
        sent.push('POST');
        return ok;
      })
      .catch((e: unknown) => e);
    await settle();
    expect(answers).toHaveLength(2);
    answers[0]!(ok);
    answers[1]!(ok);
    await Promise.all([a, b]);
    expect(await waiting).toBeInstanceOf(InterruptedError);
    expect(sent).toEqual([]);
    // Its slot was given back: the next request goes.
    const next = await scheduler.schedule({ method: 'GET', repeatable: true }, async () => ok);
    expect(next).toMatchObject({ status: 200 });
    expect(scheduler.stats.total).toBe(3);
  });

  test('never has more than `concurrency` attempts in flight', async () => {
    const { clock, scheduler, later } = onClock({
      concurrency: 3,
      rateLimit: { count: 1000, windowMs: 1000 },
    });
    let inFlight = 0;
    let peak = 0;
    await clock.run(
      Promise.all(
        Array.from({ length: 20 }, () =>
          scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
            peak = Math.max(peak, ++inFlight);
            await later(5);
            inFlight--;
            return { kind: 'response', status: 200, value: null };
          }),
        ),
      ),
      60_000,
      1,
    );
    expect(peak).toBe(3);
    expect(scheduler.stats.total).toBe(20);
    // 20 attempts of 5 ms, 3 at a time: 7 rounds, no slower.
    expect(clock.now()).toBeLessThanOrEqual(7 * 5 + 1);
  });

  test('holds at most COUNT requests in any window, counted from their answers', async () => {
    const { clock, scheduler, later } = onClock({
      concurrency: 10,
      rateLimit: { count: 5, windowMs: 200 },
    });
    const starts: number[] = [];
    const ends: number[] = [];
    await clock.run(
      Promise.all(
        Array.from({ length: 15 }, () =>
          scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
            starts.push(clock.now());
            await later(2);
            ends.push(clock.now());
            return { kind: 'response', status: 200, value: null };
          }),
        ),
      ),
      60_000,
      1,
    );
    starts.sort((a, b) => a - b);
    ends.sort((a, b) => a - b);
    expect(starts.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    // The 6th start waits for the 1st answer to leave the window, and so on; and no longer.
    for (let i = 5; i < starts.length; i++) {
      expect(starts[i]! - ends[i - 5]!).toBeGreaterThanOrEqual(200);
      expect(starts[i]! - ends[i - 5]!).toBeLessThanOrEqual(202);
    }
  });

  test('5xx is retried for repeatable requests only', async () => {
    const { clock, scheduler } = onClock({ retry: { retryBaseMs: 100, maxAttempts: 3 } });
    let calls = 0;
    const flaky = async () => ({
      kind: 'response' as const,
      status: ++calls < 3 ? 503 : 200,
      value: calls,
    });
    const get = await clock.run(scheduler.schedule({ method: 'GET', repeatable: true }, flaky));
    expect(get).toMatchObject({ status: 200, attempts: 3 });
    // Backoffs of 100 ms, then 200 ms (no jitter here).
    expect(clock.now()).toBeGreaterThanOrEqual(300);
    expect(clock.now()).toBeLessThan(400);
    calls = 0;
    const post = await clock.run(scheduler.schedule({ method: 'POST', repeatable: false }, flaky));
    expect(post).toMatchObject({ status: 503, attempts: 1 });
    expect(scheduler.stats).toMatchObject({
      total: 4,
      retried: 2,
      byMethod: { GET: 3, POST: 1 },
      byStatus: { 503: 3, 200: 1 },
    });
  });

  test('a request that never left is repeated even for POST; one that may have arrived is not', async () => {
    const { clock, scheduler } = onClock({ retry: { retryBaseMs: 1 } });
    let calls = 0;
    const refusedOnce = await clock.run(
      scheduler.schedule({ method: 'POST', repeatable: false }, async () =>
        ++calls === 1
          ? { kind: 'network', error: new Error('refused'), sent: false }
          : { kind: 'response', status: 201, value: 1 },
      ),
    );
    expect(refusedOnce).toMatchObject({ kind: 'response', status: 201, attempts: 2 });
    const reset = await clock.run(
      scheduler.schedule({ method: 'POST', repeatable: false }, async () => ({
        kind: 'network',
        error: new Error('reset'),
        sent: true,
      })),
    );
    expect(reset).toMatchObject({ kind: 'network', sent: true, attempts: 1 });
  });

  test('429 pauses everyone, lowers the share, and is retried for any method', async () => {
    const { clock, scheduler } = onClock({
      rateLimit: { count: 40, windowMs: 1000 },
      retry: { rateLimitBaseMs: 50 },
      random: () => 1,
    });
    let calls = 0;
    const sentAt: number[] = [];
    const result = await clock.run(
      scheduler.schedule({ method: 'POST', repeatable: false }, async () => {
        sentAt.push(clock.now());
        return ++calls <= 2
          ? { kind: 'response', status: 429, value: 0 }
          : { kind: 'response', status: 201, value: 1 };
      }),
      60_000,
      1,
    );
    expect(result).toMatchObject({ status: 201, attempts: 3 });
    // The first 429 is the first sign of other legs: 50 ms with the most jitter (+25%), plus a
    // move to a random point of the window (here the latest, 0.3 windows), apart from them.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(62.5 + 300);
    expect(sentAt[1]! - sentAt[0]!).toBeLessThan(62.5 + 300 + 5);
    // Then 100 ms with the most jitter.
    expect(sentAt[2]! - sentAt[1]!).toBeGreaterThanOrEqual(125);
    expect(sentAt[2]! - sentAt[1]!).toBeLessThan(130);
    // Nothing had gone through: the share is a tenth of the limit (the most legs the hold
    // counts), and more as probes find room (one more while a probe is out).
    expect(scheduler.currentAllowance).toBeGreaterThanOrEqual(4);
    expect(scheduler.currentAllowance).toBeLessThanOrEqual(5);
    expect(scheduler.stats.rateLimited).toBe(2);
  });

  test('Retry-After, when a proxy sends one, sets the pause', async () => {
    const { clock, scheduler } = onClock({ retry: { rateLimitBaseMs: 10_000 } });
    let calls = 0;
    const sentAt: number[] = [];
    await clock.run(
      scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
        sentAt.push(clock.now());
        return ++calls === 1
          ? { kind: 'response', status: 429, retryAfterMs: 30, value: 0 }
          : { kind: 'response', status: 200, value: 1 };
      }),
      60_000,
      1,
    );
    // 30 ms as asked, not the 10 s of its own backoff.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(30);
    expect(sentAt[1]! - sentAt[0]!).toBeLessThan(40);
  });

  test('gives up after maxRateLimitAttempts and returns the 429', async () => {
    const { clock, scheduler } = onClock({
      retry: { rateLimitBaseMs: 1, maxRateLimitAttempts: 3 },
    });
    const result = await clock.run(
      scheduler.schedule({ method: 'GET', repeatable: true }, respond(429)),
    );
    expect(result).toMatchObject({ status: 429, attempts: 3 });
  });
});

describe('RETRY_RULES: which attempts go again, and on which budget', () => {
  const lost = (code: string | undefined, sent: boolean) => ({ code, sent });

  test.each([
    ['a 429, any method', false, { status: 429 }, 'maxRateLimitAttempts'],
    ['a 503 to a repeatable request', true, { status: 503 }, 'maxAttempts'],
    ['a 503 to a create (it may have been processed)', false, { status: 503 }, undefined],
    ['a 404', true, { status: 404 }, undefined],
    ['a 412 (the 412 loop has its own rounds)', true, { status: 412 }, undefined],
    ['nothing listens', false, lost('ECONNREFUSED', false), 'maxRefusedAttempts'],
    ['TLS spoken to a plain HTTP port', true, lost('EPROTO', false), undefined],
    ['a reset after a create left', false, lost('ECONNRESET', true), undefined],
    ['a reset after a repeatable request left', true, lost('ECONNRESET', true), 'maxAttempts'],
    ['a create that never left', false, lost(undefined, false), 'maxAttempts'],
  ] as const)('%s', (_, repeatable, outcome, budget) => {
    expect(retryBudget(repeatable, outcome)).toBe(budget);
  });

  test('the methods safe to repeat: GET always, a write with If-Match, a create never', () => {
    expect(isRepeatable('GET', false)).toBe(true);
    expect(isRepeatable('PATCH', true)).toBe(true);
    expect(isRepeatable('PATCH', false)).toBe(false);
    expect(isRepeatable('DELETE', true)).toBe(true);
    expect(isRepeatable('POST', false)).toBe(false);
    expect(isRepeatable('POST', true)).toBe(true);
  });

  test('the decision is the table: a status or an error added to it is retried on its budget', () => {
    const rules: RetryRules = {
      ...RETRY_RULES,
      statuses: [
        ...RETRY_RULES.statuses,
        { from: 408, to: 408, budget: 'maxAttempts', anyMethod: false },
      ],
      errorBudgets: { ...RETRY_RULES.errorBudgets, ENOTFOUND: 'maxRefusedAttempts' },
    };
    expect(retryBudget(true, { status: 408 })).toBeUndefined();
    expect(retryBudget(true, { status: 408 }, rules)).toBe('maxAttempts');
    expect(retryBudget(false, lost('ENOTFOUND', false))).toBe('maxAttempts');
    expect(retryBudget(false, lost('ENOTFOUND', false), rules)).toBe('maxRefusedAttempts');
  });

  test('a Retry-After longer than the bound the rules name fails at once, naming the wait', async () => {
    const clock = new FakeClock();
    const scheduler = new Scheduler({ clock, random: () => 0, retry: { maxBackoffMs: 5_000 } });
    const out = await clock.run(
      scheduler.schedule({ method: 'GET', repeatable: true }, async () => ({
        kind: 'response' as const,
        status: 429,
        retryAfterMs: 6_000,
        value: 0,
      })),
    );
    expect(RETRY_RULES.retryAfterAtMost).toBe('maxBackoffMs');
    expect(out).toMatchObject({ status: 429, attempts: 1 });
    expect(out.gaveUp).toMatch(/asked to wait 6 s \(Retry-After\).*more than the 5 s/);
  });
});
