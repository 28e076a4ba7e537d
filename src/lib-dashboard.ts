/**
 * The dashboard's entry point (`import { readSeries, analyze, renderHtml } from 'testcycle/dashboard'`):
 * a series of cycles read through the client, analysed and rendered. Public contract like
 * src/lib.ts; etc/testcycle-dashboard.api.md records the surface (`npm run api`).
 */
// First: on an older Node this stops with a clear message before undici loads.
import './shared/node-version.js';

export {
  readSeries,
  analyze,
  renderHtml,
  renderMarkdown,
  renderJson,
  buildReport,
  type SeriesSpec,
  type SeriesData,
  type ReadSeriesOptions,
  type DashboardModel,
  type AnalyzeOptions,
} from './dashboard/index.js';
