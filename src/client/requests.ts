/**
 * What a run's requests cost, as every command's result and `--json` give it: one reading of the
 * client's counters (src/client/scheduler.ts RequestStats), shared by publish, gate, sync and the
 * quarantine commands.
 */
import type { ServiceClient } from './client.js';
import type { RequestStats } from './scheduler.js';

/** What a run reports of its requests: sent, by method, retried, answered 429. */
export type RequestFigures = Pick<RequestStats, 'total' | 'byMethod' | 'retried' | 'rateLimited'>;

export function requestsOf(client: ServiceClient): RequestFigures {
  const s = client.stats;
  return {
    total: s.total,
    byMethod: { ...s.byMethod },
    retried: s.retried,
    rateLimited: s.rateLimited,
  };
}
