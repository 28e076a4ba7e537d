/**
 * The settings of `testcycle sync` and action mode `sync`, read by their keys in the settings
 * table (src/settings/table.ts, rows from src/settings/sync.ts) with the readers bound to it,
 * all checked before a report is read or a request sent.
 */
import type { SyncOptions } from './sync.js';
import { checkAutomationKeyTemplate } from '../domain/index.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { ConfigError } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import { choice, flag, numeric, settingValue as raw, text } from '../settings/index.js';
import { matchSettings } from '../domain/index.js';
import { type CaseFieldMapping, parseCaseFields } from './case-fields.js';
import { checkRetireGrace, parseRetireMax, parseRetireScope } from './retire.js';

/** Sync's settings as read from the settings table: SyncOptions without what the caller gives. */
export type SyncSettings = Omit<SyncOptions, 'reports' | 'logger' | 'signal' | 'concurrency'>;

/** Sync's settings read and checked, before any request. */
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

/** How sync writes a test case, for sync and publish --sync (docs/design.md "Sync: what sync owns"). */
export function caseWriteSettings(
  src: SettingSource,
): Pick<SyncOptions, 'caseFields' | 'caseNames' | 'replaceSteps' | 'ownershipField'> {
  const caseFields = caseFieldsSetting(src);
  const ownershipField = raw(src, 'ownership-field')?.trim() || undefined;
  if (ownershipField && caseFields?.some((r) => r.field === ownershipField))
    throw new ConfigError(
      'ownership-field',
      `${oneLine(ownershipField)} is mapped by case-fields too; sync's record needs a custom field of its own.`,
    );
  return {
    caseFields,
    caseNames: choice(src, 'case-names'),
    replaceSteps: flag(src, 'replace-steps'),
    ownershipField,
  };
}

/** `case-fields`, parsed (syntax only; the Space's fields are checked before the first write). */
export function caseFieldsSetting(src: SettingSource): CaseFieldMapping | undefined {
  const mapping = raw(src, 'case-fields');
  return mapping === undefined ? undefined : parseCaseFields(mapping, 'case-fields');
}
