import type { ReportExtension } from '../../shared/defaults.js';
import type { ParsedTests } from './model.js';
import type { XmlNode } from './xml.js';

/** What detection sees of a file: its name, the start of its text, and (lazily) its parsed form. */
export interface Sniff {
  file: string;
  /** The first few KB of the text, BOM removed. */
  head: string;
  /** The XML root element name, when the file is XML. */
  xmlRoot?: string;
}

interface FormatBase {
  id: string;
  label: string;
  /**
   * The extensions its files are written with (no dot): what a directory given as a report pattern
   * finds (src/parsers/discover.ts). Detection reads the content, not the name.
   */
  extensions: readonly ReportExtension[];
  /**
   * Set when the format writes one file per test and the files of one directory are one report
   * (Allure): which files are its results, and which beside them are the tool's and no reports.
   */
  perDirectory?: { result: RegExp; sidecar: RegExp };
  /** True when this parser recognises the content. */
  detect(sniff: Sniff): boolean;
}

/** One parser per format behind one interface (docs/architecture.md "Report parsers": dorny/test-reporter). */
export type ReportFormat =
  | (FormatBase & { kind: 'xml'; parse(doc: XmlNode, file: string): ParsedTests })
  | (FormatBase & { kind: 'json'; parse(doc: unknown, file: string): ParsedTests })
  | (FormatBase & { kind: 'text'; parse(text: string, file: string): ParsedTests });
