/**
 * The generic setting readers (`text`, `flag`, `numeric`, `choice` and friends): a value by its
 * key from an adapter's SettingSource, checked against the key's declaration (type, default,
 * choices, bounds, unit). The declarations are the settings table's (src/settings/table.ts), which binds
 * these readers to itself once (`settingReaders(settingOf)`); the leaf imports nothing of ours, so
 * the table comes in as a lookup. Errors name the setting by key and the adapter renders it
 * (`--max-failed`, input `max-failed`). The pipeline's own settings are in src/publish/settings.ts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { parseRateLimit, type RateLimit } from './rate.js';

/** Raw values by setting key, as an adapter has them (flags and variables, inputs, an object). */
export interface SettingSource {
  /** A setting's text; undefined when not given. */
  string(key: string): string | undefined;
  /** A switch; undefined when not given. */
  bool(key: string): boolean | undefined;
  /** Several values (`reports`); a source without lists splits a string on lines and commas. */
  list?(key: string): string[] | undefined;
}

/** What a reader checks of a setting's declaration (src/settings/table.ts `Setting`). */
export interface SettingRule {
  type: string;
  /** As a user writes it. */
  default?: string;
  choices?: readonly string[];
  min?: number;
  max?: number;
  /** A number on a percentage scale: a value that reads as a fraction is refused. */
  unit?: 'percent' | 'points';
}

/**
 * Settings from plain values named by their keys, for scripts using the library:
 * `publishSettings(settingsFrom({ 'cycle-name': 'Nightly {date}', 'min-pass-rate': 95 }), env)`.
 */
export function settingsFrom(values: Record<string, unknown>): SettingSource {
  return {
    string: (key) => {
      const v = values[key];
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    },
    bool: (key) => (typeof values[key] === 'boolean' ? (values[key] as boolean) : undefined),
    list: (key) => {
      const v = values[key];
      return Array.isArray(v) ? v.map(String) : undefined;
    },
  };
}

/**
 * `reports`: a list (a repeatable flag), each value one pattern per line or comma-separated, as
 * the setting's description says for the flag and the input alike.
 */
export function listSetting(src: SettingSource, key: string): string[] {
  const given = src.list?.(key) ?? [src.string(key) ?? ''];
  return given.flatMap(splitPatterns).filter(Boolean);
}

/**
 * `a.xml, reports/*.json`, or one per line: split on line ends and on the commas that are not
 * inside a glob's `{...}` alternatives or `[...]` class, so that `build/{unit,it}/*.xml` stays
 * one pattern.
 */
function splitPatterns(text: string): string[] {
  const patterns: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if ((c === ',' && depth === 0) || c === '\n') {
      patterns.push(current.trim());
      current = '';
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
    current += c;
  }
  return [...patterns, current.trim()];
}

/** The readers of one table of declarations: src/settings/table.ts binds them to the settings table. */
export function settingReaders(lookup: (key: string) => SettingRule | undefined) {
  /** The declaration of a setting; a key that is not in the table is a bug, not a user error. */
  function spec(key: string): SettingRule {
    const s = lookup(key);
    if (!s) throw new Error(`no setting "${key}" in src/settings/table.ts`);
    return s;
  }

  /** The value given, else the table's default (undefined when it has none). */
  function raw(src: SettingSource, key: string): string | undefined {
    const v = src.string(key)?.trim();
    return v ? v : spec(key).default;
  }

  function text(src: SettingSource, key: string): string | undefined {
    return raw(src, key);
  }

  /**
   * A file the run writes when it is done (`html-file`, `summary-file`): its directory must exist
   * and be writable, and the path must not be a directory, checked before the first request so
   * that a typo costs no request. A missing directory is not made: a typo would otherwise write
   * elsewhere.
   */
  function outputFile(src: SettingSource, key: string): string | undefined {
    const file = text(src, key);
    if (file === undefined) return undefined;
    const path = resolve(file);
    const dir = dirname(path);
    const fail: (problem: string) => never = (problem) => {
      throw new ConfigError(key, `cannot write ${file}: ${problem}`, 'OUTPUT_PATH');
    };
    const existing = statSync(path, { throwIfNoEntry: false });
    if (existing?.isDirectory()) fail('it is a directory; give a file name.');
    const parent = statSync(dir, { throwIfNoEntry: false });
    if (!parent)
      fail(`the directory ${dir} does not exist; create it first (mkdir -p) or give another path.`);
    if (!parent.isDirectory()) fail(`${dir} is not a directory.`);
    try {
      accessSync(existing ? path : dir, constants.W_OK);
    } catch {
      fail(`${existing ? 'the file' : `the directory ${dir}`} is not writable.`);
    }
    return file;
  }

  function required(src: SettingSource, key: string, what: string): string {
    const v = raw(src, key);
    if (v === undefined) throw new ConfigError(key, `is required: ${what}`, 'MISSING_SETTING');
    return v;
  }

  function flag(src: SettingSource, key: string): boolean {
    return src.bool(key) ?? spec(key).default === 'true';
  }

  function choice<T extends string>(src: SettingSource, key: string): T {
    const { choices = [] } = spec(key);
    const v = raw(src, key);
    if (v === undefined || !choices.includes(v))
      throw new ConfigError(key, `"${v ?? ''}" is not one of ${choices.join(', ')}.`);
    return v as T;
  }

  /** A number within the table's bounds (`integer` settings: whole); "95%" reads as 95. */
  function numeric(src: SettingSource, key: string): number | undefined {
    const s = spec(key);
    const v = raw(src, key);
    if (v === undefined) return undefined;
    const percentSign = v.endsWith('%');
    const n = Number(v.replace(/%$/, ''));
    const whole = s.type === 'integer';
    if (s.unit && !percentSign) refuseFraction(key, s.unit, v, n);
    const min = s.min ?? -Infinity;
    if (
      !Number.isFinite(n) ||
      n < min ||
      (s.max !== undefined && n > s.max) ||
      (whole && !Number.isInteger(n))
    )
      throw new ConfigError(
        key,
        `"${v}" is not ${whole ? 'a whole number' : 'a number'} ${s.max !== undefined ? `from ${min} to ${s.max}` : `of at least ${min}`}.`,
      );
    return n;
  }

  /** A numeric setting with a default in the table. */
  function numericWithDefault(src: SettingSource, key: string): number {
    return numeric(src, key)!;
  }

  function jsonSetting(src: SettingSource, key: string): Record<string, unknown> | undefined {
    const v = raw(src, key);
    if (v === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw new ConfigError(key, `must be a JSON object, e.g. {"build":"1.2.3"}.`);
  }

  function rateSetting(src: SettingSource, key: string): RateLimit {
    return parseRateLimit(raw(src, key)!, key);
  }

  return {
    spec,
    raw,
    text,
    outputFile,
    required,
    flag,
    choice,
    numeric,
    numericWithDefault,
    jsonSetting,
    rateSetting,
  };
}

/**
 * A percentage written as a fraction (`0.95` for 95 %) would make a gate that cannot fail: it is
 * refused with the value meant. Percent: (0, 1] (1 reads as 100 % as often as 1 %); points: (0, 1).
 * Written with % (`0.5%`), the value stands as given.
 */
function refuseFraction(key: string, unit: 'percent' | 'points', v: string, n: number): void {
  const fraction = n > 0 && (unit === 'percent' ? n <= 1 : n < 1);
  if (!fraction) return;
  const meant = String(Math.round(n * 10_000) / 100);
  const scale =
    unit === 'percent'
      ? 'the pass rate is a percentage'
      : 'the drop is in percentage points of the pass rate';
  throw new ConfigError(
    key,
    (w) =>
      `${v} looks like a fraction; ${scale}: use ${w.value(key, meant)}, or ${w.value(key, `${v}%`)} if you mean ${v} ${unit === 'percent' ? 'per cent' : 'points'}.`,
  );
}
