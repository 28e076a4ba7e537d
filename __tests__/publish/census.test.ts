/**
 * The census of a cycle (src/publish/census.ts): what a leg counts, with one aggregate request, of
 * the results every leg wrote in about the last window, against the strict emulator; and a
 * service that refuses the count.
 */
import { afterEach, expect, test } from '@jest/globals';
import { ServiceClient } from '../../src/client/client.js';
import { cycleCensus } from '../../src/publish/census.js';
import { closeEmulators, emulator, PROJECT, RW } from '../helpers/emulator.js';
import { caseSeed, clientOf, FAST_RETRY } from '../helpers/publish.js';
import { closeAll, startServer } from '../helpers/http-server.js';

afterEach(async () => {
  await closeEmulators();
  await closeAll();
});

test('a leg counts every leg’s results in the cycle, its own apart, and no execution without a result', async () => {
  const emu = await emulator({ seed: caseSeed(9) });
  const a = clientOf(emu);
  const b = clientOf(emu);
  const cases = [...emu.service.store.all('test_cases')].map((c) => c.id);
  const cycle = await a.create('test_cycles', {
    projectId: PROJECT,
    name: 'Legs',
    rank: 1,
    status: 'ACTIVE',
  });
  const other = await a.create('test_cycles', {
    projectId: PROJECT,
    name: 'Other',
    rank: 2,
    status: 'ACTIVE',
  });
  const census = cycleCensus(a, cycle.id, () => {
    throw new Error('not refused');
  });
  // Nothing written yet: nothing to count from.
  expect(await census.census()).toBeUndefined();
  const write = async (client: ServiceClient, cycleId: string, caseId: string, result?: string) => {
    const made = await client.create('test_case_executions', {
      projectId: PROJECT,
      testCycleId: cycleId,
      testCaseId: caseId,
    });
    if (!result) return made;
    return client.update('test_case_executions', made.id, { result } as never, made.etag);
  };
  // Leg A: three results; leg B: two results and one execution with none yet; a third result of
  // B's in another cycle.
  for (const id of cases.slice(0, 3)) {
    const done = await write(a, cycle.id, id, 'PASSED');
    census.wrote('PASSED', String(done.attributes.updatedAt));
  }
  await write(b, cycle.id, cases[3]!, 'FAILED');
  await write(b, cycle.id, cases[4]!, 'PASSED');
  await write(b, cycle.id, cases[5]!);
  await write(b, other.id, cases[6]!, 'PASSED');
  const before = a.stats.total;
  const count = await census.census();
  expect(a.stats.total - before).toBe(1);
  expect(count).toMatchObject({ all: 5, own: 3, ownTotal: 3 });
  // The span runs from a window before A's latest result to the answer: at least a window.
  expect(count!.spanMs).toBeGreaterThanOrEqual(a.scheduler.rateLimit.windowMs);
  // A result written as NOT_EXECUTED is none.
  census.wrote('NOT_EXECUTED', new Date().toISOString());
  expect((await census.census())?.ownTotal).toBe(3);
});

test('a service that refuses the count is told once, and the census stops; a 503 only skips one', async () => {
  let refuse = false;
  const server = await startServer((req) => {
    if (!req.url.includes('/aggregate')) return { status: 404 };
    if (!refuse) return { status: 503, body: { errors: [{ status: '503', title: 'busy' }] } };
    return {
      status: 400,
      body: {
        errors: [{ status: '400', code: 'UNKNOWN_FIELD', detail: 'no filter on updatedAt here' }],
      },
    };
  });
  const client = new ServiceClient({
    baseUrl: server.url,
    token: RW,
    retry: { ...FAST_RETRY, maxAttempts: 1 },
  });
  const told: string[] = [];
  const census = cycleCensus(client, '0f0c0e4e-0000-4000-8000-000000000009', (r) => told.push(r));
  census.wrote('PASSED', new Date().toISOString());
  await expect(census.census()).resolves.toBeUndefined();
  expect(told).toEqual([]);
  refuse = true;
  await expect(census.census()).rejects.toThrow();
  expect(told).toHaveLength(1);
  expect(told[0]).toContain('400');
  await client.close();
});
