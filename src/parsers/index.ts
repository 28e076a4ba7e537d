export * from './base/model.js';
export { discoverReports, discoverReportFiles, type DiscoverOptions } from './discover.js';
export { parseReport, readReport, type ReadOptions, xmlRootOf } from './read.js';
export { FORMATS, FORMAT_IDS, formatById } from './registry.js';
export { describeRunError, runErrorsOf, type ReportRunError } from './run-errors.js';

import { dirname } from 'node:path';
import { discoverReportFiles, type FoundReport } from './discover.js';
import { ALLURE_RESULT } from './formats/allure.js';
import { NotAReportError, type ParsedReport, type SkippedFile } from './base/model.js';
import { readAllure, readReport, type ReadOptions } from './read.js';

/** The reports read, and the files a directory pattern found that are no reports. */
export type ReportSet = ParsedReport[] & { skipped: SkippedFile[] };

/**
 * Every report the patterns match, parsed; the first unreadable one stops with its ReportError.
 * Files found only by walking a directory that are recognisably no report (a tool's state, a
 * config: binary, or in no known format) are skipped and listed in `skipped`; a file named
 * explicitly or by a glob stays strict. Allure's `*-result.json` files of one directory are one
 * report, so that the runs of a retried test fold.
 */
export async function readReports(
  patterns: readonly string[],
  options: ReadOptions & { cwd?: string } = {},
): Promise<ReportSet> {
  const found = await discoverReportFiles(patterns, { cwd: options.cwd });
  const at = (file: string) => (options.cwd ? `${options.cwd}/${file}` : file);
  const reports: ParsedReport[] = [];
  const skipped: SkippedFile[] = [];
  const allureDirs = new Map<string, FoundReport[]>();
  const readsAllure = ALLURE_FORMATS.has(options.format ?? 'auto');
  for (const one of found) {
    if (!ALLURE_RESULT.test(one.file)) continue;
    const dir = dirname(one.file);
    const files = allureDirs.get(dir);
    if (files) files.push(one);
    else allureDirs.set(dir, [one]);
  }
  for (const one of found) {
    if (readsAllure && ALLURE_RESULT.test(one.file)) continue;
    // Allure writes containers, globals and attachments beside its results: not reports.
    if (one.fromDirectory && ALLURE_SIDECAR.test(one.file) && allureDirs.has(dirname(one.file)))
      continue;
    try {
      reports.push(await readReport(at(one.file), options));
    } catch (error) {
      if (!(error instanceof NotAReportError && one.fromDirectory)) throw error;
      skipped.push({ file: one.file, reason: error.reason });
    }
  }
  for (const [dir, files] of readsAllure ? allureDirs : []) {
    const read = await readAllure(
      at(dir),
      files.map((f) => ({ ...f, file: at(f.file) })),
      options,
    );
    reports.push(...read.reports);
    skipped.push(...read.skipped);
  }
  return Object.assign(reports, { skipped });
}

const ALLURE_FORMATS = new Set(['auto', 'allure']);
const ALLURE_SIDECAR = /-(container|globals|attachment)\.\w+$/;

/** One line for a log: the files a directory held that are not reports (first 10, then a count). */
export function describeSkipped(skipped: readonly SkippedFile[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const shown = skipped.slice(0, 10).map((s) => `${s.file} (${s.reason})`);
  const more = skipped.length > 10 ? `; and ${skipped.length - 10} more` : '';
  return `${skipped.length} file(s) in the report directories are not test reports and were skipped: ${shown.join('; ')}${more}`;
}
