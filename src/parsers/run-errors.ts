/**
 * The run errors the reports name (docs/design.md "Run errors"): failures of the run that are no
 * test (a file that did not load, a failed afterAll, a collection error), each with its report.
 */
import { oneLine } from '../shared/redact.js';
import type { ParsedReport, RunError } from './base/model.js';

/** A run error with the report that names it. */
export interface ReportRunError extends RunError {
  /** The report's path. */
  report: string;
}

/** Every run error of the reports, each with its report. */
export function runErrorsOf(reports: readonly ParsedReport[]): ReportRunError[] {
  return reports.flatMap((r) => (r.runErrors ?? []).map((e) => ({ report: r.file, ...e })));
}

/** A run error on one line: where (its file, else suite, else report) and what the runner said. */
export function describeRunError(error: ReportRunError): string {
  const where = error.file ?? error.suite;
  return oneLine(`${error.report}: ${where ? `${where}: ` : ''}${error.message}`);
}
