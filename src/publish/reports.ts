/** The reports of a run, read before any request: a missing or broken report fails first. */
import type { Logger } from '../shared/redact.js';
import { describeSkipped, readReports, type ReportSet } from '../reports/index.js';
import type { ReportSettings } from './settings.js';

/** Reads the reports; files a directory held that are no reports are named in `logger`'s log. */
export async function readReportSet(settings: ReportSettings, logger?: Logger): Promise<ReportSet> {
  const reports = await readReports(settings.patterns, {
    format: settings.format,
    maxBytes: settings.maxBytes,
  });
  const skipped = describeSkipped(reports.skipped);
  if (skipped) logger?.info(skipped);
  return reports;
}
