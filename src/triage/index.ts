/**
 * Triage (docs/design.md "Triage"): quarantine on the test case, the baseline of new failures,
 * what the gate adds (quarantined tests left out, new failures counted), the automatic rule and the
 * notifications. The pipeline (src/publish), the dashboard and the job layer enter it here.
 */
export {
  addQuarantine,
  casesInCycleChunks,
  checkQuarantineField,
  CUSTOM_FIELDS_PATH,
  describeQuarantine,
  formatQuarantine,
  isActive,
  listQuarantined,
  parseQuarantine,
  quarantineOf,
  quarantineViewOf,
  readGateExecutions,
  removeQuarantine,
  runQuarantine,
  type Quarantine,
  type QuarantinedCase,
  type QuarantineSettings,
  type QuarantineView,
  type TriagedTest,
} from './quarantine.js';
export { findBaseline, isFailing, readBaseline } from './baseline.js';
export { gateFilterOf, readTriage, withoutQuarantinedIn, withoutTests } from './triage.js';
export { MAX_NAMED, nameTests, type Triage } from './model.js';
export type { TriageGateOptions } from './options.js';
export {
  notificationMessage,
  notificationTitle,
  NOTIFICATION_TYPE,
  notifyNewFailures,
  notifyWarnings,
  tellOwners,
  type Notified,
  type NotifyOptions,
  type Recipient,
} from './notify.js';
export {
  applyAutoQuarantine,
  describeRuleChanges,
  flipsOf,
  parseAutoQuarantine,
  ruleStep,
  type AutoQuarantineOptions,
  type AutoQuarantineResult,
} from './auto-quarantine.js';
export { triageLines, triageSections } from './summary.js';
export { quarantineFieldSetting, quarantineSettings, triageGateSettings } from './settings.js';
