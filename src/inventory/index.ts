/**
 * The inventory: sync keeps the Space's automated test cases in step with the reports
 * (docs/design.md "Sync"): creates, renames, re-keys, steps, mapped fields, what it owns on a case
 * and what it keeps as a person's, and what `--retire-missing` may archive. The pipeline
 * (publish --sync) and the job layer enter it here.
 */
export {
  sync,
  describeSyncResult,
  DEFAULT_RETIRE_SHARE,
  type SyncOptions,
  type SyncResult,
} from './sync.js';
export type { CaseNames, CaseRef } from './model.js';
export {
  syncSettings,
  caseWriteSettings,
  caseFieldsSetting,
  type SyncSettings,
} from './settings.js';
export { renderSyncSummary, renderSyncSection } from './summary.js';
export { parseCaseFields, type CaseFieldMapping } from './case-fields.js';
export { planSteps } from './steps.js';
export type { Kept, KeptWhy } from './ownership.js';
export {
  declarationEvidence,
  RetireBoundError,
  type LikelyRename,
  type RetireCandidate,
  type RetireMax,
  type RetireOptions,
  type RetireReport,
} from './retire.js';
