/**
 * readSeries against the emulator after real publishes: the series chosen, the counts, the
 * per-test history, and the request cost, counted by the emulator (predicted = actual, budget kept).
 */
import { ServiceClient } from '../../src/client/client.js';
import { ConfigError } from '../../src/shared/errors.js';
import { toFiltrQL } from '../../src/client/filter.js';
import { matchesPattern, patternFilter } from '../../src/domain/series.js';
import {
  predictRequests,
  readSeries,
  type ReadSeriesOptions,
  type SeriesSpec,
} from '../../src/dashboard/series.js';
import type { RequestPlan } from '../../src/dashboard/render/model.js';
import { analyze } from '../../src/dashboard/render/analyze.js';
import { publish } from '../../src/publish/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Outcome } from '../../src/parsers/base/model.js';
import {
  caseSeed,
  clientOf,
  closeAll,
  options,
  publishEmulator,
  reportOf,
} from '../helpers/publish.js';
import { RW } from '../helpers/emulator.js';
import { closeAll as closeServers, errorBody, startServer } from '../helpers/http-server.js';

const TESTS = 120; // two pages of executions per cycle
const NIGHTLIES = 22;

/** Nightly i: test0 flips every run, test1 breaks from run 20 on, 1 in 10 others fail. */
function outcomeOf(run: number, i: number): Outcome {
  if (i === 0) return run % 2 ? 'failed' : 'passed';
  if (i === 1) return run >= 20 ? 'failed' : 'passed';
  if (i === 2) return run === NIGHTLIES ? 'passed' : 'failed';
  return i % 10 === 0 ? 'failed' : 'passed';
}

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await publishEmulator({ seed: caseSeed(TESTS) });
  const publishOne = async (name: string, outcome: (i: number) => Outcome) =>
    publish(
      clientOf(emu),
      options([reportOf(TESTS, outcome)], {
        cycle: { name, create: true, reopenDone: false, close: false },
      }),
    );
  for (let run = 1; run <= NIGHTLIES; run++) {
    await publishOne(`Nightly ${run}`, (i) => outcomeOf(run, i));
    // Cycles of other series in between: near names the service's `~` also matches.
    if (run % 7 === 0) await publishOne(`Pre-Nightly ${run}`, () => 'failed');
  }
  await publishOne('Other', () => 'passed');
}, 120_000);

afterAll(closeAll);

beforeEach(() => emu.resetStats());

async function read(spec: SeriesSpec, opts: ReadSeriesOptions = {}) {
  let plan: RequestPlan | undefined;
  const data = await readSeries(clientOf(emu), spec, { ...opts, onPlan: (p) => (plan = p) });
  return { data, plan: plan!, actual: emu.stats().total };
}

describe('a 20-cycle report (the request cost)', () => {
  test('with per-test history: 1 list page + 20 aggregates + 2 execution pages per cycle = 61', async () => {
    const { data, plan, actual } = await read({ namePattern: 'Nightly *' });
    expect(data.cycles.map((c) => c.cycle.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Nightly ${i + 3}`),
    );
    expect(plan).toEqual({
      listPages: 1,
      aggregates: 20,
      historyPages: Array(20).fill(2),
      total: 61,
    });
    expect(actual).toBe(61);
    expect(data.requests.sent).toBe(61);
    expect(emu.stats().byRoute).toEqual(
      expect.objectContaining({ 'GET /test_case_executions/aggregate': 20 }),
    );
    expect(data.omitted).toEqual([]);
    // Counts from the aggregates, history from the pages: the same numbers.
    for (const { counts, history } of data.cycles) {
      expect(new Set(history!.testIds).size).toBe(TESTS);
      expect(counts.total).toBe(TESTS);
      expect(history!.results.filter((r) => r === 'FAILED').length).toBe(counts.failed);
    }
    expect([...data.tests.values()].map((t) => t.name)).toContain('case 0');
  });

  test('without history: 1 list page + 20 aggregates = 21', async () => {
    const { data, plan, actual } = await read({ namePattern: 'Nightly *' }, { history: false });
    expect(plan.total).toBe(21);
    expect(actual).toBe(21);
    expect(data.cycles.every((c) => c.history === undefined)).toBe(true);
  });
});

describe('--max-requests', () => {
  test.each([
    [61, 20],
    [60, 19],
    [31, 5],
    [22, 0],
  ])(
    'a budget of %i keeps the history of the newest %i cycles and never goes over',
    async (budget, kept) => {
      const { data, plan, actual } = await read(
        { namePattern: 'Nightly {run_number}' },
        { maxRequests: budget },
      );
      expect(actual).toBe(plan.total);
      expect(actual).toBeLessThanOrEqual(budget);
      expect(data.cycles).toHaveLength(20);
      const withHistory = data.cycles.map((c) => c.history !== undefined);
      expect(withHistory).toEqual([...Array(20 - kept).fill(false), ...Array(kept).fill(true)]);
      if (kept < 20)
        expect(data.omitted.join(' ')).toMatch(new RegExp(`${20 - kept} oldest cycles`));
    },
  );

  test('a budget below the counts drops the oldest cycles entirely, and says so', async () => {
    const { data, actual } = await read({ namePattern: 'Nightly *' }, { maxRequests: 10 });
    expect(actual).toBe(10);
    expect(data.cycles.map((c) => c.cycle.name)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Nightly ${i + 14}`),
    );
    expect(data.omitted.join(' ')).toMatch(/11 oldest cycles left out entirely/);
  });

  test.each([0, 1, 2.5, -3])('%s is refused with the setting named', async (max) => {
    await expect(
      readSeries(clientOf(emu), { namePattern: 'x' }, { maxRequests: max }),
    ).rejects.toThrow(/^max-requests: must be a whole number of at least 2/);
    expect(emu.stats().total).toBe(0);
  });
});

describe('the series', () => {
  test('a name pattern matches whole names: "Pre-Nightly 7" is not in "Nightly *"', async () => {
    const { data } = await read({ namePattern: 'Nightly *' }, { last: 100, history: false });
    expect(data.cycles).toHaveLength(NIGHTLIES);
    expect(data.filterSent).toBe('name ~ "Nightly "');
  });

  test("a user's filter goes through the safe path and picks the series", async () => {
    const { data, actual } = await read({ filter: 'name ~ "Pre-Nightly"' }, { last: 2 });
    expect(data.cycles.map((c) => c.cycle.name)).toEqual(['Pre-Nightly 14', 'Pre-Nightly 21']);
    expect(actual).toBe(1 + 2 + 4);
  });

  test('a filter that would widen itself is refused before any request', async () => {
    await expect(
      readSeries(clientOf(emu), { filter: 'name = "x") OR (name is not null' }),
    ).rejects.toThrow(ConfigError);
    expect(emu.stats().total).toBe(0);
  });
});

describe('analyze on a real series', () => {
  test('test0 flips every run: flaky, with its history; test1 broke once and stayed broken: not flaky', async () => {
    const { data } = await read({ namePattern: 'Nightly *' }, { last: 5 });
    const model = analyze(data);
    const flaky = model.flaky!.items.map((t) => t.name);
    expect(flaky).toEqual(['case 0']);
    // Nightly 18 to 22: test0 passes on even runs.
    expect(model.flaky!.items[0]).toMatchObject({
      flips: 4,
      failures: 2,
      history: ['PASSED', 'FAILED', 'PASSED', 'FAILED', 'PASSED'],
    });
    expect(model.newlyFixed!.items.map((t) => t.name)).toEqual(['case 0', 'case 2']);
    expect(model.newlyFailing!.items).toEqual([]);
  });
});

describe('pure helpers', () => {
  test.each([
    ['Nightly *', 'Nightly 2026-11-23', true],
    ['Nightly *', 'Pre-Nightly 1', false],
    ['Nightly *', 'nightly 1', false],
    ['Nightly {date} {sha7}', 'Nightly 2026-11-23 abc1234', true],
    ['Nightly {date} {sha7}', 'Nightly 2026-11-23', false],
    ['{env:STAGE} tests', 'staging tests', true],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(matchesPattern(pattern, name)).toBe(expected);
  });

  test.each([
    ['Nightly {date}', 'name ~ "Nightly "'],
    ['PR {pr} on "main"', 'name ~ "PR " AND name ~ " on \\"main\\""'],
    ['embed {$x} *', 'name ~ "embed {" AND name ~ "$x} "'],
  ])('%s asks for %s', (pattern, filtrql) => {
    expect(toFiltrQL(patternFilter(pattern)!)).toBe(filtrql);
  });

  test('"*" asks for every cycle', () => {
    expect(patternFilter('*')).toBeUndefined();
  });

  test('predictRequests adds list pages, aggregates and history pages', () => {
    expect(predictRequests({ listPages: 1, aggregates: 3, historyPages: [0, 2, 5] }).total).toBe(
      11,
    );
  });
});

describe('a service whose grouped aggregate cannot be read (docs/design.md: fall back per result)', () => {
  afterEach(closeServers);

  test('counts come from one ungrouped count per result, within the budget', async () => {
    const cycle = (n: number) => ({
      type: 'test_cycles',
      id: `c${n}`,
      attributes: { name: `Nightly ${n}`, testCycleKey: `K-R${n}`, rank: n, status: 'DONE' },
    });
    const server = await startServer((req) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/api/v1/test_cycles')
        return { status: 200, body: { data: [cycle(3), cycle(2), cycle(1)], meta: {}, links: {} } };
      const filter = url.searchParams.get('filter') ?? '';
      // Grouped or not, the answer is one ungrouped count: 3 passed and 1 failed per cycle.
      const count = /result = "PASSED"/.test(filter) ? 3 : /result = "FAILED"/.test(filter) ? 1 : 0;
      return { status: 200, body: { data: { type: 'agg', id: 'a', attributes: { count } } } };
    });
    const client = new ServiceClient({ baseUrl: server.url, token: RW, rateLimit: '100000/1m' });
    try {
      const data = await readSeries(
        client,
        { namePattern: 'Nightly *' },
        { maxRequests: 16, history: false },
      );
      // 1 list page, then per cycle: the grouped try, and (as the gate does) it again + 6 counts.
      expect(server.log).toHaveLength(16);
      expect(data.cycles.map((c) => [c.cycle.key, c.counts.passed, c.counts.failed])).toEqual([
        ['K-R2', 3, 1],
        ['K-R3', 3, 1],
      ]);
      expect(data.omitted.join(' ')).toMatch(/1 oldest cycles left out entirely/);
    } finally {
      await client.close();
    }
  });
});

test('a service that refuses include=testCase is read without it, once, at one request more', async () => {
  const server = await startServer((req) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/api/v1/test_cycles')
      return {
        status: 200,
        body: {
          data: [1, 2].reverse().map((n) => ({
            type: 'test_cycles',
            id: `c${n}`,
            attributes: { name: `Nightly ${n}`, testCycleKey: `K-R${n}`, rank: n },
          })),
        },
      };
    if (url.pathname.endsWith('/aggregate'))
      return {
        status: 200,
        body: { data: [{ type: 'a', id: 'r', attributes: { result: 'PASSED', count: 1 } }] },
      };
    if (url.searchParams.has('include'))
      return { status: 400, body: errorBody(400, 'UNKNOWN_FIELD', 'unknown relation testCase') };
    return {
      status: 200,
      body: {
        data: [
          {
            type: 'test_case_executions',
            id: 'e',
            attributes: { testCaseId: 't1', result: 'PASSED' },
          },
        ],
      },
    };
  });
  const client = new ServiceClient({ baseUrl: server.url, token: RW, rateLimit: '100000/1m' });
  try {
    const data = await readSeries(client, { namePattern: 'Nightly *' });
    // 1 list + 2 aggregates + (refused include, then without) + 1 page for the other cycle.
    expect(server.log).toHaveLength(6);
    expect(data.requests.sent).toBe(6);
    expect(data.cycles.map((c) => c.history?.testIds)).toEqual([['t1'], ['t1']]);
    expect(data.tests.get('t1')).toEqual({ name: 't1' });
  } finally {
    await client.close();
    await closeServers();
  }
});
