/** The action's log and outputs as a new user reads them: each step says what it did, once. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed, clientOf, closeAll, options, reportOf } from '../helpers/publish.js';
import { publish } from '../../src/publish/index.js';

afterEach(async () => {
  await closeAll();
  await closeEmulators();
});

const dir = mkdtempSync(join(tmpdir(), 'testcycle-e2e-first-hour-'));
const base = (url: string) => ({ 'base-url': url, token: RW, 'rate-limit': '100000/1m' });

test('close-cycle says which cycle is DONE; requests, requests-retried, rate-limited are written once in every mode', async () => {
  const emu = await emulator({ seed: caseSeed(2), rateLimit: '100000/1m' });
  const report = join(dir, 'r.xml');
  writeFileSync(
    report,
    '<testsuite name="Suite"><testcase classname="Suite" name="test0"/><testcase classname="Suite" name="test1"/></testsuite>',
  );
  const published = await runAction({
    ...base(emu.url),
    reports: report,
    'cycle-name': 'Nightly',
    'min-pass-rate': '50',
  });
  const closed = await runAction({
    ...base(emu.url),
    mode: 'close-cycle',
    'cycle-name': 'Nightly',
  });
  expect(closed.code).toBe(0);
  expect(closed.stdout).toMatch(/^cycle DEMO-R\d+ "Nightly" is DONE$/m);
  for (const run of [published, closed])
    for (const name of ['requests', 'requests-retried', 'rate-limited'])
      expect(run.outputText.split('\n').filter((l) => l.startsWith(`${name}<<`))).toHaveLength(1);
});

test("report mode: the pass-rate output is the latest cycle's, as the summary shows it; table oldest first as the page; 1 cycle", async () => {
  const emu = await emulator({ seed: caseSeed(3), rateLimit: '100000/1m' });
  for (const [name, failing] of [
    ['Nightly 1', 1],
    ['Nightly 2', 0],
  ] as const)
    await publish(
      clientOf(emu),
      options([reportOf(3, (i) => (i < failing ? 'failed' : 'passed'))], {
        cycle: { name, create: true, reopenDone: false, close: false },
      }),
    );
  // The latest cycle has nothing executed: no pass rate.
  const created = await runAction({
    ...base(emu.url),
    mode: 'create-cycle',
    'cycle-name': 'Nightly 3',
  });
  expect(created.code).toBe(0);
  const run = await runAction({
    ...base(emu.url),
    mode: 'report',
    'series-name': 'Nightly {run_number}',
    'html-file': join(dir, 'page.html'),
  });
  expect(run.code).toBe(0);
  expect(run.outputs['pass-rate']).toBe('');
  expect(run.summary).toMatch(/\*\*Latest\*\* DEMO-R\d+ Nightly 3 · \*\*Pass rate\*\* –/);
  const rows = run.summary.split('\n').filter((l) => /^\| DEMO-R\d+ Nightly \d/.test(l));
  expect(rows.map((r) => /Nightly (\d)/.exec(r)![1])).toEqual(['1', '2', '3']);
  expect(run.summary).toContain('over 3 cycles');

  const one = await runAction({
    ...base(emu.url),
    mode: 'report',
    'series-name': 'Nightly 2',
    'html-file': join(dir, 'one.html'),
  });
  expect(one.outputs['pass-rate']).toBe('100');
  expect(one.summary).toContain('over 1 cycle (');
});

test('a comment that cannot be written is a warning, as a check run that cannot be created', async () => {
  const emu = await emulator({ seed: caseSeed(1), rateLimit: '100000/1m' });
  const report = join(dir, 'one.xml');
  writeFileSync(
    report,
    '<testsuite name="Suite"><testcase classname="Suite" name="test0"/></testsuite>',
  );
  const event = join(dir, 'pr-event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef' } } }));
  // A GitHub API that is not there: neither a permission (403/404) nor a success.
  const env = {
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_EVENT_PATH: event,
    GITHUB_EVENT_NAME: 'pull_request',
  };
  const run = await runAction(
    {
      ...base(emu.url),
      reports: report,
      'cycle-name': 'PR 12',
      comment: 'always',
      'check-name': 'tests',
      'github-token': 'ghs_faketoken123',
    },
    env,
  );
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^::warning::Could not complete the check run "tests": /m);
  expect(run.stdout).toMatch(/^::warning::Could not write the pull-request comment: /m);
});
