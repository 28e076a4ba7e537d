/**
 * Publish against the emulator, counting requests through its stats (docs/design.md "Publish: request budget").
 */
import { InterruptedError, NetworkError } from '../../src/shared/errors.js';
import type { Transport } from '../../src/client/transport.js';
import { createUndiciTransport } from '../../src/client/transport.js';
import { gateOutcome, publish, type PublishResult } from '../../src/publish/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { closeEmulators, emulator as startEmulator, testSeed } from '../helpers/emulator.js';

/** Publish tests measure requests, not the limit: a high limit unless a test sets one. */
const emulator = (opts: Parameters<typeof startEmulator>[0] = {}) =>
  startEmulator({ rateLimit: '100000/1m', ...opts });
import {
  caseSeed,
  clientOf,
  closeClients,
  cyclesNamed,
  executionsOf,
  options,
  report,
  reportOf,
  testOf,
} from '../helpers/publish.js';

afterEach(async () => {
  await closeClients();
  await closeEmulators();
});

const writes = (stats: { byMethod: Record<string, number> }) =>
  (stats.byMethod.POST ?? 0) + (stats.byMethod.PATCH ?? 0) + (stats.byMethod.DELETE ?? 0);

/**
 * A transport that aborts `stop` once the emulator has counted `total` requests, checked as each
 * answer arrives: the interruption lands at a known point of the run, with no polling.
 */
function abortAfter(
  emu: RunningEmulator,
  total: number,
  stop: AbortController,
  inner: Transport,
): Transport {
  return async (req) => {
    const answer = await inner(req);
    if (emu.stats().total >= total) stop.abort();
    return answer;
  };
}

describe('request budget (docs/design.md "Publish: request budget")', () => {
  test.each([1, 99, 100, 101, 250])(
    'fresh cycle, %i results, all cases exist: 2N + ceil(N/100) + 4 requests (+2 with a gate)',
    async (n) => {
      const emu = await emulator({ seed: caseSeed(n) });
      const result = await publish(
        clientOf(emu),
        options([reportOf(n, (i) => (i % 7 === 0 ? 'failed' : 'passed'))]),
      );
      const expected = 2 * n + Math.ceil(n / 100) + 4;
      expect(emu.stats().total).toBe(expected);
      expect(result.requests.total).toBe(expected);
      expect(result.writes).toEqual({ created: n, updated: 0, unchanged: 0, casesCreated: 0 });
      emu.resetStats();
      await publish(
        clientOf(emu),
        options([reportOf(n)], {
          cycle: { name: 'gated', create: true, reopenDone: false, close: false },
          gate: { basis: 'executed', minPassRate: 0 },
        }),
      );
      // The aggregate, and the read of the cycle's quarantined executions (src/triage/triage.ts).
      expect(emu.stats().total).toBe(expected + 2);
    },
  );

  test('a re-run with nothing changed sends no write: only the reads', async () => {
    const n = 150;
    const emu = await emulator({ seed: caseSeed(n) });
    await publish(clientOf(emu), options([reportOf(n)]));
    emu.resetStats();
    const result = await publish(clientOf(emu), options([reportOf(n)]));
    expect(writes(emu.stats())).toBe(0);
    // projects + cycle lookup + ceil(N/100) execution pages, their cases embedded: no case lookup
    expect(emu.stats().total).toBe(2 + Math.ceil(n / 100));
    expect(emu.stats().byRoute['GET /test_cases']).toBeUndefined();
    expect(result.writes).toEqual({ created: 0, updated: 0, unchanged: n, casesCreated: 0 });
  });

  test('a re-run with new tests looks up only the cases the cycle does not hold', async () => {
    const emu = await emulator({ seed: caseSeed(180) });
    await publish(clientOf(emu), options([reportOf(150)]));
    emu.resetStats();
    const result = await publish(clientOf(emu), options([reportOf(180)]));
    expect(emu.stats().byRoute['GET /test_cases']).toBe(1);
    // projects + cycle lookup + 2 execution pages + 1 case lookup + 30 x (POST + PATCH)
    expect(emu.stats().total).toBe(4 + 1 + 60);
    expect(result.writes).toEqual({ created: 30, updated: 0, unchanged: 150, casesCreated: 0 });
  });

  test('a service that refuses include on the related route: read again without it, one request more', async () => {
    const n = 150;
    const emu = await emulator({ seed: caseSeed(n) });
    await publish(clientOf(emu), options([reportOf(n)]));
    const real = createUndiciTransport();
    const strict: Transport = async (req) =>
      req.url.searchParams.has('include')
        ? {
            status: 400,
            headers: { 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({
              errors: [{ status: '400', code: 'UNKNOWN_FIELD', source: { parameter: 'include' } }],
            }),
          }
        : real(req);
    const client = clientOf(emu, { transport: strict });
    const result = await publish(client, options([reportOf(n, () => 'failed')]));
    await real.close();
    expect(result.writes.updated).toBe(n);
    // the refused page, then the plain read and the case lookups the include would have saved
    const plain = 2 + 2 * Math.ceil(n / 100);
    expect(client.stats.total).toBe(1 + plain + 2 * n);
  });

  test('10% changed: exactly those are written (GET for the ETag, then PATCH)', async () => {
    const n = 200;
    const emu = await emulator({ seed: caseSeed(n) });
    await publish(clientOf(emu), options([reportOf(n)]));
    emu.resetStats();
    const changed = (i: number) => i % 10 === 3;
    const result = await publish(
      clientOf(emu),
      options([reportOf(n, (i) => (changed(i) ? 'failed' : 'passed'))]),
    );
    const stats = emu.stats();
    expect(stats.byRoute['PATCH /test_case_executions/{id}']).toBe(n / 10);
    expect(stats.byRoute['GET /test_case_executions/{id}']).toBe(n / 10);
    expect(stats.byMethod.POST).toBeUndefined();
    expect(result.writes.updated).toBe(n / 10);
    const state = executionsOf(emu, 'CI run');
    expect(
      [...state.entries()]
        .filter(([, r]) => r[0] === 'FAILED')
        .map(([k]) => k)
        .sort(),
    ).toEqual(
      Array.from({ length: n }, (_, i) => i)
        .filter(changed)
        .map((i) => `Suite.test${i}`)
        .sort(),
    );
  });

  test('zero 429s for a lone publisher at the emulator limit', async () => {
    const n = 40;
    // The emulator's window and the client's pace share one virtual clock: no second is waited.
    const clock = new FakeClock();
    const emu = await emulator({ seed: caseSeed(n), rateLimit: '30/1s', clock });
    const result = await clock.run(
      publish(clientOf(emu, { rateLimit: '30/1s', clock }), options([reportOf(n)])),
    );
    // 2n + 5 requests at 30 a second: the pace was held for more than two windows.
    expect(result.requests.total).toBeGreaterThan(60);
    expect(clock.now()).toBeGreaterThanOrEqual(2000);
    expect(emu.stats().rateLimited).toBe(0);
    expect(result.requests.rateLimited).toBe(0);
    expect(executionsOf(emu, 'CI run').size).toBe(n);
  });

  test('a leg told of ten legs that publishes alone says so when done, and still writes every result', async () => {
    const n = 60;
    const clock = new FakeClock();
    const emu = await emulator({ seed: caseSeed(n), rateLimit: '20/1s', clock });
    const told = (legs: number) =>
      clock.run(
        publish(clientOf(emu, { rateLimit: '20/1s', clock, legs }), options([reportOf(n)])),
      );
    const result = await told(10);
    expect(executionsOf(emu, 'CI run').size).toBe(n);
    const said = result.warnings.filter((w) => w.startsWith('Matrix legs: told of'));
    expect(said).toEqual([
      "Matrix legs: told of 10 legs publishing at once (legs), but this leg's counts of the cycle never saw more than about 1; a leg told of more legs than publish at once starts at too small a share of the rate limit and keeps it until it counts. Give legs the number of legs that publish at once (by default it is every copy of this job that runs at once, also those that do not publish).",
    ]);
    // Told of two, it was not told of more than it saw: nothing to say.
    const again = await told(2);
    expect(again.warnings.filter((w) => w.startsWith('Matrix legs'))).toEqual([]);
  });
});

describe('case lookups: in (...) chunks, or one listing of the automated cases when fewer', () => {
  // Cases for `names` (automationKey Suite.{name}), after `others` automated cases of other suites.
  const space = (names: string[], others: number) =>
    testSeed({
      testCases: [
        ...Array.from({ length: others }, (_, i) => ({
          name: `other ${i}`,
          automationKey: `Other.test${i}`,
          status: 'ACTIVE' as const,
        })),
        ...names.map((name, i) => ({
          name: `case ${i}`,
          automationKey: `Suite.${name}`,
          status: 'ACTIVE' as const,
        })),
      ],
    });
  const lookups = (emu: RunningEmulator) => emu.stats().byRoute['GET /test_cases'] ?? 0;
  const named = (names: string[]) => report(names.map((name) => testOf('Suite', name, 'passed')));
  // 150-character names: about 15 keys per 3.5 KB filter once URL-encoded, so 120 tests need 8 chunks.
  const long = Array.from({ length: 120 }, (_, i) => `${'long name '.repeat(15)}${i}`);

  const short = Array.from({ length: 150 }, (_, i) => `test${i}`);

  test.each([
    [
      'short keys fill chunks of 100: ceil(N/100) lookups, however many cases the Space has',
      short,
      1000,
      2,
    ],
    [
      'long keys, and the Space holds little else: the listing (2 pages) instead of 8 chunks',
      long,
      30,
      2,
    ],
    [
      'long keys among 130 other automated cases: the whole listing, 3 pages, still fewer than 8 chunks',
      long,
      130,
      3,
    ],
    [
      'long keys in a big Space: one listing page tells its size, then the 8 chunks (one request over chunks alone)',
      long,
      2000,
      1 + 8,
    ],
  ])('%s', async (_title, names, others, expected) => {
    const emu = await emulator({ seed: space(names, others) });
    const result = await publish(clientOf(emu), options([named(names)]));
    expect(result.unmatched).toEqual([]);
    expect(lookups(emu)).toBe(expected);
    expect(executionsOf(emu, 'CI run').size).toBe(names.length);
  });
});

describe('cycle', () => {
  test('DRAFT is made ACTIVE with If-Match; DONE is refused unless --reopen-done-cycle; --close-cycle sets DONE', async () => {
    const emu = await emulator({
      seed: {
        ...caseSeed(3),
        testCycles: [
          { name: 'draft', status: 'DRAFT' },
          { name: 'done', status: 'DONE' },
        ],
      },
    });
    const draft = await publish(
      clientOf(emu),
      options([reportOf(3)], {
        cycle: { name: 'draft', create: true, reopenDone: false, close: false },
      }),
    );
    expect(draft.cycle.status).toBe('ACTIVE');
    await expect(
      publish(
        clientOf(emu),
        options([reportOf(3)], {
          cycle: { name: 'done', create: true, reopenDone: false, close: false },
        }),
      ),
    ).rejects.toThrow(/is DONE; use reopen-done-cycle: true to record/);
    expect(executionsOf(emu, 'done').size).toBe(0);
    const reopened = await publish(
      clientOf(emu),
      options([reportOf(3)], {
        cycle: { name: 'done', create: true, reopenDone: true, close: true },
      }),
    );
    expect(reopened.cycle.status).toBe('DONE');
    expect(executionsOf(emu, 'done').size).toBe(3);
  });

  test('--cycle-key of a missing cycle and --no-create-cycle are clear errors before any write', async () => {
    const emu = await emulator({ seed: caseSeed(1) });
    await expect(
      publish(
        clientOf(emu),
        options([reportOf(1)], {
          cycle: { key: 'DEMO-R99', create: true, reopenDone: false, close: false },
        }),
      ),
    ).rejects.toThrow(/^cycle-key: no test cycle has the key DEMO-R99/);
    await expect(
      publish(
        clientOf(emu),
        options([reportOf(1)], {
          cycle: { name: 'x', create: false, reopenDone: false, close: false },
        }),
      ),
    ).rejects.toThrow(/^cycle-name: no test cycle is named "x" and create-cycle: false is set/);
    expect(writes(emu.stats())).toBe(0);
  });
});

describe('matching and merging', () => {
  test('an explicit key in the name or a property wins over the automation key', async () => {
    const emu = await emulator({ seed: caseSeed(3) });
    const result = await publish(
      clientOf(emu),
      options([
        report([
          testOf('Other', 'DEMO-T2 logs in', 'failed'),
          testOf('Other', 'no key here', 'passed', { properties: { testcase: 'DEMO-T3' } }),
          testOf('Other', 'DEMO-T99 missing', 'passed'),
        ]),
      ]),
    );
    const state = executionsOf(emu, 'CI run');
    expect(state.get('Suite.test1')).toEqual(['FAILED']);
    expect(state.get('Suite.test2')).toEqual(['PASSED']);
    expect(result.unmatched).toEqual([
      {
        test: 'Other › DEMO-T99 missing',
        file: 'report.xml',
        reason: 'test case DEMO-T99 not found',
      },
    ]);
  });

  test('several entries for one case: worst wins; a flaky pass is PASSED, or FAILED with --flaky failed; --error-as BLOCKED', async () => {
    const emu = await emulator({ seed: caseSeed(3) });
    const flaky = testOf('Suite', 'test0', 'passed', {
      attempts: [{ outcome: 'failed' }, { outcome: 'passed' }],
    });
    const reports = [
      report(
        [flaky, testOf('Suite', 'test1', 'passed'), testOf('Suite', 'test2', 'error')],
        'a.xml',
      ),
      report([testOf('Suite', 'test1', 'failed')], 'b.xml'),
    ];
    await publish(clientOf(emu), options(reports, { errorAs: 'BLOCKED' }));
    expect(Object.fromEntries(executionsOf(emu, 'CI run'))).toEqual({
      'Suite.test0': ['PASSED'],
      'Suite.test1': ['FAILED'],
      'Suite.test2': ['BLOCKED'],
    });
    await publish(clientOf(emu), options(reports, { flaky: 'failed' }));
    expect(executionsOf(emu, 'CI run').get('Suite.test0')).toEqual(['FAILED']);
  });

  test('--merge worst keeps the worst across publishes; latest lets a re-run supersede', async () => {
    const emu = await emulator({ seed: caseSeed(2) });
    await publish(clientOf(emu), options([reportOf(2, (i) => (i === 0 ? 'failed' : 'passed'))]));
    await publish(clientOf(emu), options([reportOf(2)], { merge: 'worst' }));
    expect(executionsOf(emu, 'CI run').get('Suite.test0')).toEqual(['FAILED']);
    await publish(clientOf(emu), options([reportOf(2)], { merge: 'latest' }));
    expect(executionsOf(emu, 'CI run').get('Suite.test0')).toEqual(['PASSED']);
  });

  test('--create-missing-cases creates AUTOMATED cases once; a re-run creates none', async () => {
    const emu = await emulator({ seed: caseSeed(1) });
    const first = await publish(
      clientOf(emu),
      options([reportOf(3)], { match: { ...options([]).match, createMissingCases: true } }),
    );
    expect(first.writes.casesCreated).toBe(2);
    const created = [...emu.service.store.all('test_cases')].filter(
      (c) => c.attributes.automationStatus === 'AUTOMATED',
    );
    expect(created.map((c) => c.attributes.automationKey).sort()).toEqual([
      'Suite.test1',
      'Suite.test2',
    ]);
    const second = await publish(
      clientOf(emu),
      options([reportOf(3)], { match: { ...options([]).match, createMissingCases: true } }),
    );
    expect(second.writes.casesCreated).toBe(0);
    expect(executionsOf(emu, 'CI run').size).toBe(3);
  });

  test('names with quotes, backslashes, non-ASCII and 1,000 characters match and publish', async () => {
    const names = [
      'say "hi"',
      "it's \\ a \\\\ path",
      'Prüfung 測試 ✓ émoji 🚀',
      'long '.repeat(200).trim(),
      `mixed "q" \\ ü ${'x'.repeat(900)}`,
    ];
    const emu = await emulator({ seed: caseSeed(names.length, (i) => `Suite.${names[i]}`) });
    const result = await publish(
      clientOf(emu),
      options([report(names.map((n) => testOf('Suite', n, 'failed')))]),
    );
    expect(result.unmatched).toEqual([]);
    const state = executionsOf(emu, 'CI run');
    expect(names.every((n) => state.get(`Suite.${n}`)?.[0] === 'FAILED')).toBe(true);
  });

  test('--on-unmatched fail stops before any write', async () => {
    const emu = await emulator({ seed: caseSeed(1) });
    await expect(
      publish(clientOf(emu), options([reportOf(2)], { onUnmatched: 'fail' })),
    ).rejects.toThrow(/1 test\(s\) match no test case/);
    expect(writes(emu.stats())).toBe(1); // the cycle create only
  });
});

describe('dry run', () => {
  test('zero writes, and the predicted request count equals what the real run then sends', async () => {
    const emu = await emulator({ seed: caseSeed(30) });
    await publish(clientOf(emu), options([reportOf(20)]));
    const changed = reportOf(30, (i) => (i % 4 === 0 ? 'failed' : 'passed'));
    emu.resetStats();
    const dry = await publish(clientOf(emu), options([changed], { dryRun: true }));
    expect(writes(emu.stats())).toBe(0);
    const readsSoFar = emu.stats().total;
    emu.resetStats();
    const real = await publish(clientOf(emu), options([changed]));
    expect(dry.dryRun!.plannedRequests + readsSoFar).toBe(emu.stats().total);
    expect(real.writes.created).toBe(10);
  });

  test('a dry run against a cycle that does not exist plans its creation and writes nothing', async () => {
    const emu = await emulator({ seed: caseSeed(5) });
    const dry = await publish(clientOf(emu), options([reportOf(5)], { dryRun: true }));
    expect(dry.dryRun).toEqual({
      plannedRequests: 12,
      // The Space, the cycle's lookup and the cases' lookup, then the plan.
      totalRequests: 15,
      createCycle: true,
      activateCycle: false,
      create: 5,
      update: 0,
      casesToCreate: 0,
    });
    // A plan: no status for a cycle that does not exist, no verdict for a gate never evaluated.
    expect(dry.cycle).toEqual({ id: null, key: null, name: 'CI run', status: '' });
    expect(gateOutcome(dry)).toBe('skipped');
    expect(writes(emu.stats())).toBe(0);
    expect(cyclesNamed(emu, 'CI run')).toBe(0);
  });
});

describe('faults', () => {
  const expectExact = (
    emu: Parameters<typeof executionsOf>[0],
    n: number,
    outcome: (i: number) => string,
  ) => {
    const state = executionsOf(emu, 'CI run');
    expect(state.size).toBe(n);
    for (let i = 0; i < n; i++) expect(state.get(`Suite.test${i}`)).toEqual([outcome(i)]);
    expect(cyclesNamed(emu, 'CI run')).toBe(1);
  };

  test.each([1, 2, 3, 4])(
    'chaos seed %i (429, 5xx, dropped connections, ETag bumps): the final state is exact',
    async (seed) => {
      const n = 60;
      const emu = await emulator({
        seed: caseSeed(n),
        chaos: `429=0.05,5xx=0.05,reset=0.04,etag-bump=0.1,latency=0-3,seed=${seed}`,
      });
      const outcome = (i: number) => (i % 3 === 0 ? 'failed' : 'passed');
      const result = await publish(clientOf(emu), options([reportOf(n, outcome)]));
      expectExact(emu, n, (i) => (outcome(i) === 'failed' ? 'FAILED' : 'PASSED'));
      expect(result.counts.total).toBe(n);
      expect(emu.stats().total).toBeGreaterThan(2 * n);
    },
  );

  test.each([5, 37, 80, 121])(
    'killed after %i requests and run again: the final state is exact',
    async (killAt) => {
      const n = 60;
      const emu = await emulator({ seed: caseSeed(n) });
      const real = createUndiciTransport();
      let sent = 0;
      // The process dies: every request from then on fails without reaching the server.
      const dying: Transport = async (req) => {
        if (++sent > killAt) throw Object.assign(new Error('killed'), { code: 'ECONNREFUSED' });
        return real(req);
      };
      const outcome = (i: number) => (i % 5 === 0 ? 'failed' : 'passed');
      await expect(
        publish(
          clientOf(emu, { transport: dying, retry: { maxAttempts: 1 } }),
          options([reportOf(n, outcome)]),
        ),
      ).rejects.toBeInstanceOf(NetworkError);
      await real.close();
      await publish(clientOf(emu), options([reportOf(n, outcome)]));
      expectExact(emu, n, (i) => (outcome(i) === 'failed' ? 'FAILED' : 'PASSED'));
    },
  );

  test('a short outage that outlasts the retries: those results get a second round, nothing lost or doubled', async () => {
    const n = 60;
    const emu = await emulator({ seed: caseSeed(n) });
    const real = createUndiciTransport();
    let sent = 0;
    // Requests 40 to 54 reach the server and are processed, but every answer is lost: the POSTs
    // create executions the client cannot know about until it looks.
    const outage: Transport = async (req) => {
      const answer = await real(req);
      sent++;
      if (sent >= 40 && sent < 55) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
      return answer;
    };
    const outcome = (i: number) => (i % 4 === 0 ? 'failed' : 'passed');
    const result = await publish(
      clientOf(emu, { transport: outage, retry: { maxAttempts: 2, retryBaseMs: 2 } }),
      options([reportOf(n, outcome)]),
    );
    await real.close();
    expectExact(emu, n, (i) => (outcome(i) === 'failed' ? 'FAILED' : 'PASSED'));
    expect(result.warnings.join('\n')).toMatch(/result\(s\) hit a temporary failure .*once more/);
    // A write that landed while its answer was lost reads as already there in the second round.
    const { created, updated, unchanged } = result.writes;
    expect(created + updated + unchanged).toBe(n);
    expect(created + updated).toBeGreaterThan(n - 15);
  });

  test('a lasting outage stops the writes after a few failures in a row instead of trying every result', async () => {
    const n = 100;
    const emu = await emulator({ seed: caseSeed(n) });
    const real = createUndiciTransport();
    let sent = 0;
    let afterOutage = 0;
    const down: Transport = async (req) => {
      if (++sent > 30) {
        afterOutage++;
        throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
      }
      return real(req);
    };
    const outcome = (i: number) => (i % 5 === 0 ? 'failed' : 'passed');
    const client = clientOf(emu, { transport: down, retry: { maxAttempts: 2 } });
    const failure = await publish(client, options([reportOf(n, outcome)])).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as Error).message).toMatch(
      /\d+ of 100 results were written before this; running the same command again writes the rest/,
    );
    // Two attempts for each of at most 2 x (pool size + 1) results, not for all remaining ~88.
    const pool = 2 * client.scheduler.concurrency;
    expect(afterOutage).toBeLessThanOrEqual(2 * 2 * (pool + 1));
    await real.close();
    await publish(clientOf(emu), options([reportOf(n, outcome)]));
    expectExact(emu, n, (i) => (outcome(i) === 'failed' ? 'FAILED' : 'PASSED'));
  });

  test('interrupted (an aborted signal): stops between writes, none left half done; a re-run completes', async () => {
    const n = 60;
    const emu = await emulator({ seed: caseSeed(n), chaos: 'latency=1-3,seed=5' });
    const outcome = (i: number) => (i % 6 === 0 ? 'failed' : 'passed');
    const stop = new AbortController();
    const real = createUndiciTransport();
    const failure = await publish(
      clientOf(emu, { transport: abortAfter(emu, 40, stop, real) }),
      options([reportOf(n, outcome)], { signal: stop.signal }),
    ).catch((e: Error) => e);
    await real.close();
    expect(failure).toBeInstanceOf(InterruptedError);
    const written = Number(
      /(\d+) of 60 results were written/.exec((failure as Error).message)?.[1],
    );
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(n);
    // Every execution that exists holds its result: an item under way finished its PATCH.
    const state = executionsOf(emu, 'CI run');
    expect(state.size).toBe(written);
    for (const [key, results] of state)
      expect(results).toEqual([
        outcome(Number(key.slice('Suite.test'.length))) === 'failed' ? 'FAILED' : 'PASSED',
      ]);
    await publish(clientOf(emu), options([reportOf(n, outcome)]));
    expectExact(emu, n, (i) => (outcome(i) === 'failed' ? 'FAILED' : 'PASSED'));
  });

  test('interrupted while writes wait for their turn under the rate limit: no new item is sent, the started ones finish', async () => {
    const n = 30;
    const emu = await emulator({ seed: caseSeed(n) });
    const real = createUndiciTransport();
    const stop = new AbortController();
    const sentAfterAbort: string[] = [];
    const watching: Transport = (req) => {
      if (stop.signal.aborted) sentAfterAbort.push(req.method);
      return real(req);
    };
    // The rate limit's waits run on a virtual clock: the test waits for no window to pass.
    const clock = new FakeClock();
    const failure = await clock
      .run(
        publish(
          clientOf(emu, {
            transport: abortAfter(emu, 20, stop, watching),
            rateLimit: '20/1s',
            clock,
          }),
          options([reportOf(n)], { signal: stop.signal }),
        ),
      )
      .catch((e: Error) => e);
    await real.close();
    expect(failure).toBeInstanceOf(InterruptedError);
    // Queued first requests (the POSTs of items not yet started) were dropped, not sent.
    expect(sentAfterAbort.filter((m) => m === 'POST')).toEqual([]);
    const state = executionsOf(emu, 'CI run');
    expect(state.size).toBeGreaterThan(0);
    expect([...state.values()].every((r) => r[0] === 'PASSED')).toBe(true);
  });

  test('three publishers with overlapping tests into one new cycle name at once: one cycle, one execution per case, the worst result', async () => {
    const n = 30;
    const emu = await emulator({ seed: caseSeed(n), chaos: 'latency=0-5,seed=9' });
    // Publisher p reports 20 of the 30 tests, and fails the even ones where i % 3 === p.
    const reports = (p: number, i: number) => i % 3 !== (p + 1) % 3;
    const outcomeOf = (p: number, i: number) => (i % 3 === p && i % 2 === 0 ? 'failed' : 'passed');
    const runs = [0, 1, 2].map((p) => {
      const tests = Array.from({ length: n }, (_, i) => i).filter((i) => reports(p, i));
      return publish(
        clientOf(emu),
        options([report(tests.map((i) => testOf('Suite', `test${i}`, outcomeOf(p, i))))], {
          merge: 'worst',
        }),
      );
    });
    const results: PublishResult[] = await Promise.all(runs);
    expect(cyclesNamed(emu, 'CI run')).toBe(1);
    expect(new Set(results.map((r) => r.cycle.id)).size).toBe(1);
    const state = executionsOf(emu, 'CI run');
    expect(state.size).toBe(n);
    // What each publisher sent for test i, and the worst of them, computed from the runs' inputs.
    let disputed = 0;
    for (let i = 0; i < n; i++) {
      const sent = [0, 1, 2].filter((p) => reports(p, i)).map((p) => outcomeOf(p, i));
      expect(sent).toHaveLength(2);
      if (new Set(sent).size > 1) disputed++;
      expect(state.get(`Suite.test${i}`)).toEqual([sent.includes('failed') ? 'FAILED' : 'PASSED']);
    }
    // The merge was put to the test: publishers disagreed on every even test.
    expect(disputed).toBe(n / 2);
  });
});
