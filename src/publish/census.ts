/**
 * The census of a cycle for matrix legs (docs/architecture.md "The request pipeline"): legs on
 * machines that share nothing but the token learn what the others send by counting the results
 * every leg wrote into the cycle in about the last rate window, with one aggregate request, instead
 * of sending a request above their share and meeting a 429 (src/client/share.ts decides what to do
 * with the count, and when to ask; this file only knows how to ask the service).
 *
 * The service's clock, not this machine's, bounds the window: it starts one window before the
 * service stamped this leg's latest result, and this leg's own results in it are counted from the
 * stamps on its own answers. A result is a write with a result other than NOT_EXECUTED: a new
 * execution counts once its result is written (its POST alone carries none), a changed one once.
 */
import {
  f,
  isTransient,
  ServiceError,
  type CensusCount,
  type ServiceClient,
} from '../client/index.js';
import { readCount } from '../domain/index.js';
import { EXECUTION_RESULTS, type ExecutionResult } from '../schema/resources.js';

const COUNTED = EXECUTION_RESULTS.filter((r) => r !== 'NOT_EXECUTED');

export interface CycleCensus {
  /** Counts every leg's results of the last window; undefined when it cannot tell this time. */
  census: () => Promise<CensusCount | undefined>;
  /** A result this leg wrote, with the service's stamp (WriteOutcome.writtenAt). */
  wrote: (result: ExecutionResult, writtenAt: string | undefined) => void;
}

export function cycleCensus(
  client: ServiceClient,
  cycleId: string,
  /** Told once when the service refuses the census: the legs then pace by probing. */
  onRefused: (reason: string) => void,
): CycleCensus {
  const stamps: number[] = [];
  const clock = client.scheduler.clock;
  /** The latest stamp, and when (on this machine's clock) its answer came. */
  let latest = -Infinity;
  let latestHere = 0;
  return {
    wrote(result, writtenAt) {
      if (result === 'NOT_EXECUTED' || writtenAt === undefined) return;
      const at = Date.parse(writtenAt);
      if (!Number.isFinite(at)) return;
      stamps.push(at);
      if (at > latest) {
        latest = at;
        latestHere = clock.now();
      }
    },
    async census() {
      if (stamps.length === 0) return undefined;
      const { windowMs } = client.scheduler.rateLimit;
      const since = latest - windowMs;
      const asked = clock.now();
      let all: number | undefined;
      try {
        const doc = await client.aggregate('test_case_executions', {
          filter: f.and(
            f.eq('testCycleId', cycleId),
            f.cmp('updatedAt', '>=', new Date(since)),
            f.in('result', COUNTED),
          ),
          count: true,
          first: true,
        });
        all = readCount(doc);
      } catch (error) {
        // A refusal (a filter this service does not take, a token that may not read) will not
        // change within the run; a fault or a 429 may.
        if (error instanceof ServiceError && !isTransient(error)) {
          onRefused(error.message);
          throw error;
        }
        return undefined;
      }
      if (all === undefined) return undefined;
      // The count runs from `since` to when the service answered: a window, and the time since
      // the latest stamp (its answer's way here, the census's way there).
      const answered = clock.now();
      const spanMs = windowMs + (asked - latestHere) + (answered - asked) / 2;
      const own = stamps.filter((at) => at >= since).length;
      return { all: Math.max(all, own), own, ownTotal: stamps.length, spanMs };
    },
  };
}
