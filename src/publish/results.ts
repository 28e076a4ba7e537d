/**
 * From report outcomes to execution results, and the merge rules of docs/design.md "Results and merging".
 */
import type { ExecutionResult } from '../schema/resources.js';
import { isFlaky, type Outcome, type TestResult } from '../parsers/index.js';

export type MergeMode = 'latest' | 'worst';
export type FlakyMode = 'passed' | 'failed';
export type ErrorAs = 'FAILED' | 'BLOCKED';

/** Worst first: FAILED > BLOCKED > PASSED > SKIPPED > (not run yet). */
const RANK: Record<ExecutionResult, number> = {
  FAILED: 5,
  BLOCKED: 4,
  PASSED: 3,
  SKIPPED: 2,
  IN_PROGRESS: 1,
  NOT_EXECUTED: 0,
};

function worstResult(a: ExecutionResult, b: ExecutionResult): ExecutionResult {
  return RANK[a] >= RANK[b] ? a : b;
}

export function resultOf(
  test: TestResult,
  options: { flaky: FlakyMode; errorAs: ErrorAs },
): ExecutionResult {
  if (isFlaky(test)) return options.flaky === 'passed' ? 'PASSED' : 'FAILED';
  return outcomeToResult(test.outcome, options.errorAs);
}

function outcomeToResult(outcome: Outcome, errorAs: ErrorAs): ExecutionResult {
  switch (outcome) {
    case 'passed':
      return 'PASSED';
    case 'failed':
      return 'FAILED';
    case 'error':
      return errorAs;
    case 'skipped':
      return 'SKIPPED';
  }
}

/**
 * Several report entries for one test case in one publish (several files, shards, retries across
 * files): a flaky pass stays PASSED under --flaky passed; otherwise the worst wins.
 */
export function combineEntries(results: ExecutionResult[]): ExecutionResult {
  return results.reduce(worstResult);
}

/**
 * What to write over a result already on the server (`--merge`). NOT_EXECUTED is no result: it
 * never replaces one (a populated cycle or a fresh create must not erase what another writer
 * recorded), in either mode.
 */
export function mergeWithServer(
  current: ExecutionResult | undefined,
  incoming: ExecutionResult,
  mode: MergeMode,
): ExecutionResult {
  if (!current || current === 'NOT_EXECUTED') return incoming;
  if (incoming === 'NOT_EXECUTED') return current;
  return mode === 'latest' ? incoming : worstResult(current, incoming);
}
