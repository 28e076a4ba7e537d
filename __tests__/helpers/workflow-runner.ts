/**
 * A small local stand-in for the GitHub runner, enough to run a workflow job's own steps here:
 * `run:` steps in bash, `uses: ./` steps as the runner runs a node action (every input as
 * INPUT_<NAME> with action.yml's defaults filled in, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * GITHUB_STATE and RUNNER_TEMP files), `continue-on-error`, step outcomes, and `${{ }}` expressions
 * over the contexts it has (steps, github, runner, the strategy of a job alone, and those a test
 * gives), evaluated by GitHub's own evaluator (@actions/expressions), also in action.yml's
 * defaults. Anything else it does not understand fails loudly instead of being skipped.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { parseOutputs } from './action.js';

export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}

export interface StepResult {
  id: string;
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  summary: string;
  log: string;
}

interface ActionYml {
  inputs: Record<string, { default?: string | number | boolean }>;
  runs: { using: string; main: string };
}

export function loadJob(workflowFile: string, jobId: string): WorkflowStep[] {
  const workflow = yaml.load(readFileSync(workflowFile, 'utf8')) as {
    jobs: Record<string, { steps: WorkflowStep[] }>;
  };
  const job = workflow.jobs[jobId];
  if (!job) throw new Error(`${workflowFile} has no job ${jobId}`);
  return job.steps;
}

/**
 * The strategy context of the jobs this runner runs: outside a matrix, one job of one (GitHub's
 * runner fills max-parallel with the job total when a matrix sets none).
 */
const ALONE = { 'job-total': 1, 'max-parallel': 1, 'job-index': 0, 'fail-fast': true };

/**
 * Every `${{ expr }}` of `text`, as GitHub evaluates it over the steps so far and `context`
 * (dotted names, `vars.X`, to values); a context it does not have is an error.
 */
function expand(text: string, results: Map<string, StepResult>, context: Record<string, unknown>) {
  const contexts: Record<string, Record<string, unknown>> = {
    steps: Object.fromEntries(
      [...results].map(([id, r]) => [id, { outcome: r.outcome, outputs: r.outputs }]),
    ),
    strategy: ALONE,
  };
  for (const [name, value] of Object.entries(context)) {
    const [head, ...rest] = name.split('.');
    (contexts[head!] ??= {})[rest.join('.')] = value;
  }
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => evaluate(expr, contexts));
}

/**
 * One expression (what stands between `${{` and `}}`) over `contexts` (name to plain values), as
 * GitHub's evaluator gives it to a string; a context not among them is an error.
 */
export function evaluate(expr: string, contexts: Record<string, unknown>): string {
  const dictionary = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  const parsed = new Parser(new Lexer(expr).lex().tokens, Object.keys(contexts), []).parse();
  return new Evaluator(parsed, dictionary).evaluate().coerceString();
}

function exec(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ ok: boolean; log: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { env, cwd, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ ok: !error, log: stdout + stderr }),
    ),
  );
}

/**
 * Runs `steps` in order in `workspace` (the repository root). Returns each step's outcome and
 * outputs; a failing step without continue-on-error skips the rest, as on GitHub, except steps
 * with `if: always()`.
 */
export async function runSteps(
  steps: WorkflowStep[],
  workspace: string,
  extraEnv: Record<string, string> = {},
  /** More contexts the steps read, by dotted name: `vars.TESTCYCLE_BASE_URL`, `secrets.X`. */
  extraContext: Record<string, string> = {},
): Promise<{ results: Map<string, StepResult>; runnerTemp: string }> {
  // Read when a `uses: ./` step comes (a job of run: steps needs no action.yml).
  const loadAction = () =>
    yaml.load(readFileSync(join(workspace, 'action.yml'), 'utf8')) as ActionYml;
  const home = mkdtempSync(join(tmpdir(), 'testcycle-runner-'));
  const runnerTemp = join(home, 'temp');
  mkdirSync(runnerTemp);
  const runId = String(Date.now());
  const context: Record<string, string> = {
    'github.token': '',
    'github.run_id': runId,
    'runner.temp': runnerTemp,
    ...extraContext,
  };
  const results = new Map<string, StepResult>();
  let jobFailed = false;
  for (const [index, step] of steps.entries()) {
    const id = step.id ?? `step-${index}`;
    const always =
      step.if !== undefined && /^\s*(\$\{\{\s*)?always\(\)(\s*\}\})?\s*$/.test(step.if);
    if (step.if !== undefined && !always)
      throw new Error(`step ${id}: the local runner does not evaluate if: ${step.if}`);
    if (jobFailed && !always) {
      results.set(id, { id, outcome: 'skipped', outputs: {}, summary: '', log: '' });
      continue;
    }
    const files = {
      GITHUB_OUTPUT: join(home, `${id}.output`),
      GITHUB_STEP_SUMMARY: join(home, `${id}.summary.md`),
      GITHUB_STATE: join(home, `${id}.state`),
    };
    for (const file of Object.values(files)) writeFileSync(file, '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_RUN_ID: runId,
      GITHUB_RUN_NUMBER: '1',
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
      GITHUB_REF_NAME: 'main',
      GITHUB_EVENT_NAME: 'push',
      RUNNER_TEMP: runnerTemp,
      ...extraEnv,
      ...files,
    };
    for (const [name, value] of Object.entries(step.env ?? {}))
      env[name] = expand(String(value), results, context);
    let run: { ok: boolean; log: string };
    if (step.run !== undefined) {
      run = await exec('bash', ['-e', '-o', 'pipefail', '-c', step.run], env, workspace);
    } else if (step.uses === './') {
      const action = loadAction();
      if (action.runs.using !== 'node24')
        throw new Error(`action.yml runs.using ${action.runs.using}`);
      const given = step.with ?? {};
      for (const name of Object.keys(given))
        if (!(name in action.inputs))
          throw new Error(`step ${id}: action.yml has no input ${name}`);
      for (const [name, spec] of Object.entries(action.inputs)) {
        const value = name in given ? given[name] : spec.default;
        if (value === undefined) continue;
        // As the runner forms them: upper case, spaces to underscores, dashes kept.
        env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = expand(
          String(value),
          results,
          context,
        );
      }
      run = await exec(process.execPath, [join(workspace, action.runs.main)], env, workspace);
    } else {
      throw new Error(`step ${id}: the local runner runs only run: steps and uses: ./`);
    }
    const outcome = run.ok ? 'success' : 'failure';
    if (!run.ok && !step['continue-on-error']) jobFailed = true;
    results.set(id, {
      id,
      outcome,
      outputs: parseOutputs(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
      summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
      log: run.log,
    });
  }
  return { results, runnerTemp };
}
