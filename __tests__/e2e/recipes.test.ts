/**
 * "Let testcycle decide" is true in every recipe (docs/design.md "Run errors"): a step that lets
 * the test runner fail (continue-on-error) is followed by a publish that is told how the runner
 * ended, and the README's PR recipe, run as the GitHub runner would (the committed bundle against
 * the emulator), fails its publish step when the runner failed while its report shows nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { evaluate, runSteps, type WorkflowStep } from '../helpers/workflow-runner.js';

afterAll(closeEmulators);

const README = readFileSync('README.md', 'utf8');
/** The README's YAML recipes, each with the heading above it. */
const recipes = [...README.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => {
  // Headings only, not the comments of the code blocks before it.
  const before = README.slice(0, m.index).replace(/^```[\s\S]*?^```$/gm, '');
  return {
    name: `README "${[...before.matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? ''}"`,
    text: m[1]!,
  };
});
// The example workflows users copy (examples/workflows/), and the project's own.
const workflows = ['examples/workflows', '.github/workflows'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => ({ name: `${dir}/${f}`, text: readFileSync(`${dir}/${f}`, 'utf8') })),
);

/** Every list of steps in a YAML document: a bare list, a job's `steps`, any nesting. */
function stepLists(node: unknown): WorkflowStep[][] {
  if (Array.isArray(node)) {
    const steps = node.filter(
      (s): s is WorkflowStep => !!s && typeof s === 'object' && ('run' in s || 'uses' in s),
    );
    return [...(steps.length ? [steps] : []), ...node.flatMap(stepLists)];
  }
  if (!node || typeof node !== 'object') return [];
  return Object.values(node).flatMap(stepLists);
}

const isTestcycle = (s: WorkflowStep) =>
  s.uses === './' || (s.uses?.startsWith('your-org/testcycle@') ?? false);
const publishes = (s: WorkflowStep) =>
  isTestcycle(s) && (s.with?.mode === undefined || s.with.mode === 'publish');

test.each([...recipes, ...workflows].map((r) => [r.name, r.text] as const))(
  '%s: a runner allowed to fail is followed by a publish told how it ended',
  (_name, text) => {
    for (const doc of yaml.loadAll(text)) {
      const onWorkflowRun =
        !!doc && typeof doc === 'object' && 'on' in doc && 'workflow_run' in Object(doc.on);
      for (const steps of stepLists(doc)) {
        let runner: WorkflowStep | undefined;
        for (const step of steps) {
          if (step['continue-on-error'] && !isTestcycle(step)) {
            expect(step.id).toBeDefined();
            runner = step;
          }
          if (!publishes(step)) continue;
          if (runner)
            expect(step.with?.['runner-outcome']).toBe(`\${{ steps.${runner.id}.outcome }}`);
          if (onWorkflowRun)
            expect(step.with?.['runner-outcome']).toBe(
              '${{ github.event.workflow_run.conclusion }}',
            );
          runner = undefined;
        }
        // No runner's failure is swallowed without a publish after it that hears of it.
        expect(runner).toBeUndefined();
      }
    }
  },
);

// A job that runs after the jobs it needs whatever they did (`if: ${{ !cancelled() }}`, as the
// README's "One job publishes them all") publishes their reports: a leg whose runner failed with
// nothing in its report (a spec file that did not load) shows no failure there, so only the
// needed job's result keeps the gate red.
test('every job that publishes after its needed jobs, whatever they did, is told how they ended', () => {
  let found = 0;
  for (const r of [...recipes, ...workflows])
    for (const doc of yaml.loadAll(r.text)) {
      const jobs = Object.values(Object(Object(doc).jobs)) as {
        needs?: string | string[];
        if?: string;
        steps?: WorkflowStep[];
      }[];
      for (const job of jobs) {
        const needs = job.needs === undefined ? [] : [job.needs].flat();
        if (!needs.length || !/cancelled\(\)|always\(\)|failure\(\)/.test(job.if ?? '')) continue;
        for (const step of (job.steps ?? []).filter(publishes)) {
          found++;
          expect(`${r.name}: ${String(step.with?.['runner-outcome'])}`).toMatch(
            new RegExp(`: \\$\\{\\{ needs\\.(${needs.join('|')})\\.result \\}\\}$`),
          );
        }
      }
    }
  expect(found).toBeGreaterThan(0);
});

test('every recipe that says testcycle decides passes how the runner ended', () => {
  const deciding = [...recipes, ...workflows].filter((r) => /testcycle decides?\b/i.test(r.text));
  expect(deciding.length).toBeGreaterThan(3);
  for (const r of deciding)
    expect(r.text).toMatch(/runner-outcome: \$\{\{ steps\.|--runner-exit-code "\$status"/);
  // A shell recipe keeps the status it swallows: `|| status=$?`, never `|| true` alone.
  for (const r of recipes) expect(r.text).not.toMatch(/\|\| true\s*$/m);
});

// A leg told of more legs than run at once starts at too small a part of the limit and keeps it
// until its first count, late (__tests__/client/share.test.ts, "two at a time"): a matrix with
// max-parallel, or a runner shortage, runs fewer legs at once than strategy.job-total.
test("the action's default legs is the legs that run at once, as GitHub's own evaluator reads it; no recipe repeats it", () => {
  const action = yaml.load(readFileSync('action.yml', 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  const given = recipes
    .flatMap((r) => yaml.loadAll(r.text).flatMap(stepLists).flat())
    .filter(publishes)
    .flatMap((s) => (s.with?.legs === undefined ? [] : [String(s.with.legs)]));
  // The recipes leave legs to the default: the expression is written once, in action.yml.
  expect(given).toEqual([]);
  const expression = /^\$\{\{(.+)\}\}$/.exec(action.inputs.legs?.default ?? '')?.[1];
  expect(expression).toBeDefined();
  const at = (strategy: Record<string, number>) => evaluate(expression!, { strategy });
  // GitHub's own example of the strategy context: four jobs, no max-parallel set.
  expect(at({ 'job-total': 4, 'max-parallel': 4 })).toBe('4');
  expect(at({ 'job-total': 10, 'max-parallel': 2 })).toBe('2');
  expect(at({ 'job-total': 3, 'max-parallel': 20 })).toBe('3');
  expect(at({ 'job-total': 5 })).toBe('5');
  expect(at({ 'job-total': 1, 'max-parallel': 1 })).toBe('1');
  // A runner that fills no strategy context gives nothing: an empty input, as none.
  expect(at({})).toBe('');
});

describe("the README's PR recipe, run step by step", () => {
  const recipe = recipes.find((r) => r.name === 'README "A PR status check"')!;
  /**
   * The recipe's steps with the runner replaced by one that writes a real report and exits as
   * given, the action by this repository's bundle, and the variables and secrets by the
   * emulator's. A workspace of its own, holding the action (action.yml and dist/).
   */
  async function runRecipe(report: string, exitCode: number) {
    const emu = await emulator({
      seed: testSeed({
        testCases: [
          {
            name: 'background job',
            automationKey: 'unhandled/unhandled.test.js › starts a background job',
            status: 'ACTIVE',
          },
        ],
      }),
    });
    const workspace = mkdtempSync(join(tmpdir(), 'testcycle-recipe-'));
    symlinkSync(resolve('action.yml'), join(workspace, 'action.yml'));
    symlinkSync(resolve('dist'), join(workspace, 'dist'));
    const doc = yaml.load(recipe.text) as { steps: WorkflowStep[] };
    const steps = doc.steps
      .filter((s) => !s.uses?.startsWith('actions/'))
      .map((s): WorkflowStep => {
        if (s.run !== undefined)
          return { ...s, run: `cp ${resolve(report)} junit.xml; exit ${exitCode}` };
        const given = Object.fromEntries(
          Object.entries(s.with ?? {}).map(([k, v]) => [
            k,
            String(v)
              .replace('${{ vars.TESTCYCLE_BASE_URL }}', emu.url)
              .replace('${{ secrets.TESTCYCLE_TOKEN }}', RW),
          ]),
        );
        return { ...s, uses: './', with: given };
      });
    const { results } = await runSteps(steps, workspace, { TESTCYCLE_PR: '12' });
    return [...results.values()];
  }

  // vitest exited 1 on an unhandled error; its junit.xml holds one passed test and says nothing.
  const SILENT = 'samples/vitest/reports/run-errors/unhandled-junit.xml';

  test('a runner that failed while its report shows no failure: the publish step fails, saying which', async () => {
    const [test, publish] = await runRecipe(SILENT, 1);
    expect(test!.outcome).toBe('failure');
    expect(publish!.outcome).toBe('failure');
    expect(publish!.outputs.gate).toBe('failed');
    // The runner's line is the only reason: the one test passed, and the pass rate is 100 %.
    expect(publish!.outputs['gate-reasons']).toMatch(
      /^the runner failed \(runner-outcome: failure\), but its reports show no failed test and no run error[^\n]*$/,
    );
    expect(publish!.outputs['pass-rate']).toBe('100');
    expect(publish!.summary).toContain('❌ Gate failed');
  }, 60_000);

  test('the same report from a runner that passed: the gate passes', async () => {
    const [test, publish] = await runRecipe(SILENT, 0);
    expect([test!.outcome, publish!.outcome, publish!.outputs.gate]).toEqual([
      'success',
      'success',
      'passed',
    ]);
  }, 60_000);

  test('a report that names a run error: the publish step fails on it, and says how many', async () => {
    const [, publish] = await runRecipe(
      'samples/jest/reports/run-errors/junit-suite-errors.xml',
      1,
    );
    expect(publish!.outcome).toBe('failure');
    expect(publish!.outputs['run-errors']).toBe('2');
    expect(publish!.summary).toContain('### Run errors (2)');
  }, 60_000);
});
