/** `testcycle sync`: the Space's test cases kept in step with the reports (src/inventory/sync.ts). */
import { readReportSet, reportSettings, clientSettings } from '../publish/index.js';
import { describeSyncResult, sync } from '../inventory/index.js';
import { syncSettings } from '../inventory/index.js';
import { cliWords } from './flags.js';
import type { CommandContext } from './main.js';
import { interruption, withClient } from './service-commands.js';

export async function runSyncCommand(ctx: CommandContext): Promise<number> {
  const { settings: src, io } = ctx;
  // Settings, then reports, then the first request: each kind of mistake costs nothing to find.
  const settings = syncSettings(src, io.env);
  const client = clientSettings(src);
  const reports = await readReportSet(reportSettings(src), ctx.logger);
  const stop = interruption(ctx);
  return withClient(
    ctx,
    async (client) => {
      const result = await sync(client, {
        ...settings,
        reports,
        logger: ctx.logger,
        signal: stop.signal,
      });
      if (ctx.values.json) {
        const { warnings: _warnings, ...out } = result;
        io.stdout(JSON.stringify(out));
      } else io.stdout(describeSyncResult(result, cliWords(ctx.command, ctx.values, io.env)));
      return 0;
    },
    client,
  );
}
