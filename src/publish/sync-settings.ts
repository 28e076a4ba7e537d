/**
 * The settings of `testcycle sync` and action mode `sync`, read by their keys in the settings
 * table (src/settings.ts, rows from src/settings-sync.ts) with the readers bound to it,
 * all checked before a report is read or a request sent.
 */
import type { SyncOptions } from './inventory.js';
import { checkAutomationKeyTemplate } from './match.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { flag, numeric, text } from '../settings.js';
import { caseWriteSettings, matchSettings } from './settings.js';

export type SyncSettings = Omit<SyncOptions, 'reports' | 'logger' | 'signal' | 'concurrency'>;

export function syncSettings(
  src: SettingSource,
  env: Record<string, string | undefined>,
): SyncSettings {
  const match = matchSettings(src, env);
  const migrateKeys = text(src, 'migrate-keys');
  if (migrateKeys !== undefined) checkAutomationKeyTemplate(migrateKeys, 'migrate-keys');
  return {
    match,
    retireMissing: flag(src, 'retire-missing'),
    retireMax: numeric(src, 'retire-max'),
    migrateKeys,
    ...caseWriteSettings(src),
    dryRun: flag(src, 'dry-run'),
  };
}
