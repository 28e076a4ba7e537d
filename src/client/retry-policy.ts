import { DEFAULT_MAX_WAIT_MS, DEFAULT_RETRY_BASE_MS } from '../shared/defaults.js';

/**
 * Every retry budget of the client in one place (docs/architecture.md "Retry policy"). The
 * Scheduler spends the per-request budgets (faults, refused connections, 429s, waits); the 412
 * loop (client.ts updateWithRetry), the create-or-find loop (src/domain/idempotent.ts) and the
 * second round of a publish (src/publish/writes.ts writePlan) read theirs from the same object, so a
 * run's worst case can be stated and tested (`worstCaseRequests`).
 */

export interface RetryPolicy {
  /** Attempts for 5xx and lost answers that are safe to repeat (first attempt included). */
  maxAttempts: number;
  /** Attempts when nothing listens (connection refused): a wrong port rarely heals in seconds. */
  maxRefusedAttempts: number;
  /** Attempts when the service answers 429 (a 429 was not processed, so any method may repeat). */
  maxRateLimitAttempts: number;
  /** First backoff after a 5xx or lost answer, doubling per attempt. */
  retryBaseMs: number;
  /** First backoff after a 429 without Retry-After, doubling per consecutive 429. */
  rateLimitBaseMs: number;
  /**
   * The longest single wait. A Retry-After beyond it fails the request at once, naming the wait
   * the service asked for, rather than sleeping through a budget that cannot end well.
   */
  maxBackoffMs: number;
  /** All the waiting for retries (backoffs and 429 pauses, not the steady pace) one run may do. */
  maxWaitMs: number;
  /** Read-merge-write rounds when a write meets 412 (each is another writer's progress). */
  conflictRounds: number;
  /** Creates retried after a lost answer or a 409, each after a look for the record. */
  createAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  maxRefusedAttempts: 2,
  maxRateLimitAttempts: 10,
  retryBaseMs: DEFAULT_RETRY_BASE_MS,
  rateLimitBaseMs: 2 * DEFAULT_RETRY_BASE_MS,
  maxBackoffMs: 60_000,
  maxWaitMs: DEFAULT_MAX_WAIT_MS,
  conflictRounds: 8,
  createAttempts: 5,
};

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/**
 * How long a publish waits before its second round for results whose retries all failed: as
 * long as the longest backoff of one request, so a short outage is over by then.
 */
export function secondRoundPauseMs(policy: RetryPolicy): number {
  return Math.min(policy.maxBackoffMs, policy.retryBaseMs * 2 ** (policy.maxAttempts - 1));
}

/**
 * The most requests one logical request can send: its fault retries plus its 429 retries (a 429
 * is answered, so it does not spend the fault budget).
 */
export function worstCaseAttempts(policy: RetryPolicy): number {
  return policy.maxAttempts + policy.maxRateLimitAttempts - 1;
}

/**
 * The most requests one execution's write can cost before the run gives up on it, by the
 * pipeline's structure (src/publish/writes.ts): in each of the two rounds, a look (one GET when
 * the second round looks first), up to `createAttempts` creates each followed by a look, then
 * `conflictRounds` read + PATCH pairs. Every one of those requests may spend its own retries.
 */
export function worstCaseRequests(policy: RetryPolicy): number {
  const perRound = 2 * policy.createAttempts + 2 * policy.conflictRounds;
  const logical = perRound + (perRound + 1);
  return logical * worstCaseAttempts(policy);
}
