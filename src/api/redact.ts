/**
 * Secrets never reach a log line, an error or an output: every logger writes through a Redactor.
 */

const MASK = '***';

export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short values would mask ordinary words; a real token is long (SERVICE-API.md 5.2).
    if (secret && secret.length >= 6) this.secrets.add(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
      // Also the forms a secret takes inside URLs and JSON strings.
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(MASK);
    }
    return out.replace(/(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi, `$1${MASK}`);
  }
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type LogSink = (level: LogLevel, message: string) => void;

/** A logger that drops lines below `level` and redacts every line it writes. */
export function createLogger(sink: LogSink, redactor: Redactor, level: LogLevel = 'info'): Logger {
  const write = (at: LogLevel) => (message: string) => {
    if (ORDER[at] >= ORDER[level]) sink(at, redactor.redact(message));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
