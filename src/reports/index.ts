export * from './model.js';
export { discoverReports, type DiscoverOptions } from './discover.js';
export { parseReport, readReport, DEFAULT_MAX_BYTES, type ReadOptions } from './read.js';
export { FORMATS, FORMAT_IDS, formatById } from './registry.js';

import { discoverReports } from './discover.js';
import type { ParsedReport } from './model.js';
import { readReport, type ReadOptions } from './read.js';

/** Every report the patterns match, parsed; the first unreadable one stops with its ReportError. */
export async function readReports(
  patterns: readonly string[],
  options: ReadOptions & { cwd?: string } = {},
): Promise<ParsedReport[]> {
  const files = await discoverReports(patterns, { cwd: options.cwd });
  const reports: ParsedReport[] = [];
  for (const file of files)
    reports.push(await readReport(options.cwd ? `${options.cwd}/${file}` : file, options));
  return reports;
}
