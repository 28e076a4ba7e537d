/**
 * What may be printed. Secrets never reach a log line, an error or an output: every logger writes
 * through a Redactor, which knows the encoded forms a token takes when a server or proxy echoes
 * it. Text from reports, servers and the environment is data: `oneLine` keeps it on one line
 * without control codes, and `safeLines` makes sure no printed line can be read as a workflow
 * command by a CI runner (GitHub's `::command::`, its older `##[command]`).
 */

import { ANSI_SEQUENCES, CONTROL_CODES, CONTROL_CODES_BUT_ESC } from '../control-codes.js';
import type { SettingWords, Words } from './errors.js';

const MASK = '***';

export class Redactor {
  private readonly secrets = new Set<string>();
  private forms: string[] = [];

  add(secret: string | undefined): void {
    // Very short values would mask ordinary words; a real token is long (docs/service-api.md 5.2).
    if (!secret || secret.length < 6 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    // Longest first, so a form that contains another is masked whole.
    this.forms = [...new Set([...this.forms, ...encodedForms(secret)])].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** The raw secret and its encodings, for masking by a runner (core.setSecret). */
  maskedForms(): readonly string[] {
    return this.forms;
  }

  redact(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(MASK);
    return out.replace(/(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi, `$1${MASK}`);
  }
}

/**
 * The forms a secret takes in text: raw, URL-encoded, JSON-escaped (short and \u escapes), hex,
 * and base64/base64url. Inside a longer base64 text (an echoed `Authorization: Bearer ...` header)
 * the secret's characters depend on its byte offset modulo 3, so each of the three alignments
 * contributes the part of its encoding that does not depend on the bytes around it.
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    for (const encoding of ['base64', 'base64url'] as const)
      forms.push(padded.toString(encoding).slice(first, end));
  }
  return forms.filter((form) => form.length >= 6);
}

/** Line breaks of every kind (CR alone, U+2028/2029, NEL, VT, FF). */
const BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/** Data (a test name, a message, a server's detail) as one printable line. */
export function oneLine(text: string): string {
  return text.replace(BREAKS, '↵').replace(ANSI_SEQUENCES, '').replace(CONTROL_CODES, '');
}

/** Without ANSI escapes and control codes, line breaks kept (for multi-line data such as details). */
export function plainText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ANSI_SEQUENCES, '').replace(CONTROL_CODES, '');
}

/** An SGR sequence: colours and bold, the only escapes the CLI itself writes. */
// eslint-disable-next-line no-control-regex
const COLOUR = /^\u001b\[[0-9;]*m$/;

/**
 * Text about to be printed, as the lines a runner will read: no line starts a workflow command
 * (a leading `::` or `##[` gets a space inside it), and escape sequences other than colours
 * (`keepColor`: the CLI's own, on a terminal) are removed.
 */
export function safeLines(text: string, keepColor = false): string {
  const cleaned = text.replace(CONTROL_CODES_BUT_ESC, '');
  return (
    keepColor
      ? cleaned.replace(ANSI_SEQUENCES, (seq) => (COLOUR.test(seq) ? seq : ''))
      : cleaned.replace(ANSI_SEQUENCES, '')
  ).replace(
    /(^|\r\n|[\n\r])([ \t]*)(::|##\[)/g,
    (_m, start: string, space: string, cmd: string) => `${start}${space}${cmd[0]} ${cmd.slice(1)}`,
  );
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A line to log: text, or text naming settings that the adapter renders in its users' words. */
export type LogMessage = string | Words;

export interface Logger {
  debug(message: LogMessage): void;
  info(message: LogMessage): void;
  warn(message: LogMessage): void;
  error(message: LogMessage): void;
}

export type LogSink = (level: LogLevel, message: string) => void;

/**
 * A logger that drops lines below `level`, names settings in `words` (default: by their keys),
 * and redacts and makes safe every line it writes.
 */
export function createLogger(
  sink: LogSink,
  redactor: Redactor,
  level: LogLevel = 'info',
  words: SettingWords = { name: (key) => key, value: (key, value) => `${key}: ${value}` },
): Logger {
  const write = (at: LogLevel) => (message: LogMessage) => {
    if (ORDER[at] < ORDER[level]) return;
    const text = typeof message === 'string' ? message : message(words);
    sink(at, safeLines(redactor.redact(text)));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
