/**
 * The one place where the publish, gate and cycle settings are read and checked, by their contract
 * names (DESIGN.md: CLI flags and action inputs share kebab-case names). Each adapter supplies a
 * SettingSource; errors name the flag or input the way that adapter's users write it.
 */
import { ConfigError } from '../api/errors.js';
import { f } from '../api/filter.js';
import type { KeyCollisionMode } from './collisions.js';
import type { CycleOptions } from './cycle.js';
import { ciContext, renderCycleName } from './context.js';
import type { GateOptions } from './gate.js';
import {
  checkAutomationKeyTemplate,
  DEFAULT_AUTOMATION_KEY,
  keyPattern,
  type MatchOptions,
} from './match.js';
import type { ErrorAs, FlakyMode, MergeMode } from './results.js';

export interface SettingSource {
  string(name: string): string | undefined;
  bool(name: string): boolean | undefined;
  /** How users write this setting: `--min-pass-rate` or `min-pass-rate`. */
  label(name: string): string;
}

/**
 * Settings from plain values named as the CLI flags, for the CLI and for scripts using the library:
 * `publishSettings(settingsFrom({ 'cycle-name': 'Nightly {date}', 'min-pass-rate': 95 }), env)`.
 */
export function settingsFrom(
  values: Record<string, unknown>,
  label: (name: string) => string = (name) => name,
): SettingSource {
  return {
    string: (name) => {
      const v = values[name];
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    },
    bool: (name) => (typeof values[name] === 'boolean' ? (values[name] as boolean) : undefined),
    label,
  };
}

export function choice<T extends string>(
  src: SettingSource,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const v = src.string(name);
  if (v === undefined) return fallback;
  if (!(choices as readonly string[]).includes(v))
    throw new ConfigError(src.label(name), `"${v}" is not one of ${choices.join(', ')}.`);
  return v as T;
}

function number(
  src: SettingSource,
  name: string,
  options: { min: number; max?: number; integer?: boolean },
): number | undefined {
  const v = src.string(name);
  if (v === undefined) return undefined;
  const n = Number(v.trim().replace(/%$/, ''));
  if (
    v.trim() === '' ||
    !Number.isFinite(n) ||
    n < options.min ||
    (options.max !== undefined && n > options.max) ||
    (options.integer && !Number.isInteger(n))
  ) {
    throw new ConfigError(
      src.label(name),
      `"${v}" is not ${options.integer ? 'a whole number' : 'a number'} ${options.max !== undefined ? `from ${options.min} to ${options.max}` : `of at least ${options.min}`}.`,
    );
  }
  return n;
}

export function jsonSetting(src: SettingSource, name: string): Record<string, unknown> | undefined {
  const v = src.string(name);
  if (v === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ConfigError(src.label(name), `must be a JSON object, e.g. {"build":"1.2.3"}.`);
}

/** A FiltrQL filter the user wrote, checked before any request (it is combined as parsed, see f.user). */
export function userFilterSetting(src: SettingSource, name: string): string | undefined {
  const text = src.string(name)?.trim() || undefined;
  if (text !== undefined) f.user(text, src.label(name));
  return text;
}

export function gateSettings(src: SettingSource): GateOptions {
  return {
    minPassRate: number(src, 'min-pass-rate', { min: 0, max: 100 }),
    maxFailed: number(src, 'max-failed', { min: 0, integer: true }),
    maxBlocked: number(src, 'max-blocked', { min: 0, integer: true }),
    failOnNotExecuted: src.bool('fail-on-not-executed') ?? false,
    basis: choice(src, 'pass-rate-basis', ['executed', 'all'] as const, 'executed'),
    filter: userFilterSetting(src, 'gate-filter'),
  };
}

export function cycleSettings(
  src: SettingSource,
  env: Record<string, string | undefined>,
): Pick<CycleOptions, 'key' | 'name'> {
  const key = src.string('cycle-key')?.trim() || undefined;
  const template = src.string('cycle-name')?.trim() || undefined;
  if (key && template)
    throw new ConfigError(
      src.label('cycle-key'),
      `and ${src.label('cycle-name')} cannot both be given; pick one.`,
    );
  if (!key && !template)
    throw new ConfigError(
      src.label('cycle-name'),
      `(or ${src.label('cycle-key')}) is required: the cycle to publish into, e.g. "CI {branch} {sha7}".`,
    );
  return key
    ? { key }
    : { name: renderCycleName(template!, ciContext(env), src.label('cycle-name')) };
}

export interface PublishSettings {
  cycle: CycleOptions & { close: boolean };
  match: MatchOptions;
  onUnmatched: 'warn' | 'fail' | 'ignore';
  onKeyCollision: KeyCollisionMode;
  merge: MergeMode;
  flaky: FlakyMode;
  errorAs: ErrorAs;
  dryRun: boolean;
  gate: GateOptions;
  format: string;
}

export function publishSettings(
  src: SettingSource,
  env: Record<string, string | undefined>,
): PublishSettings {
  const automationKey = src.string('automation-key') ?? DEFAULT_AUTOMATION_KEY;
  checkAutomationKeyTemplate(automationKey, src.label('automation-key'));
  return {
    cycle: {
      ...cycleSettings(src, env),
      create: src.bool('create-cycle') ?? !(src.bool('no-create-cycle') ?? false),
      reopenDone: src.bool('reopen-done-cycle') ?? false,
      close: src.bool('close-cycle') ?? false,
      customFields: jsonSetting(src, 'cycle-custom-fields'),
    },
    match: {
      keyPattern: keyPattern(src.string('key-pattern'), src.label('key-pattern')),
      automationKey,
      createMissingCases: src.bool('create-missing-cases') ?? false,
    },
    onUnmatched: choice(src, 'on-unmatched', ['warn', 'fail', 'ignore'] as const, 'warn'),
    onKeyCollision: choice(src, 'on-key-collision', ['warn', 'fail', 'merge'] as const, 'warn'),
    merge: choice(src, 'merge', ['latest', 'worst'] as const, 'latest'),
    flaky: choice(src, 'flaky', ['passed', 'failed'] as const, 'passed'),
    errorAs: choice(src, 'error-as', ['FAILED', 'BLOCKED'] as const, 'FAILED'),
    dryRun: src.bool('dry-run') ?? false,
    gate: gateSettings(src),
    format: src.string('format') ?? 'auto',
  };
}
