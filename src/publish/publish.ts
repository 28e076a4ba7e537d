/**
 * The publish pipeline: preflight -> cycle -> match -> plan -> writes -> (gate) -> result.
 * Adapters (CLI, action, library users) call publish() with one options object.
 */
import type { ServiceClient } from '../api/client.js';
import { render, stopIfInterrupted, TestcycleError, type Words } from '../api/errors.js';
import { oneLine, type Logger, silentLogger } from '../api/redact.js';
import type { RequestStats } from '../api/scheduler.js';
import type { ParsedReport, TestResult } from '../reports/model.js';
import type { ExecutionResult } from '../schema/resources.js';
import { resolveCycle, setCycleStatus } from './cycle.js';
import {
  type CycleCounts,
  countsFrom,
  cycleCounts,
  type GateOptions,
  type GateVerdict,
  hasThresholds,
  passRate,
  verdict,
} from './gate.js';
import {
  describeCollisions,
  findKeyCollisions,
  type KeyCollision,
  testKeyOf,
} from './collisions.js';
import { display, matchTests, type Unmatched } from './match.js';
import { combineEntries, resultOf } from './results.js';
import type { PublishSettings } from './settings.js';
import {
  type Desired,
  makePlan,
  type Plan,
  planCost,
  readCycleContents,
  writePlan,
} from './sync.js';

/** The settings of settings.ts (flags and inputs), the reports, and what the caller wires in. */
export interface PublishOptions extends Omit<PublishSettings, 'gate' | 'format'> {
  reports: ParsedReport[];
  gate?: GateOptions;
  logger?: Logger;
  /** Progress lines: every ~10 s or 5% of the writes. */
  progress?: (line: string) => void;
  progressIntervalMs?: number;
  concurrency?: number;
  /** Stop between writes when aborted (SIGINT, a cancelled job): InterruptedError, exit 130. */
  signal?: AbortSignal;
}

export interface PublishResult {
  cycle: { id: string | null; key: string | null; name: string; status: string };
  counts: CycleCounts;
  passRate: number | null;
  gate: GateVerdict & { evaluated: boolean };
  writes: { created: number; updated: number; unchanged: number; casesCreated: number };
  unmatched: Unmatched[];
  requests: Pick<RequestStats, 'total' | 'byMethod' | 'retried' | 'rateLimited'>;
  /**
   * A dry run's plan: nothing was written (`writes` are zero), the cycle may not exist yet
   * (`cycle.status` is then ''), and the gate was not evaluated (gateOutcome: skipped).
   */
  dryRun?: {
    plannedRequests: number;
    createCycle: boolean;
    activateCycle: boolean;
    /** Executions the publish would create and update. */
    create: number;
    update: number;
  };
  warnings: string[];
}

export class UnmatchedError extends TestcycleError {
  constructor(readonly unmatched: Unmatched[]) {
    const shown = unmatched.slice(0, 5).map((u) => u.test);
    super(
      (w) =>
        `${unmatched.length} test(s) match no test case (${w.value('on-unmatched', 'fail')}): ${shown.join('; ')}${unmatched.length > 5 ? '; ...' : ''}`,
      'UNMATCHED',
      'report',
    );
  }
}

export class KeyCollisionError extends TestcycleError {
  constructor(readonly collisions: KeyCollision[]) {
    super(
      (w) => describeCollisions(collisions, w.value('on-key-collision', 'fail'), w),
      'KEY_COLLISION',
      'report',
    );
  }
}

export async function publish(
  client: ServiceClient,
  options: PublishOptions,
): Promise<PublishResult> {
  const logger = options.logger ?? silentLogger;
  const warnings: string[] = [];
  const warn = (text: string | Words) => {
    warnings.push(render(text));
    logger.warn(text);
  };

  // Distinct tests that would share one execution: known from the reports, before any request.
  const { tests, collided } = withoutCollisions(options, warn);

  // Preflight: a wrong region or token fails here, before any write.
  const { signal } = options;
  const project = await client.project();
  stopIfInterrupted(signal);

  const cycle = await resolveCycle(client, project.id, {
    ...options.cycle,
    dryRun: options.dryRun,
    logger,
    needActive: true,
  });
  stopIfInterrupted(signal);
  // An existing cycle is read once, with its test cases: a re-run matches most tests from them.
  const contents =
    cycle && !cycle.created
      ? await readCycleContents(client, cycle.resource.id)
      : { executions: [], cases: [] };
  stopIfInterrupted(signal);
  const match = await matchTests(
    client,
    { tests, projectId: project.id, known: contents.cases },
    { ...options.match, dryRun: options.dryRun, logger },
  );
  match.unmatched.push(...collided);
  if (match.unmatched.length && options.onUnmatched !== 'ignore') {
    const list = match.unmatched.slice(0, 20).map((u) => `  ${u.test} (${u.file}): ${u.reason}`);
    warn(
      `${match.unmatched.length} test(s) match no test case:\n${list.join('\n')}${match.unmatched.length > 20 ? '\n  ...' : ''}`,
    );
  }
  if (match.unmatched.length && options.onUnmatched === 'fail')
    throw new UnmatchedError(match.unmatched);

  // One desired result per test case: report entries combined by the merge rules.
  const perCase = new Map<string, ExecutionResult[]>();
  tests.forEach(({ test }, i) => {
    const matched = match.byTest.get(i);
    if (!matched) return;
    perCase.set(matched.id, [...(perCase.get(matched.id) ?? []), resultOf(test, options)]);
  });
  const desired: Desired[] = [...perCase].map(([caseId, results]) => ({
    caseId,
    result: combineEntries(results),
  }));

  stopIfInterrupted(signal);
  const plan = makePlan(contents.executions, desired, options.merge);
  for (const d of plan.duplicates)
    warn(
      `test case ${d.caseId} has ${d.ignored.length + 1} executions in the cycle; using ${d.kept}, ignoring ${d.ignored.join(', ')}`,
    );
  const creates = plan.items.filter((i) => i.kind === 'create').length;
  const updates = plan.items.filter((i) => i.kind === 'update').length;
  const unchanged = plan.items.length - creates - updates;

  if (options.dryRun) {
    const createCycle = !cycle;
    const activateCycle = !!cycle?.activated;
    const planned =
      planCost(plan) +
      (createCycle ? 2 : 0) +
      (activateCycle ? 2 : 0) +
      (options.cycle.close ? 2 : 0) +
      (hasThresholds(options.gate) ? 1 : 0);
    logger.info(
      `dry run: ${createCycle ? `would create cycle "${options.cycle.name}", ` : ''}${activateCycle ? 'would make the cycle ACTIVE, ' : ''}` +
        `${creates} to create, ${updates} to update, ${unchanged} unchanged; about ${planned} more requests (${client.stats.total} read so far)`,
    );
    const counts = localCounts(plan, new Map());
    return {
      cycle: cycleInfo(cycle?.resource, options.cycle.name),
      counts,
      passRate: passRate(counts, options.gate?.basis ?? 'executed'),
      gate: { passed: true, reasons: [], evaluated: false },
      writes: { created: 0, updated: 0, unchanged, casesCreated: 0 },
      unmatched: match.unmatched,
      requests: requestsOf(client),
      dryRun: {
        plannedRequests: planned,
        createCycle,
        activateCycle,
        create: creates,
        update: updates,
      },
      warnings,
    };
  }

  const cycleResource = cycle!.resource;
  const final = new Map<string, ExecutionResult>();
  let done = 0;
  let created = 0;
  let updated = 0;
  let alreadyThere = 0;
  const total = creates + updates;
  const started = Date.now();
  let lastLine = started;
  let lastPct = 0;
  const report = (force = false) => {
    if (!options.progress || total === 0) return;
    const now = Date.now();
    const pct = Math.floor((done / total) * 20);
    // A line every ~10 s, or at each 5% step (at most one a second, so small runs stay quiet).
    const interval = options.progressIntervalMs ?? 10_000;
    if (
      !force &&
      now - lastLine < interval &&
      (pct === lastPct || now - lastLine < Math.min(1000, interval))
    )
      return;
    lastLine = now;
    lastPct = pct;
    const rate = done / Math.max(1, now - started);
    const eta = done > 0 && done < total ? ` ETA ${formatDuration((total - done) / rate)}` : '';
    options.progress(`${done}/${total} results written, ${client.stats.total} requests${eta}`);
  };
  if (total > 0)
    options.progress?.(
      `writing ${total} results (${creates} new, ${updates} changed, ${unchanged} unchanged)`,
    );
  try {
    await writePlan(client, plan, {
      projectId: project.id,
      cycleId: cycleResource.id,
      merge: options.merge,
      concurrency: options.concurrency ?? client.scheduler.concurrency,
      onDone: (outcome) => {
        done++;
        if (outcome.created) created++;
        else if (outcome.written) updated++;
        else alreadyThere++;
        final.set(outcome.caseId, outcome.result);
        report();
      },
      signal,
      onRetryLater: (count, pauseMs, failure) =>
        warn(
          `${count} result(s) hit a temporary failure (${failure instanceof Error ? failure.message : String(failure)}); trying them once more in ${formatDuration(pauseMs)}`,
        ),
    });
  } catch (error) {
    // Nothing written is lost, and a re-run repeats none of it: say so, so that people re-run.
    if (error instanceof TestcycleError && done > 0)
      error.append(
        `${done} of ${total} results were written before this; running the same command again writes the rest and repeats nothing.`,
      );
    throw error;
  }
  if (total > 0 && lastPct < 20) report(true);

  let finalCycle = cycleResource;
  if (options.cycle.close) finalCycle = await setCycleStatus(client, cycleResource, 'DONE');

  let counts = localCounts(plan, final);
  let gate: PublishResult['gate'] = { passed: true, reasons: [], evaluated: false };
  if (hasThresholds(options.gate)) {
    counts = await cycleCounts(client, cycleResource.id, options.gate.filter);
    gate = { ...verdict(counts, options.gate), evaluated: true };
  }
  return {
    cycle: cycleInfo(finalCycle, options.cycle.name),
    counts,
    passRate: passRate(counts, options.gate?.basis ?? 'executed'),
    gate,
    writes: {
      created,
      updated,
      unchanged: unchanged + alreadyThere,
      casesCreated: match.casesCreated,
    },
    unmatched: match.unmatched,
    requests: requestsOf(client),
    warnings,
  };
}

/** The cycle's counts from what this run read and wrote (no extra request). */
function localCounts(plan: Plan, final: Map<string, ExecutionResult>): CycleCounts {
  const byResult: Partial<Record<ExecutionResult, number>> = {};
  const add = (r: ExecutionResult) => (byResult[r] = (byResult[r] ?? 0) + 1);
  for (const e of plan.untouched) add(e.result);
  for (const item of plan.items) {
    if (item.kind === 'unchanged') add(final.get(item.caseId) ?? item.execution.result);
    else add(final.get(item.caseId) ?? item.result);
  }
  return countsFrom(byResult);
}

/** A cycle as results, outputs and `--json` show it: id, key, name, status. */
export function cycleInfo(
  resource: { id: string; attributes: Record<string, unknown> } | undefined,
  name?: string,
): PublishResult['cycle'] {
  return {
    id: resource?.id ?? null,
    key: (resource?.attributes.testCycleKey as string | undefined) ?? null,
    name: String(resource?.attributes.name ?? name ?? ''),
    // A cycle a dry run would create has no status yet.
    status: String(resource?.attributes.status ?? ''),
  };
}

/** The gate as outputs show it: a dry run wrote nothing, so it has no verdict. */
export function gateOutcome(result: PublishResult): 'passed' | 'failed' | 'skipped' {
  if (result.dryRun) return 'skipped';
  return result.gate.passed ? 'passed' : 'failed';
}

/** The request figures of a result (`--json` requests field). */
export function requestsOf(client: ServiceClient): PublishResult['requests'] {
  const s = client.stats;
  return {
    total: s.total,
    byMethod: { ...s.byMethod },
    retried: s.retried,
    rateLimited: s.rateLimited,
  };
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/**
 * The tests to publish, and those left out because distinct tests share their key: with
 * `warn` (the default) they are listed and not written, with `fail` nothing is, and with `merge`
 * they share one execution as the user asked (DESIGN.md: never silently one execution).
 */
function withoutCollisions(
  options: PublishOptions,
  warn: (text: string | Words) => void,
): { tests: { test: TestResult; file: string }[]; collided: Unmatched[] } {
  const all = options.reports.flatMap((r) => r.tests.map((test) => ({ test, file: r.file })));
  const mode = options.onKeyCollision ?? 'warn';
  if (mode === 'merge') return { tests: all, collided: [] };
  const keys = all.map(({ test }) => testKeyOf(test, options.match));
  const collisions = findKeyCollisions(all, keys, options.match.automationKey);
  if (collisions.length === 0) return { tests: all, collided: [] };
  if (mode === 'fail') throw new KeyCollisionError(collisions);
  warn((w) =>
    describeCollisions(
      collisions,
      `left out; ${w.value('on-key-collision', 'merge')} writes them as one`,
      w,
    ),
  );
  const sharing = new Map(collisions.map((c) => [c.key, c.tests.length]));
  const tests: { test: TestResult; file: string }[] = [];
  const collided: Unmatched[] = [];
  all.forEach((entry, i) => {
    const key = keys[i]!;
    const count = sharing.get(key);
    if (count === undefined) tests.push(entry);
    else
      collided.push({
        test: display(entry.test),
        file: entry.file,
        reason: `key collision: ${count} distinct tests share the key "${oneLine(key)}"`,
      });
  });
  return { tests, collided };
}
