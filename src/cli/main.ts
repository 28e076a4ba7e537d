/**
 * The CLI adapter: argument parsing, exit codes and text/JSON output. The work itself lives in
 * src/publish, src/client and src/parsers; flags come from the settings table (src/settings/table.ts).
 */
import { parseArgs } from 'node:util';
import { messageOf, type SettingWords, TestcycleError, UsageError } from '../shared/errors.js';
import { Redactor, createLogger, safeLines } from '../shared/redact.js';
import { closestName, type CommandName, idleSettings } from '../settings/index.js';
import { VERSION } from '../shared/version.js';
import { maskToken } from '../job/index.js';
import type { CliIO, CommandContext } from './context.js';
import { runCoverageCommand } from './coverage.js';
import { runEmulatorCommand } from './emulator.js';
import { EXIT_CODES, exitCodesHelp } from './exit-codes.js';
import {
  cliSource,
  cliWords,
  commandHelp,
  commonHelp,
  flagError,
  parseOptions,
  usageLine,
  type FlagValues,
} from './flags.js';
import { runParseCommand } from './parse.js';
import { runQuarantineAdd, runQuarantineList, runQuarantineRemove } from './quarantine.js';
import { runReportCommand } from './report.js';
import { runSyncCommand } from './sync.js';
import {
  runCycleCloseCommand,
  runCycleCreateCommand,
  runCheckCommand,
  runGateCommand,
  runPublishCommand,
} from './service-commands.js';

export type { CliIO, CommandContext } from './context.js';

interface Command {
  summary: string;
  run(ctx: CommandContext): Promise<number>;
}

const COMMANDS: Record<CommandName, Command> = {
  publish: {
    summary:
      'publish test results into a cycle (find or create it, make it ACTIVE), then gate on thresholds',
    run: runPublishCommand,
  },
  gate: {
    summary:
      "check a cycle's results against thresholds (one aggregate request over the whole cycle)",
    run: runGateCommand,
  },
  'cycle create': {
    summary:
      'create a cycle (or find it by name), optionally with a NOT_EXECUTED execution for each case a filter matches',
    run: runCycleCreateCommand,
  },
  'cycle close': { summary: 'set a cycle to DONE', run: runCycleCloseCommand },
  parse: {
    summary: 'read test reports and print what testcycle finds in them (no service needed)',
    run: runParseCommand,
  },
  emulator: {
    summary: 'run a local emulator of the service (for tests, demos and trying pipelines offline)',
    run: runEmulatorCommand,
  },
  check: {
    summary:
      "check the base URL and token: the Space it reaches, the token's role (read-write or read-only) and expiry (2 requests)",
    run: runCheckCommand,
  },
  report: {
    summary:
      'a series of cycles over time as a self-contained HTML page (and Markdown, JSON): trend, newly failing, flaky tests',
    run: runReportCommand,
  },
  sync: {
    summary:
      "keep the Space's automated test cases in step with the reports: create, rename, re-key, update steps and fields, archive the gone (--retire-missing)",
    run: runSyncCommand,
  },
  coverage: {
    summary:
      "requirement coverage of a cycle: each requirement's linked test cases and their results, PASSED / FAILED / NOT_RUN / UNCOVERED, with thresholds",
    run: runCoverageCommand,
  },
  'quarantine add': {
    summary:
      'quarantine a test case (--case KEY --reason TEXT [--until DATE]): the gate leaves its results out',
    run: runQuarantineAdd,
  },
  'quarantine remove': { summary: 'release a quarantined test case', run: runQuarantineRemove },
  'quarantine list': { summary: 'list the quarantined test cases', run: runQuarantineList },
};

const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** The commands that run a job of src/job (which warns of the flags that do nothing there). */
const JOB_COMMANDS: ReadonlySet<CommandName> = new Set(
  (Object.keys(COMMANDS) as CommandName[]).filter((c) => c !== 'parse' && c !== 'emulator'),
);

function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`,
  );
  return `testcycle ${VERSION}: push automated test results into a test-management service

usage: testcycle <command> [flags]

commands:
${lines.join('\n')}

common flags:
${commonHelp()}

exit codes: ${exitCodesHelp()}
Run "testcycle <command> --help" for a command's flags.`;
}

/** The two-word commands by their first word: `cycle create`, `quarantine add`, ... */
const GROUPS: Record<string, string[]> = {};
for (const command of Object.keys(COMMANDS)) {
  const [first, second] = command.split(' ');
  if (second) (GROUPS[first!] ??= []).push(second);
}

/** `create or close`, `add, remove or list`. */
const wordList = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words.join('');

/** `testcycle cycle --help`: the group's commands with their usage lines. */
function groupHelp(group: string): string {
  const commands = GROUPS[group]!.map((second) => `${group} ${second}` as CommandName);
  return [
    `usage: testcycle ${group} ${GROUPS[group]!.join('|')} [flags]`,
    '',
    ...commands.flatMap((c) => [`  ${usageLine(c)}`, `      ${COMMANDS[c].summary}`]),
    '',
    `Run "testcycle ${group} <command> --help" for a command's flags.`,
  ].join('\n');
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: string[], rawIO: CliIO): Promise<number> {
  const redactor = new Redactor();
  // Before anything is read: the token's variable (its flag once the flags are read).
  maskToken(redactor, undefined, rawIO.env);
  // Every line the CLI prints: the token in none of its forms, and no workflow command.
  const io: CliIO = {
    ...rawIO,
    stdout: (text) => rawIO.stdout(safeLines(redactor.redact(text), rawIO.color === true)),
    stderr: (text) => rawIO.stderr(safeLines(redactor.redact(text))),
  };
  const say = (text: string) => io.stderr(redactor.redact(text));
  // Two-word commands: `cycle create`, `cycle close`.
  const twoWords = argv.length >= 2 ? `${argv[0]} ${argv[1]}` : '';
  const [name, ...rest] = isCommand(twoWords) ? [twoWords, ...argv.slice(2)] : argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : EXIT_CODES.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION);
    return 0;
  }
  let words: SettingWords | undefined;
  try {
    // `cycle` and `quarantine` alone name a group: its commands, as help or as the usage error.
    const group = GROUPS[name];
    if (group) {
      const asked = rest[0];
      const help = asked === undefined || asked === '--help' || asked === '-h' || asked === 'help';
      if (help && asked !== undefined) {
        io.stdout(groupHelp(name));
        return 0;
      }
      const meant = asked && closestName(asked, group);
      throw new UsageError(
        `${asked === undefined ? 'say' : `unknown command "${name} ${asked}"${meant ? `; did you mean ${name} ${meant}?` : '.'} Say`} ${wordList(group)}: ${group.map((g) => `testcycle ${name} ${g}`).join(', ')}. See testcycle ${name} --help.`,
      );
    }
    if (!isCommand(name)) {
      // `quarantin add` meant `quarantine add`: the group, with the word that follows it.
      const group = closestName(name, [...Object.keys(COMMANDS), ...Object.keys(GROUPS)]);
      const meant = group && GROUPS[group]?.includes(rest[0] ?? '') ? `${group} ${rest[0]}` : group;
      throw new UsageError(
        `unknown command "${name}"${meant ? `; did you mean ${meant}?` : '.'} Commands: ${Object.keys(COMMANDS).join(', ')}. See testcycle --help.`,
      );
    }
    const values = parseFlags(name, rest);
    if (values.help) {
      io.stdout(commandHelp(name, COMMANDS[name].summary));
      return 0;
    }
    words = cliWords(name, values, io.env);
    const settings = cliSource(name, values, io.env);
    const given = cliSource(name, values, {});
    maskToken(redactor, settings, io.env);
    const logger = createLogger(
      (level, message) => io.stderr(`${level === 'debug' ? '' : `${level}: `}${message}`),
      redactor,
      values.verbose ? 'debug' : 'info',
      words,
    );
    // The job layer says which flags do nothing; the commands that run no job say it here.
    if (!JOB_COMMANDS.has(name))
      for (const warning of idleSettings(given, settings, { command: name })) logger.warn(warning);
    return await COMMANDS[name].run({
      command: name,
      values,
      settings,
      given,
      io,
      redactor,
      logger,
    });
  } catch (error) {
    if (error instanceof TestcycleError) {
      say(`testcycle ${name}: ${words ? error.describe(words) : error.message}`);
      return EXIT_CODES[error.kind];
    }
    // A bug, not a user error: still one line, no stack unless asked for.
    say(`testcycle ${name}: unexpected error: ${messageOf(error)}`);
    if (io.env.TESTCYCLE_DEBUG && error instanceof Error && error.stack) say(error.stack);
    return EXIT_CODES.service;
  }
}

function parseFlags(command: CommandName, args: string[]): FlagValues {
  const options = parseOptions(command);
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as FlagValues;
  } catch (error) {
    throw flagError(command, error);
  }
}
