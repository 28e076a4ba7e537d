/**
 * The publish pipeline: preflight -> cycle -> match -> plan -> writes -> (gate) -> result.
 * Adapters (CLI, action, library users) call publish() with one options object.
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { cycleCensus } from './census.js';
import { stopIfInterrupted, TestcycleError, type Words } from '../shared/errors.js';
import { oneLine, type Logger, silentLogger } from '../shared/redact.js';
import type { ParsedReport, TestResult } from '../parsers/index.js';
import type { ExecutionResult } from '../schema/resources.js';
import { type ResolvedCycle, resolveCycle, setCycleStatus } from '../domain/index.js';
import {
  type CycleCounts,
  countsFrom,
  evaluateGate,
  type GateOptions,
  type GateVerdict,
  hasThresholds,
  passRate,
  passRatesOf,
} from './gate.js';
import {
  describeCollisions,
  findKeyCollisions,
  type KeyCollision,
  testKeysOf,
} from '../domain/index.js';
import {
  caseNameOf,
  describeKeyHint,
  display,
  keyWarnings,
  matchTests,
  type MatchResult,
  type Unmatched,
} from '../domain/index.js';
import { describeSyncResult, sync, type SyncResult } from '../inventory/index.js';
import { requestsOf, type RequestFigures } from '../client/index.js';

export { requestsOf };
import { formatDuration, Progress, RequestTrail } from '../domain/index.js';
import { warningList } from '../domain/index.js';
import { combineEntries, resultOf } from './results.js';
import { type AutoQuarantineResult, ruleStep } from '../triage/index.js';
import { type Notified, notifyWarnings, tellOwners } from '../triage/index.js';
import type { Triage } from '../triage/index.js';
import { planAfterWrites } from './dry-run.js';
import { isStandIn, standInId } from '../domain/index.js';
import type { PublishSettings } from './settings.js';
import {
  floorReasons,
  floorWarnings,
  isFailing,
  leftOutReason,
  runErrorsOf,
  type ReportRunError,
  type RunnerStatus,
} from './verdict.js';
import {
  type CycleContents,
  type Desired,
  makePlan,
  type Plan,
  planCost,
  readCycleContents,
  writePlan,
} from './writes.js';

/** The settings of settings.ts (flags and inputs), the reports, and what the caller wires in. */
export interface PublishOptions extends Omit<PublishSettings, 'gate' | 'format'> {
  /** The reports, read before any request (readReports). */
  reports: ParsedReport[];
  /** The gate; absent: no gate. */
  gate?: GateOptions;
  /** Where it logs; default silent. */
  logger?: Logger;
  /** Progress lines: every ~10 s or 5% of the writes. */
  progress?: (line: string) => void;
  /** How often progress lines may come; default about 10 s. */
  progressIntervalMs?: number;
  /**
   * The write pool's concurrency (it keeps twice as many results under way); default the client's.
   */
  concurrency?: number;
  /** Stop between writes when aborted (SIGINT, a cancelled job): InterruptedError, exit 130. */
  signal?: AbortSignal;
}

/**
 * What a publish did: the cycle, its counts and pass rate, the gate's verdict, the writes, what did
 * not match, and what it cost.
 */
export interface PublishResult {
  /** The cycle written to (in a dry run, maybe one not created yet). */
  cycle: { id: string | null; key: string | null; name: string; status: string };
  /** The cycle's executions by result, after the writes. */
  counts: CycleCounts;
  /** The cycle's pass rate on the gate's basis; null: no counted tests. */
  passRate: number | null;
  /**
   * With quarantined tests left out of the gate: the pass rate that counts them too, as
   * `testcycle report` does (the two differ by them).
   */
  passRateWithQuarantined?: number | null;
  /** The gate's verdict, and whether a gate was evaluated at all. */
  gate: GateVerdict & { evaluated: boolean };
  /** Executions created, updated and left as they were, and test cases created. */
  writes: { created: number; updated: number; unchanged: number; casesCreated: number };
  /** Tests that matched no test case. */
  unmatched: Unmatched[];
  /** Tests left out because distinct tests share their key (on-key-collision warn): not unmatched. */
  collided?: Unmatched[];
  /** The cycle's NOT_EXECUTED executions no report entry touched, by test case (key and automationKey). */
  notExecuted?: string[];
  /** Quarantined tests, and new failures against a baseline (src/triage/triage.ts), when gated. */
  triage?: Triage;
  /** Who was told of the new failures (--notify; in a dry run, who would be). */
  notified?: Notified;
  /** What --auto-quarantine and --release-after changed (in a dry run, would change). */
  autoQuarantine?: AutoQuarantineResult;
  /** The requests the run sent, by method, with retries and 429s. */
  requests: RequestFigures;
  /**
   * A dry run's plan: nothing was written (`writes` are zero), the cycle may not exist yet
   * (`cycle.status` is then ''), and the gate was not evaluated (gateOutcome: skipped).
   */
  dryRun?: {
    /** The requests the run would send beyond those this dry run sent (docs/design.md "Dry run"). */
    plannedRequests: number;
    /** The requests the run would send in all, its reads included. */
    totalRequests: number;
    createCycle: boolean;
    activateCycle: boolean;
    /** Executions the publish would create and update. */
    create: number;
    update: number;
    /** Test cases --create-missing-cases would create (those sync would create are in `sync`). */
    casesToCreate: number;
  };
  /** What the user should look at; the run went on. */
  warnings: string[];
  /** publish --sync: what sync did (or, in a dry run, would do) before the results. */
  sync?: SyncResult;
  /**
   * Failures of the run that are no test's result, each with its report (docs/design.md "Run
   * errors"): with on-run-error fail, each fails the gate.
   */
  runErrors?: ReportRunError[];
  /** How the runner ended, as runner-outcome or runner-exit-code said. */
  runner?: RunnerStatus;
}

/**
 * Tests that match no test case under `on-unmatched: fail`: the run stops before any result is
 * written.
 */
export class UnmatchedError extends TestcycleError {
  constructor(
    /** The tests that matched no case, and why. */
    readonly unmatched: Unmatched[],
  ) {
    const shown = unmatched.slice(0, 5).map((u) => u.test);
    super(
      (w) =>
        `${unmatched.length} test(s) match no test case (${w.value('on-unmatched', 'fail')}): ${shown.join('; ')}${unmatched.length > 5 ? '; ...' : ''}`,
      'UNMATCHED',
      'report',
    );
  }
}

/**
 * Two tests of the run give the same key (`on-key-collision: fail`): the run stops before any
 * write.
 */
export class KeyCollisionError extends TestcycleError {
  constructor(
    /** The keys given by more than one distinct test, with those tests. */
    readonly collisions: KeyCollision[],
  ) {
    super(
      (w) => describeCollisions(collisions, w.value('on-key-collision', 'fail'), w),
      'KEY_COLLISION',
      'report',
    );
  }
}

/** The pipeline, step by step; each step is a function below. */
export async function publish(
  client: ServiceClient,
  options: PublishOptions,
): Promise<PublishResult> {
  const run = startRun(client, options);
  for (const warning of keyWarnings(options.reports, options.match)) run.warn(warning);
  // The runner's verdict, from the reports and the CI, before any request: the floor of the gate.
  const floor = floorReasons(options);
  for (const warning of floorWarnings(options)) run.warn(warning);
  const verdictFields = verdictFieldsOf(options);
  // Distinct tests that would share one execution: known from the reports, before any request.
  const { tests, collided, collidedFailing } = withoutCollisions(options, run.warn);
  const project = await preflight(run);
  const synced = options.sync ? await syncCases(run, project.id) : undefined;
  const cycle = await resolveCycle(client, project.id, {
    ...options.cycle,
    dryRun: options.dryRun,
    logger: run.logger,
    needActive: true,
  });
  stopIfInterrupted(options.signal);
  const contents = await readContents(run, cycle);
  const match = await matchAll(run, tests, project.id, contents.cases, synced?.sync);
  const plan = planWrites(run, tests, match, contents.executions);
  if (options.dryRun) {
    for (const reason of floor) run.warn(`the gate would fail: ${reason}`);
    return {
      ...(await dryRunResult(run, project.id, cycle, plan, match, collided, synced?.sync)),
      ...synced,
      ...verdictFields,
    };
  }
  // Failed tests the cycle will not hold: the gate names them, with or without thresholds
  // (unmatched ones only where the user did not say to ignore them).
  const leftOut = leftOutReason({
    unmatched:
      options.onUnmatched === 'ignore'
        ? 0
        : tests.filter((e, i) => !match.byTest.has(i) && isFailing(e.test)).length,
    collided: collidedFailing,
  });
  const cycleResource = cycle!.resource;
  const written = await writeResults(run, plan, project.id, cycleResource.id);
  const finalCycle = options.cycle.close
    ? await setCycleStatus(client, cycleResource, 'DONE')
    : cycleResource;
  // The rule first, so that a test it quarantines now is left out of this gate already.
  const autoQuarantine = await ruleStep(client, options.gate, cycleResource);
  for (const warning of autoQuarantine?.warnings ?? []) run.warn(warning);
  const { counts, gate, triage } = await gateStep(
    run,
    cycleResource,
    localCounts(plan, written.final),
    { floor, leftOut },
  );
  // Best effort: a failure to tell people warns and leaves the verdict as it is.
  const notified = await tellOwners(client, options.gate, cycleResource, triage);
  for (const warning of notifyWarnings(notified)) run.warn(warning);
  return {
    cycle: cycleInfo(finalCycle, options.cycle.name),
    counts,
    ...passRatesOf(counts, options.gate?.basis ?? 'executed', triage?.quarantined),
    gate,
    ...(triage ? { triage } : {}),
    ...(notified ? { notified } : {}),
    ...(autoQuarantine ? { autoQuarantine } : {}),
    writes: {
      created: written.created,
      updated: written.updated,
      unchanged: plan.unchanged + written.alreadyThere,
      casesCreated: match.casesCreated,
    },
    unmatched: match.unmatched,
    ...(collided.length ? { collided } : {}),
    ...notExecutedOf(plan, contents.cases),
    requests: requestsOf(client),
    warnings: run.warnings,
    ...synced,
    ...verdictFields,
  };
}

/** The result's run errors and runner status, where there are any. */
function verdictFieldsOf(options: PublishOptions): Pick<PublishResult, 'runErrors' | 'runner'> {
  const runErrors = runErrorsOf(options.reports);
  return {
    ...(runErrors.length ? { runErrors } : {}),
    ...(options.runner ? { runner: options.runner } : {}),
  };
}

/**
 * publish --sync: the run's test cases created and updated as sync does (src/inventory/sync.ts)
 * before the results are written; a publish never archives.
 */
async function syncCases(run: Run, projectId: string): Promise<Pick<PublishResult, 'sync'>> {
  const { options } = run;
  const result = await sync(run.client, {
    reports: options.reports,
    match: options.match,
    caseFields: options.caseFields,
    caseNames: options.caseNames,
    replaceSteps: options.replaceSteps,
    ownershipField: options.ownershipField,
    retireMissing: false,
    dryRun: options.dryRun,
    logger: run.logger,
    signal: options.signal,
    projectId,
    quiet: true,
  });
  run.warnings.push(...result.warnings);
  run.logger.info(describeSyncResult(result));
  return { sync: result };
}

/** What every step shares: the client, the options, the log and the warnings so far. */
interface Run {
  client: ServiceClient;
  options: PublishOptions;
  logger: Logger;
  warnings: string[];
  warn: (text: string | Words) => void;
  /** The requests over time, for the estimates of the case creation and the writes. */
  trail: RequestTrail;
}

function startRun(client: ServiceClient, options: PublishOptions): Run {
  const logger = options.logger ?? silentLogger;
  const { warnings, warn } = warningList(logger);
  // Interrupted: writes under way finish, but none waits minutes for the rate limit to do so.
  client.scheduler.stopWaitingOn(options.signal);
  return { client, options, logger, warnings, warn, trail: new RequestTrail() };
}

/** A wrong region or token fails here, before any write. */
async function preflight(run: Run): Promise<Resource<'projects'>> {
  const project = await run.client.project();
  stopIfInterrupted(run.options.signal);
  return project;
}

/** An existing cycle is read once, with its test cases: a re-run matches most tests from them. */
async function readContents(run: Run, cycle: ResolvedCycle | undefined): Promise<CycleContents> {
  const contents =
    cycle && !cycle.created
      ? await readCycleContents(run.client, cycle.resource.id)
      : { executions: [], cases: [] };
  stopIfInterrupted(run.options.signal);
  return contents;
}

type Tests = { test: TestResult; file: string }[];

/** Tests to test cases; the unmatched are listed, and fail the run on request. */
async function matchAll(
  run: Run,
  tests: Tests,
  projectId: string,
  known: Resource<'test_cases'>[],
  synced: SyncResult | undefined,
): Promise<MatchResult> {
  const { options } = run;
  // A dry run of publish --sync: sync would have created these cases (named as createCase names them).
  const created = new Set(synced?.dryRun ? synced.created.map((c) => c.name) : []);
  const match = await matchTests(
    run.client,
    { tests, projectId, known, synced: (auto) => created.has(caseNameOf(auto)) },
    {
      ...options.match,
      dryRun: options.dryRun,
      logger: run.logger,
      progress: {
        sink: options.progress,
        intervalMs: options.progressIntervalMs,
        trail: run.trail,
      },
    },
  );
  if (match.keyHint) run.warn(describeKeyHint(match.keyHint, options.match.automationKey));
  if (match.unmatched.length && options.onUnmatched !== 'ignore') {
    const list = match.unmatched.slice(0, 20).map((u) => `  ${u.test} (${u.file}): ${u.reason}`);
    run.warn(
      `${match.unmatched.length} test(s) match no test case:\n${list.join('\n')}${match.unmatched.length > 20 ? '\n  ...' : ''}`,
    );
  }
  if (match.unmatched.length && options.onUnmatched === 'fail')
    throw new UnmatchedError(match.unmatched);
  return match;
}

type CountedPlan = Plan & { creates: number; updates: number; unchanged: number };

/** One desired result per test case (report entries combined by the merge rules), against the cycle. */
function planWrites(
  run: Run,
  tests: Tests,
  match: MatchResult,
  existing: CycleContents['executions'],
): CountedPlan {
  const perCase = new Map<string, ExecutionResult[]>();
  tests.forEach(({ test }, i) => {
    const matched = match.byTest.get(i);
    if (!matched) return;
    perCase.set(matched.id, [...(perCase.get(matched.id) ?? []), resultOf(test, run.options)]);
  });
  const desired: Desired[] = [...perCase].map(([caseId, results]) => ({
    caseId,
    result: combineEntries(results),
  }));
  stopIfInterrupted(run.options.signal);
  const plan = makePlan(existing, desired, run.options.merge);
  for (const d of plan.duplicates)
    run.warn(
      `test case ${d.caseId} has ${d.ignored.length + 1} executions in the cycle; using ${d.kept}, ignoring ${d.ignored.join(', ')}`,
    );
  const creates = plan.items.filter((i) => i.kind === 'create').length;
  const updates = plan.items.filter((i) => i.kind === 'update').length;
  return { ...plan, creates, updates, unchanged: plan.items.length - creates - updates };
}

/**
 * A dry run ends with the plan: what it would write and what the run would cost, request for
 * request (docs/design.md "Dry run"). Every request so far the run sends too; then come the writes
 * (sync's, the cycle's, the cases', the executions'), closing, and what follows the writes
 * (src/publish/dry-run.ts).
 */
async function dryRunResult(
  run: Run,
  projectId: string,
  cycle: ResolvedCycle | undefined,
  plan: CountedPlan,
  match: MatchResult,
  collided: Unmatched[],
  synced: SyncResult | undefined,
): Promise<PublishResult> {
  const { options, client } = run;
  const createCycle = !cycle;
  const activateCycle = !!cycle?.activated;
  const target: Resource<'test_cycles'> = cycle?.resource ?? {
    type: 'test_cycles',
    // A stand-in after every cycle of its series, its id as long as a real one.
    id: standInId(0, projectId),
    attributes: { name: options.cycle.name, rank: Number.MAX_SAFE_INTEGER, projectId },
  };
  const results = new Map<string, ExecutionResult>();
  for (const e of plan.untouched) results.set(e.caseId, e.result);
  for (const item of plan.items)
    results.set(item.caseId, item.kind === 'unchanged' ? item.execution.result : item.result);
  const newCases = new Map<string, string>();
  for (const found of match.byTest.values())
    if (isStandIn(found.id) && found.automationKey) newCases.set(found.id, found.automationKey);
  // Every request so far the run sends too, before its first write.
  const reads = client.stats.total;
  const after = await planAfterWrites(client, options.gate, {
    resource: target,
    results,
    newCases,
  });
  const total =
    reads +
    (synced?.plannedRequests ?? 0) +
    // The cycle: its rank and its POST; or a GET for its ETag and the PATCH to ACTIVE.
    (createCycle || activateCycle ? 2 : 0) +
    (match.casesToCreate ? 1 + match.casesToCreate : 0) +
    planCost(plan) +
    // Closing: a created or activated cycle carries the ETag its write returned; one found by a
    // listing is read for it first (docs/design.md "ETag").
    (options.cycle.close ? (createCycle || activateCycle ? 1 : 2) : 0) +
    after.requests;
  const planned = total - client.stats.total;
  run.logger.info(
    `dry run: ${createCycle ? `would create cycle "${options.cycle.name}", ` : ''}${activateCycle ? 'would make the cycle ACTIVE, ' : ''}` +
      `${match.casesToCreate ? `${match.casesToCreate} test cases to create, ` : ''}${plan.creates} to create, ${plan.updates} to update, ${plan.unchanged} unchanged; ${planned} more requests (${client.stats.total} read so far, ${total} in all)`,
  );
  const counts = localCounts(plan, new Map());
  const { notified, autoQuarantine } = after;
  for (const warning of autoQuarantine?.warnings ?? []) run.warn(warning);
  for (const warning of notifyWarnings(notified)) run.warn(warning);
  return {
    cycle: cycleInfo(cycle?.resource, options.cycle.name),
    counts,
    passRate: passRate(counts, options.gate?.basis ?? 'executed'),
    gate: { passed: true, reasons: [], evaluated: false },
    writes: { created: 0, updated: 0, unchanged: plan.unchanged, casesCreated: 0 },
    unmatched: match.unmatched,
    ...(collided.length ? { collided } : {}),
    ...(notified ? { notified } : {}),
    ...(autoQuarantine ? { autoQuarantine } : {}),
    requests: requestsOf(client),
    dryRun: {
      plannedRequests: planned,
      totalRequests: total,
      createCycle,
      activateCycle,
      create: plan.creates,
      update: plan.updates,
      casesToCreate: match.casesToCreate,
    },
    warnings: run.warnings,
  };
}

interface Written {
  created: number;
  updated: number;
  alreadyThere: number;
  /** The result each test case has now. */
  final: Map<string, ExecutionResult>;
}

/** The writes, with progress; an error says how much was written and that a re-run completes it. */
async function writeResults(
  run: Run,
  plan: CountedPlan,
  projectId: string,
  cycleId: string,
): Promise<Written> {
  const { client, options } = run;
  const written: Written = { created: 0, updated: 0, alreadyThere: 0, final: new Map() };
  const total = plan.creates + plan.updates;
  let done = 0;
  const progress = new Progress(total, {
    sink: options.progress,
    intervalMs: options.progressIntervalMs,
    requests: () => client.stats.total,
    rateLimit: client.scheduler.rateLimit,
    // A new result is a POST and a PATCH, a changed one a GET and a PATCH (docs/design.md
    // "Publish: request budget").
    requestsPerUnit: 2,
    trail: run.trail,
  });
  // Legs of a matrix on one token (a 429, or the legs setting) count every leg's results in the
  // cycle to find their share (src/publish/census.ts); a lone publisher never counts.
  const census = cycleCensus(client, cycleId, (reason) =>
    run.warn(
      `Matrix legs: the service refused to count the cycle's recent results, so this leg finds its share of the rate limit by probing instead (${reason})`,
    ),
  );
  client.scheduler.expect(planCost(plan), census.census, () =>
    run.logger.info(
      "Matrix legs: the rate limit was used up while this cycle's recent results left room, so other cycles or tools use this token too; this leg finds its share of the rate limit by probing instead",
    ),
  );
  progress.begin(` (${plan.creates} new, ${plan.updates} changed, ${plan.unchanged} unchanged)`);
  try {
    await writePlan(client, plan, {
      projectId,
      cycleId,
      merge: options.merge,
      concurrency: options.concurrency ?? client.scheduler.concurrency,
      onDone: (outcome) => {
        done++;
        if (outcome.created) written.created++;
        else if (outcome.written) written.updated++;
        else written.alreadyThere++;
        written.final.set(outcome.caseId, outcome.result);
        census.wrote(outcome.result, outcome.writtenAt);
        progress.step();
      },
      signal: options.signal,
      onRetryLater: (count, pauseMs, failure) =>
        run.warn(
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
  progress.end();
  // Told of more legs than publish at once, this leg kept a small share until it counted: say so.
  const legs = client.scheduler.fewerLegs;
  if (legs)
    run.warn(
      (w) =>
        `Matrix legs: told of ${legs.told} legs publishing at once (${w.name('legs')}), but this leg's counts of the cycle never saw more than about ${Math.max(1, Math.round(legs.seen))}; a leg told of more legs than publish at once starts at too small a share of the rate limit and keeps it until it counts. Give ${w.name('legs')} the number of legs that publish at once (by default it is every copy of this job that runs at once, also those that do not publish).`,
    );
  return written;
}

/**
 * With thresholds: one aggregate over the whole cycle (every shard), then the verdict. The
 * runner's verdict is its floor, with or without thresholds (docs/design.md "Run errors"): the
 * floor's reasons fail it first, and so do failed tests the cycle does not hold: a later gate
 * reads only the cycle, so this step is the only one that can say them.
 */
async function gateStep(
  run: Run,
  cycle: Resource<'test_cycles'>,
  local: CycleCounts,
  { floor, leftOut }: { floor: string[]; leftOut?: string },
): Promise<{ counts: CycleCounts; gate: PublishResult['gate']; triage?: Triage }> {
  const gate = run.options.gate;
  const reasons = leftOut ? [...floor, leftOut] : floor;
  if (!hasThresholds(gate))
    return {
      counts: local,
      gate: onFloor({ passed: true, reasons: [], evaluated: false }, reasons),
    };
  const { counts, verdict, triage } = await evaluateGate(run.client, cycle, gate);
  return {
    counts,
    gate: onFloor({ ...verdict, evaluated: true }, reasons),
    ...(triage ? { triage } : {}),
  };
}

/** A verdict with the floor's reasons before its own: any of them fails it. */
function onFloor(gate: PublishResult['gate'], floor: string[]): PublishResult['gate'] {
  if (floor.length === 0) return gate;
  return { ...gate, passed: false, reasons: [...floor, ...gate.reasons], evaluated: true };
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

/** The untouched NOT_EXECUTED executions, named by their test cases where the read embedded them. */
function notExecutedOf(
  plan: Plan,
  cases: Resource<'test_cases'>[],
): Pick<PublishResult, 'notExecuted'> {
  const byId = new Map(cases.map((c) => [c.id, c.attributes]));
  const names = plan.untouched
    .filter((e) => e.result === 'NOT_EXECUTED')
    .map((e) => {
      const c = byId.get(e.caseId);
      const name = [c?.testCaseKey, c?.automationKey].filter(Boolean).join(' ');
      return oneLine(name || e.key || e.id);
    });
  return names.length ? { notExecuted: names } : {};
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

/**
 * The tests to publish, and those left out because distinct tests share their key: with
 * `warn` (the default) they are listed and not written, with `fail` nothing is, and with `merge`
 * they share one execution as the user asked (docs/design.md: never silently one execution).
 */
function withoutCollisions(
  options: PublishOptions,
  warn: (text: string | Words) => void,
): { tests: Tests; collided: Unmatched[]; collidedFailing: number } {
  const all = options.reports.flatMap((r) => r.tests.map((test) => ({ test, file: r.file })));
  const mode = options.onKeyCollision ?? 'warn';
  if (mode === 'merge') return { tests: all, collided: [], collidedFailing: 0 };
  const keys = testKeysOf(all, options.match);
  const collisions = findKeyCollisions(all, keys, options.match.automationKey);
  if (collisions.length === 0) return { tests: all, collided: [], collidedFailing: 0 };
  if (mode === 'fail') throw new KeyCollisionError(collisions);
  warn((w) =>
    describeCollisions(
      collisions,
      `left out; ${w.value('on-key-collision', 'merge')} writes them as one`,
      w,
    ),
  );
  const sharing = new Map(collisions.map((c) => [c.key, c.tests.length]));
  const tests: Tests = [];
  const collided: Unmatched[] = [];
  let collidedFailing = 0;
  all.forEach((entry, i) => {
    const key = keys[i]!;
    const count = sharing.get(key);
    if (count === undefined) tests.push(entry);
    else {
      if (isFailing(entry.test)) collidedFailing++;
      collided.push({
        test: display(entry.test),
        file: entry.file,
        reason: `key collision: ${count} distinct tests share the key "${oneLine(key)}"`,
      });
    }
  });
  return { tests, collided, collidedFailing };
}
