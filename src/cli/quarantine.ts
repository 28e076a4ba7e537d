/** `testcycle quarantine add|remove|list` (src/triage/quarantine.ts does the work). */
import {
  quarantineSettings,
  requestsOf,
  runQuarantine,
  type QuarantineSettings,
} from '../publish/index.js';
import type { CommandContext } from './main.js';
import { withClient } from './service-commands.js';

function run(action: QuarantineSettings['action']) {
  return async (ctx: CommandContext): Promise<number> => {
    const now = new Date();
    const settings = quarantineSettings(ctx.settings, action, now);
    return withClient(ctx, async (client) => {
      const out = await runQuarantine(client, settings, () => now);
      if (ctx.values.json) ctx.io.stdout(JSON.stringify({ ...out, requests: requestsOf(client) }));
      else ctx.io.stdout(out.text);
      return 0;
    });
  };
}

export const runQuarantineAdd = run('add');
export const runQuarantineRemove = run('remove');
export const runQuarantineList = run('list');
