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
  /**
   * A leg met by 429s twice within two windows while holding its share of the limit keeps this
   * fraction of what went through (src/client/share.ts): legs that ask too much together give up
   * in proportion to their shares.
   */
  shareKeep: number;
  /** Windows a share is held before a probe, per leg sharing the token (up to shareHoldLegs). */
  shareHoldWindows: number;
  /** The most legs the hold counts, so that a small share still probes every few windows. */
  shareHoldLegs: number;
  /**
   * Sharing the token (the legs hint, or a first 429), a process starts or resumes at a random
   * point of up to this many windows, so that each leg's requests fall apart from the others'.
   */
  sharePhaseWindows: number;
  /**
   * A leg told of the other legs and of its own plan (Scheduler.expect) probes only past this
   * fraction of the plan (src/client/share.ts): before, the legs fill the window and a probe
   * only costs a 429.
   */
  shareProbeFrom: number;
  /** Past it, its hold is this fraction of the usual one, doubled after each failed probe. */
  sharePlannedHold: number;
  /** Windows a planned leg's probe that went through is held before it counts as room. */
  shareProofWindows: number;
  /** A planned leg below this fraction of the fair share probes at once (it is starved). */
  shareStarved: number;
  /** The first window's requests are spread over up to this fraction of it (jittered). */
  startSpread: number;
  /**
   * A leg that can count every leg's results (a census: Scheduler.expect, src/client/share.ts)
   * takes one about every this many windows, times the legs over censusLegs.
   */
  censusWindows: number;
  /** Legs that count as often as one: more legs count each less often, together as often. */
  censusLegs: number;
  /** Before this fraction of its plan a leg counts censusEarly times as far apart, after it censusLate. */
  censusLateFrom: number;
  /** How much further apart a leg counts early in its plan (no leg is likely done yet). */
  censusEarly: number;
  /** How much further apart (less than one: closer) a leg counts late in its plan. */
  censusLate: number;
  /** After a census that found room, the next one comes this many windows later. */
  censusAgainWindows: number;
  /** The next census comes this soon when room must be confirmed, or the leg is nearly alone. */
  censusSoonWindows: number;
  /** A leg is nearly alone when the others send under this fraction of its pace. */
  censusAloneBelow: number;
  /** Room above this fraction of the limit is taken at once; less only when seen twice. */
  censusSureAbove: number;
  /** The fraction of the limit the legs leave free by census (what counting cannot see). */
  censusMargin: number;
  /** Room under this fraction of the limit is not taken (a census counts whole results). */
  censusDeadBand: number;
  /** A counting leg met by a 429 keeps this fraction of its share. */
  censusCut: number;
  /** It grows again only after this many windows without a 429 (results fall in a storm). */
  censusCleanWindows: number;
  /** Requests a leg assumes the others send per result, until it has measured its own. */
  censusRequestsPerResult: number;
  /** A leg measures its own requests per result once it wrote this many results. */
  censusMeasuredAfter: number;
  /** A counting leg's requests are at least this fraction of window / share apart (evenly sent). */
  censusEven: number;
  /** A census has seen the other legs once their results are this fraction of the limit. */
  censusSeenAbove: number;
  /** Until a census has seen the other legs, one census grows a share at most this many times. */
  censusBlindGrowth: number;
  /**
   * A 429 while the last census and this leg's own window fall short of the limit by more than
   * this fraction of it: the census cannot see every leg on the token, and the leg probes instead.
   */
  censusBlindAbove: number;
  /**
   * A leg told of N legs whose clean censuses never saw more than this fraction of N publishing
   * at once says so when it is done: it started at too small a share (Scheduler.fewerLegs).
   */
  censusFewerBelow: number;
}

/**
 * The budgets a client retries with unless told otherwise (docs/architecture.md "Retry policy").
 */
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
  shareKeep: 0.9,
  shareHoldWindows: 0.7,
  shareHoldLegs: 10,
  sharePhaseWindows: 0.3,
  shareProbeFrom: 0.6,
  sharePlannedHold: 0.1,
  shareProofWindows: 0.5,
  shareStarved: 0.9,
  startSpread: 0.2,
  censusWindows: 1,
  censusLegs: 2,
  censusLateFrom: 0.4,
  censusEarly: 2,
  censusLate: 0.6,
  censusAgainWindows: 1.3,
  censusSoonWindows: 0.7,
  censusAloneBelow: 0.5,
  censusSureAbove: 0.15,
  censusMargin: 0.01,
  censusDeadBand: 0.05,
  censusCut: 0.8,
  censusCleanWindows: 2,
  censusRequestsPerResult: 2,
  censusMeasuredAfter: 10,
  censusEven: 0.9,
  censusSeenAbove: 0.1,
  censusBlindGrowth: 2,
  censusBlindAbove: 0.25,
  censusFewerBelow: 0.5,
};

/** The budgets of RetryPolicy an attempt's retry may spend. */
export type RetryBudget = 'maxAttempts' | 'maxRefusedAttempts' | 'maxRateLimitAttempts';

/**
 * Which attempts are sent again and on which budget (docs/architecture.md "Retry policy"): the
 * Scheduler reads this table (`retryBudget`), the client its methods (`isRepeatable`).
 */
export interface RetryRules {
  /**
   * The methods safe to send again after a 5xx or a lost answer: always, or only with If-Match
   * (a repeat of a write already done then gets 412). A create (a POST without If-Match) never is:
   * one whose answer was lost is looked for before it is sent again (src/domain/idempotent.ts).
   */
  repeatable: Readonly<Record<string, 'always' | 'with If-Match'>>;
  /** Answers sent again, by status: on which budget, and whether any method may repeat them. */
  statuses: readonly { from: number; to: number; budget: RetryBudget; anyMethod: boolean }[];
  /** Errors never retried (the wrong protocol does not heal). */
  neverRetried: readonly string[];
  /** Errors with a budget of their own. */
  errorBudgets: Readonly<Record<string, RetryBudget>>;
  /** Any other lost answer; a request that never left may go again whatever its method. */
  lostBudget: RetryBudget;
  /**
   * The policy's field that bounds a Retry-After: a longer one fails the request at once, naming
   * the wait the service asked for.
   */
  retryAfterAtMost: 'maxBackoffMs';
}

export const RETRY_RULES: RetryRules = {
  repeatable: {
    GET: 'always',
    PATCH: 'with If-Match',
    DELETE: 'with If-Match',
    POST: 'with If-Match',
  },
  statuses: [
    // A 429 was not processed: any method repeats it, after Retry-After when the service gave one.
    { from: 429, to: 429, budget: 'maxRateLimitAttempts', anyMethod: true },
    // A 5xx may have been processed.
    { from: 500, to: 599, budget: 'maxAttempts', anyMethod: false },
  ],
  // TLS spoken to a plain HTTP port, or the reverse.
  neverRetried: ['ERR_SSL_WRONG_VERSION_NUMBER', 'EPROTO', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'],
  // Nothing listens there: a wrong port rarely heals in seconds.
  errorBudgets: { ECONNREFUSED: 'maxRefusedAttempts' },
  lostBudget: 'maxAttempts',
  retryAfterAtMost: 'maxBackoffMs',
};

/** Whether a request may be sent again after a 5xx or a lost answer (RETRY_RULES.repeatable). */
export function isRepeatable(method: string, ifMatch: boolean, rules = RETRY_RULES): boolean {
  const when = rules.repeatable[method];
  return when === 'always' || (when === 'with If-Match' && ifMatch);
}

/**
 * The budget a retry of this outcome spends, or undefined when it is not sent again: an answer by
 * its status, a lost one by its error code and whether it left.
 */
export function retryBudget(
  repeatable: boolean,
  outcome: { status: number } | { code?: string; sent: boolean },
  rules = RETRY_RULES,
): RetryBudget | undefined {
  if ('status' in outcome) {
    const rule = rules.statuses.find((r) => outcome.status >= r.from && outcome.status <= r.to);
    return rule && (rule.anyMethod || repeatable) ? rule.budget : undefined;
  }
  if (outcome.code !== undefined && rules.neverRetried.includes(outcome.code)) return undefined;
  if (!repeatable && outcome.sent) return undefined;
  return (outcome.code !== undefined && rules.errorBudgets[outcome.code]) || rules.lostBudget;
}

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
