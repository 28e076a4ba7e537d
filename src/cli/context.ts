/** What a CLI command is given: its name, flags and settings, the terminal, the log. */
import type { Logger, Redactor } from '../shared/redact.js';
import type { SettingSource } from '../shared/setting-readers.js';
import type { CommandName } from '../settings/index.js';
import type { FlagValues } from './flags.js';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /**
   * Resolves when a long-running command (the emulator, a publish) should stop: SIGINT/SIGTERM
   * in bin.ts.
   * Only commands that call it take over the signals; the others stop on Ctrl-C as usual.
   */
  interrupted?: () => Promise<void>;
  /** ANSI colour in human output: bin.ts sets it for a TTY without NO_COLOR. */
  color?: boolean;
}

export interface CommandContext {
  command: CommandName;
  values: FlagValues;
  /** The settings by key: flags, else their environment variables. */
  settings: SettingSource;
  /** The flags alone: what this command was given (a variable set for every step is no mistake). */
  given: SettingSource;
  io: CliIO;
  redactor: Redactor;
  logger: Logger;
}
