export {
  publish,
  requestsOf,
  cycleInfo,
  gateOutcome,
  UnmatchedError,
  KeyCollisionError,
  type PublishOptions,
  type PublishResult,
} from './publish.js';
export {
  findKeyCollisions,
  testKeyOf,
  type KeyCollision,
  type KeyCollisionMode,
} from '../domain/index.js';
export { ciContext, renderCycleName, type CiContext } from '../domain/index.js';
export {
  resolveCycle,
  findCycle,
  setCycleStatus,
  CycleStateError,
  type CycleOptions,
} from '../domain/index.js';
export {
  GateFailedError,
  evaluateGate,
  previousCycle,
  lookUpPrevious,
  verdict,
  passRate,
  hasThresholds,
  type GateOptions,
  type CycleCounts,
  type GateVerdict,
  type PreviousCycle,
  type NoPreviousCycle,
} from './gate.js';
export {
  DEFAULT_AUTOMATION_KEY,
  DEFAULT_KEY_PATTERN,
  DEFAULT_QUARANTINE_FIELD,
} from '../shared/defaults.js';
export {
  automationKeyOf,
  explicitKeyOf,
  keyPattern,
  checkAutomationKeyTemplate,
  RankRangeError,
} from '../domain/index.js';
export { populateCycle } from './populate.js';
export { cycleCounts, readGrouped } from '../domain/index.js';
export {
  publishSettings,
  gateOnlySettings,
  gateSettings,
  cycleSettings,
  createCycleSettings,
  type PublishSettings,
  type CreateCycleSettings,
} from './settings.js';
export { clientSettings, userFilterSetting, type ClientSettings } from '../client/index.js';
export { settingsFrom, type SettingSource } from '../shared/setting-readers.js';
export {
  runErrorsOf,
  type ReportRunError,
  type RunnerStatus,
  type RunnerOutcome,
  type OnRunError,
} from './verdict.js';
export {
  renderSummary,
  failedTests,
  headline,
  quarantineNote,
  MAX_SUMMARY_BYTES,
} from './summary.js';
export type { RequestFigures } from '../client/index.js';
export { markdownCell } from '../shared/markdown.js';
export { gateCycle, createCycle, closeCycle, type CreateCycleResult } from './commands.js';
export { literalParts, matchesPattern, patternFilter } from '../domain/index.js';
export {
  sync,
  describeSyncResult,
  RetireBoundError,
  DEFAULT_RETIRE_SHARE,
  type SyncOptions,
  type SyncResult,
  type CaseRef,
  type CaseNames,
} from '../inventory/index.js';
export { syncSettings, type SyncSettings } from '../inventory/index.js';
export { planSteps } from '../inventory/index.js';
export type { Kept, KeptWhy } from '../inventory/index.js';
export type {
  LikelyRename,
  RetireCandidate,
  RetireMax,
  RetireOptions,
  RetireReport,
} from '../inventory/index.js';
export { renderSyncSummary } from '../inventory/index.js';
export { parseCaseFields, type CaseFieldMapping } from '../inventory/index.js';
export {
  addQuarantine,
  removeQuarantine,
  listQuarantined,
  checkQuarantineField,
  parseQuarantine,
  formatQuarantine,
  isActive,
  readGateExecutions,
  runQuarantine,
  describeQuarantine,
  CUSTOM_FIELDS_PATH,
  type Quarantine,
  type QuarantinedCase,
  type QuarantineView,
  type TriagedTest,
} from '../triage/index.js';
export { findBaseline, readBaseline } from '../triage/index.js';
export { readTriage, nameTests, type Triage, type TriageGateOptions } from '../triage/index.js';
export { quarantineSettings, type QuarantineSettings } from '../triage/index.js';
export {
  notifyNewFailures,
  notificationTitle,
  notificationMessage,
  NOTIFICATION_TYPE,
  type Notified,
  type NotifyOptions,
  type Recipient,
} from '../triage/index.js';
export { previousInSeries, type CycleRef } from '../domain/index.js';
export {
  applyAutoQuarantine,
  parseAutoQuarantine,
  flipsOf,
  type AutoQuarantineOptions,
  type AutoQuarantineResult,
} from '../triage/index.js';
export { describeRunError } from './verdict.js';
