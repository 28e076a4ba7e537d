/**
 * Runs the action's run() of src/action/main.ts in this process, as actions/typescript-action
 * tests its action: `@actions/core` replaced (jest.unstable_mockModule) by functions that record
 * what the step would show (log lines as the runner reads them, outputs, the job summary, the
 * failure), so each mode is tested from src without a bundle. `@actions/github` is the real one,
 * its context read from this run's environment. What only the bundle can prove (that it packs and
 * starts) is left to the few runs of __tests__/helpers/action.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { ActionRun } from './action.js';

const actualCore = await import('@actions/core');
const actualGithub = await import('@actions/github');

/** What the current run shows; one run at a time (a test file's tests run one after another). */
interface Step {
  inputs: Record<string, string>;
  stdout: string[];
  summary: string[];
  failed: boolean;
}
let step: Step | undefined;

/** A call of the real function with its stdout kept for this run (the runner reads stdout). */
function shown<A extends unknown[]>(real: (...args: A) => void) {
  return jest.fn((...args: A) => {
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => {
      step?.stdout.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      real(...args);
    } finally {
      process.stdout.write = write;
    }
  });
}

/** The job summary as @actions/core builds it: addRaw, then write appends it to the file. */
const summary = {
  buffer: '',
  addRaw(text: string) {
    summary.buffer += text;
    return summary;
  },
  async write() {
    step?.summary.push(summary.buffer);
    summary.buffer = '';
    return summary;
  },
};

export const core = {
  getInput: jest.fn((name: string) => (step?.inputs[name] ?? '').trim()),
  setOutput: jest.fn((name: string, value: unknown) => actualCore.setOutput(name, value)),
  setSecret: shown(actualCore.setSecret),
  setFailed: jest.fn((message: string | Error) => {
    if (step) step.failed = true;
    shown(actualCore.error)(message);
  }),
  info: shown(actualCore.info),
  debug: shown(actualCore.debug),
  notice: shown(actualCore.notice),
  warning: shown(actualCore.warning),
  error: shown(actualCore.error),
  summary,
};
jest.unstable_mockModule('@actions/core', () => core);

// The real client, with the context of this run's environment read at each use (the module reads
// it once at import) and its API address (GITHUB_API_URL, a fake GitHub on 127.0.0.1).
const Context = actualGithub.context.constructor as new () => typeof actualGithub.context;
jest.unstable_mockModule('@actions/github', () => ({
  ...actualGithub,
  context: new Proxy(
    {},
    {
      get: (_, key) => {
        const value = Reflect.get(new Context(), key) as unknown;
        return typeof value === 'function' ? value.bind(new Context()) : value;
      },
    },
  ),
  getOctokit: (token: string, options: Record<string, unknown> = {}) =>
    actualGithub.getOctokit(token, {
      baseUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
      ...options,
    }),
}));

// Only now, with the mocks in place: no module of the action may hold the real @actions/core.
const { run } = await import('../../src/action/main.js');
const { ACTION_OUTPUTS } = await import('../../src/action/outputs.js');
const { parseOutputs } = await import('./action.js');
const DECLARED: ReadonlySet<string> = new Set(ACTION_OUTPUTS);

/**
 * The action's step with these inputs and environment, in this process: the same ActionRun as
 * runAction of __tests__/helpers/action.ts (exit code, stdout, outputs, summary).
 */
export async function runActionInProcess(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-action-'));
  const outputFile = join(dir, 'output');
  writeFileSync(outputFile, '');
  const saved = { env: process.env, cwd: process.cwd() };
  // The runner passes every input as INPUT_<NAME> too (checkInputNames reads those).
  const inputEnv = Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
  );
  process.env = {
    PATH: saved.env.PATH,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    ...env,
    ...inputEnv,
  };
  step = { inputs, stdout: [], summary: [], failed: false };
  const current = step;
  core.getInput.mockClear();
  try {
    process.chdir(cwd);
    await run(process.env);
    // Every run reads its mode: a run that read nothing through the replaced core had the real one.
    if (core.getInput.mock.calls.length === 0)
      throw new Error(
        'src/action was loaded with the real @actions/core: import __tests__/helpers/action-in-process.ts before any module of src/action',
      );
  } finally {
    process.env = saved.env;
    process.chdir(saved.cwd);
    step = undefined;
  }
  const outputText = readFileSync(outputFile, 'utf8');
  const outputs = parseOutputs(outputText);
  // What the step really set, against the list action.yml is held to (docs.test.ts).
  const undeclared = Object.keys(outputs).filter((name) => !DECLARED.has(name));
  if (undeclared.length > 0)
    throw new Error(`the action set outputs action.yml does not declare: ${undeclared.join(', ')}`);
  return {
    code: current.failed ? 1 : 0,
    stdout: current.stdout.join(''),
    outputs,
    outputText,
    summary: current.summary.join(''),
  };
}
