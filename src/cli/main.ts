/**
 * The CLI adapter: argument parsing, exit codes and text/JSON output. The work itself lives in
 * src/publish, src/api and src/reports; commands here only wire flags to it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, EXIT_CODES, TestcycleError, messageOf } from '../api/errors.js';
import { Redactor, createLogger, safeLines, type Logger } from '../api/redact.js';
import { COMMON_FLAGS, COMMON_HELP } from './args.js';
import { VERSION } from '../version.js';
import { runEmulatorCommand } from './emulator.js';
import { PARSE_FLAGS, runParseCommand } from './parse.js';
import {
  CYCLE_CLOSE_FLAGS,
  CYCLE_CREATE_FLAGS,
  GATE_COMMAND_FLAGS,
  PUBLISH_FLAGS,
  runCycleCloseCommand,
  runCycleCreateCommand,
  runCheckCommand,
  runGateCommand,
  runPublishCommand,
} from './service-commands.js';
import { UnmatchedError } from '../publish/publish.js';
import { ReportError } from '../reports/model.js';
import { FORMAT_IDS } from '../reports/registry.js';

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
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  io: CliIO;
  redactor: Redactor;
  logger: Logger;
}

interface Command {
  summary: string;
  usage: string;
  flags: ParseArgsConfig['options'];
  run(ctx: CommandContext): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  publish: {
    summary:
      'publish test results into a cycle (find or create it, make it ACTIVE), then gate on thresholds',
    usage:
      'testcycle publish --report GLOB [--format F] (--cycle-key KEY | --cycle-name NAME) [--no-create-cycle] [--reopen-done-cycle] [--close-cycle] [--cycle-custom-fields JSON] [--key-pattern RE] [--automation-key T] [--create-missing-cases] [--on-unmatched warn|fail|ignore] [--on-key-collision warn|fail|merge] [--merge latest|worst] [--flaky passed|failed] [--error-as FAILED|BLOCKED] [--dry-run] [--json] [--summary-file F] [gate flags]',
    flags: PUBLISH_FLAGS,
    run: runPublishCommand,
  },
  gate: {
    summary:
      "check a cycle's results against thresholds (one aggregate request over the whole cycle)",
    usage:
      'testcycle gate (--cycle-key KEY | --cycle-name NAME) [--min-pass-rate PCT] [--max-failed N] [--max-blocked N] [--fail-on-not-executed] [--pass-rate-basis executed|all] [--gate-filter FILTRQL] [--json] [--summary-file F]',
    flags: GATE_COMMAND_FLAGS,
    run: runGateCommand,
  },
  'cycle create': {
    summary:
      'create a cycle (or find it by name), optionally with a NOT_EXECUTED execution for each case a filter matches',
    usage:
      'testcycle cycle create --name NAME [--status ACTIVE|DRAFT] [--populate FILTRQL] [--custom-fields JSON] [--json]',
    flags: CYCLE_CREATE_FLAGS,
    run: runCycleCreateCommand,
  },
  'cycle close': {
    summary: 'set a cycle to DONE',
    usage: 'testcycle cycle close (--cycle-key KEY | --cycle-name NAME) [--json]',
    flags: CYCLE_CLOSE_FLAGS,
    run: runCycleCloseCommand,
  },
  parse: {
    summary: 'read test reports and print what testcycle finds in them (no service needed)',
    usage: `testcycle parse --report GLOB (repeatable, !GLOB excludes) [--format auto|${FORMAT_IDS.join('|')}] [--max-report-bytes N] [--json] [--verbose]`,
    flags: PARSE_FLAGS,
    run: runParseCommand,
  },
  emulator: {
    summary: 'run a local emulator of the service (for tests, demos and trying pipelines offline)',
    usage:
      'testcycle emulator [--host 127.0.0.1] [--port 0] [--seed FILE] [--rate-limit 100/1m] [--chaos SPEC]',
    flags: {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'rate-limit': { type: 'string' },
      chaos: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    run: runEmulatorCommand,
  },
  check: {
    summary: 'check the base URL and token: reads the Space the token reaches (1 request)',
    usage: 'testcycle check [--json] [common flags]',
    flags: { ...COMMON_FLAGS, json: { type: 'boolean' } },
    run: runCheckCommand,
  },
};

function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`,
  );
  return `testcycle ${VERSION}: push automated test results into a test-management service

usage: testcycle <command> [flags]

commands:
${lines.join('\n')}

${COMMON_HELP}

exit codes: 0 done | 1 gate failed | 2 usage or configuration error | 3 service error | 4 report error
Run "testcycle <command> --help" for a command's flags.`;
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: string[], rawIO: CliIO): Promise<number> {
  const redactor = new Redactor();
  redactor.add(rawIO.env.TESTCYCLE_TOKEN);
  // Every line the CLI prints: the token in none of its forms, and no workflow command.
  const io: CliIO = {
    ...rawIO,
    stdout: (text) => rawIO.stdout(safeLines(redactor.redact(text), rawIO.color === true)),
    stderr: (text) => rawIO.stderr(safeLines(redactor.redact(text))),
  };
  const say = (text: string) => io.stderr(redactor.redact(text));
  // Two-word commands: `cycle create`, `cycle close`.
  const twoWords =
    argv.length >= 2 && COMMANDS[`${argv[0]} ${argv[1]}`] ? `${argv[0]} ${argv[1]}` : undefined;
  const [name, ...rest] = twoWords ? [twoWords, ...argv.slice(2)] : argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : EXIT_CODES.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command && name === 'cycle') {
    say(
      'testcycle cycle: say create or close, e.g. testcycle cycle create --name "Nightly {date}".',
    );
    return EXIT_CODES.usage;
  }
  if (!command) {
    say(
      `testcycle: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}. See testcycle --help.`,
    );
    return EXIT_CODES.usage;
  }
  try {
    let parsed: { values: CommandContext['values']; positionals: string[] };
    try {
      parsed = parseArgs({
        args: rest,
        options: command.flags,
        allowPositionals: false,
        strict: true,
      });
    } catch (error) {
      const detail = messageOf(error).replace(/\. To specify a positional argument.*$/s, '');
      // The usual cause: an unquoted glob that the shell expanded into many file names.
      const hint =
        command.flags && 'report' in command.flags && /positional/.test(detail)
          ? ' Quote --report globs so that the shell leaves them to testcycle: --report "build/**/*.xml".'
          : '';
      throw new ConfigError(
        'arguments',
        `${detail.replace(/\.$/, '')}.${hint} Usage: ${command.usage}`,
      );
    }
    if (parsed.values.help) {
      io.stdout(`usage: ${command.usage}\n\n${command.summary}\n\n${COMMON_HELP}`);
      return 0;
    }
    if (typeof parsed.values.token === 'string') redactor.add(parsed.values.token);
    const logger = createLogger(
      (level, message) => io.stderr(`${level === 'debug' ? '' : `${level}: `}${message}`),
      redactor,
      parsed.values.verbose ? 'debug' : 'info',
    );
    return await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      io,
      redactor,
      logger,
    });
  } catch (error) {
    if (error instanceof ReportError || error instanceof UnmatchedError) {
      say(`testcycle ${name}: ${error.message}`);
      return EXIT_CODES.report;
    }
    if (error instanceof TestcycleError) {
      say(`testcycle ${name}: ${error.message}`);
      return EXIT_CODES[error.category];
    }
    // A bug, not a user error: still one line, no stack unless asked for.
    say(`testcycle ${name}: unexpected error: ${messageOf(error)}`);
    if (io.env.TESTCYCLE_DEBUG && error instanceof Error && error.stack) say(error.stack);
    return EXIT_CODES.service;
  }
}
