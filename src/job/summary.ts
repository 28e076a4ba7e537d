/**
 * The summary of a publish or a gate (src/publish/summary.ts), with the links of --trace and the
 * traceability matrix after it when the gate read the cycle's coverage
 * (src/dashboard/render/matrix.ts): both adapters write it (the CLI's summary-file, the action's
 * job summary, check run and comment).
 */
import type { ParsedReport } from '../parsers/index.js';
import {
  MAX_SUMMARY_BYTES,
  renderSummary as publishSummary,
  type PublishResult,
} from '../publish/index.js';
import { coverageMarkdown, MAX_MATRIX_ROWS } from '../dashboard/index.js';
import { renderSyncSummary as syncSummary, type SyncResult } from '../inventory/index.js';
import type { SettingWords } from '../shared/errors.js';
import { traceMarkdown } from '../traceability/index.js';
import type { Traced } from './jobs.js';

/** Rows of the matrix where the text must be small (a check run, a comment). */
const COMPACT_ROWS = 20;

export function renderSummary(
  result: PublishResult & Traced,
  reports: ParsedReport[],
  options: Parameters<typeof publishSummary>[2] = {},
): string {
  if (!result.coverage && !result.trace) return publishSummary(result, reports, options);
  const max = options.maxBytes ?? MAX_SUMMARY_BYTES;
  const rows = max < MAX_SUMMARY_BYTES / 4 ? COMPACT_ROWS : MAX_MATRIX_ROWS;
  const after = [
    ...(result.trace ? [traceMarkdown(result.trace)] : []),
    ...(result.coverage ? [coverageMarkdown(result.coverage, rows)] : []),
  ].join('\n');
  const room = Math.max(0, max - Buffer.byteLength(after) - 1);
  return `${publishSummary(result, reports, { ...options, maxBytes: room })}\n${after}`;
}

/** The summary of a sync (src/inventory/summary.ts), with its links after it under --trace. */
export function renderSyncSummary(result: SyncResult & Traced, words?: SettingWords): string {
  const summary = syncSummary(result, words);
  return result.trace ? `${summary}\n${traceMarkdown(result.trace)}` : summary;
}
