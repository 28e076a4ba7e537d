/**
 * Traceability (docs/architecture.md "Who may import whom"): the requirements and work items a
 * test names, read from its runner's own annotations (./references.ts, docs/design.md
 * "Traceability: what is read"). The job layer enters it here.
 */
export {
  NO_PATTERN,
  referencesOf,
  traceOptions,
  type TestReferences,
  type TraceOptions,
} from './references.js';
