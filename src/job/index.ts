/**
 * The job layer, the one way in for both adapters (docs/architecture.md "One way in for both
 * adapters"): each job of docs/design.md prepared and run once (settings checked, reports read,
 * client built, job run), and what an adapter needs to render what a job returns.
 */
export { maskToken, runJob, type Job, type JobIO, type JobOutcome, type Prepared } from './job.js';
export {
  checkJob,
  closeCycleJob,
  coverageJob,
  createCycleJob,
  gateJob,
  publishJob,
  publishTraced,
  quarantineJob,
  reportJob,
  syncJob,
  type CheckOutcome,
  type Traced,
  type PublishOutcome,
  type QuarantineOutcome,
  type ReportOutcome,
} from './jobs.js';
export { NoTestsError, readReportSet, reportSettings, type ReportSettings } from './reports.js';

// What the adapters render a job's result with.
export {
  cycleInfo,
  failedTests,
  GateFailedError,
  gateOutcome,
  headline,
  MAX_SUMMARY_BYTES,
  quarantineNote,
  type CreateCycleResult,
  type PublishResult,
} from '../publish/index.js';
export { describeSyncResult, type SyncResult } from '../inventory/index.js';
export { describeRuleChanges, triageLines } from '../triage/index.js';
export { renderJson } from '../dashboard/index.js';
export { referencesOf, traceOptions, type TestReferences } from '../traceability/index.js';
export { describeCoverage, type CoverageResult } from '../traceability/index.js';
export { coverageCsv, coverageMarkdown } from '../dashboard/index.js';
export { renderSummary, renderSyncSummary } from './summary.js';
export {
  addCounts,
  countTests,
  describeRunError,
  noCounts,
  type Counts,
  type ParsedReport,
  type TestResult,
} from '../parsers/index.js';
export type { RequestFigures, TokenStanding } from '../client/index.js';
