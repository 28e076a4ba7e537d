/**
 * A real project's life (docs/design.md "Sync: what retire-missing archives", "Run errors"): the
 * Spaces it is published into and synced with after every commit, and the checks of each Space
 * against the runner's own counts. Each life runs twice, on two Spaces fed the same reports:
 *
 * - `emulator`: the CLI talks to the emulator directly, so every request is counted exactly;
 * - `proxy`: through __tests__/helpers/interleaving-proxy.ts, which answers a create (201) without
 *   an ETag and lets a person in at every gap: they set a case's priority (a field sync does not
 *   own), or give a case that still bears sync's name a name of their own, and re-save
 *   executions, cycles and steps as they are (a new ETag each), so every write after a read meets
 *   a 412 somewhere and must merge against what it read again, keeping what the person wrote.
 *
 * The expectations are written here from the runner's own output, never from testcycle's code.
 */
import { prng } from '../../src/emulator/http/chaos.js';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { call, doc, emulator, RW } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { startInterleavingProxy, type Exchange } from '../helpers/interleaving-proxy.js';
import { writes } from '../helpers/sync.js';

export type LaneName = 'emulator' | 'proxy';
export const LANES: LaneName[] = ['emulator', 'proxy'];

/** What the runner said of one test, in the Space's words. */
export type Result = 'PASSED' | 'FAILED' | 'SKIPPED';

/** One test as the runner reported it: the case it must have, and its result. */
export interface RunnerTest {
  /** The automation key `{file} › {test}` gives it, or an explicit case key in its name. */
  key: string;
  explicit?: string;
  result: Result;
}

/** The runner's own counts of one run (from its summary), and the tests it named. */
export interface RunnerRun {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
  tests: RunnerTest[];
}

/** The person of the proxy lane: what they last set, to check it is never erased. */
interface Person {
  priorities: Map<string, string>;
  names: Map<string, string>;
  /** Gaps at which the person wrote something. */
  wrote: number;
  /** Of those, gaps right after a 201 without ETag: the client had to read before its write. */
  after201: number;
}

export interface Lane {
  name: LaneName;
  emu: RunningEmulator;
  env: Record<string, string>;
  person?: Person;
  /** Case id of each key this life has seen (history must follow renames). */
  ids: Map<string, string>;
  /** Case ids that must be ARCHIVED now. */
  archived: Set<string>;
  close(): Promise<void>;
}

const PRIORITIES = ['HIGH', 'LOW', 'MEDIUM'];
/** The records the person touches: a case's priority; the others saved as they are. */
const EDITED = ['test_cases', 'test_case_executions', 'test_cycles', 'test_steps'] as const;

/** A person at the proxy's gaps (seeded: the same seed makes the same interleaving). */
function personAt(emu: RunningEmulator, seed: number, person: Person) {
  const random = prng(seed);
  const store = emu.service.store;
  return async (x: Exchange) => {
    const data = (x.body as { data?: unknown } | undefined)?.data;
    const records = (Array.isArray(data) ? data : data ? [data] : []) as {
      type?: string;
      id?: string;
    }[];
    if (records.length === 0 || random() < 0.5) return;
    const pick = records[Math.floor(random() * records.length)]!;
    if (!pick.type || !pick.id || !(EDITED as readonly string[]).includes(pick.type)) return;
    const record = store.get(pick.type as (typeof EDITED)[number], pick.id);
    if (!record || record.attributes.deletedAt != null) return;
    if (record.type === 'test_cases') {
      if (record.attributes.name === record.attributes.automationKey && random() < 0.3) {
        const name = `Named by a person ${person.names.size + 1}`;
        store.write(record, { name });
        person.names.set(record.id, name);
      } else {
        const priority = PRIORITIES[Math.floor(random() * PRIORITIES.length)]!;
        store.write(record, { priority });
        person.priorities.set(record.id, priority);
      }
    } else store.bump(record);
    person.wrote++;
    if (x.method === 'POST' && x.status === 201) person.after201++;
  };
}

/** A Space for a life, reached directly or through the interleaving proxy. */
export async function startLane(name: LaneName, seed: Seed, proxySeed = 7): Promise<Lane> {
  const emu = await emulator({ seed, rateLimit: '100000/1m' });
  const env = {
    TESTCYCLE_BASE_URL: emu.url,
    TESTCYCLE_TOKEN: RW,
    TESTCYCLE_RATE_LIMIT: '100000/1m',
    TESTCYCLE_RETRY_BASE_MS: '2',
  };
  const lane: Lane = {
    name,
    emu,
    env,
    ids: new Map(),
    archived: new Set(),
    close: async () => undefined,
  };
  if (name === 'proxy') {
    const person: Person = { priorities: new Map(), names: new Map(), wrote: 0, after201: 0 };
    const proxy = await startInterleavingProxy(emu, {
      seed: proxySeed,
      atGap: personAt(emu, proxySeed * 7919, person),
    });
    lane.person = person;
    lane.env = { ...env, TESTCYCLE_BASE_URL: proxy.url };
    lane.close = () => proxy.close();
  }
  return lane;
}

/** A step a person wrote on a case, straight into the Space (as the service's app would). */
export async function writeStep(
  lane: Lane,
  caseId: string,
  step: { action: string; expectedResult: string; sequenceNumber: number },
): Promise<string> {
  const projectId = lane.emu.service.store.all('projects').next().value!.id;
  const res = await call(lane.emu, 'POST', '/test_steps', {
    body: doc('test_steps', { ...step, testCaseId: caseId, projectId }),
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

export interface CliRun {
  code: number;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  err: string;
  requests: number;
  writes: number;
  /** Requests by route (`GET /test_cases`), for the steady state's exact reads. */
  routes: Record<string, number>;
}

/** One CLI command against the lane, with the requests and writes it cost the Space. */
export async function cli(lane: Lane, args: string[]): Promise<CliRun> {
  lane.emu.resetStats();
  const { code, out, err } = await runCli([...args, '--json'], lane.env);
  const stats = lane.emu.stats();
  // A command stopped before its work (exit 2, 3, 4) says why on stderr and prints no JSON.
  let json = {};
  if (code <= 1)
    try {
      json = JSON.parse(out) as object;
    } catch {
      throw new Error(`${args[0]} exited ${code} without JSON:\n${out}\n${err}`);
    }
  return { code, json, err, requests: stats.total, writes: writes(stats), routes: stats.byRoute };
}

/** The runner's results as the Space's cycle must hold them: case id -> result. */
export function expectedExecutions(lane: Lane, run: RunnerRun): Map<string, Result> {
  const out = new Map<string, Result>();
  for (const t of run.tests) {
    const id = caseIdOf(lane, t);
    expect([t.key, out.has(id)]).toEqual([t.key, false]);
    out.set(id, t.result);
  }
  return out;
}

/** The live case of a runner's test: its explicit key's, else the one its automation key names. */
export function caseIdOf(lane: Lane, t: RunnerTest): string {
  const cases = [...lane.emu.service.store.all('test_cases')].filter(
    (c) =>
      c.attributes.deletedAt == null &&
      (t.explicit
        ? c.attributes.testCaseKey === t.explicit
        : c.attributes.automationKey === t.key && c.attributes.status !== 'ARCHIVED'),
  );
  expect([t.key, cases.length]).toEqual([t.key, 1]);
  return cases[0]!.id;
}

/** The cycle's executions as the emulator holds them: case id -> results. */
export function executionsIn(lane: Lane, cycleName: string): Map<string, string[]> {
  const store = lane.emu.service.store;
  const cycles = [...store.all('test_cycles')].filter((c) => c.attributes.name === cycleName);
  expect(cycles).toHaveLength(1);
  const out = new Map<string, string[]>();
  for (const e of store.byForeignKey('test_case_executions', 'testCycleId', cycles[0]!.id)) {
    const id = String(e.attributes.testCaseId);
    out.set(id, [...(out.get(id) ?? []), String(e.attributes.result)]);
  }
  return out;
}

/**
 * The Space after one step, against the runner: one case per test, the cycle holding exactly the
 * runner's results (its counts and each test's), history on one case across followed renames,
 * ARCHIVED exactly the cases of deleted tests, and nothing the person wrote erased.
 */
export function checkSpace(
  lane: Lane,
  run: RunnerRun,
  cycleName: string,
  change: { renamed?: [string, string][]; deleted?: string[]; restored?: string[] } = {},
): { created: number } {
  let created = 0;
  // History follows a rename: the new key's case is the old key's.
  for (const [from, to] of change.renamed ?? []) {
    const id = lane.ids.get(from);
    expect([from, id !== undefined]).toEqual([from, true]);
    lane.ids.set(to, id!);
  }
  for (const key of change.deleted ?? []) lane.archived.add(lane.ids.get(key)!);
  for (const key of change.restored ?? []) lane.archived.delete(lane.ids.get(key)!);
  const known = new Set(lane.ids.values());
  for (const t of run.tests) {
    const id = caseIdOf(lane, t);
    const was = lane.ids.get(t.key);
    if (was !== undefined) expect([t.key, id]).toEqual([t.key, was]);
    else {
      // A new test: a case of its own, not one that held another test's history.
      expect([t.key, known.has(id) && !t.explicit]).toEqual([t.key, false]);
      lane.ids.set(t.key, id);
      if (!t.explicit) created++;
    }
  }
  // The cycle: the runner's counts, and each test's result on its own case.
  const held = executionsIn(lane, cycleName);
  const expected = expectedExecutions(lane, run);
  expect(Object.fromEntries(held)).toEqual(
    Object.fromEntries([...expected].map(([id, r]) => [id, [r]])),
  );
  const count = (r: Result) => [...held.values()].filter((x) => x[0] === r).length;
  expect({ passed: count('PASSED'), failed: count('FAILED'), skipped: count('SKIPPED') }).toEqual({
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
  });
  // ARCHIVED exactly the cases of deleted tests; no other case of the Space.
  const archived = [...lane.emu.service.store.all('test_cases')]
    .filter((c) => c.attributes.status === 'ARCHIVED')
    .map((c) => String(c.attributes.automationKey ?? c.id))
    .sort();
  const expectArchived = [...lane.archived]
    .map((id) => String(lane.emu.service.store.get('test_cases', id)!.attributes.automationKey))
    .sort();
  expect(archived).toEqual(expectArchived);
  // What the person wrote at the proxy's gaps stands.
  const store = lane.emu.service.store;
  for (const [id, priority] of lane.person?.priorities ?? [])
    expect([id, store.get('test_cases', id)!.attributes.priority]).toEqual([id, priority]);
  for (const [id, name] of lane.person?.names ?? [])
    expect([id, store.get('test_cases', id)!.attributes.name]).toEqual([id, name]);
  return { created };
}

/** The names and steps of a case as they stand: what a person wrote must not change. */
export function caseText(lane: Lane, id: string) {
  const store = lane.emu.service.store;
  const c = store.get('test_cases', id)!;
  const steps = store
    .byForeignKey('test_steps', 'testCaseId', id)
    .filter((s) => s.attributes.deletedAt == null)
    .sort((a, b) => Number(a.attributes.sequenceNumber) - Number(b.attributes.sequenceNumber))
    .map((s) => ({
      action: s.attributes.action,
      expectedResult: s.attributes.expectedResult,
      id: s.id,
    }));
  return { name: c.attributes.name, automationStatus: c.attributes.automationStatus, steps };
}
