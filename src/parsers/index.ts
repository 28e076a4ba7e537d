export * from './base/model.js';
export { discoverReports, discoverReportFiles, type DiscoverOptions } from './discover.js';
export { parseReport, readReport, type ReadOptions, xmlRootOf } from './read.js';
export { FORMATS, FORMAT_IDS, formatById } from './registry.js';
export { describeRunError, runErrorsOf, type ReportRunError } from './run-errors.js';

import { dirname } from 'node:path';
import type { ReportFormat } from './base/format.js';
import { discoverReportFiles, type FoundReport } from './discover.js';
import { NotAReportError, type ParsedReport, type SkippedFile } from './base/model.js';
import { readDirectoryReport, readReport, type ReadOptions } from './read.js';
import { FORMATS } from './registry.js';

/** The reports read, and the files a directory pattern found that are no reports. */
export type ReportSet = ParsedReport[] & { skipped: SkippedFile[] };

/** The formats that write one file per test (src/parsers/base/format.ts `perDirectory`). */
const PER_DIRECTORY = FORMATS.filter((f) => f.perDirectory);

/**
 * Every report the patterns match, parsed; the first unreadable one stops with its ReportError.
 * Files found only by walking a directory that are recognisably no report (a tool's state, a
 * config: binary, or in no known format) are skipped and listed in `skipped`; a file named
 * explicitly or by a glob stays strict. The result files of one directory of a format that writes
 * one file per test (Allure's `*-result.json`) are one report, so that the runs of a retried test
 * fold.
 */
export async function readReports(
  patterns: readonly string[],
  options: ReadOptions & { cwd?: string } = {},
): Promise<ReportSet> {
  const found = await discoverReportFiles(patterns, { cwd: options.cwd });
  const at = (file: string) => (options.cwd ? `${options.cwd}/${file}` : file);
  const reports: ParsedReport[] = [];
  const skipped: SkippedFile[] = [];
  const groups = groupByDirectory(found, options.format ?? 'auto');
  for (const one of found) {
    if (groups.read.has(one.file)) continue;
    // The tool's other files beside its results (Allure's containers, globals, attachments).
    if (one.fromDirectory && groups.sidecars.has(one.file)) continue;
    try {
      reports.push(await readReport(at(one.file), options));
    } catch (error) {
      if (!(error instanceof NotAReportError && one.fromDirectory)) throw error;
      skipped.push({ file: one.file, reason: error.reason });
    }
  }
  for (const { format, dir, files } of groups.reports) {
    const read = await readDirectoryReport(
      format,
      at(dir),
      files.map((f) => ({ ...f, file: at(f.file) })),
      options,
    );
    reports.push(...read.reports);
    skipped.push(...read.skipped);
  }
  return Object.assign(reports, { skipped });
}

interface DirectoryGroups {
  /** One report per format and directory: its result files. */
  reports: { format: ReportFormat; dir: string; files: FoundReport[] }[];
  /** The result files those reports read (not read one by one). */
  read: Set<string>;
  /** The files beside them that are the tool's, not reports. */
  sidecars: Set<string>;
}

/** The result files of the per-directory formats by directory, when `format` may read them. */
function groupByDirectory(found: readonly FoundReport[], format: string): DirectoryGroups {
  const groups: DirectoryGroups = { reports: [], read: new Set(), sidecars: new Set() };
  const dirs = new Set<string>();
  for (const f of PER_DIRECTORY) {
    const byDir = new Map<string, FoundReport[]>();
    for (const one of found) {
      if (!f.perDirectory!.result.test(one.file) || groups.read.has(one.file)) continue;
      const dir = dirname(one.file);
      const files = byDir.get(dir);
      if (files) files.push(one);
      else byDir.set(dir, [one]);
    }
    for (const [dir, files] of byDir) {
      dirs.add(dir);
      if (format !== 'auto' && format !== f.id) continue;
      groups.reports.push({ format: f, dir, files });
      for (const one of files) groups.read.add(one.file);
    }
    for (const one of found)
      if (f.perDirectory!.sidecar.test(one.file) && dirs.has(dirname(one.file)))
        groups.sidecars.add(one.file);
  }
  return groups;
}

/** One line for a log: the files a directory held that are not reports (first 10, then a count). */
export function describeSkipped(skipped: readonly SkippedFile[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const shown = skipped.slice(0, 10).map((s) => `${s.file} (${s.reason})`);
  const more = skipped.length > 10 ? `; and ${skipped.length - 10} more` : '';
  return `${skipped.length} file(s) in the report directories are not test reports and were skipped: ${shown.join('; ')}${more}`;
}
