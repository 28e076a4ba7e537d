/** Reading one report file: size limit, decoding, detection, parsing, errors that name the file. */
import { open, stat } from 'node:fs/promises';
import type { ReportFormat, Sniff } from './format.js';
import { ReportError, type ParsedReport } from './model.js';
import { FORMATS, FORMAT_IDS, formatById } from './registry.js';
import { decodeText, parseXml, XmlError } from './xml.js';

/** Larger files are refused unless --max-report-bytes says otherwise (a 100,000-test JUnit file is ~17 MB). */
export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;

export interface ReadOptions {
  /** A format id, or 'auto' (default) to detect from the content. */
  format?: string;
  /** Larger files are refused before they are read (default 256 MiB). */
  maxBytes?: number;
}

export async function readReport(file: string, options: ReadOptions = {}): Promise<ParsedReport> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new ReportError(
      file,
      `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  if (size > maxBytes) {
    throw new ReportError(
      file,
      `is ${size} bytes, over the limit of ${maxBytes} bytes; raise --max-report-bytes if this is really a report.`,
    );
  }
  const handle = await open(file);
  let text: string;
  try {
    // Decoded at once so the bytes can be collected while the text is parsed.
    text = decodeText(await handle.readFile());
  } finally {
    await handle.close();
  }
  return parseReport(file, text, options);
}

export function parseReport(
  file: string,
  bytes: Buffer | string,
  options: ReadOptions = {},
): ParsedReport {
  const text = typeof bytes === 'string' ? bytes : decodeText(bytes);
  if (text.includes('\u0000'))
    throw new ReportError(file, 'is binary (holds NUL bytes), not a test report.');
  if (!text.trim()) throw new ReportError(file, 'is empty.');
  const sniff = sniffText(file, text);
  const format = pickFormat(sniff, options.format ?? 'auto');
  return { file, format: format.id, tests: runParser(format, file, text) };
}

function sniffText(file: string, text: string): Sniff {
  const head = text.slice(0, 4096);
  const root =
    /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>\s*|<\?[^>]*\?>\s*)*<([A-Za-z_][\w.:-]*)/.exec(
      head,
    );
  return { file, head, xmlRoot: root?.[1]?.replace(/^.*:/, '') };
}

function pickFormat(sniff: Sniff, requested: string): ReportFormat {
  if (requested !== 'auto') {
    const format = formatById(requested);
    if (!format)
      throw new ReportError(
        sniff.file,
        `unknown format "${requested}"; use auto or one of ${FORMAT_IDS.join(', ')}.`,
      );
    return format;
  }
  const found = FORMATS.find((f) => f.detect(sniff));
  if (found) return found;
  const what = sniff.xmlRoot
    ? `XML with root <${sniff.xmlRoot}>`
    : sniff.head.trimStart().startsWith('{') || sniff.head.trimStart().startsWith('[')
      ? 'JSON'
      : 'text';
  throw new ReportError(
    sniff.file,
    `is ${what} in no known test report format; formats: ${FORMAT_IDS.join(', ')} (or pass --format).`,
  );
}

function runParser(format: ReportFormat, file: string, text: string) {
  try {
    switch (format.kind) {
      case 'xml':
        return format.parse(parseXml(text), file);
      case 'json': {
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch (error) {
          throw new ReportError(file, `is not valid JSON: ${(error as Error).message}`);
        }
        return format.parse(doc, file);
      }
      case 'text':
        return format.parse(text, file);
    }
  } catch (error) {
    if (error instanceof ReportError) throw error;
    if (error instanceof XmlError)
      throw new ReportError(file, `is not well-formed XML: ${error.message}`, {
        line: error.line,
        column: error.column,
      });
    throw new ReportError(
      file,
      `cannot be read as ${format.label.split(' (')[0]}: ${(error as Error).message}`,
    );
  }
}
