/**
 * A dry run's plan of what comes after the writes (docs/design.md "Dry run"): the automatic
 * quarantine rule, the gate's reads and the notifications, each counted as the real run will send
 * them. The cycle is taken as the writes would leave it (`PlannedCycle`); reads whose answers the
 * writes do not change (the baseline, the previous cycle of the series, who is told) are made
 * here as the run makes them, and the rest (this cycle's executions once written) are counted from
 * the plan. Nothing is written.
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { chunkIn, f } from '../client/index.js';
import { ServiceError } from '../shared/errors.js';
import { DEFAULT_QUARANTINE_FIELD } from '../shared/defaults.js';
import type { ExecutionResult } from '../schema/resources.js';
import { type AutoQuarantineResult, ruleStep } from '../triage/index.js';
import { findBaseline, isFailing, readBaseline } from '../triage/index.js';
import { type GateOptions, hasThresholds } from './gate.js';
import { caseNameOf, MAX_FILTER_CHARS } from '../domain/index.js';
import { type Notified, tellOwners } from '../triage/index.js';
import { isStandIn, pagesOf } from '../domain/index.js';
import { casesInCycleChunks, quarantineViewOf, type TriagedTest } from '../triage/index.js';
import { previousInSeries } from '../domain/index.js';
import { gateFilterOf, type Triage } from '../triage/index.js';

/** The cycle as the writes would leave it. */
export interface PlannedCycle {
  /** The cycle; one the run would create is a stand-in ranked after every other. */
  resource: Resource<'test_cycles'>;
  /** Each test case's result once written (stand-in ids for the cases the run would create). */
  results: Map<string, ExecutionResult>;
  /** The automation keys of the cases the run would create, by stand-in id. */
  newCases: Map<string, string>;
}

export interface AfterWrites {
  /** The requests the run sends after its writes. */
  requests: number;
  autoQuarantine?: AutoQuarantineResult;
  notified?: Notified;
}

/** The rule, the gate and the notifications of the run, planned: their requests counted. */
export async function planAfterWrites(
  client: ServiceClient,
  gate: GateOptions | undefined,
  cycle: PlannedCycle,
): Promise<AfterWrites> {
  const autoQuarantine = await ruleStep(client, gate, cycle.resource, cycle.results);
  let requests = autoQuarantine ? autoQuarantine.readRequests + autoQuarantine.writeRequests : 0;
  if (!hasThresholds(gate)) return { requests, ...(autoQuarantine ? { autoQuarantine } : {}) };
  const planned = await plannedGate(client, gate, cycle, autoQuarantine);
  requests += planned.requests;
  let notified: Notified | undefined;
  if (gate.notify && planned.triage) {
    const told = await plannedNotifications(client, gate, cycle, planned.triage);
    requests += told.requests;
    notified = told.notified;
  }
  return {
    requests,
    ...(autoQuarantine ? { autoQuarantine } : {}),
    ...(notified ? { notified } : {}),
  };
}

/**
 * The gate's requests (src/publish/gate.ts `evaluateGate`): one aggregate (the grouped shape,
 * docs/design.md "Grouped aggregate"), the read of the quarantined and failing executions, the
 * baseline's lookup and executions and the fixed tests, the previous cycle and its aggregate.
 * The triage is returned (as far as notifications need it) when a baseline was found.
 */
async function plannedGate(
  client: ServiceClient,
  gate: GateOptions,
  cycle: PlannedCycle,
  rule: AutoQuarantineResult | undefined,
): Promise<{ requests: number; triage?: Triage }> {
  const wantFailures = gate.maxNewFailures !== undefined || !!gate.notify;
  const trend = gate.maxPassRateDrop !== undefined && !!gate.series;
  const results = [...cycle.results];
  // Which cases hold a quarantine matters for more than one page of executions, for the failing
  // tests and for the trend; otherwise the gate's read is one request whatever it holds.
  const needed = results.length > 100 || wantFailures || trend;
  const marked = needed ? await markedCases(client, gate, rule) : new Map<string, boolean>();
  const active = (id: string) => marked?.get(id) === true;
  const failing = results.filter(([id, r]) => isFailing(r) && !active(id)).map(([id]) => id);
  let requests = 1;
  if (!needed) requests += 1;
  // A Space without the field refuses the filter (400): the failing are then read alone.
  else if (!marked) requests += 1 + (wantFailures ? pagesOf(failing.length) : 0);
  else
    requests += pagesOf(
      results.filter(([id, r]) => marked.has(id) || (wantFailures && isFailing(r))).length,
    );
  const cycleId = cycle.resource.id;
  const gateFilter = gateFilterOf(gate);
  const measured = async <T>(read: () => Promise<T>): Promise<T> => {
    const before = client.stats.total;
    const out = await read();
    requests += client.stats.total - before;
    return out;
  };
  let triage: Triage | undefined;
  if (wantFailures) {
    const baseline = await measured(() => findBaseline(client, cycle.resource, gate));
    if (!('why' in baseline)) {
      const before = await measured(() => readBaseline(client, baseline.id));
      const failingNow = new Set(failing);
      const fixed = [...before]
        .filter(([id, r]) => isFailing(r) && !failingNow.has(id) && !active(id))
        .map(([id]) => id);
      const passed = f.and(f.eq('result', 'PASSED'), gateFilter);
      requests += casesInCycleChunks(cycleId, fixed, passed).length;
      const tests = failing.filter((id) => !isFailing(before.get(id)));
      triage = { quarantined: [], baseline, newFailures: [], stillFailing: [], fixed: [] };
      // Who is told needs the cases' owners and names: read only to notify.
      if (gate.notify) triage.newFailures = await casesOf(client, tests, cycle);
    }
  }
  if (trend) {
    const previous = await measured(() => previousInSeries(client, cycle.resource, gate.series!));
    const quarantined = results.filter(([id]) => active(id)).map(([id]) => id);
    if (!('why' in previous))
      requests += 1 + casesInCycleChunks(previous.id, quarantined, gateFilter).length;
  }
  return { requests, ...(triage ? { triage } : {}) };
}

/**
 * The cases whose quarantine field is set once the rule has written, each with whether its
 * quarantine counts now; undefined when the Space refuses the filter (it does not define the
 * field). One paged read.
 */
async function markedCases(
  client: ServiceClient,
  gate: GateOptions,
  rule: AutoQuarantineResult | undefined,
): Promise<Map<string, boolean> | undefined> {
  const field = gate.quarantineField ?? DEFAULT_QUARANTINE_FIELD;
  const now = gate.now?.() ?? new Date();
  const marked = new Map<string, boolean>();
  try {
    for await (const c of client.iterate<'test_cases'>('/test_cases', {
      filter: f.isNotNull(`customFields.${field}`),
      fields: { test_cases: ['customFields', 'updatedAt'] },
    })) {
      const q = quarantineViewOf(c, field, { now, expiryDays: gate.quarantineExpiryDays });
      marked.set(c.id, !!q?.active);
    }
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 400) throw error;
    return undefined;
  }
  for (const q of rule?.quarantined ?? []) marked.set(q.caseId, true);
  for (const r of rule?.released ?? []) marked.delete(r.caseId);
  return marked;
}

/** The tests as the gate's read names them: the cases' keys, names and owners (`id in` chunks). */
async function casesOf(
  client: ServiceClient,
  ids: string[],
  cycle: PlannedCycle,
): Promise<TriagedTest[]> {
  const tests: TriagedTest[] = [];
  for (const id of ids.filter(isStandIn)) {
    const name = caseNameOf(cycle.newCases.get(id) ?? '');
    tests.push({ caseId: id, key: '(new)', name, result: cycle.results.get(id)! });
  }
  const existing = ids.filter((id) => !isStandIn(id));
  if (existing.length === 0) return tests;
  for (const filter of chunkIn('id', existing, {
    maxItems: 100,
    maxEncodedLength: MAX_FILTER_CHARS,
  }))
    for await (const c of client.iterate<'test_cases'>('/test_cases', {
      filter,
      fields: { test_cases: ['testCaseKey', 'name', 'ownerId'] },
    })) {
      const ownerId = c.attributes.ownerId;
      tests.push({
        caseId: c.id,
        key: String(c.attributes.testCaseKey ?? c.id),
        name: String(c.attributes.name ?? ''),
        ...(typeof ownerId === 'string' ? { ownerId } : {}),
        result: cycle.results.get(c.id)!,
      });
    }
  return tests;
}

/**
 * Who would be told (src/triage/notify.ts, reads made as the run makes them), and the POSTs:
 * one per recipient, and one read of a token for the organization id when no read carried it.
 */
async function plannedNotifications(
  client: ServiceClient,
  gate: GateOptions,
  cycle: PlannedCycle,
  triage: Triage,
): Promise<{ requests: number; notified: Notified }> {
  const before = client.stats.total;
  const notified = (await tellOwners(client, gate, cycle.resource, triage, true))!;
  const told = notified.recipients.filter((x) => x.outcome === 'would be told').length;
  const requests =
    client.stats.total - before + told + (told && notified.readsOrganization ? 1 : 0);
  return { requests, notified };
}
