/** The other jobs of docs/design.md besides publish, shared by the CLI and the action. */
import type { Resource, ServiceClient } from '../client/index.js';
import { ConfigError } from '../shared/errors.js';
import { oneLine, type Logger, silentLogger } from '../shared/redact.js';
import type { CycleStatus } from '../schema/resources.js';
import { type CycleOptions, findCycle, resolveCycle, setCycleStatus } from '../domain/index.js';
import { evaluateGate, type GateOptions, hasThresholds, passRatesOf } from './gate.js';
import { ruleStep } from '../triage/index.js';
import { notifyWarnings, tellOwners } from '../triage/index.js';
import { warningList } from '../domain/index.js';
import { casesToPopulate, populateWith } from './populate.js';
import { cycleInfo, type PublishResult, requestsOf } from './publish.js';

type Target = Pick<CycleOptions, 'key' | 'name'>;

async function mustFind(client: ServiceClient, target: Target): Promise<Resource<'test_cycles'>> {
  const cycle = await findCycle(client, target);
  if (!cycle)
    throw new ConfigError(
      target.key ? 'cycle-key' : 'cycle-name',
      `no test cycle ${target.key ?? `"${oneLine(target.name!)}"`} in this Space.`,
    );
  return cycle;
}

/** `gate`: one aggregate over the whole cycle, then thresholds (result in the publish shape). */
export async function gateCycle(
  client: ServiceClient,
  target: Target,
  gate: GateOptions,
  /** Where the run's warnings are logged as they come (they are in the result too). */
  logger: Logger = silentLogger,
): Promise<PublishResult> {
  const { warnings, warn } = warningList(logger);
  const cycle = await mustFind(client, target);
  const autoQuarantine = await ruleStep(client, gate, cycle);
  for (const warning of autoQuarantine?.warnings ?? []) warn(warning);
  const { counts, verdict, triage } = await evaluateGate(client, cycle, gate);
  // Best effort: a failure to tell people warns and leaves the verdict as it is.
  const notified = await tellOwners(client, gate, cycle, triage);
  for (const warning of notifyWarnings(notified)) warn(warning);
  const v = hasThresholds(gate) ? verdict : { passed: true, reasons: [] };
  return {
    cycle: cycleInfo(cycle),
    counts,
    ...passRatesOf(counts, gate.basis, triage?.quarantined),
    gate: { ...v, evaluated: true },
    ...(triage ? { triage } : {}),
    ...(notified ? { notified } : {}),
    ...(autoQuarantine ? { autoQuarantine } : {}),
    writes: { created: 0, updated: 0, unchanged: 0, casesCreated: 0 },
    unmatched: [],
    requests: requestsOf(client),
    warnings,
  };
}

/**
 * What `cycle create` did: the cycle, whether it was created (not found), and what populating it
 * wrote.
 */
export interface CreateCycleResult {
  /** The cycle found or created. */
  cycle: Resource<'test_cycles'>;
  /** Whether this run created it (no cycle of that name was found). */
  created: boolean;
  /** What --populate did: executions created, and test cases its filter matched. */
  populated?: { created: number; matched: number };
}

/** `cycle create`: find or create by name, optionally pre-populated with NOT_EXECUTED executions. */
export async function createCycle(
  client: ServiceClient,
  options: {
    name: string;
    status: CycleStatus;
    customFields?: Record<string, unknown>;
    populate?: string;
    logger: Logger;
  },
): Promise<CreateCycleResult> {
  const project = await client.project();
  // Read first: a filter the service refuses stops here, before the cycle is created.
  const caseIds = options.populate ? await casesToPopulate(client, options.populate) : undefined;
  const cycle = (await resolveCycle(client, project.id, {
    name: options.name,
    create: true,
    reopenDone: false,
    customFields: options.customFields,
    createStatus: options.status,
    dryRun: false,
    logger: options.logger,
    needActive: false,
  }))!;
  const populated = caseIds
    ? await populateWith(client, project.id, cycle, caseIds, client.scheduler.concurrency)
    : undefined;
  return { cycle: cycle.resource, created: cycle.created, ...(populated ? { populated } : {}) };
}

/** `cycle close`: DONE. */
export async function closeCycle(
  client: ServiceClient,
  target: Target,
): Promise<Resource<'test_cycles'>> {
  return setCycleStatus(client, await mustFind(client, target), 'DONE');
}
