/**
 * The target cycle: found by key or name, or created ACTIVE after the last one; made ACTIVE (a
 * result is recorded only on an ACTIVE cycle, docs/service-api.md 3 rule 1); closed at the end on request.
 */
import { type Resource, type ServiceClient, updateWithRetry } from '../client/index.js';
import { ConfigError, type Words } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import type { Logger } from '../shared/redact.js';
import type { CycleStatus } from '../schema/resources.js';
import { createOrFind } from './idempotent.js';
import { nextRank } from './match.js';

/**
 * Which cycle a run writes to (by key, else by name), and whether it may create it or reopen it
 * when it is DONE.
 */
export interface CycleOptions {
  /** The cycle's key (cycle-key): the cycle must exist. */
  key?: string;
  /** The cycle's name (cycle-name, its placeholders rendered). */
  name?: string;
  /** Create the cycle when no cycle has the name (create-cycle). */
  create: boolean;
  /** Write to a DONE cycle, making it ACTIVE again (reopen-done-cycle). */
  reopenDone: boolean;
  /** Custom fields of a cycle this run creates (cycle-custom-fields). */
  customFields?: Record<string, unknown>;
  /** Status for a cycle this run creates (cycle create --status). */
  createStatus?: CycleStatus;
}

export interface ResolvedCycle {
  resource: Resource<'test_cycles'>;
  /** Created by this run: it has no executions yet, so they need not be read. */
  created: boolean;
  /** A change of status this run would make (dry run) or made. */
  activated: boolean;
}

/** The cycle's state forbids the run, and a setting would allow it (reopen-done-cycle). */
export class CycleStateError extends ConfigError {
  constructor(setting: string, message: string | Words) {
    super(setting, message, 'CYCLE_STATE');
  }
}

export async function findCycle(
  client: ServiceClient,
  options: Pick<CycleOptions, 'key' | 'name'>,
): Promise<Resource<'test_cycles'> | undefined> {
  return options.key
    ? client.findExact<'test_cycles'>('/test_cycles', 'testCycleKey', options.key)
    : client.findExact<'test_cycles'>('/test_cycles', 'name', options.name!);
}

export async function resolveCycle(
  client: ServiceClient,
  projectId: string,
  options: CycleOptions & { dryRun: boolean; logger: Logger; needActive: boolean },
): Promise<ResolvedCycle | undefined> {
  if (!options.key && !options.name)
    throw new ConfigError('cycle-name', (w) => `or ${w.name('cycle-key')} is required.`);
  let cycle = await findCycle(client, options);
  let created = false;
  if (!cycle) {
    if (options.key)
      throw new ConfigError('cycle-key', `no test cycle has the key ${options.key} in this Space.`);
    if (!options.create)
      throw new ConfigError(
        'cycle-name',
        (w) =>
          `no test cycle is named "${oneLine(options.name!)}" and ${w.value('create-cycle', false)} is set.`,
      );
    if (options.dryRun) return undefined;
    const rank = await nextRank(client, 'test_cycles');
    const result = await createOrFind(
      () =>
        client.create('test_cycles', {
          name: options.name!,
          projectId,
          rank,
          status: options.createStatus ?? 'ACTIVE',
          ...(options.customFields ? { customFields: options.customFields } : {}),
        }),
      // A concurrent publisher created it first (409): use that cycle.
      () => findCycle(client, options),
      client.scheduler.policy.createAttempts,
    );
    cycle = result.value;
    created = result.created;
    options.logger.info(
      `${created ? 'created' : 'found (created concurrently)'} test cycle ${cycle.attributes.testCycleKey} "${oneLine(String(cycle.attributes.name))}"`,
    );
  }
  const status = String(cycle.attributes.status ?? 'DRAFT') as CycleStatus;
  if (!options.needActive || status === 'ACTIVE')
    return { resource: cycle, created, activated: false };
  if (status === 'DONE' && !options.reopenDone) {
    const shown = `${cycle.attributes.testCycleKey} "${oneLine(String(cycle.attributes.name))}"`;
    throw new CycleStateError(
      options.key ? 'cycle-key' : 'cycle-name',
      (w) =>
        `test cycle ${shown} is DONE; use ${w.value('reopen-done-cycle', true)} to record results in it again.`,
    );
  }
  if (options.dryRun) return { resource: cycle, created, activated: true };
  const updated = await updateWithRetry(client, 'test_cycles', cycle.id, {
    current: cycle,
    change: (current) =>
      current.attributes.status === 'ACTIVE' ? null : { status: 'ACTIVE' as const },
  });
  options.logger.info(`test cycle ${cycle.attributes.testCycleKey}: ${status} -> ACTIVE`);
  return { resource: updated.resource, created, activated: updated.written };
}

export async function setCycleStatus(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  status: CycleStatus,
): Promise<Resource<'test_cycles'>> {
  const result = await updateWithRetry(client, 'test_cycles', cycle.id, {
    current: cycle,
    change: (current) => (current.attributes.status === status ? null : { status }),
  });
  return result.resource;
}
