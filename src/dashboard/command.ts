/**
 * `testcycle report` and the action's `mode: report`: the settings the adapters read, and one
 * function that reads the series and renders it; the adapters only write files and outputs.
 */
import type { Coverage } from '../schema/coverage.js';
import type { ServiceClient } from '../client/index.js';
import { ConfigError } from '../shared/errors.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { flag, numeric, outputFile, text } from '../settings/index.js';
import { userFilterSetting } from '../client/index.js';
import { quarantineFieldSetting } from '../triage/index.js';
import { analyze } from './render/index.js';
import { renderHtml } from './render/index.js';
import { renderMarkdown } from './render/index.js';
import type { DashboardModel, RequestPlan } from './render/index.js';
import { readSeries, type SeriesSpec } from './series.js';

export interface DashboardSettings {
  spec: SeriesSpec;
  last: number;
  history: boolean;
  /** The test-case custom field of quarantines (quarantine-field), marked on the page. */
  quarantineField: string;
  maxRequests?: number;
  htmlFile: string;
  markdownFile?: string;
}

export function dashboardSettings(src: SettingSource): DashboardSettings {
  const filter = userFilterSetting(src, 'series-filter');
  const pattern = text(src, 'series-name');
  if (filter !== undefined && pattern !== undefined)
    throw new ConfigError('series-filter', 'give series-name or series-filter, not both.');
  return {
    // Neither: every cycle of the Space (the newest `last`).
    spec: filter !== undefined ? { filter } : { namePattern: pattern ?? '*' },
    last: numeric(src, 'last')!,
    history: flag(src, 'history'),
    quarantineField: quarantineFieldSetting(src),
    maxRequests: numeric(src, 'max-requests'),
    htmlFile: outputFile(src, 'html-file')!,
    markdownFile: outputFile(src, 'markdown-file'),
  };
}

export interface BuiltReport {
  model: DashboardModel;
  html: string;
  markdown: string;
}

/**
 * The `report` command's work: the series read within its budget, analysed and rendered in each
 * form the settings ask for.
 */
export async function buildReport(
  client: ServiceClient,
  settings: DashboardSettings,
  options: {
    onPlan?: (plan: RequestPlan) => void;
    now?: Date;
    /** report --trace: the traceability matrix of the latest cycle, read by the caller. */
    coverageOf?: (cycleId: string) => Promise<Coverage>;
  } = {},
): Promise<BuiltReport> {
  const data = await readSeries(client, settings.spec, {
    last: settings.last,
    history: settings.history,
    maxRequests: settings.maxRequests,
    onPlan: options.onPlan,
    quarantineField: settings.quarantineField,
  });
  const model = analyze(data, {
    title: `Test cycles: ${data.description}`,
    generatedAt: (options.now ?? new Date()).toISOString(),
  });
  const latest = data.cycles.at(-1)?.cycle.id;
  const coverage = latest && options.coverageOf ? await options.coverageOf(latest) : undefined;
  return {
    model,
    html: renderHtml(model, coverage ? { coverage } : {}),
    markdown: renderMarkdown(model, coverage ? { coverage } : {}),
  };
}

/** One line for logs: what the report will cost, before the costly part. */
export function describePlan(plan: RequestPlan): string {
  const history = plan.historyPages.reduce((a, b) => a + b, 0);
  return `report: ${plan.total} requests (${plan.listPages} cycle list, ${plan.aggregates} aggregates, ${history} execution pages)`;
}
