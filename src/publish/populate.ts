/**
 * `cycle create --populate FILTRQL`: one NOT_EXECUTED execution per matching test case, so a test
 * that silently stopped running shows up as NOT_EXECUTED (and --fail-on-not-executed catches it).
 */
import type { ServiceClient } from '../client/index.js';
import { f } from '../client/index.js';
import { ConfigError, ServiceError } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import type { ResolvedCycle } from '../domain/index.js';
import { makePlan, readExecutions, writePlan } from './writes.js';

/**
 * One NOT_EXECUTED execution in the cycle for every test case the FiltrQL filter matches and the
 * cycle lacks (`cycle create --populate`), written as one plan; what it created and matched.
 */
export async function populateCycle(
  client: ServiceClient,
  projectId: string,
  cycle: ResolvedCycle,
  filter: string,
  concurrency: number,
): Promise<{ created: number; matched: number }> {
  return populateWith(client, projectId, cycle, await casesToPopulate(client, filter), concurrency);
}

/**
 * The ids of the test cases the filter matches. `cycle create` reads them before it creates the
 * cycle, so that a filter the service refuses (an unknown field, a bare word) stops the command
 * before its first write, not after a cycle was made.
 */
export async function casesToPopulate(client: ServiceClient, filter: string): Promise<string[]> {
  const caseIds: string[] = [];
  try {
    for await (const c of client.iterate<'test_cases'>('/test_cases', {
      filter: f.user(filter, 'populate'),
      fields: { test_cases: ['testCaseKey'] },
    }))
      caseIds.push(c.id);
  } catch (error) {
    // The service judges fields and values (docs/service-api.md 4.2): its 400 is about this setting.
    if (
      error instanceof ServiceError &&
      error.status === 400 &&
      error.source?.parameter === 'filter'
    )
      throw new ConfigError(
        'populate',
        `the service refuses this filter: ${oneLine(error.detail ?? error.title ?? error.code)}`,
      );
    throw error;
  }
  return caseIds;
}

/** One NOT_EXECUTED execution for each of these cases that has none in the cycle. */
export async function populateWith(
  client: ServiceClient,
  projectId: string,
  cycle: ResolvedCycle,
  caseIds: string[],
  concurrency: number,
): Promise<{ created: number; matched: number }> {
  const existing = cycle.created ? [] : await readExecutions(client, cycle.resource.id);
  const plan = makePlan(
    existing,
    caseIds.map((caseId) => ({ caseId, result: 'NOT_EXECUTED' as const })),
    'worst',
  );
  let created = 0;
  await writePlan(
    client,
    { ...plan, items: plan.items.filter((i) => i.kind === 'create') },
    {
      projectId,
      cycleId: cycle.resource.id,
      merge: 'worst',
      concurrency,
      onDone: (o) => (created += o.created ? 1 : 0),
    },
  );
  return { created, matched: caseIds.length };
}
