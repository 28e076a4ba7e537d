/**
 * `Nightly {date}` names one cycle per CI run: a step after midnight names the cycle the run's
 * first step named (docs/design.md "CLI contract"), through the run's stamp or the CI's own time.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ciContext, renderCycleName, runStartedAt } from '../../src/domain/context.js';
import { runSteps } from '../helpers/workflow-runner.js';

const BEFORE = new Date('2026-11-27T23:58:00Z');
const AFTER = new Date('2026-11-28T00:07:00Z');
const name = (env: Record<string, string>, now: Date, template = 'Nightly {date}') =>
  renderCycleName(template, ciContext(env, now));

test('the steps of one GitHub job: the first step its date, every later one the same', () => {
  const env = { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1', RUNNER_TEMP: tempDir() };
  expect(name(env, BEFORE)).toBe('Nightly 2026-11-27');
  expect(name(env, AFTER)).toBe('Nightly 2026-11-27');
  expect(name(env, AFTER, 'Nightly {datetime}')).toBe('Nightly 2026-11-27 23:58');
});

test('another run, or another attempt of the run, has its own stamp', () => {
  const dir = tempDir();
  const env = { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1', RUNNER_TEMP: dir };
  expect(name(env, BEFORE)).toBe('Nightly 2026-11-27');
  expect(name({ ...env, GITHUB_RUN_ATTEMPT: '2' }, AFTER)).toBe('Nightly 2026-11-28');
  expect(name({ ...env, GITHUB_RUN_ID: '4243' }, AFTER)).toBe('Nightly 2026-11-28');
  // The stamp's file is named by a hash: the run's identity is not written into file names.
  expect(readdirSync(dir).every((f) => /^testcycle-run-[0-9a-f]{32}\.json$/.test(f))).toBe(true);
});

test.each([
  ['GitLab', { CI_PIPELINE_ID: '7', CI_PIPELINE_CREATED_AT: '2026-11-27T23:50:11Z' }],
  [
    'Azure Pipelines',
    { BUILD_BUILDID: '7', SYSTEM_PIPELINESTARTTIME: '2026-11-27 23:50:11+00:00' },
  ],
])("%s: the pipeline's own start time", (_ci, env) => {
  expect(name({ ...env, RUNNER_TEMP: tempDir() }, AFTER)).toBe('Nightly 2026-11-27');
});

test('outside a CI run, the time of the command', () => {
  expect(name({}, BEFORE)).toBe('Nightly 2026-11-27');
  expect(name({}, AFTER)).toBe('Nightly 2026-11-28');
  expect(runStartedAt({}, AFTER)).toBe(AFTER);
});

test('a temporary directory that cannot be written: the step falls back on its own time', () => {
  const env = { GITHUB_RUN_ID: '1', RUNNER_TEMP: join(tempDir(), 'missing', 'dir') };
  expect(name(env, AFTER)).toBe('Nightly 2026-11-28');
});

test('steps are processes: two steps of one job, as the runner starts them, name one cycle', async () => {
  // Each step renders the template in a process of its own, the second one after midnight.
  const step = (id: string, at: Date) => ({
    id,
    run: `node -e "import('./lib/domain/context.js').then((m) => console.log(m.renderCycleName('Nightly {date}', m.ciContext(process.env, new Date('${at.toISOString()}')))))"`,
  });
  const { results } = await runSteps(
    [step('create', BEFORE), step('publish', AFTER)],
    process.cwd(),
  );
  expect([...results.values()].map((r) => r.log.trim())).toEqual([
    'Nightly 2026-11-27',
    'Nightly 2026-11-27',
  ]);
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'testcycle-stamp-'));
}
