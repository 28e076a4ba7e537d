/**
 * The library entry point (`import { publish, readReports, ServiceClient } from 'testcycle'`): a
 * chosen API, named one by one. Every name here is part of the public contract (semver, see
 * CONTRIBUTING.md); etc/testcycle.api.md records the surface and CI fails when it changes without
 * that file changing with it (`npm run api`). Internal helpers stay importable from their modules
 * inside the repository only. The dashboard and the emulator are entries of their own
 * (`testcycle/dashboard`: src/lib-dashboard.ts, `testcycle/emulator`: src/lib-emulator.ts), so that
 * a user of the publish job loads neither.
 */
// First: on an older Node this stops with a clear message before undici loads.
import './shared/node-version.js';

export { VERSION } from './shared/version.js';

// The publish job and the commands around it (docs/design.md).
export {
  publish,
  gateOutcome,
  gateCycle,
  createCycle,
  closeCycle,
  populateCycle,
  renderSummary,
  publishSettings,
  gateSettings,
  clientSettings,
  settingsFrom,
  renderCycleName,
  ciContext,
  UnmatchedError,
  KeyCollisionError,
  CycleStateError,
  GateFailedError,
  RankRangeError,
  sync,
  syncSettings,
  renderSyncSummary,
  RetireBoundError,
  addQuarantine,
  removeQuarantine,
  listQuarantined,
  quarantineSettings,
  type Quarantine,
  type QuarantinedCase,
  type QuarantineView,
  type QuarantineSettings,
  type Triage,
  type SyncOptions,
  type SyncResult,
  type SyncSettings,
  type RetireOptions,
  type RetireReport,
  type RetireCandidate,
  type RetireMax,
  type LikelyRename,
  type CaseNames,
  type PublishOptions,
  type PublishResult,
  type RequestFigures,
  type PublishSettings,
  type ClientSettings,
  type SettingSource,
  type CreateCycleResult,
  type CiContext,
  type CycleOptions,
  type GateOptions,
  type GateVerdict,
  type CycleCounts,
  type ReportRunError,
  type RunnerStatus,
  type OnRunError,
} from './publish/index.js';

// Reading reports (one parser per format, detection by content).
export {
  readReports,
  parseReport,
  discoverReports,
  FORMAT_IDS,
  countTests,
  ReportError,
  type ParsedReport,
  type RunError,
  type RunSelection,
  type TestResult,
  type TestLink,
  type Attempt,
  type Outcome,
  type Counts,
  type ReadOptions,
  type ReportSet,
} from './parsers/index.js';

// The client of the service (docs/service-api.md) and its one retry policy.
export {
  ServiceClient,
  updateWithRetry,
  f,
  DEFAULT_RETRY_POLICY,
  createUndiciTransport,
  type ClientOptions,
  type Resource,
  type Page,
  type ListParams,
  type Filter,
  type RetryPolicy,
  type RateLimit,
  type RequestStats,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './client/index.js';

// Errors every part throws, and the log sink adapters give the library.
export {
  TestcycleError,
  ConfigError,
  ServiceError,
  NetworkError,
  InterruptedError,
  type ErrorKind,
} from './shared/errors.js';
export { Redactor, createLogger, type Logger } from './shared/redact.js';

// The resource table: names, enums and types of the service's records.
export {
  RESOURCE_TYPES,
  EXECUTION_RESULTS,
  CYCLE_STATUSES,
  CASE_STATUSES,
  PRIORITIES,
  AUTOMATION_STATUSES,
  type ResourceType,
  type ExecutionResult,
  type CycleStatus,
  type AttributesOf,
  type WritableAttributesOf,
} from './schema/resources.js';
