/**
 * The dashboard's pure part: a series analysed, its model, rendered as a self-contained HTML page
 * or Markdown. It reads no service, so the emulator's live page draws with it (docs/architecture.md
 * "Who may import whom"); reading a series through the client is the dashboard's own
 * (src/dashboard/index.ts).
 */
import type { DashboardModel } from './model.js';

export { analyze, DEFAULT_TOP, DEFAULT_MIN_FLIPS, type AnalyzeOptions } from './analyze.js';
export { renderHtml, CONTENT_SECURITY_POLICY, type LiveRequest } from './html.js';
export { renderMarkdown, sparkline, MARKDOWN_CYCLE_ROWS } from './markdown.js';
export { coverageCsv, coverageMarkdown, MAX_MATRIX_ROWS } from './matrix.js';
export type * from './model.js';
export { RESULT_STYLES } from './model.js';

/** `--json`: the model as it is. */
export function renderJson(model: DashboardModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}
