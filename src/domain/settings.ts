/**
 * How tests find their cases, for publish and sync (docs/design.md "Keys"), read by their keys in
 * the settings table (src/settings/table.ts) and checked before a report is read.
 */
import type { SettingSource } from '../shared/setting-readers.js';
import { flag, settingValue as raw } from '../settings/index.js';
import { workspaceOf } from './context.js';
import { checkAutomationKeyTemplate, keyPattern, type MatchOptions } from './match.js';

type Env = Record<string, string | undefined>;

/** How tests find their cases (publish and sync): key pattern, key template, workspace. */
export function matchSettings(src: SettingSource, env: Env): MatchOptions {
  const automationKey = raw(src, 'automation-key')!;
  checkAutomationKeyTemplate(automationKey, 'automation-key');
  return {
    keyPattern: keyPattern(raw(src, 'key-pattern'), 'key-pattern'),
    automationKey,
    createMissingCases: flag(src, 'create-missing-cases'),
    workspace: workspaceOf(raw(src, 'workspace'), env),
  };
}
