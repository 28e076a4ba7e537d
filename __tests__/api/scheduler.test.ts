import { parseRateLimit, Scheduler } from '../../src/api/scheduler.js';
import { ConfigError, InterruptedError } from '../../src/shared/errors.js';

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

describe('Scheduler', () => {
  const respond = (status: number) => async () => ({
    kind: 'response' as const,
    status,
    value: status,
  });

  test('an aborted request still waiting for its turn is never sent; the queue goes on without it', async () => {
    const scheduler = new Scheduler({ rateLimit: { count: 1, windowMs: 100 }, concurrency: 1 });
    const sent: string[] = [];
    const send = (name: string) => async () => {
      sent.push(name);
      return { kind: 'response' as const, status: 200, value: name };
    };
    const stop = new AbortController();
    const first = scheduler.schedule({ method: 'GET', repeatable: true }, send('first'));
    const dropped = scheduler
      .schedule({ method: 'POST', repeatable: false, signal: stop.signal }, send('dropped'))
      .catch((e: unknown) => e);
    const last = scheduler.schedule({ method: 'GET', repeatable: true }, send('last'));
    stop.abort();
    expect(await dropped).toBeInstanceOf(InterruptedError);
    await Promise.all([first, last]);
    expect(sent).toEqual(['first', 'last']);
    // Already aborted: refused at once.
    await expect(
      scheduler.schedule({ method: 'GET', repeatable: true, signal: stop.signal }, send('never')),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(scheduler.stats.total).toBe(2);
  });

  test('never has more than `concurrency` attempts in flight', async () => {
    const scheduler = new Scheduler({ concurrency: 3, rateLimit: { count: 1000, windowMs: 1000 } });
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
          peak = Math.max(peak, ++inFlight);
          await new Promise((r) => setTimeout(r, 5));
          inFlight--;
          return { kind: 'response', status: 200, value: null };
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(scheduler.stats.total).toBe(20);
  });

  test('holds at most COUNT requests in any window, counted from their answers', async () => {
    const scheduler = new Scheduler({ concurrency: 10, rateLimit: { count: 5, windowMs: 200 } });
    const starts: number[] = [];
    const ends: number[] = [];
    await Promise.all(
      Array.from({ length: 15 }, () =>
        scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
          starts.push(performance.now());
          await new Promise((r) => setTimeout(r, 2));
          ends.push(performance.now());
          return { kind: 'response', status: 200, value: null };
        }),
      ),
    );
    starts.sort((a, b) => a - b);
    ends.sort((a, b) => a - b);
    // The 6th start waits for the 1st answer to leave the window, and so on.
    for (let i = 5; i < starts.length; i++)
      expect(starts[i]! - ends[i - 5]!).toBeGreaterThanOrEqual(199);
  });

  test('5xx is retried for repeatable requests only', async () => {
    const scheduler = new Scheduler({ retry: { retryBaseMs: 1, maxAttempts: 3 } });
    let calls = 0;
    const flaky = async () => ({
      kind: 'response' as const,
      status: ++calls < 3 ? 503 : 200,
      value: calls,
    });
    const get = await scheduler.schedule({ method: 'GET', repeatable: true }, flaky);
    expect(get).toMatchObject({ status: 200, attempts: 3 });
    calls = 0;
    const post = await scheduler.schedule({ method: 'POST', repeatable: false }, flaky);
    expect(post).toMatchObject({ status: 503, attempts: 1 });
    expect(scheduler.stats).toMatchObject({
      total: 4,
      retried: 2,
      byMethod: { GET: 3, POST: 1 },
      byStatus: { 503: 3, 200: 1 },
    });
  });

  test('a request that never left is repeated even for POST; one that may have arrived is not', async () => {
    const scheduler = new Scheduler({ retry: { retryBaseMs: 1 } });
    let calls = 0;
    const refusedOnce = await scheduler.schedule({ method: 'POST', repeatable: false }, async () =>
      ++calls === 1
        ? { kind: 'network', error: new Error('refused'), sent: false }
        : { kind: 'response', status: 201, value: 1 },
    );
    expect(refusedOnce).toMatchObject({ kind: 'response', status: 201, attempts: 2 });
    const reset = await scheduler.schedule({ method: 'POST', repeatable: false }, async () => ({
      kind: 'network',
      error: new Error('reset'),
      sent: true,
    }));
    expect(reset).toMatchObject({ kind: 'network', sent: true, attempts: 1 });
  });

  test('429 pauses everyone, halves the pace, and is retried for any method', async () => {
    const scheduler = new Scheduler({
      rateLimit: { count: 40, windowMs: 1000 },
      retry: { rateLimitBaseMs: 50 },
    });
    let calls = 0;
    const started = performance.now();
    const result = await scheduler.schedule({ method: 'POST', repeatable: false }, async () =>
      ++calls <= 2
        ? { kind: 'response', status: 429, value: 0 }
        : { kind: 'response', status: 201, value: 1 },
    );
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ status: 201, attempts: 3 });
    // 50 ms, then 100 ms (each up to +25% jitter).
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1000);
    expect(scheduler.currentAllowance).toBe(20);
    expect(scheduler.stats.rateLimited).toBe(2);
  });

  test('Retry-After, when a proxy sends one, sets the pause', async () => {
    const scheduler = new Scheduler({ retry: { rateLimitBaseMs: 10_000 } });
    let calls = 0;
    const started = performance.now();
    await scheduler.schedule({ method: 'GET', repeatable: true }, async () =>
      ++calls === 1
        ? { kind: 'response', status: 429, retryAfterMs: 30, value: 0 }
        : { kind: 'response', status: 200, value: 1 },
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test('gives up after maxRateLimitAttempts and returns the 429', async () => {
    const scheduler = new Scheduler({ retry: { rateLimitBaseMs: 1, maxRateLimitAttempts: 3 } });
    const result = await scheduler.schedule({ method: 'GET', repeatable: true }, respond(429));
    expect(result).toMatchObject({ status: 429, attempts: 3 });
  });
});
