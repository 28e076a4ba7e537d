/** `testcycle quarantine add|remove|list` (src/triage/quarantine.ts does the work). */
import { quarantineJob } from '../job/index.js';
import type { CommandContext } from './context.js';
import { runCommandJob } from './service-commands.js';

function run(action: 'add' | 'remove' | 'list') {
  return async (ctx: CommandContext): Promise<number> => {
    const { result: out, requests } = await runCommandJob(ctx, quarantineJob(action));
    if (ctx.values.json) ctx.io.stdout(JSON.stringify({ ...out, requests }));
    else ctx.io.stdout(out.text);
    return 0;
  };
}

export const runQuarantineAdd = run('add');
export const runQuarantineRemove = run('remove');
export const runQuarantineList = run('list');
