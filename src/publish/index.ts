export {
  publish,
  requestsOf,
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
} from './collisions.js';
export { ciContext, renderCycleName, type CiContext } from './context.js';
export {
  resolveCycle,
  findCycle,
  setCycleStatus,
  CycleStateError,
  type CycleOptions,
} from './cycle.js';
export {
  cycleCounts,
  verdict,
  passRate,
  hasThresholds,
  readGrouped,
  type GateOptions,
  type CycleCounts,
  type GateVerdict,
} from './gate.js';
export {
  DEFAULT_AUTOMATION_KEY,
  DEFAULT_KEY_PATTERN,
  automationKeyOf,
  explicitKeyOf,
  keyPattern,
  checkAutomationKeyTemplate,
} from './match.js';
export { populateCycle } from './populate.js';
export {
  publishSettings,
  gateSettings,
  userFilterSetting,
  cycleSettings,
  jsonSetting,
  choice,
  settingsFrom,
  type SettingSource,
  type PublishSettings,
} from './settings.js';
export { renderSummary, escapeHtml, MAX_SUMMARY_BYTES } from './summary.js';
export { gateCycle, createCycle, closeCycle, type CreateCycleResult } from './commands.js';
