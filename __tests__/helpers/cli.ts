/** The CLI in-process: main() with captured stdout and stderr. */
import { main, type CliIO } from '../../src/cli/main.js';

export async function runCli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  const code = await main(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
