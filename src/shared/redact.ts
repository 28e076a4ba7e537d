/**
 * What may be printed. Secrets never reach a log line, an error or an output: every logger writes
 * through a Redactor, which knows the encoded forms a token takes when a server or proxy echoes
 * it, and masks any run of MIN_SECRET_RUN characters of them (an echo cut mid-way). Text from
 * reports, servers and the environment is data: `oneLine` keeps it on one line without control
 * codes or bidirectional controls, `neutralise` keeps it from notifying or linking on GitHub, and
 * `safeLines` makes sure no printed line can be read as a workflow command by a CI runner
 * (GitHub's `::command::`, its older `##[command]`).
 */

import {
  ANSI_SEQUENCES,
  BIDI_CONTROLS,
  CONTROL_CODES,
  CONTROL_CODES_BUT_ESC,
} from './control-codes.js';
import type { SettingWords, Words } from './words.js';

const MASK = '***';

/**
 * A run this long of a secret (or of one of its encoded forms) is masked: a server that echoes a
 * token cut mid-way shows no part of it this long. Shorter runs are common in ordinary text.
 */
export const MIN_SECRET_RUN = 12;

/**
 * Environment variables that hold a secret of the run: the action's token inputs, the CLI's
 * token, a workflow's GITHUB_TOKEN and the runner's own ACTIONS_*_TOKEN (ACTIONS_RUNTIME_TOKEN,
 * ACTIONS_ID_TOKEN_REQUEST_TOKEN). Their values are registered wherever a Redactor is made.
 */
export const RUN_SECRET_ENV =
  /^(INPUT_TOKEN|INPUT_GITHUB[-_]TOKEN|TESTCYCLE_TOKEN|GITHUB_TOKEN|ACTIONS_[A-Z0-9_]*_TOKEN)$/i;

/**
 * Masks the run's secrets (the token and its encodings) in any text before it is logged or written.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private forms: string[] = [];
  /** Every MIN_SECRET_RUN-character run of every form: one Set lookup per text position. */
  private readonly runs = new Set<string>();

  /**
   * A secret to mask, with its encodings (URL, JSON, hex, base64); values under 6 characters are
   * ignored.
   */
  add(secret: string | undefined): void {
    // Very short values would mask ordinary words; a real token is long (docs/service-api.md 5.2).
    if (!secret || secret.length < 6 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    const forms = encodedForms(secret);
    // Longest first: the order a runner's exact-string masking (core.setSecret) needs.
    this.forms = [...new Set([...this.forms, ...forms])].sort((a, b) => b.length - a.length);
    for (const form of forms)
      for (let i = 0; i + MIN_SECRET_RUN <= form.length; i++)
        this.runs.add(form.slice(i, i + MIN_SECRET_RUN));
  }

  /** The values of the run's secret variables (RUN_SECRET_ENV) in `env`. */
  addFromEnv(env: Record<string, string | undefined>): void {
    for (const [name, value] of Object.entries(env)) if (RUN_SECRET_ENV.test(name)) this.add(value);
  }

  /** The raw secret and its encodings, for masking by a runner (core.setSecret). */
  maskedForms(): readonly string[] {
    return this.forms;
  }

  /** Whether `text` holds a secret, whole or a run of MIN_SECRET_RUN of its characters. */
  holdsSecret(text: string): boolean {
    return this.spans(text).length > 0;
  }

  /** The text with every secret (whole, or a long enough run of it) masked. */
  redact(text: string): string {
    const spans = this.spans(text);
    const out = spans.length ? masked(text, spans) : text;
    return out.replace(/(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi, `$1${MASK}`);
  }

  /** Where secrets are in `text`: whole short forms, and every run (linear in the text). */
  private spans(text: string): [number, number][] {
    const spans: [number, number][] = [];
    for (const form of this.forms) {
      if (form.length >= MIN_SECRET_RUN) continue; // its runs find it
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1))
        spans.push([at, at + form.length]);
    }
    if (this.runs.size)
      for (let i = 0; i + MIN_SECRET_RUN <= text.length; i++)
        if (this.runs.has(text.slice(i, i + MIN_SECRET_RUN))) spans.push([i, i + MIN_SECRET_RUN]);
    return spans;
  }
}

/** `text` with each stretch that spans cover (overlapping or touching) replaced by one mask. */
function masked(text: string, spans: [number, number][]): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let kept = 0;
  let [start, end] = spans[0]!;
  for (const [from, to] of spans.slice(1)) {
    if (from <= end) {
      end = Math.max(end, to);
      continue;
    }
    out += text.slice(kept, start) + MASK;
    kept = end;
    [start, end] = [from, to];
  }
  return out + text.slice(kept, start) + MASK + text.slice(end);
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
  return plainText(text.replace(BREAKS, '↵'));
}

/** Without ANSI escapes, control codes and bidi controls, line breaks kept (multi-line data). */
export function plainText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(ANSI_SEQUENCES, '')
    .replace(CONTROL_CODES, '')
    .replace(BIDI_CONTROLS, '');
}

/**
 * At most `max` characters (UTF-16 units), a cut marked with `…` and never inside a surrogate
 * pair: data cut before it is escaped, so no escape sequence is split.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * Data in text that people read on GitHub (PR comment, check run, job summary): a mention
 * (`@user`, `@org/team`) or an issue reference (`#2`, `owner/repo#1`, `GH-3`) neither notifies nor
 * links. A zero-width space after `@`, `#` and `GH-` breaks GitHub's autolinking and reads as
 * before; it is no Markdown syntax, so escaping around it is unchanged.
 */
export function neutralise(text: string): string {
  return text.replace(/@(?=[\p{L}\p{N}_])|#(?=\p{N})|\bGH-(?=\p{N})/giu, '$&\u200b');
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
  const cleaned = text.replace(CONTROL_CODES_BUT_ESC, '').replace(BIDI_CONTROLS, '');
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

/**
 * Where the library logs: the adapters give one (the CLI's stderr, the action's log); createLogger
 * builds one whose every line is masked by the Redactor.
 */
export interface Logger {
  /** Shown with `--verbose` only. */
  debug(message: LogMessage): void;
  /** What the run did. */
  info(message: LogMessage): void;
  /** What the user should look at; the run goes on. */
  warn(message: LogMessage): void;
  /** What failed. */
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
