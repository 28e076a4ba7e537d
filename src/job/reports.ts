/** The reports of a run, read before any request: a missing or broken report fails first. */
import { TestcycleError } from '../shared/errors.js';
import type { Logger } from '../shared/redact.js';
import {
  describeRunError,
  describeSkipped,
  readReports,
  runErrorsOf,
  type ReportSet,
} from '../parsers/index.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { ConfigError } from '../shared/errors.js';
import { listSetting } from '../shared/setting-readers.js';
import { choice, numericWithDefault } from '../settings/index.js';

/** Which reports to read, and how. */
export interface ReportSettings {
  patterns: string[];
  format: string;
  maxBytes: number;
}

export function reportSettings(src: SettingSource): ReportSettings {
  const patterns = listSetting(src, 'reports');
  if (patterns.length === 0)
    throw new ConfigError(
      'reports',
      'is required: globs or directories of report files, e.g. build/test-results/**/*.xml.',
      'MISSING_SETTING',
    );
  return {
    patterns,
    format: choice(src, 'format'),
    maxBytes: numericWithDefault(src, 'max-report-bytes'),
  };
}

/**
 * Reads the reports; files a directory held that are no reports are named in `logger`'s log.
 * Reports that hold no test at all are a report error (exit 4) unless `allowEmpty` (parse shows
 * them): publishing them would create an empty cycle and pass.
 */
export async function readReportSet(
  settings: ReportSettings,
  logger?: Logger,
  { allowEmpty = false } = {},
): Promise<ReportSet> {
  const reports = await readReports(settings.patterns, {
    format: settings.format,
    maxBytes: settings.maxBytes,
  });
  if (!allowEmpty && reports.every((r) => r.tests.length === 0))
    throw new NoTestsError(reports, settings.format);
  const skipped = describeSkipped(reports.skipped);
  if (skipped) logger?.info(skipped);
  return reports;
}

/** No report entry at all: every file skipped as no report, or read (as forced) with no test. */
export class NoTestsError extends TestcycleError {
  constructor(reports: ReportSet, format: string) {
    super(
      (w) => {
        const parts: string[] = [];
        const skipped = describeSkipped(reports.skipped);
        if (skipped) parts.push(skipped);
        // A runner that stopped before any test: what it said is the thing to fix.
        const runErrors = runErrorsOf(reports);
        if (runErrors.length)
          parts.push(
            `the reports name ${runErrors.length} run error(s), failures of the run that stopped its tests: ${runErrors
              .slice(0, 5)
              .map(describeRunError)
              .join('; ')}${runErrors.length > 5 ? '; ...' : ''}`,
          );
        if (reports.length) {
          const files = reports.slice(0, 10).map((r) => r.file);
          const more = reports.length > 10 ? `, and ${reports.length - 10} more` : '';
          parts.push(
            `${reports.length} file(s) read as ${format === 'auto' ? 'test reports' : format} hold no test: ${files.join(', ')}${more}` +
              (format === 'auto'
                ? ''
                : `; ${w.value('format', format)} reads them as ${format}: leave it out to detect each file's format`),
          );
        }
        return `no test results to publish, nothing was sent. ${parts.join('. ')}.`;
      },
      'NO_TESTS',
      'report',
    );
  }
}
