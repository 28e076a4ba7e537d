/** The traceability settings of a job (rows in src/settings/trace.ts), read before any request. */
import { flag } from '../settings/index.js';
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
