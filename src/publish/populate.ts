/**
 * `cycle create --populate FILTRQL`: one NOT_EXECUTED execution per matching test case, so a test
 * that silently stopped running shows up as NOT_EXECUTED (and --fail-on-not-executed catches it).
 */
import type { ServiceClient } from '../api/client.js';
import { f } from '../api/filter.js';
import type { ResolvedCycle } from './cycle.js';
import { makePlan, readExecutions, writePlan } from './sync.js';

export async function populateCycle(
  client: ServiceClient,
  projectId: string,
  cycle: ResolvedCycle,
  filter: string,
  concurrency: number,
): Promise<{ created: number; matched: number }> {
  const caseIds: string[] = [];
  for await (const c of client.iterate<'test_cases'>('/test_cases', {
    filter: f.user(filter, 'populate'),
    fields: { test_cases: ['testCaseKey'] },
  }))
    caseIds.push(c.id);
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
