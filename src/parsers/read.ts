/** Reading one report file: size limit, decoding, detection, parsing, errors that name the file. */
import { open, stat } from 'node:fs/promises';
import { stripAnsi } from '../shared/control-codes.js';
import { DEFAULT_MAX_REPORT_BYTES } from '../shared/defaults.js';
import type { ReportFormat, Sniff } from './base/format.js';
import {
  NotAReportError,
  ReportError,
  type ParsedReport,
  type ParsedTests,
  type SkippedFile,
  type TestResult,
} from './base/model.js';
import { FORMATS, FORMAT_IDS, formatById } from './registry.js';
import { decodeText, parseXml, XmlError, XmlLimitError } from './base/xml.js';

/** How a report is read: its format, and the size over which it is refused. */
export interface ReadOptions {
  /** A format id, or 'auto' (default) to detect from the content. */
  format?: string;
  /** Larger files are refused before they are read (default DEFAULT_MAX_REPORT_BYTES of src/shared/defaults.ts, 100 MiB). */
  maxBytes?: number;
}

export async function readReport(file: string, options: ReadOptions = {}): Promise<ParsedReport> {
  return parseReport(
    file,
    await readText(file, options.maxBytes ?? DEFAULT_MAX_REPORT_BYTES),
    options,
  );
}

/** A file's text, refused by size before it is read. */
export async function readText(file: string, maxBytes: number): Promise<string> {
  // A file that cannot be read (gone, no permission, a directory) is a report error naming it,
  // never a stack trace, and stops the run before any request.
  const unreadable = (error: unknown) =>
    new ReportError(
      file,
      `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw unreadable(error);
  }
  if (size > maxBytes) {
    throw new ReportError(
      file,
      (w) =>
        `is ${size} bytes, over the limit of ${maxBytes} bytes; raise ${w.name('max-report-bytes')} if this is really a report.`,
    );
  }
  let bytes: Buffer;
  try {
    const handle = await open(file);
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(error);
  }
  // Decoded at once so the bytes can be collected while the text is parsed.
  return decodeText(bytes);
}

/**
 * One report's text or bytes parsed: the format given, else detected by content; a file in no
 * format is a ReportError naming it.
 */
export function parseReport(
  file: string,
  bytes: Buffer | string,
  options: ReadOptions = {},
): ParsedReport {
  const text = typeof bytes === 'string' ? bytes : decodeText(bytes);
  if (text.includes('\u0000'))
    throw new NotAReportError(file, 'is binary (holds NUL bytes), not a test report.');
  if (!text.trim()) throw new ReportError(file, 'is empty.');
  // Detection only when asked for: with --format the content is not sniffed at all.
  const format = pickFormat(file, text, options.format ?? 'auto');
  const tests: ParsedTests = runParser(format, file, text);
  withoutAnsi(tests);
  return {
    file,
    format: format.id,
    tests,
    ...(tests.gap ? { gap: tests.gap } : {}),
    ...(tests.runErrors?.length
      ? { runErrors: tests.runErrors.map((e) => ({ ...e, message: stripAnsi(e.message) })) }
      : {}),
    ...(tests.selection ? { selection: tests.selection } : {}),
  };
}

/** Messages without colour codes (jest, vitest and Playwright colour theirs). */
function withoutAnsi(tests: TestResult[]): void {
  for (const t of tests) {
    t.message = t.message && stripAnsi(t.message);
    t.details = t.details && stripAnsi(t.details);
    if (t.attempts) for (const a of t.attempts) a.message = a.message && stripAnsi(a.message);
  }
}

/**
 * The result files of one directory as one report, for a format that writes one file per test
 * (`perDirectory`, as formats/allure.ts does); a file among them in another format is read as its
 * own report. A file in no format is refused, or skipped and listed when only a directory pattern
 * found it.
 */
export async function readDirectoryReport(
  format: ReportFormat,
  dir: string,
  files: readonly { file: string; fromDirectory: boolean }[],
  options: ReadOptions = {},
): Promise<{ reports: ParsedReport[]; skipped: SkippedFile[] }> {
  const docs: unknown[] = [];
  const reports: ParsedReport[] = [];
  const skipped: SkippedFile[] = [];
  for (const { file, fromDirectory } of files) {
    const text = await readText(file, options.maxBytes ?? DEFAULT_MAX_REPORT_BYTES);
    try {
      const picked = pickFormat(file, text, options.format ?? 'auto');
      if (picked === format) docs.push(jsonOf(format, file, text));
      else reports.push(parseReport(file, text, { ...options, format: picked.id }));
    } catch (error) {
      if (!(error instanceof NotAReportError && fromDirectory)) throw error;
      skipped.push({ file, reason: error.reason });
    }
  }
  if (docs.length) {
    const tests = runParser(format, dir, docs);
    withoutAnsi(tests);
    reports.unshift({ file: dir, format: format.id, tests });
  }
  return { reports, skipped };
}

function sniffText(file: string, text: string): Sniff {
  const head = text.slice(0, 4096);
  return { file, head, xmlRoot: xmlRootOf(head)?.replace(/^.*:/, '') };
}

/**
 * The name of the first element, after an optional prolog (XML declaration, comments, processing
 * instructions, a DOCTYPE). A hand-written scanner: each step moves forward with indexOf, so it
 * cannot backtrack (a regex here took 150 s on 34 empty comments).
 */
export function xmlRootOf(head: string): string | undefined {
  let i = 0;
  for (;;) {
    while (i < head.length && /\s/.test(head[i]!)) i++;
    if (head[i] !== '<') return undefined;
    let end: number;
    if (head.startsWith('<!--', i)) end = afterOf(head, '-->', i + 4);
    else if (head.startsWith('<?', i)) end = afterOf(head, '?>', i + 2);
    else if (head.startsWith('<!DOCTYPE', i)) end = afterDoctype(head, i + 9);
    else return /^[A-Za-z_][\w.:-]*/.exec(head.slice(i + 1, i + 257))?.[0];
    if (end < 0) return undefined;
    i = end;
  }
}

function afterOf(s: string, end: string, from: number): number {
  const at = s.indexOf(end, from);
  return at < 0 ? -1 : at + end.length;
}

/** After a DOCTYPE's closing '>', its internal subset [ ... ] stepped over. */
function afterDoctype(s: string, from: number): number {
  const open = s.indexOf('[', from);
  const close = s.indexOf('>', from);
  if (open < 0 || close < open) return close < 0 ? -1 : close + 1;
  const subsetEnd = s.indexOf(']', open);
  return subsetEnd < 0 ? -1 : afterOf(s, '>', subsetEnd);
}

function pickFormat(file: string, text: string, requested: string): ReportFormat {
  if (requested !== 'auto') {
    const format = formatById(requested);
    if (!format)
      throw new ReportError(
        file,
        `unknown format "${requested}"; use auto or one of ${FORMAT_IDS.join(', ')}.`,
      );
    return format;
  }
  const sniff = sniffText(file, text);
  const found = FORMATS.find((f) => f.detect(sniff));
  if (found) return found;
  const shape = shapeOf(sniff);
  const expected = shape.kind
    ? `${shape.what} formats: ${FORMATS.filter((f) => f.kind === shape.kind)
        .map((f) => f.id)
        .join(', ')}; all: `
    : 'formats: ';
  throw new NotAReportError(
    file,
    `is ${shape.what} in no known test report format (${expected}${FORMAT_IDS.join(', ')}); pass --format if it is one of them.`,
  );
}

/** What a file looks like, for messages that name what was expected. */
function shapeOf(sniff: Sniff): { what: string; kind?: ReportFormat['kind'] } {
  if (sniff.xmlRoot) return { what: `XML with root <${sniff.xmlRoot}>`, kind: 'xml' };
  if (looksLikeJsonLines(sniff.head)) return { what: 'JSON lines (NDJSON)', kind: 'text' };
  const start = sniff.head.trimStart()[0];
  if (start === '{' || start === '[') return { what: 'JSON', kind: 'json' };
  return { what: 'text' };
}

/** One JSON object per line: the first line is a whole object and another follows. */
function looksLikeJsonLines(head: string): boolean {
  const text = head.trimStart();
  const end = text.indexOf('\n');
  if (
    !text.startsWith('{') ||
    end < 0 ||
    !text
      .slice(end + 1)
      .trimStart()
      .startsWith('{')
  )
    return false;
  try {
    JSON.parse(text.slice(0, end));
    return true;
  } catch {
    return false;
  }
}

/** One JSON document; a file of JSON lines is told apart from broken JSON. */
function jsonOf(format: ReportFormat, file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (looksLikeJsonLines(text.slice(0, 65_536)))
      throw new ReportError(
        file,
        `holds JSON lines (one object per line), but ${format.label} is one JSON document; pass the format that wrote it (JSON-lines formats: ${FORMATS.filter(
          (f) => f.kind === 'text',
        )
          .map((f) => f.id)
          .join(', ')}) or leave --format out.`,
      );
    throw new ReportError(file, `is not valid JSON: ${(error as Error).message}`);
  }
}

function runParser(format: ReportFormat, file: string, text: string | unknown[]): ParsedTests {
  try {
    switch (format.kind) {
      case 'xml':
        return format.parse(parseXml(String(text)), file);
      case 'json':
        return format.parse(typeof text === 'string' ? jsonOf(format, file, text) : text, file);
      case 'text':
        return format.parse(String(text), file);
    }
  } catch (error) {
    if (error instanceof ReportError) throw error;
    if (error instanceof XmlLimitError)
      throw new ReportError(
        file,
        `is refused: ${error.message}. No test report needs that much; if this one does, split it.`,
      );
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
