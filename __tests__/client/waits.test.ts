/**
 * Waits on a virtual clock (__tests__/helpers/clock.ts): every wait over 5 s says what it waits
 * for and until when; Retry-After beyond the cap fails at once; the run's retry waits are bounded
 * (max-wait); an interrupted run leaves its long waits at once.
 */
import { InterruptedError } from '../../src/shared/errors.js';
import { type AttemptOutcome, Scheduler } from '../../src/client/scheduler.js';
import { retryPolicy, worstCaseRequests } from '../../src/client/retry-policy.js';
import { FakeClock } from '../helpers/clock.js';
import { ServiceClient } from '../../src/client/client.js';
import type { Transport } from '../../src/client/transport.js';
import { NetworkError } from '../../src/shared/errors.js';
import { createLogger, Redactor } from '../../src/shared/redact.js';

const answer =
  (status: number, retryAfterMs?: number) => async (): Promise<AttemptOutcome<number>> => ({
    kind: 'response',
    status,
    retryAfterMs,
    value: status,
  });

function scheduler(clock: FakeClock, extra: ConstructorParameters<typeof Scheduler>[0] = {}) {
  const lines: string[] = [];
  const s = new Scheduler({
    clock,
    random: () => 0,
    onWait: (line) => lines.push(`${clock.now()}: ${line}`),
    ...extra,
  });
  return { s, lines };
}

describe('wait lines', () => {
  test('a wait for the rate limit over 5 s is announced with the limit and the time it ends', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock, { rateLimit: { count: 2, windowMs: 30_000 } });
    const get = () => s.schedule({ method: 'GET', label: 'GET /x', repeatable: true }, answer(200));
    const all = Promise.all([get(), get(), get(), get(), get()]);
    await clock.run(all);
    expect(s.stats.total).toBe(5);
    // Two waits of ~30 s; the first starts at 0, the second after it: each announced once.
    expect(lines).toEqual([
      '0: waiting 30 s (until 04:00:30 UTC): the rate limit (2/30s), 3 request(s) queued',
      '30001: waiting 30 s (until 04:01:00 UTC): the rate limit (2/30s), 1 request(s) queued',
    ]);
  });

  test('short waits say nothing', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock, { rateLimit: { count: 10, windowMs: 1_000 } });
    await clock.run(
      Promise.all(
        Array.from({ length: 40 }, () =>
          s.schedule({ method: 'GET', repeatable: true }, answer(200)),
        ),
      ),
    );
    expect(s.stats.total).toBe(40);
    expect(lines).toEqual([]);
  });

  test('a 429 with Retry-After 20 s: one line naming the request and why', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock);
    let n = 0;
    const done = s.schedule({ method: 'POST', label: 'POST /test_cycles', repeatable: false }, () =>
      answer(++n === 1 ? 429 : 201, 20_000)(),
    );
    const result = await clock.run(done);
    expect(result).toMatchObject({ status: 201, attempts: 2 });
    expect(lines).toEqual([
      '0: waiting 20 s (until 04:00:20 UTC): POST /test_cycles: rate limited (429), as long as the service asked (Retry-After)',
    ]);
  });

  test('a backoff after a 503 beyond 5 s is announced with the retry count', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock, { retry: { retryBaseMs: 4_000, maxAttempts: 3 } });
    const result = await clock.run(
      s.schedule({ method: 'GET', label: 'GET /projects', repeatable: true }, answer(503)),
    );
    expect(result).toMatchObject({ status: 503, attempts: 3 });
    // 4 s (silent), then 8 s (announced).
    expect(lines).toEqual([
      '4000: waiting 8 s (until 04:00:12 UTC): GET /projects: 503; retry 2 of 2',
    ]);
  });
});

describe('an answer that does not come', () => {
  // A server that takes the connection and never answers: undici gives up after timeout-ms
  // (headersTimeout); played here on the virtual clock, through the client and its logger.
  const hanging =
    (clock: FakeClock, timeoutMs: number): Transport =>
    () =>
      new Promise((_, reject) =>
        clock.after(timeoutMs, () =>
          reject(
            Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
          ),
        ),
      );

  test('each attempt says at 5 s what it waits for and when it gives up: no silence until the retries run out', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const logger = createLogger(
      (_level, message) => lines.push(`${clock.now()}: ${message}`),
      new Redactor(),
      'info',
    );
    const c = new ServiceClient({
      baseUrl: 'http://127.0.0.1:1',
      token: 'tok-waits-secret',
      clock,
      random: () => 0,
      logger,
      timeoutMs: 30_000,
      transport: hanging(clock, 30_000),
    });
    const error = await clock.run(c.project().catch((e: unknown) => e));
    expect(error).toBeInstanceOf(NetworkError);
    expect(c.stats.total).toBe(5);
    // Attempts start at 0, 31 s, 63 s, 97 s and 135 s (backoffs of 1, 2 and 4 s are silent; the
    // 8 s one is announced).
    expect(lines).toEqual([
      '5000: waiting up to 25 s (until 04:00:30 UTC): the answer to GET /projects, sent 5 s ago (no answer yet; it gives up at timeout-ms 30000)',
      '36000: waiting up to 25 s (until 04:01:01 UTC): the answer to GET /projects (retry 1), sent 5 s ago (no answer yet; it gives up at timeout-ms 30000)',
      '68000: waiting up to 25 s (until 04:01:33 UTC): the answer to GET /projects (retry 2), sent 5 s ago (no answer yet; it gives up at timeout-ms 30000)',
      '102000: waiting up to 25 s (until 04:02:07 UTC): the answer to GET /projects (retry 3), sent 5 s ago (no answer yet; it gives up at timeout-ms 30000)',
      '127000: waiting 8 s (until 04:02:15 UTC): GET /projects: no answer; retry 4 of 4',
      '140000: waiting up to 25 s (until 04:02:45 UTC): the answer to GET /projects (retry 4), sent 5 s ago (no answer yet; it gives up at timeout-ms 30000)',
    ]);
    expect(clock.pending).toBe(0);
  });

  test('answers within 5 s say nothing and leave no timer behind; many hanging at once give one line', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock, { answerTimeoutMs: 8_000 });
    const quick = () =>
      s.schedule(
        { method: 'GET', label: 'GET /x', repeatable: true },
        () =>
          new Promise<AttemptOutcome<number>>((resolve) =>
            clock.after(4_900, () => resolve({ kind: 'response', status: 200, value: 200 })),
          ),
      );
    await clock.run(Promise.all([quick(), quick(), quick()]));
    expect(lines).toEqual([]);
    expect(clock.pending).toBe(0);
    // Four at once, 8 s each: one line, with the 3 s left (a short rest of a wait over 5 s).
    const slow = () =>
      s.schedule(
        { method: 'GET', label: 'GET /y', repeatable: false },
        () =>
          new Promise<AttemptOutcome<number>>((resolve) =>
            clock.after(8_000, () => resolve({ kind: 'response', status: 200, value: 200 })),
          ),
      );
    const start = clock.now();
    await clock.run(Promise.all([slow(), slow(), slow(), slow()]));
    expect(lines).toEqual([
      `${start + 5_000}: waiting up to 3 s (until ${new Date(clock.wall() - clock.now() + start + 8_000).toISOString().slice(11, 19)} UTC): the answer to GET /y, sent 5 s ago (no answer yet; it gives up at timeout-ms 8000)`,
    ]);
  });
});

describe('legs sharing a token', () => {
  test('a leg told of others announces where in the window it starts, and its share in pacing waits', async () => {
    const clock = new FakeClock();
    // The latest start (random 1): 0.3 of a 60 s window. A third of 6 a window is 2, the first
    // window's two spread over a fifth of it (6 s apart); the third waits for the first to leave.
    const { s, lines } = scheduler(clock, {
      random: () => 1,
      legs: 3,
      rateLimit: { count: 6, windowMs: 60_000 },
    });
    const get = () => s.schedule({ method: 'GET', label: 'GET /x', repeatable: true }, answer(200));
    await clock.run(Promise.all([get(), get(), get()]));
    expect(lines).toEqual([
      '0: waiting 18 s (until 04:00:18 UTC): a start at a random point of the rate window, apart from the other legs (3 in all)',
      "24002: waiting 54 s (until 04:01:18 UTC): the rate limit (6/1m, this run's share 2 per window), 1 request(s) queued",
    ]);
  });
});

describe('retry counts name the budget of the failure met', () => {
  const refused = async (): Promise<AttemptOutcome<number>> => ({
    kind: 'network',
    error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    sent: false,
  });

  test('a refused connection announces its own, shorter budget (retry 1 of 1, not of 4)', async () => {
    const clock = new FakeClock();
    const { s, lines } = scheduler(clock, { retry: { retryBaseMs: 6_000 } });
    const result = await clock.run(
      s.schedule({ method: 'GET', label: 'GET /projects', repeatable: true }, refused),
    );
    expect(result).toMatchObject({ kind: 'network', attempts: 2 });
    expect(lines).toEqual([
      '0: waiting 6 s (until 04:00:06 UTC): GET /projects: no answer; retry 1 of 1',
    ]);
  });
});

describe('bounded waits', () => {
  test('Retry-After beyond the cap fails at once, naming the wait the service asked for', async () => {
    const clock = new FakeClock();
    const { s } = scheduler(clock);
    const result = await s.schedule({ method: 'GET', repeatable: true }, answer(429, 3_600_000));
    expect(result).toMatchObject({ status: 429, attempts: 1 });
    expect(result.gaveUp).toBe(
      'The service asked to wait 60 min (Retry-After) before the next request, more than the 60 s this client waits at once: try again later.',
    );
    expect(clock.now()).toBe(0);
  });

  test('the run stops retrying once its retry waits would pass max-wait', async () => {
    const clock = new FakeClock();
    const { s } = scheduler(clock, {
      retry: { retryBaseMs: 10_000, maxAttempts: 100, maxBackoffMs: 60_000, maxWaitMs: 120_000 },
    });
    const result = await clock.run(s.schedule({ method: 'GET', repeatable: true }, answer(503)));
    // Waits of 10, 20, 40 s (70 s in all); the next, 60 s, would pass 120 s.
    expect(result).toMatchObject({ status: 503, attempts: 4 });
    expect(result.gaveUp).toBe(
      'Retries stopped: this run already waited 70 s for retries, and the next wait would pass the 2 min allowed (max-wait).',
    );
    expect(clock.now()).toBe(70_000);
  });
});

describe('interrupted', () => {
  test('a request queued behind a long rate-limit wait is dropped within the grace, not after the wait', async () => {
    const clock = new FakeClock();
    const { s } = scheduler(clock, { rateLimit: { count: 1, windowMs: 60_000 } });
    const stop = new AbortController();
    s.stopWaitingOn(stop.signal);
    const first = s.schedule({ method: 'GET', repeatable: true }, answer(200));
    // A write's second half: it does not carry the signal, but the run is stopping.
    const second = s.schedule({ method: 'PATCH', repeatable: true }, answer(200));
    second.catch(() => undefined);
    await clock.advance(1_000);
    await first;
    stop.abort();
    await clock.advance(0);
    await expect(second).rejects.toBeInstanceOf(InterruptedError);
    await expect(second).rejects.toThrow(/run the same command again to finish it/);
    expect(clock.now()).toBe(1_000);
    expect(s.stats.total).toBe(1);
    // No timer is left for the dropped wait: it would keep the process alive for a minute.
    expect(clock.pending).toBe(0);
  });

  test('a backoff sleep is cut short by the interrupt', async () => {
    const clock = new FakeClock();
    const { s } = scheduler(clock, { retry: { retryBaseMs: 30_000 } });
    const stop = new AbortController();
    s.stopWaitingOn(stop.signal);
    const done = s.schedule({ method: 'GET', repeatable: true }, answer(503));
    done.catch(() => undefined);
    await clock.advance(2_000);
    stop.abort();
    await clock.advance(0);
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(clock.now()).toBe(2_000);
  });

  test('a wait within the grace still finishes, so a write under way completes', async () => {
    const clock = new FakeClock();
    const { s } = scheduler(clock, { rateLimit: { count: 1, windowMs: 2_000 } });
    const stop = new AbortController();
    s.stopWaitingOn(stop.signal);
    const first = s.schedule({ method: 'POST', repeatable: false }, answer(201));
    const second = s.schedule({ method: 'PATCH', repeatable: true }, answer(200));
    await clock.advance(0);
    stop.abort();
    await clock.run(Promise.all([first, second]));
    expect(s.stats.total).toBe(2);
  });
});

describe('the retry policy', () => {
  test('the worst case per execution, as docs/architecture.md states it', () => {
    // Two rounds of (5 creates + 5 looks + 8 x (read + PATCH)), the second with a look first:
    // 53 logical requests, each with up to 5 + 10 - 1 attempts.
    expect(worstCaseRequests(retryPolicy())).toBe(53 * 14);
    expect(
      worstCaseRequests(
        retryPolicy({
          createAttempts: 1,
          conflictRounds: 1,
          maxAttempts: 1,
          maxRateLimitAttempts: 1,
        }),
      ),
    ).toBe(9);
  });
});
