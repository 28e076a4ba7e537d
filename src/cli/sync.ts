/** `testcycle sync`: the Space's test cases kept in step with the reports (src/inventory/sync.ts). */
import { describeSyncResult, syncJob } from '../job/index.js';
import { cliWords } from './flags.js';
import type { CommandContext } from './context.js';
import { interruption, runCommandJob } from './service-commands.js';

export async function runSyncCommand(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const { result } = await runCommandJob(ctx, syncJob, { signal: interruption(ctx) });
  if (ctx.values.json) {
    const { warnings: _warnings, ...out } = result;
    io.stdout(JSON.stringify(out));
  } else io.stdout(describeSyncResult(result, cliWords(ctx.command, ctx.values, io.env)));
  return 0;
}
