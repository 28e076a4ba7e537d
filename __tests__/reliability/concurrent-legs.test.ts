/**
 * Matrix legs publishing overlapping tests into one cycle, against a server that sends no ETag on
 * a 201 and lets another writer in at every gap (__tests__/helpers/interleaving-proxy.ts). Every
 * write after a read must merge, in the run's --merge mode, against what that read returned:
 * under `worst` no worse result is ever lost, under `latest` the last write stands.
 */
import { prng } from '../../src/emulator/http/chaos.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { publish } from '../../src/publish/index.js';
import type { MergeMode } from '../../src/publish/results.js';
import type { Outcome } from '../../src/parsers/base/model.js';
import type { ExecutionResult } from '../../src/schema/resources.js';
import { call, doc } from '../helpers/emulator.js';
import { closeAll as closeServers } from '../helpers/http-server.js';
import { startInterleavingProxy, type Exchange } from '../helpers/interleaving-proxy.js';
import {
  caseSeed,
  clientOf,
  closeAll,
  options,
  publishEmulator,
  report,
  testOf,
} from '../helpers/publish.js';

afterEach(async () => {
  await closeAll();
  await closeServers();
});

// Worst last, as docs/design.md "Results and merging" orders them; written here, not imported, so the
// expectation does not share the code under test.
const SEVERITY: ExecutionResult[] = [
  'NOT_EXECUTED',
  'IN_PROGRESS',
  'SKIPPED',
  'PASSED',
  'BLOCKED',
  'FAILED',
];
const worse = (a: ExecutionResult, b: ExecutionResult) =>
  SEVERITY.indexOf(a) >= SEVERITY.indexOf(b) ? a : b;
const RESULT_OF: Record<Outcome, ExecutionResult> = {
  passed: 'PASSED',
  failed: 'FAILED',
  error: 'BLOCKED',
  skipped: 'SKIPPED',
};
const OUTCOMES: Outcome[] = ['passed', 'failed', 'error', 'skipped'];
const WRITTEN: ExecutionResult[] = ['PASSED', 'FAILED', 'BLOCKED', 'SKIPPED'];

const N = 24;
const LEGS = 3;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

interface Write {
  executionId: string;
  result: ExecutionResult;
}

type Json = { data?: unknown };
interface ExecutionRecord {
  id: string;
  type: string;
  attributes: { testCaseId?: string; result?: ExecutionResult };
}

function executionsIn(body: unknown): ExecutionRecord[] {
  const data = (body as Json | undefined)?.data;
  const list = Array.isArray(data) ? data : data ? [data] : [];
  return (list as ExecutionRecord[]).filter((r) => r?.type === 'test_case_executions');
}

/** The other writer: a well-behaved client of the same merge mode, writing straight to the service. */
function otherWriter(emu: RunningEmulator, mode: MergeMode, seed: number, caseIds: string[]) {
  const random = prng(seed * 7919);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const picked = new Map<string, ExecutionResult[]>();
  const writes: Write[] = [];
  let after201 = 0;

  const note = (caseId: string, result: ExecutionResult) =>
    picked.set(caseId, [...(picked.get(caseId) ?? []), result]);

  const write = async (executionId: string, caseId: string) => {
    const result = pick(WRITTEN);
    note(caseId, result);
    const now = await call(emu, 'GET', `/test_case_executions/${executionId}`);
    const there = now.body.data.attributes.result as ExecutionResult;
    const target = mode === 'worst' ? worse(there, result) : result;
    if (target === there) return false;
    const res = await call(emu, 'PATCH', `/test_case_executions/${executionId}`, {
      body: doc('test_case_executions', { result: target }, executionId),
      headers: { 'if-match': now.etag! },
    });
    expect(res.status).toBe(200);
    writes.push({ executionId, result: target });
    return true;
  };

  const create = async (cycleId: string) => {
    const store = emu.service.store;
    const have = new Set(
      [...store.byForeignKey('test_case_executions', 'testCycleId', cycleId)].map((e) =>
        String(e.attributes.testCaseId),
      ),
    );
    const free = caseIds.filter((id) => !have.has(id));
    if (free.length === 0) return;
    const caseId = pick(free);
    const res = await call(emu, 'POST', '/test_case_executions', {
      body: doc('test_case_executions', {
        projectId: store.all('projects').next().value!.id,
        testCaseId: caseId,
        testCycleId: cycleId,
      }),
    });
    expect(res.status).toBe(201);
    await write(res.body.data.id, caseId);
  };

  /** At every gap: record the client's own write, then maybe get in before the client goes on. */
  const atGap = async (x: Exchange) => {
    const records = executionsIn(x.body);
    if (x.method === 'PATCH' && x.status === 200)
      for (const r of records) writes.push({ executionId: r.id, result: r.attributes.result! });
    if (random() < 0.5) return;
    const listed = /^\/test_cycles\/([^/]+)\/testCaseExecutions/.exec(x.path);
    if (listed && x.status === 200 && random() < 0.5) return create(listed[1]!);
    if (records.length === 0) return;
    const record = pick(records);
    const wrote = await write(record.id, String(record.attributes.testCaseId));
    if (wrote && x.method === 'POST' && x.status === 201) after201++;
  };

  return { atGap, picked, writes, after201: () => after201 };
}

describe.each<MergeMode>(['worst', 'latest'])('three legs, --merge %s', (mode) => {
  test.each(SEEDS)('seed %i: every result merged, none lost or duplicated', async (seed) => {
    const emu = await publishEmulator({ seed: caseSeed(N) });
    const caseIdOf = new Map(
      [...emu.service.store.all('test_cases')].map((c) => [
        String(c.attributes.automationKey),
        c.id,
      ]),
    );
    const random = prng(seed);
    const legs = Array.from({ length: LEGS }, () =>
      Array.from({ length: N }, (_, i) => i)
        .filter(() => random() < 0.7)
        .map((i) => ({ i, outcome: OUTCOMES[Math.floor(random() * OUTCOMES.length)]! })),
    );
    const other = otherWriter(emu, mode, seed, [...caseIdOf.values()]);
    const proxy = await startInterleavingProxy(emu, { seed, atGap: other.atGap });

    const results = await Promise.allSettled(
      legs.map((tests) =>
        publish(
          clientOf(emu, { baseUrl: proxy.url }),
          options([report(tests.map(({ i, outcome }) => testOf('Suite', `test${i}`, outcome)))], {
            merge: mode,
            errorAs: 'BLOCKED',
            cycle: { name: `Legs ${seed}`, create: true, reopenDone: false, close: false },
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(LEGS).fill('fulfilled'));

    const store = emu.service.store;
    const cycles = [...store.all('test_cycles')].filter(
      (c) => c.attributes.name === `Legs ${seed}`,
    );
    expect(cycles).toHaveLength(1);
    const executions = [
      ...store.byForeignKey('test_case_executions', 'testCycleId', cycles[0]!.id),
    ];
    const byCase = new Map<string, ExecutionResult[]>();
    for (const e of executions) {
      const caseId = String(e.attributes.testCaseId);
      byCase.set(caseId, [...(byCase.get(caseId) ?? []), e.attributes.result as ExecutionResult]);
    }
    // One execution per case.
    for (const [caseId, list] of byCase) expect([caseId, list.length]).toEqual([caseId, 1]);

    const reported = new Map<string, ExecutionResult[]>();
    for (const tests of legs)
      for (const { i, outcome } of tests) {
        const caseId = caseIdOf.get(`Suite.test${i}`)!;
        reported.set(caseId, [...(reported.get(caseId) ?? []), RESULT_OF[outcome]]);
      }

    if (mode === 'worst') {
      // The worst of every leg's result and every other write: exact, for every case.
      const expected = new Map<string, ExecutionResult>();
      for (const source of [reported, other.picked])
        for (const [caseId, list] of source)
          expected.set(caseId, list.reduce(worse, expected.get(caseId) ?? 'NOT_EXECUTED'));
      const actual = new Map([...byCase].map(([caseId, [result]]) => [caseId, result!]));
      expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    } else {
      // The last write to each execution stands, and no reported test is left without a result.
      const last = new Map(other.writes.map((w) => [w.executionId, w.result]));
      for (const e of executions)
        expect([e.id, e.attributes.result]).toEqual([e.id, last.get(e.id) ?? 'NOT_EXECUTED']);
      for (const caseId of reported.keys())
        expect(byCase.get(caseId)?.[0]).not.toBe('NOT_EXECUTED');
    }
    // The run met the race it is about: the other writer got in between a 201 and the leg's PATCH.
    expect(other.after201()).toBeGreaterThan(0);
  });
});
