/** `testcycle coverage`: requirement coverage of a cycle (src/traceability/coverage.ts). */
import {
  coverageCsv,
  coverageJob,
  coverageMarkdown,
  describeCoverage,
  type CoverageResult,
} from '../job/index.js';
import { choice } from '../settings/index.js';
import { oneLine } from '../shared/redact.js';
import type { CommandContext } from './context.js';
import { EXIT_CODES } from './exit-codes.js';
import { runCommandJob } from './service-commands.js';

/** One line per requirement: `DEMO-REQ1 PASSED  Sign in  (DEMO-T1 PASSED, DEMO-T2 -)`. */
function textOf(r: CoverageResult): string {
  const rows = r.requirements.map(
    (q) =>
      `  ${oneLine(q.key)} ${q.status}  ${oneLine(q.name)}${
        q.cases.length
          ? `  (${q.cases.map((c) => `${oneLine(c.key)} ${c.result ?? '-'}`).join(', ')})`
          : ''
      }`,
  );
  const head = `coverage of cycle ${r.cycle.key ?? r.cycle.id} "${oneLine(r.cycle.name)}": ${describeCoverage(r)}`;
  const verdict = r.gate.reasons.map((reason) => `coverage failed: ${reason}`);
  return [head, ...rows, ...verdict].join('\n');
}

export async function runCoverageCommand(ctx: CommandContext): Promise<number> {
  let format = 'text';
  const { result, requests } = await runCommandJob(ctx, coverageJob, {
    adapterSettings: () => (format = choice(ctx.settings, 'coverage-format')),
  });
  if (result.marked)
    ctx.logger.info(
      `mark-covered: ${result.marked.length} requirement(s) set to COVERED${result.marked.length ? `: ${result.marked.map(oneLine).join(', ')}` : ''}`,
    );
  if (ctx.values.json) ctx.io.stdout(JSON.stringify({ ...result, requests }));
  else if (format === 'csv') ctx.io.stdout(coverageCsv(result).trimEnd());
  else if (format === 'markdown') ctx.io.stdout(coverageMarkdown(result, Infinity).trimEnd());
  else ctx.io.stdout(textOf(result));
  // The verdict goes to stderr where stdout holds a table for a file.
  if (format !== 'text' && !ctx.values.json)
    for (const reason of result.gate.reasons) ctx.logger.warn(`coverage failed: ${reason}`);
  return result.gate.passed ? 0 : EXIT_CODES.gate;
}
