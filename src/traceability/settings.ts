/** The traceability settings of a job (rows in src/settings/trace.ts), read before any request. */
import { userFilterSetting } from '../client/index.js';
import { flag, numeric } from '../settings/index.js';
import type { CoverageThresholds } from './coverage.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { traceOptions, type TraceOptions } from './references.js';

export interface TraceSettings {
  /** publish --trace, sync --trace: links kept in step with what the tests name. */
  trace: boolean;
  options: TraceOptions;
}

export function traceSettings(src: SettingSource): TraceSettings {
  return { trace: flag(src, 'trace'), options: traceOptions(src) };
}

/** `coverage`'s settings: the requirements in scope (a user filter, checked now) and the thresholds. */
export interface CoverageSettings extends CoverageThresholds {
  requirements?: string;
  /** coverage --mark-covered: PASSED requirements set to COVERED. */
  markCovered?: boolean;
}

export function coverageSettings(src: SettingSource): CoverageSettings {
  return {
    requirements: userFilterSetting(src, 'requirements'),
    minCoverage: numeric(src, 'min-coverage'),
    maxFailingRequirements: numeric(src, 'max-failing-requirements'),
    markCovered: flag(src, 'mark-covered'),
  };
}
