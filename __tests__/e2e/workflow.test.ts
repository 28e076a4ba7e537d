/**
 * The `test-action` job of .github/workflows/ci.yml, run here step by step as the GitHub runner
 * would (see helpers/workflow-runner.ts): the emulator from the built CLI, then `uses: ./` in
 * each mode, then the job's own output checks. The workflow is the single source of the steps.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJob, runSteps, type StepResult } from '../helpers/workflow-runner.js';

const workspace = process.cwd();
const job = loadJob(join(workspace, '.github/workflows/ci.yml'), 'test-action');
// Steps without an id prepare the machine (checkout, Node, npm ci, the build), which the test run
// (pretest) has done.
const setup = job.filter((s) => !s.id);
const scenario = job.filter((s) => s.id);

let results: Map<string, StepResult>;
let runnerTemp: string;

beforeAll(async () => {
  ({ results, runnerTemp } = await runSteps(scenario, workspace));
}, 120_000);

afterAll(() => {
  // The job's last step stops the emulator; if the run broke before it, stop it here.
  const pidFile = join(runnerTemp, 'emulator.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')));
    } catch {
      // already stopped
    }
  }
});

test('only machine set-up steps are left to the real runner', () => {
  expect(setup.map((s) => s.uses ?? s.run)).toEqual([
    expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/),
    expect.stringMatching(/^actions\/setup-node@[0-9a-f]{40}$/),
    'npm ci',
    // lib/ for the emulator step (npm ci builds it too, through the `prepare` script).
    'npm run build',
  ]);
  expect(scenario.filter((s) => s.uses === './').map((s) => s.with?.mode ?? 'publish')).toEqual([
    'create-cycle',
    'publish',
    'gate',
    'close-cycle',
  ]);
});

test('every step ends as the workflow expects, and the outputs check passes', () => {
  const outcomes = Object.fromEntries([...results].map(([id, r]) => [id, r.outcome]));
  const logs = [...results.values()].map((r) => `--- ${r.id} (${r.outcome})\n${r.log}`).join('\n');
  // On a failure, the steps' logs say why.
  if (outcomes.check !== 'success') console.log(logs);
  expect({ outcomes, logs }).toEqual({
    outcomes: {
      emulator: 'success',
      create: 'success',
      publish: 'success',
      gate: 'failure',
      close: 'success',
      check: 'success',
      stop: 'success',
    },
    logs: expect.any(String),
  });
  expect(results.get('check')!.log).toContain('every step output is as expected');
});

test('each action step wrote its job summary, and never the token', () => {
  for (const id of ['publish', 'gate']) expect(results.get(id)!.summary).toMatch(/pass rate/i);
  for (const r of results.values()) {
    // ::add-mask:: lines are the runner's to read: it hides them and every masked form after them.
    const shown = r.log.replace(/^::add-mask::.*$/gm, '');
    expect(shown).not.toContain(
      'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJqdGkiOiJkZW1vLXJlYWQtd3JpdGUtMDAwMSIsInN1YiI6ImNpIn0.demo',
    );
    expect(r.summary).not.toContain(
      'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJqdGkiOiJkZW1vLXJlYWQtd3JpdGUtMDAwMSIsInN1YiI6ImNpIn0.demo',
    );
  }
});
