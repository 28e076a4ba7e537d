/** The dashboard core (`testcycle report`, `mode: report`): read a series, analyze it, render it. Knows nothing of GitHub. */
import type { DashboardModel } from './model.js';

export {
  readSeries,
  predictRequests,
  historyPagesFor,
  type SeriesSpec,
  type ReadSeriesOptions,
} from './service/series.js';
export { DEFAULT_LAST } from '../shared/defaults.js';
export {
  buildReport,
  describePlan,
  dashboardSettings,
  type BuiltReport,
  type DashboardSettings,
} from './service/command.js';
export { analyze, DEFAULT_TOP, DEFAULT_MIN_FLIPS, type AnalyzeOptions } from './analyze.js';
export { renderHtml, CONTENT_SECURITY_POLICY } from './html.js';
export { renderMarkdown, sparkline, MARKDOWN_CYCLE_ROWS } from './markdown.js';
export type * from './model.js';
export { RESULT_STYLES } from './model.js';

/** `--json`: the model as it is. */
export function renderJson(model: DashboardModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}
