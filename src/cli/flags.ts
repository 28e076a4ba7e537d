/**
 * The CLI's flags, all read from the settings table (src/settings/table.ts): parseArgs options, usage
 * lines, --help, the source of values (a flag, else its environment variable) and the words
 * errors use (`--reopen-done-cycle`). Only this adapter reads process.env.
 */
import type { ParseArgsConfig } from 'node:util';
import { messageOf, type SettingWords, UsageError } from '../shared/errors.js';
import type { SettingSource } from '../shared/setting-readers.js';
import {
  closestName,
  COMMON_KEYS,
  flagNameOf,
  helpOf,
  isNegatedFlag,
  settingOf,
  settingsOfCommand,
  type CommandName,
  type Setting,
} from '../settings/index.js';

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** The flag as typed: `no-create-cycle` for a boolean that is on by default. */
function typedFlag(key: string, setting: Setting, command?: CommandName): string {
  const flag = flagNameOf(key, command);
  return isNegatedFlag(setting) ? `no-${flag}` : flag;
}

export function parseOptions(command: CommandName): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [key, s] of settingsOfCommand(command)) {
    options[typedFlag(key, s, command)] =
      s.type === 'boolean'
        ? { type: 'boolean' }
        : s.type === 'list'
          ? { type: 'string', multiple: true }
          : { type: 'string' };
  }
  return options;
}

/** Values by setting key: the flag, else the setting's environment variable. */
export function cliSource(
  command: CommandName,
  values: FlagValues,
  env: NodeJS.ProcessEnv,
): SettingSource {
  const given = (key: string) => values[typedFlag(key, settingOf(key)!, command)];
  return {
    string: (key) => {
      const v = given(key);
      if (typeof v === 'string') return v;
      const variable = settingOf(key)?.env;
      return variable ? env[variable] || undefined : undefined;
    },
    bool: (key) => {
      if (given(key) !== true) return undefined;
      return !isNegatedFlag(settingOf(key)!);
    },
    list: (key) => {
      const v = given(key);
      return Array.isArray(v) ? v : undefined;
    },
  };
}

/** Settings as a command line writes them; a value from a variable is named by the variable. */
export function cliWords(
  command: CommandName,
  values: FlagValues,
  env: NodeJS.ProcessEnv,
): SettingWords {
  const flag = (key: string) => `--${flagNameOf(key, command)}`;
  return {
    name: (key) => {
      const s = settingOf(key);
      if (!s?.commands) return key;
      const fromEnv = s.env && values[flagNameOf(key, command)] === undefined && env[s.env];
      return fromEnv ? s.env! : flag(key);
    },
    value: (key, value) => {
      const s = settingOf(key);
      if (!s?.commands) return `${key} ${value}`;
      if (value === true) return flag(key);
      if (value === false)
        return isNegatedFlag(s) ? `--no-${flagNameOf(key, command)}` : `no ${flag(key)}`;
      return `${flag(key)} ${value}`;
    },
    command: (name, settings) => {
      const target = name as CommandName;
      const takes = new Set(settingsOfCommand(target).map(([key]) => key));
      const words = [`testcycle ${target}`];
      // This run's flags that the other command takes too, as typed (variables carry themselves);
      // never a secret, and not what shapes only this run's output.
      for (const [key, s] of settingsOfCommand(command)) {
        if (!takes.has(key) || key in settings || s.type === 'secret' || !CARRIED(key)) continue;
        const given = values[typedFlag(key, s, command)];
        if (given === true) words.push(`--${typedFlag(key, s, target)}`);
        else if (given !== undefined && given !== false)
          for (const one of [given].flat())
            words.push(`--${flagNameOf(key, target)} ${shellWord(one)}`);
      }
      for (const [key, value] of Object.entries(settings))
        words.push(`--${flagNameOf(key, target)} ${shellWord(value)}`);
      return words.join(' ');
    },
  };
}

/** Flags of a run that another command it suggests should not take over: a plan, its output. */
const CARRIED = (key: string) => !['dry-run', 'json', 'summary-file'].includes(key);

/** A word as a POSIX shell reads it back unchanged: bare when plain, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w./:=@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The settings every command that talks to the service takes (rows marked `common`): listed once in the help. */
const COMMON = new Set(COMMON_KEYS);

function usageOf(key: string, s: Setting, command: CommandName): string {
  const flag = `--${typedFlag(key, s, command)}`;
  if (s.type === 'boolean') return flag;
  if (s.type === 'choice' && s.choices!.length <= 4) return `${flag} ${s.choices!.join('|')}`;
  return `${flag} ${s.placeholder ?? 'VALUE'}`;
}

/** `testcycle publish --report GLOB [--format F] (--cycle-key KEY | --cycle-name NAME) ...`. */
export function usageLine(command: CommandName): string {
  const settings = settingsOfCommand(command);
  const common = isServiceCommand(command);
  const parts: string[] = [];
  const groups = new Set<string>();
  for (const [key, s] of settings) {
    if (common && COMMON.has(key)) continue;
    if (s.oneOf) {
      // A group is written once, where its first member stands: (--cycle-key KEY | --cycle-name NAME).
      if (groups.has(s.oneOf)) continue;
      groups.add(s.oneOf);
      const members = settings.filter(([, m]) => m.oneOf === s.oneOf);
      const alternatives = members.map(([k, m]) => usageOf(k, m, command)).join(' | ');
      parts.push(members.length > 1 ? `(${alternatives})` : alternatives);
    } else if (s.required)
      parts.push(usageOf(key, s, command) + (s.type === 'list' ? ' (repeatable)' : ''));
    else parts.push(`[${usageOf(key, s, command)}]`);
  }
  if (common) parts.push('[common flags]');
  return `testcycle ${command} ${parts.join(' ')}`;
}

/** Commands that talk to the service take the common flags (listed apart in their help). */
function isServiceCommand(command: CommandName): boolean {
  return settingOf('base-url')!.commands!.includes(command);
}

/** One flag per line, its description wrapped beside it, with its default and variable. */
function flagHelp(rows: [string, Setting, CommandName?][]): string {
  const left = rows.map(([key, s, command]) => `  ${usageOf(key, s, command ?? 'publish')}`);
  const width = Math.min(32, Math.max(...left.map((l) => l.length)) + 2);
  return rows
    .map(([, s, command], i) => {
      const notes = [
        s.default !== undefined && s.type !== 'boolean' ? `default ${s.default}` : '',
        s.env ? `env ${s.env}` : '',
      ].filter(Boolean);
      const text = `${helpOf(s, command ?? 'publish')}${notes.length ? ` (${notes.join('; ')})` : ''}`;
      const head =
        left[i]!.length + 2 > width ? `${left[i]}\n${' '.repeat(width)}` : left[i]!.padEnd(width);
      return head + wrap(text, 100 - width).join(`\n${' '.repeat(width)}`);
    })
    .join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** `testcycle <command> --help`. */
export function commandHelp(command: CommandName, summary: string): string {
  const rows = settingsOfCommand(command).map(
    ([key, s]) => [key, s, command] as [string, Setting, CommandName],
  );
  const shared = (key: string) => isServiceCommand(command) && COMMON.has(key);
  const own = rows.filter(([key]) => !shared(key));
  const common = rows.filter(([key]) => shared(key));
  return [
    `usage: ${usageLine(command)}`,
    '',
    summary,
    ...(own.length ? ['', 'flags:', flagHelp(own)] : []),
    ...(common.length ? ['', 'common flags:', flagHelp(common)] : []),
  ].join('\n');
}

/** The common flags, for `testcycle --help`. */
export function commonHelp(): string {
  return flagHelp(
    [...COMMON].map((key) => [key, settingOf(key)!, 'publish'] as [string, Setting, CommandName]),
  );
}

/** What a placeholder stands for, in "--report needs a value (a glob of report files)". */
const VALUE_WORDS: Record<string, string> = {
  GLOB: 'a glob or directory of report files',
  NAME: 'a cycle name',
  KEY: 'a cycle key',
  PCT: 'a percentage',
  POINTS: 'percentage points',
  N: 'a whole number',
  URL: 'a URL',
  TOKEN: 'a token',
  FILE: 'a file name',
  JSON: 'a JSON object',
  FILTRQL: 'a FiltrQL condition',
  'C/W': 'COUNT/WINDOW, e.g. 100/1m',
  MS: 'milliseconds',
  RE: 'a regular expression',
  T: 'a template',
  F: 'a report format',
  HOST: 'a host name or address',
  PORT: 'a port number',
  SPEC: 'a list of faults',
  PATTERN: 'a cycle name pattern',
};

/** parseArgs' error in the user's terms: a did-you-mean for an unknown flag, what a value is for. */
export function flagError(command: CommandName, error: unknown): UsageError {
  const detail = messageOf(error);
  const code = (error as { code?: unknown }).code;
  const typed = /'(--?[^' <=]+)/.exec(detail)?.[1];
  const rows = settingsOfCommand(command);
  const flags = rows.map(([key, s]) => `--${typedFlag(key, s, command)}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && typed) {
    // An action input's name (--reports) or the key behind a renamed flag (--cycle-name of
    // `cycle create` is --name) stands for its flag; else the nearest flag by spelling.
    const byKey = rows.find(([key]) => `--${key}` === typed);
    const guess = byKey
      ? `--${typedFlag(byKey[0], byKey[1], command)}`
      : closestName(typed, [...flags, '--help']);
    const elsewhere = settingOf(typed.replace(/^--(no-)?/, ''))?.commands;
    const hint = guess
      ? `; did you mean ${guess}?`
      : elsewhere
        ? `; it is a flag of ${elsewhere.map((c) => `testcycle ${c}`).join(', ')}.`
        : '.';
    return new UsageError(`unknown flag ${typed}${hint} See testcycle ${command} --help.`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && typed) {
    const row = rows[flags.indexOf(typed)];
    const what =
      row?.[1].type === 'choice'
        ? `one of ${row[1].choices!.join(', ')}`
        : (VALUE_WORDS[row?.[1].placeholder ?? ''] ?? 'a value');
    const ambiguous = /ambiguous/.test(detail)
      ? `; the next word starts with a dash, so it is read as a flag (a value that starts with a dash: ${typed}=-VALUE)`
      : '';
    return new UsageError(`${typed} needs a value (${what})${ambiguous}.`);
  }
  // The usual cause of a positional argument: an unquoted glob the shell expanded into file names.
  const positional = detail.replace(/\. To specify a positional argument.*$/s, '');
  const hint =
    flags.includes('--report') && /positional/.test(positional)
      ? ' Quote --report globs so that the shell leaves them to testcycle: --report "build/**/*.xml".'
      : '';
  return new UsageError(`${positional.replace(/\.$/, '')}.${hint} Usage: ${usageLine(command)}`);
}
