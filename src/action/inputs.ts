/**
 * Action inputs as a SettingSource: the settings table's keys are the input names (action.yml is
 * held to the table by a test). Errors name inputs as workflow authors write them.
 */
import * as core from '@actions/core';
import { ConfigError, type SettingWords } from '../shared/errors.js';
import type { SettingSource } from '../publish/index.js';
import { settingOf } from '../settings.js';

export const inputSource: SettingSource = {
  string: (key) => core.getInput(key) || undefined,
  bool: (key) => {
    const raw = core.getInput(key).trim().toLowerCase();
    if (raw === '') return undefined;
    if (['true', 'yes', 'on', '1'].includes(raw)) return true;
    if (['false', 'no', 'off', '0'].includes(raw)) return false;
    throw new ConfigError(key, `"${raw}" is not true or false.`);
  },
};

const isInput = (key: string) => settingOf(key)?.modes !== undefined;

/** `input reopen-done-cycle`, `reopen-done-cycle: true`: as a workflow's `with:` block has them. */
export const ACTION_WORDS: SettingWords = {
  name: (key) => (isInput(key) ? `input ${key}` : key),
  value: (key, value) => (isInput(key) ? `${key}: ${value}` : `${key} ${value}`),
};
