/**
 * The dashboard (`testcycle report`, `mode: report`): a series of cycles read through the client
 * (./series.ts), analysed and rendered by the pure part (./render). Knows nothing of GitHub.
 */

export {
  readSeries,
  predictRequests,
  historyPagesFor,
  type SeriesSpec,
  type ReadSeriesOptions,
} from './series.js';
export { DEFAULT_LAST } from '../shared/defaults.js';
export {
  buildReport,
  describePlan,
  dashboardSettings,
  type BuiltReport,
  type DashboardSettings,
} from './command.js';
export * from './render/index.js';
