/**
 * Plan and write the cycle's executions: read them once, decide create / update / unchanged, and
 * write only what changes. Each result costs the fewest requests the API allows: POST (the server
 * starts every execution as NOT_EXECUTED) then PATCH with the 201's ETag; an existing execution
 * that changes costs GET (for its ETag) then PATCH; an unchanged one costs nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Resource, type ServiceClient, updateWithRetry } from '../client/index.js';
import { isTransient, ServiceError, stopIfInterrupted } from '../shared/errors.js';
import { f } from '../client/index.js';
import type { ExecutionResult } from '../schema/resources.js';
import { createOrFind } from '../domain/index.js';
import { forEachPooled } from '../domain/index.js';
import { mergeWithServer, type MergeMode } from './results.js';
import { compareKeys } from '../domain/index.js';

export interface ExistingExecution {
  id: string;
  caseId: string;
  key?: string;
  result: ExecutionResult;
}

export interface Desired {
  caseId: string;
  result: ExecutionResult;
}

export type PlanItem =
  | { kind: 'create'; caseId: string; result: ExecutionResult }
  | { kind: 'update'; caseId: string; execution: ExistingExecution; result: ExecutionResult }
  | { kind: 'unchanged'; caseId: string; execution: ExistingExecution };

type WriteItem = Exclude<PlanItem, { kind: 'unchanged' }>;

export interface Plan {
  items: PlanItem[];
  /** Executions in the cycle that no report entry touches (they count in the cycle's totals). */
  untouched: ExistingExecution[];
  duplicates: { caseId: string; kept: string; ignored: string[] }[];
}

/** One read of the cycle's executions: related route, cursor mode, only the fields needed. */
export async function readExecutions(
  client: ServiceClient,
  cycleId: string,
): Promise<ExistingExecution[]> {
  return (await readCycle(client, cycleId, false)).executions;
}

export interface CycleContents {
  executions: ExistingExecution[];
  /** The live test cases of those executions, when the service embeds them (include). */
  cases: Resource<'test_cases'>[];
}

/**
 * The cycle's executions with their test cases embedded (include=testCase), so that a re-run
 * matches most tests without looking their cases up. A service that refuses the include (400)
 * is read again without it: one request more, once.
 */
export async function readCycleContents(
  client: ServiceClient,
  cycleId: string,
): Promise<CycleContents> {
  try {
    return await readCycle(client, cycleId, true);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 400) throw error;
    return readCycle(client, cycleId, false);
  }
}

async function readCycle(
  client: ServiceClient,
  cycleId: string,
  withCases: boolean,
): Promise<CycleContents> {
  const executions: ExistingExecution[] = [];
  const cases = new Map<string, Resource<'test_cases'>>();
  for await (const page of client.pages<'test_case_executions'>(
    `/test_cycles/${encodeURIComponent(cycleId)}/testCaseExecutions`,
    {
      fields: {
        test_case_executions: ['testCaseId', 'result', 'testCaseExecutionKey'],
        ...(withCases ? { test_cases: ['testCaseKey', 'automationKey', 'deletedAt'] } : {}),
      },
      ...(withCases ? { include: ['testCase'] } : {}),
    },
  )) {
    executions.push(...page.data.map(toExisting));
    for (const r of page.included)
      if (r.type === 'test_cases' && !r.attributes.deletedAt)
        cases.set(r.id, r as Resource<'test_cases'>);
  }
  return { executions, cases: [...cases.values()] };
}

function toExisting(r: Resource<'test_case_executions'>): ExistingExecution {
  return {
    id: r.id,
    caseId: String(r.attributes.testCaseId),
    key: r.attributes.testCaseExecutionKey as string | undefined,
    result: (r.attributes.result as ExecutionResult | undefined) ?? 'NOT_EXECUTED',
  };
}

export function makePlan(
  existing: ExistingExecution[],
  desired: Desired[],
  merge: MergeMode,
): Plan {
  const byCase = new Map<string, ExistingExecution[]>();
  for (const e of existing) byCase.set(e.caseId, [...(byCase.get(e.caseId) ?? []), e]);
  const duplicates: Plan['duplicates'] = [];
  const chosen = new Map<string, ExistingExecution>();
  for (const [caseId, list] of byCase) {
    // Two executions of one case in the cycle: use the lowest key, deterministically, and say so.
    const sorted = [...list].sort((a, b) => compareKeys(a.key ?? a.id, b.key ?? b.id));
    chosen.set(caseId, sorted[0]!);
    if (sorted.length > 1)
      duplicates.push({
        caseId,
        kept: sorted[0]!.key ?? sorted[0]!.id,
        ignored: sorted.slice(1).map((e) => e.key ?? e.id),
      });
  }
  const touched = new Set<string>();
  const items: PlanItem[] = desired.map((d) => {
    touched.add(d.caseId);
    const execution = chosen.get(d.caseId);
    if (!execution) return { kind: 'create', caseId: d.caseId, result: d.result };
    const target = mergeWithServer(execution.result, d.result, merge);
    return target === execution.result
      ? { kind: 'unchanged', caseId: d.caseId, execution }
      : { kind: 'update', caseId: d.caseId, execution, result: target };
  });
  const untouched = [...chosen.values()].filter((e) => !touched.has(e.caseId));
  return { items, untouched, duplicates };
}

/** Requests a plan costs (writes and the reads they need), for --dry-run. */
export function planCost(plan: Plan): number {
  let n = 0;
  for (const item of plan.items) {
    if (item.kind === 'create') n += item.result === 'NOT_EXECUTED' ? 1 : 2;
    else if (item.kind === 'update') n += 2;
  }
  return n;
}

export interface WriteOutcome {
  caseId: string;
  executionId: string;
  result: ExecutionResult;
  created: boolean;
  written: boolean;
  /** When the service stamped the last write (its updatedAt), when there was one. */
  writtenAt?: string;
}

export interface WriteContext {
  projectId: string;
  cycleId: string;
  merge: MergeMode;
  concurrency: number;
  onDone: (outcome: WriteOutcome) => void;
  /** Told when results wait for a second round after a temporary failure. */
  onRetryLater?: (count: number, pauseMs: number, firstFailure: unknown) => void;
  /** Once aborted, no new write starts; those under way finish, then InterruptedError. */
  signal?: AbortSignal;
}

/**
 * Write every item that changes. A write whose retries all failed for a temporary reason (5xx,
 * 429, no answer, a 412 race) waits for one more round after the others, so a short outage late
 * in a long run costs a pause, not the run. A run of such failures with no success between them is
 * an outage: it stops at once rather than retrying every remaining result.
 */
export async function writePlan(
  client: ServiceClient,
  plan: Plan,
  context: WriteContext,
): Promise<void> {
  const work = plan.items.filter((i): i is WriteItem => i.kind !== 'unchanged');
  const size = Math.max(1, context.concurrency * 2);
  const later: WriteItem[] = [];
  let firstFailure: unknown;
  let failuresInARow = 0;
  const { signal } = context;
  await forEachPooled(
    work,
    size,
    async (item) => {
      try {
        context.onDone(await writeItem(client, item, context, false));
        failuresInARow = 0;
      } catch (error) {
        if (!isTransient(error) || ++failuresInARow > size) throw error;
        firstFailure ??= error;
        later.push(item);
      }
    },
    signal,
  );
  stopIfInterrupted(signal);
  if (later.length === 0) return;
  const pauseMs = client.scheduler.retryPauseMs;
  context.onRetryLater?.(later.length, pauseMs, firstFailure);
  // An abort ends the pause early (AbortError), and then the run stops.
  await sleep(pauseMs, undefined, { signal }).catch(() => undefined);
  stopIfInterrupted(signal);
  // The first round's create may have landed before its answer was lost: look before creating.
  await forEachPooled(
    later,
    size,
    async (item) => context.onDone(await writeItem(client, item, context, true)),
    signal,
  );
  stopIfInterrupted(signal);
}

/** One item's writes. Only its first request heeds an abort, so no item is left half done. */
function writeItem(
  client: ServiceClient,
  item: WriteItem,
  context: WriteContext,
  lookFirst: boolean,
): Promise<WriteOutcome> {
  return item.kind === 'create'
    ? createExecution(client, item.caseId, item.result, context, lookFirst)
    : updateExecution(
        client,
        item.execution,
        item.result,
        context.merge,
        undefined,
        context.signal,
      );
}

async function createExecution(
  client: ServiceClient,
  caseId: string,
  result: ExecutionResult,
  context: { projectId: string; cycleId: string; merge: MergeMode; signal?: AbortSignal },
  lookFirst: boolean,
): Promise<WriteOutcome> {
  // Another publisher created it (409), or our POST landed but its answer was lost.
  const find = async (signal?: AbortSignal) =>
    (
      await client.page<'test_case_executions'>('/test_case_executions', {
        filter: f.and(f.eq('testCycleId', context.cycleId), f.eq('testCaseId', caseId)),
        signal,
      })
    ).data.find(
      // Compared, not trusted: a record for another case or cycle is never patched.
      (e) => e.attributes.testCaseId === caseId && e.attributes.testCycleId === context.cycleId,
    );
  const existing = lookFirst ? await find(context.signal) : undefined;
  const { value, created } = existing
    ? { value: existing, created: false }
    : await createOrFind<Resource<'test_case_executions'>>(
        // A create is dropped on abort only while unsent: then there is nothing to finish.
        () =>
          client.create(
            'test_case_executions',
            { projectId: context.projectId, testCaseId: caseId, testCycleId: context.cycleId },
            { signal: context.signal },
          ),
        () => find(),
        client.scheduler.policy.createAttempts,
      );
  if (!created) {
    const outcome = await updateExecution(
      client,
      toExisting(value),
      result,
      context.merge,
      value.etag ? value : undefined,
    );
    return { ...outcome, created: false };
  }
  if (result === 'NOT_EXECUTED')
    return { caseId, executionId: value.id, result, created: true, written: true };
  // Another writer may get in between our 201 and this PATCH (and a 201 need not carry an ETag,
  // so the record may be read first): merge in the run's mode against what is there, as for any
  // write after a read.
  const outcome = await updateExecution(client, toExisting(value), result, context.merge, value);
  return { ...outcome, created: true };
}

async function updateExecution(
  client: ServiceClient,
  execution: ExistingExecution,
  result: ExecutionResult,
  merge: MergeMode,
  current?: Resource<'test_case_executions'>,
  signal?: AbortSignal,
): Promise<WriteOutcome> {
  // 412: re-read, re-merge against what is there now, retry (bounded) -- updateWithRetry.
  const out = await updateWithRetry(client, 'test_case_executions', execution.id, {
    current,
    signal,
    change: (now) => {
      const there = (now.attributes.result as ExecutionResult | undefined) ?? 'NOT_EXECUTED';
      const target = mergeWithServer(there, result, merge);
      return target === there ? null : { result: target };
    },
  });
  const stamped = out.resource.attributes.updatedAt;
  return {
    caseId: execution.caseId,
    executionId: execution.id,
    result: (out.resource.attributes.result as ExecutionResult | undefined) ?? result,
    created: false,
    written: out.written,
    writtenAt: out.written && typeof stamped === 'string' ? stamped : undefined,
  };
}
