/**
 * Runs the bundle dist/index.js as a GitHub runner would: INPUT_* variables, output and summary
 * files. `npm test` rebuilds the bundle from src first (the pretest script), so it is never stale.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTION_OUTPUTS } from '../../src/action/outputs.js';

const DECLARED: ReadonlySet<string> = new Set(ACTION_OUTPUTS);

export interface ActionRun {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  /** GITHUB_OUTPUT as written, to see how often an output was set. */
  outputText: string;
  summary: string;
}

/** GITHUB_OUTPUT holds `name<<DELIMITER` blocks (as @actions/core writes) and `name=value` lines. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const simple = /^([^<=]+)=(.*)$/.exec(lines[i]!);
    if (simple) out[simple[1]!] = simple[2]!;
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

export function runAction(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-action-'));
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary.md');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const fullEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...env,
  };
  // The runner passes every input, with action.yml defaults filled in; these tests pass what they set.
  for (const [name, value] of Object.entries(inputs))
    fullEnv[`INPUT_${name.toUpperCase()}`] = value;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'dist/index.js')],
      { env: fullEnv, cwd, timeout: 60_000 },
      (error, stdout) => {
        const outputs = parseOutputs(readFileSync(outputFile, 'utf8'));
        // What the bundle really set, against the list action.yml is held to (docs.test.ts).
        const undeclared = Object.keys(outputs).filter((name) => !DECLARED.has(name));
        if (undeclared.length > 0)
          return reject(
            new Error(
              `the action set outputs action.yml does not declare: ${undeclared.join(', ')}`,
            ),
          );
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout,
          outputs,
          outputText: readFileSync(outputFile, 'utf8'),
          summary: readFileSync(summaryFile, 'utf8'),
        });
      },
    );
  });
}
