/**
 * The settings of `testcycle sync` and action mode `sync`, read by their keys in the settings
 * table (src/settings/table.ts, rows from src/settings/sync.ts) with the readers bound to it,
 * all checked before a report is read or a request sent.
 */
import type { SyncOptions } from './inventory.js';
import { checkAutomationKeyTemplate } from '../domain/match.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { flag, numeric, text } from '../settings/index.js';
import { caseWriteSettings, matchSettings } from './settings.js';
import { checkRetireGrace, parseRetireMax, parseRetireScope } from './retire.js';

export type SyncSettings = Omit<SyncOptions, 'reports' | 'logger' | 'signal' | 'concurrency'>;

export function syncSettings(
  src: SettingSource,
  env: Record<string, string | undefined>,
): SyncSettings {
  const match = matchSettings(src, env);
  const migrateKeys = text(src, 'migrate-keys');
  if (migrateKeys !== undefined) checkAutomationKeyTemplate(migrateKeys, 'migrate-keys');
  const settings: SyncSettings = {
    match,
    retireMissing: flag(src, 'retire-missing'),
    retireMax: parseRetireMax(text(src, 'retire-max')),
    retireGrace: numeric(src, 'retire-grace'),
    retireSeries: text(src, 'retire-series'),
    retireScope: parseRetireScope(text(src, 'retire-scope')),
    followRenames: flag(src, 'follow-renames'),
    migrateKeys,
    ...caseWriteSettings(src),
    dryRun: flag(src, 'dry-run'),
  };
  checkRetireGrace(settings);
  return settings;
}
