/**
 * Traceability (docs/design.md "Traceability"): the references a test makes to requirements and
 * work items, the links in the Space kept in step with them (publish --trace, sync --trace), found
 * through the server's own description. Its place in the layers (docs/architecture.md "Who may
 * import whom"): it uses the shared pieces of src/domain, the client, the parsers and the
 * settings; the job layer calls it.
 */
export {
  NO_PATTERN,
  referencesOf,
  traceOptions,
  type TestReferences,
  type TraceOptions,
} from './references.js';
export { findLinkRoutes, type LinkRoutes } from './routes.js';
export {
  LINK_ORIGIN,
  traceLinks,
  type LinkChange,
  type TraceLinkOptions,
  type TraceResult,
} from './links.js';
export { describeTrace, traceMarkdown } from './describe.js';
export {
  coverageSettings,
  traceSettings,
  type CoverageSettings,
  type TraceSettings,
} from './settings.js';
export {
  COVERAGE_STATUSES,
  coverageOfCycle,
  coverageReasons,
  describeCoverage,
  hasCoverageThresholds,
  readCoverage,
  statusOf,
  type Coverage,
  type CoverageResult,
  type CoverageStatus,
  type CoverageThresholds,
  type RequirementCoverage,
} from './coverage.js';
