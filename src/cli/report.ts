/** `testcycle report`: a series of cycles as a self-contained HTML page, Markdown or JSON. */
import { writeFile } from 'node:fs/promises';
import { buildReport, describePlan, dashboardSettings, renderJson } from '../dashboard/index.js';
import { clientSettings } from '../publish/index.js';
import type { CommandContext } from './main.js';
import { withClient } from './service-commands.js';

export async function runReportCommand(ctx: CommandContext): Promise<number> {
  const settings = dashboardSettings(ctx.settings);
  const client = clientSettings(ctx.settings);
  const report = await withClient(
    ctx,
    (c) => buildReport(c, settings, { onPlan: (plan) => ctx.logger.info(describePlan(plan)) }),
    client,
  );
  await writeFile(settings.htmlFile, report.html);
  if (settings.markdownFile) await writeFile(settings.markdownFile, report.markdown);
  const { model } = report;
  if (ctx.values.json) ctx.io.stdout(renderJson(model).trimEnd());
  else {
    const trend =
      model.trend.first === null
        ? 'no pass rate'
        : `pass rate ${model.trend.first}% -> ${model.trend.last}%`;
    ctx.io.stdout(
      `${model.cycles.length} cycle${model.cycles.length === 1 ? '' : 's'}, ${trend}; ${model.requests.sent} requests; written: ${settings.htmlFile}${settings.markdownFile ? `, ${settings.markdownFile}` : ''}`,
    );
    for (const line of model.omitted) ctx.io.stdout(`left out: ${line}`);
  }
  return 0;
}
