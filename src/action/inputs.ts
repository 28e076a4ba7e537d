/**
 * Action inputs as a SettingSource: the settings table's keys are the input names (action.yml is
 * held to the table by a test). Errors name inputs as workflow authors write them.
 */
import * as core from '@actions/core';
import { ConfigError, type SettingWords, UsageError } from '../shared/errors.js';
import type { SettingSource } from '../shared/setting-readers.js';
import {
  actionInputs,
  choice,
  closestName,
  type CommentMode,
  flag,
  numeric,
  settingOf,
  text,
} from '../settings/index.js';

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
  command: (mode, settings) =>
    `a step with mode: ${mode}, ${Object.entries(settings)
      .map(([key, value]) => `${key}: '${value.replace(/'/g, "''")}'`)
      .join(
        ', ',
      )} and the inputs of this step that mode ${mode} reads (reports, base-url, token, ...)`,
};

/** How a publish or gate step shows its result on GitHub: inputs read and checked with the others. */
export interface GitHubReporting {
  jobSummary: boolean;
  annotations: boolean;
  linkTemplate?: string;
  checkName?: string;
  comment: CommentMode;
  /** Failed tests annotated on the check run (GitHub takes 50 a request). */
  maxAnnotations: number;
  /** The series a comment stands for: the cycle-name template (`PR {pr} {sha7}` is one comment). */
  series?: string;
}

/** Read before the first request, so that a bad value fails the step before anything is written. */
export function githubReporting(src: SettingSource): GitHubReporting {
  return {
    jobSummary: flag(src, 'job-summary'),
    annotations: flag(src, 'annotations'),
    linkTemplate: text(src, 'link-template'),
    checkName: text(src, 'check-name'),
    comment: choice(src, 'comment'),
    maxAnnotations: numeric(src, 'max-annotations')!,
    series: text(src, 'cycle-name'),
  };
}

/**
 * Inputs the workflow gave that the action does not have. A near miss (`cycle-nmae`, or `report`,
 * the CLI's spelling of `reports`) is a usage error naming the input meant, before anything is
 * read: the setting it was meant for would silently keep its default. Any other name is returned
 * as a warning (the runner passes each `with:` entry as INPUT_<NAME>, upper-cased).
 */
export function checkInputNames(env: NodeJS.ProcessEnv): string[] {
  const inputs = actionInputs().map(([key]) => key);
  const known = new Set(inputs.map((key) => key.toUpperCase()));
  const warnings: string[] = [];
  for (const variable of Object.keys(env)) {
    if (!variable.startsWith('INPUT_')) continue;
    const name = variable.slice('INPUT_'.length);
    if (known.has(name)) continue;
    const typed = name.toLowerCase();
    const guess =
      inputs.find((key) => settingOf(key)?.flag === typed) ?? closestName(typed, inputs);
    if (guess) throw new UsageError(`unknown input ${typed}; did you mean ${guess}?`);
    warnings.push(`unknown input ${typed} is ignored; the inputs are listed in action.yml.`);
  }
  return warnings;
}
