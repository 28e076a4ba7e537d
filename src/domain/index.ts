/**
 * The pieces the jobs share (docs/architecture.md "Who may import whom"): keys and matching tests to
 * cases, key collisions, cycles and series of cycles, a cycle's counts, the CI context of a run,
 * the write pool, idempotent create, plan costs, progress and warnings. The pipeline, sync, triage
 * and the dashboard enter it here; it knows none of them.
 */
export { cycleCounts, readCount, readGrouped } from './counts.js';
export {
  SERIES_PAGES,
  checkPatternPlaceholders,
  compilePattern,
  describeSeries,
  laneOf,
  literalParts,
  matchesPattern,
  patternFilter,
  previousInSeries,
  recordsOf,
  type CycleRef,
  type NamePattern,
  type NoPreviousCycle,
} from './series.js';
export {
  MAX_FILTER_CHARS,
  RankRangeError,
  automationKeyOf,
  caseNameOf,
  checkAutomationKeyTemplate,
  compareKeys,
  createCase,
  describeKeyHint,
  display,
  explicitKeyOf,
  keyBuilder,
  keyHintOf,
  keyPattern,
  keyWarnings,
  matchTests,
  nextRank,
  runnerNameOf,
  type MatchOptions,
  type MatchResult,
  type Unmatched,
} from './match.js';
export {
  ciContext,
  ciIdentity,
  isPullRequest,
  parallelLegs,
  renderCycleName,
  type CiContext,
  type CiIdentity,
  workspacePath,
} from './context.js';
export { matchSettings } from './settings.js';
export { createOrFind } from './idempotent.js';
export {
  describeCollisions,
  findKeyCollisions,
  testKeyOf,
  testKeysOf,
  type KeyCollision,
  type KeyCollisionMode,
} from './collisions.js';
export { forEachPooled } from './pool.js';
export { warningList } from './warnings.js';
export {
  CycleStateError,
  findCycle,
  resolveCycle,
  setCycleStatus,
  type CycleOptions,
  type ResolvedCycle,
} from './cycle.js';
export { chunkedReads, isStandIn, pagesOf, standInId } from './plan-cost.js';
export { Progress, RequestTrail, formatDuration } from './progress.js';
