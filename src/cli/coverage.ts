/** `testcycle coverage`: requirement coverage of a cycle (src/traceability/coverage.ts). */
import { coverageJob, describeCoverage, type CoverageResult } from '../job/index.js';
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
  const { result, requests } = await runCommandJob(ctx, coverageJob);
  if (ctx.values.json) ctx.io.stdout(JSON.stringify({ ...result, requests }));
  else ctx.io.stdout(textOf(result));
  return result.gate.passed ? 0 : EXIT_CODES.gate;
}
