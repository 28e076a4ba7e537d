/** `testcycle report`: a series of cycles as a self-contained HTML page, Markdown or JSON. */
import { renderJson, reportJob } from '../job/index.js';
import type { CommandContext } from './context.js';
import { runCommandJob } from './service-commands.js';

export async function runReportCommand(ctx: CommandContext): Promise<number> {
  const { result: report } = await runCommandJob(ctx, reportJob);
  const { model } = report;
  if (ctx.values.json) ctx.io.stdout(renderJson(model).trimEnd());
  else {
    const trend =
      model.trend.first === null
        ? 'no pass rate'
        : `pass rate ${model.trend.first}% -> ${model.trend.last}%`;
    ctx.io.stdout(
      `${model.cycles.length} cycle${model.cycles.length === 1 ? '' : 's'}, ${trend}; ${model.requests.sent} requests; written: ${report.htmlFile}${report.markdownFile ? `, ${report.markdownFile}` : ''}`,
    );
    for (const line of model.omitted) ctx.io.stdout(`left out: ${line}`);
  }
  return 0;
}
