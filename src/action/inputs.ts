/** Action inputs as a SettingSource: the same kebab-case names as the CLI flags (DESIGN.md). */
import * as core from '@actions/core';
import { ConfigError } from '../api/errors.js';
import type { SettingSource } from '../publish/index.js';

export const inputSource: SettingSource = {
  string: (name) => core.getInput(name) || undefined,
  bool: (name) => boolInput(name),
  label: (name) => `input ${name}`,
};

export function boolInput(name: string): boolean | undefined {
  const raw = core.getInput(name).trim().toLowerCase();
  if (raw === '') return undefined;
  if (['true', 'yes', 'on', '1'].includes(raw)) return true;
  if (['false', 'no', 'off', '0'].includes(raw)) return false;
  throw new ConfigError(`input ${name}`, `"${raw}" is not true or false.`);
}

export function integerInput(name: string, fallback: number, min = 1): number {
  const raw = core.getInput(name).trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new ConfigError(`input ${name}`, `"${raw}" is not a whole number of at least ${min}.`);
  return n;
}

/** `reports`: one glob per line (or comma-separated); `!` excludes. */
export function reportPatterns(): string[] {
  return core
    .getInput('reports')
    .split(/\r?\n|,/)
    .map((s) => s.trim())
    .filter(Boolean);
}
