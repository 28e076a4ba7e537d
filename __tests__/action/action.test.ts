/**
 * The action's modes in this process (src/action/main.ts run(), @actions/core replaced:
 * __tests__/helpers/action-in-process.ts) against the emulator: outputs, summary, exit codes and
 * the service's final state. The bundle's own runs are __tests__/e2e/action.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base, CASES, dir, junitFile, seed } from '../helpers/login-suite.js';
import { closeEmulators, emulator, RO, RW } from '../helpers/emulator.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';
import { closeAll, startServer } from '../helpers/http-server.js';
import { executionsOf } from '../helpers/publish.js';
import { fakeGitHub } from '../helpers/fake-github.js';

afterEach(async () => {
  await closeEmulators();
  await closeAll();
});

describe('action: publish', () => {
  test('pass: results published, outputs set, job summary written, exit 0', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const report = junitFile('pass.xml', [
      ['opens', 'pass'],
      ['logs_in', 'pass'],
      ['logs_out', 'fail'],
      ['resets', 'skip'],
    ]);
    const run = await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'CI {run_number}',
        'min-pass-rate': '60',
        'job-summary': 'true',
        annotations: 'true',
      },
      { GITHUB_RUN_NUMBER: '42' },
    );
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({
      'cycle-key': 'DEMO-R1',
      'cycle-name': 'CI 42',
      passed: '2',
      failed: '1',
      skipped: '1',
      total: '4',
      'pass-rate': '66.67',
      gate: 'passed',
      created: '4',
      requests: '15', // the gate's aggregate and its read of quarantined executions
    });
    expect(run.summary).toContain('## testcycle: ✅ Gate passed');
    expect(run.summary).toContain('| 2 | 1 | 0 | 1 | 0 | 0 | 4 |');
    expect(run.summary).toMatch(
      /app\.LoginTest › logs_out \| src\/login\.test\.ts:8 \| logs_out broke/,
    );
    expect(run.stdout).toContain(
      '::error title=app.LoginTest > logs_out,file=src/login.test.ts,line=8::logs_out broke',
    );
    expect(run.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(RW); // the runner masks what add-mask names
    expect(Object.fromEntries(executionsOf(emu, 'CI 42'))).toEqual({
      'src/login.test.ts › app.LoginTest.opens': ['PASSED'],
      'src/login.test.ts › app.LoginTest.logs_in': ['PASSED'],
      'src/login.test.ts › app.LoginTest.logs_out': ['FAILED'],
      'src/login.test.ts › app.LoginTest.resets': ['SKIPPED'],
    });
  });

  test('a runner without job summaries (no GITHUB_STEP_SUMMARY): published all the same, a note instead', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const run = await runAction(
      {
        ...base(emu.url),
        reports: junitFile('nosummary.xml', [['opens', 'pass']]),
        'cycle-name': 'No summary',
      },
      { GITHUB_STEP_SUMMARY: '' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no job summary written: this runner sets no GITHUB_STEP_SUMMARY');
    expect(run.outputs).toMatchObject({ passed: '1', total: '1', gate: 'passed' });
    expect(run.summary).toBe('');
  });

  test('gate failure: exit 1, every reason in the summary and the outputs', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const report = junitFile('fail.xml', [
      ['opens', 'fail'],
      ['logs_in', 'pass'],
      ['logs_out', 'fail'],
    ]);
    const run = await runAction({
      ...base(emu.url),
      reports: report,
      'cycle-name': 'CI gate',
      'min-pass-rate': '90',
      'max-failed': '1',
    });
    expect(run.code).toBe(1);
    expect(run.outputs.gate).toBe('failed');
    expect(run.outputs['gate-reasons']).toBe(
      'pass rate 33.33% is below 90% (basis: executed)\n2 failed, more than 1 allowed',
    );
    expect(run.summary).toContain('❌ Gate failed');
    expect(run.stdout).toMatch(/::error::testcycle gate failed: pass rate 33.33%25 is below 90%25/);
  });

  test('a cycle fed by two shards, then gated by a third step on a filter; the gate counts what the local reports do not', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const shard1 = await runAction({
      ...base(emu.url),
      reports: junitFile('s1.xml', [
        ['opens', 'pass'],
        ['logs_in', 'fail'],
      ]),
      'cycle-name': 'Release 1.0',
    });
    const shard2 = await runAction({
      ...base(emu.url),
      reports: junitFile('s2.xml', [
        ['logs_out', 'pass'],
        ['resets', 'pass'],
        ['locks', 'fail'],
      ]),
      'cycle-name': 'Release 1.0',
    });
    expect([shard1.code, shard2.code]).toEqual([0, 0]);
    const all = await runAction({
      ...base(emu.url),
      mode: 'gate',
      'cycle-name': 'Release 1.0',
      'min-pass-rate': '50',
    });
    expect(all.outputs).toMatchObject({
      passed: '3',
      failed: '2',
      total: '5',
      'pass-rate': '60',
      gate: 'passed',
      requests: '3', // cycle lookup, one aggregate, the read of quarantined executions
    });
    expect(all.code).toBe(0);
    const critical = await runAction({
      ...base(emu.url),
      mode: 'gate',
      'cycle-name': 'Release 1.0',
      'min-pass-rate': '80',
      'gate-filter': 'testCase.priority = "CRITICAL"',
    });
    expect(critical.outputs).toMatchObject({
      passed: '1',
      failed: '1',
      total: '2',
      'pass-rate': '50',
      gate: 'failed',
    });
    expect(critical.code).toBe(1);
  });

  test('nightly: create-cycle with populate, publish with a missing test, gate fails on NOT_EXECUTED, close-cycle', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const env = { GITHUB_RUN_NUMBER: '7' };
    const created = await runAction(
      {
        ...base(emu.url),
        mode: 'create-cycle',
        'cycle-name': 'Nightly {run_number}',
        populate: 'automationStatus = "AUTOMATED"',
      },
      env,
    );
    expect(created.code).toBe(0);
    expect(created.outputs).toMatchObject({
      'cycle-name': 'Nightly 7',
      'cycle-status': 'ACTIVE',
      populated: '5',
    });
    const published = await runAction(
      {
        ...base(emu.url),
        reports: junitFile(
          'nightly.xml',
          CASES.slice(0, 4).map((n) => [n, 'pass'] as [string, 'pass']),
        ),
        'cycle-name': 'Nightly {run_number}',
        'fail-on-not-executed': 'true',
      },
      env,
    );
    expect(published.code).toBe(1);
    expect(published.outputs).toMatchObject({
      passed: '4',
      'not-executed': '1',
      gate: 'failed',
      'gate-reasons': '1 not executed (fail-on-not-executed)',
      created: '0',
      updated: '4',
    });
    const closed = await runAction(
      { ...base(emu.url), mode: 'close-cycle', 'cycle-name': 'Nightly {run_number}' },
      env,
    );
    expect(closed.outputs['cycle-status']).toBe('DONE');
  });

  test('a read-only token: a clear error and no partial writes', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const run = await runAction({
      ...base(emu.url, RO),
      reports: junitFile('ro.xml', [['opens', 'pass']]),
      'cycle-name': 'RO',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::POST \/test_cycles failed with 403 .*read-only.*writes need a read-write token/,
    );
    expect(emu.stats().byStatus['201']).toBeUndefined();
    expect(executionsOf(emu, 'RO').size).toBe(0);
  });

  test('bad input names the input and sends no request', async () => {
    const emu = await emulator({ seed: seed() });
    const run = await runAction({
      ...base(emu.url),
      reports: junitFile('x.xml', [['opens', 'pass']]),
      'cycle-name': 'X',
      'min-pass-rate': 'lots',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::input min-pass-rate: "lots" is not a number from 0 to 100.',
    );
    const missing = await runAction({
      ...base(emu.url),
      reports: join(dir, 'nope/*.xml'),
      'cycle-name': 'X',
    });
    expect(missing.stdout).toMatch(/::error::.*nope\/\*\.xml: matches no file/);
    // Inputs are checked before reports: the bad input is named although the report is missing.
    const pace = await runAction({
      ...base(emu.url),
      reports: join(dir, 'nope/*.xml'),
      'cycle-name': 'X',
      'rate-limit': 'fast',
    });
    expect(pace.stdout).toContain('::error::input rate-limit: "fast" is not COUNT/WINDOW');
    expect(emu.stats().total).toBe(0);
  });
});

describe('action: check run', () => {
  test('created on the PR head with annotations; a 403 (fork PR) is a notice, not a failure', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    let allow = true;
    const api = await startServer(() =>
      allow
        ? { status: 201, body: { id: 77 } }
        : { status: 403, body: { message: 'Resource not accessible by integration' } },
    );
    const event = join(dir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({ pull_request: { number: 5, head: { sha: 'feedbeef' } } }),
    );
    const env = {
      GITHUB_API_URL: api.url,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_SHA: 'mergecommit',
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: 'pull_request',
    };
    const report = junitFile('check.xml', [
      ['opens', 'fail'],
      ['logs_in', 'pass'],
    ]);
    const run = await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'PR 5',
        'check-name': 'testcycle',
        'github-token': 'ghs_faketoken123',
      },
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^check run "testcycle" created \(success\)/m);
    const [create] = api.log;
    expect(create!.method).toBe('POST');
    expect(create!.url).toBe('/repos/acme/app/check-runs');
    const body = JSON.parse(create!.body);
    expect(body).toMatchObject({
      name: 'testcycle',
      head_sha: 'feedbeef',
      status: 'completed',
      conclusion: 'success',
    });
    expect(body.output.annotations).toEqual([
      expect.objectContaining({
        path: 'src/login.test.ts',
        start_line: 5,
        annotation_level: 'failure',
      }),
    ]);
    allow = false;
    const denied = await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'PR 5',
        'check-name': 'testcycle',
        'github-token': 'ghs_faketoken123',
      },
      env,
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toMatch(
      /::notice::No check run "testcycle": the token may not write checks/,
    );
  });
});

describe('action: many failures', () => {
  test('10 annotations per step; check-run annotations capped by max-annotations, 50 a request, the summary sent once', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const api = await startServer((req) => ({
      status: req.method === 'POST' ? 201 : 200,
      headers: { 'content-type': 'application/json' },
      body: { id: 91 },
    }));
    const report = junitFile(
      'many.xml',
      Array.from({ length: 3000 }, (_, i) => [`broken_${i}`, 'fail'] as [string, 'fail']),
    );
    const inputs = {
      ...base(emu.url),
      reports: report,
      'cycle-name': 'Many',
      'check-name': 'tests',
      'github-token': 'ghs_faketoken456',
      'on-unmatched': 'ignore',
    };
    const env = { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'acme/app', GITHUB_SHA: 'abc123' };
    const run = await runAction(inputs, env);
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^::error /gm)).toHaveLength(10);
    expect(run.stdout).toMatch(/::notice::2990 more failed tests are not annotated/);
    expect(run.stdout).toContain(
      'check run "tests": 2950 more failed tests are not annotated (max-annotations: 50)',
    );
    // 3,000 failures, one request (it was 60, each re-sending the summary).
    expect(api.log.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /repos/acme/app/check-runs']);
    const created = JSON.parse(api.log[0]!.body);
    expect(created).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      head_sha: 'abc123',
    });
    expect(created.output.annotations).toHaveLength(50);
    expect(created.output.summary).toMatch(/^## testcycle: 📤 Published/);

    // max-annotations 120: three requests; the run completes, with its summary, on the last.
    const capped = await runAction(
      { ...inputs, 'max-annotations': '120', annotations: 'false' },
      env,
    );
    expect(capped.code).toBe(0);
    const requests = api.log.slice(1).map((r) => ({
      call: `${r.method} ${r.url}`,
      ...(JSON.parse(r.body) as {
        status?: string;
        output: { summary: string; annotations: unknown[] };
      }),
    }));
    expect(requests.map((r) => [r.call, r.status, r.output.annotations.length])).toEqual([
      ['POST /repos/acme/app/check-runs', 'in_progress', 50],
      ['PATCH /repos/acme/app/check-runs/91', undefined, 50],
      ['PATCH /repos/acme/app/check-runs/91', 'completed', 20],
    ]);
    expect(requests.filter((r) => r.output.summary.startsWith('## testcycle'))).toHaveLength(1);
    expect(requests[2]!.output.summary).toMatch(/^## testcycle: 📤 Published/);
    expect(requests[0]!.output.summary).toBe(
      'Adding annotations: 50 of 120 so far; the summary follows.',
    );
    expect((await runAction({ ...inputs, 'max-annotations': '1001' }, env)).stdout).toMatch(
      /::error::input max-annotations: "1001" is not a whole number from 0 to 1000/,
    );
    api.log.length = 0;
    // workflow_run (fork PRs): the check lands on the tested commit, not the default branch.
    const event = join(dir, 'workflow_run.json');
    writeFileSync(event, JSON.stringify({ workflow_run: { head_sha: 'forkhead' } }));
    await runAction(
      { ...inputs, annotations: 'false' },
      {
        ...env,
        GITHUB_SHA: 'main-tip',
        GITHUB_EVENT_PATH: event,
        GITHUB_EVENT_NAME: 'workflow_run',
      },
    );
    expect(JSON.parse(api.log[0]!.body).head_sha).toBe('forkhead');
  });
});

describe('action: text from reports and the environment is data', () => {
  test('hostile test names and a cycle name from {env:VAR} start no workflow command and no Markdown heading', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const xml = (text: string) =>
      text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/"/g, '&quot;')
        .replace(/\n/g, '&#10;')
        .replace(/\r/g, '&#13;');
    const names = [
      'x\n::error title=pwned::injected',
      'y\r::add-mask::hidden',
      'z\u2028# heading from a name',
      'w\u001b[31mred\u001b[0m',
    ];
    const file = join(dir, 'hostile-action.xml');
    writeFileSync(
      file,
      `<testsuite name="S">${names.map((n) => `<testcase classname="app.Hostile" name="${xml(n)}"><failure message="${xml(n)}"/></testcase>`).join('')}</testsuite>`,
    );
    const run = await runAction(
      { ...base(emu.url), reports: file, 'cycle-name': 'CI {env:EVIL}' },
      { EVIL: 'main\n::error::from the environment\n## heading' },
    );
    // Its failed tests match no test case: the step fails on them (docs/design.md "Run errors").
    expect(run.code).toBe(1);
    // The runner obeys a line that starts with :: (after spaces); ours are the toolkit's own.
    const commands = run.stdout
      .split(/\r\n|\n|\r/)
      .filter((line) => /^\s*::/.test(line))
      .map((line) => /^\s*::([a-z-]+)/.exec(line)?.[1]);
    expect(commands.every((c) => ['add-mask', 'warning', 'error', 'notice'].includes(c!))).toBe(
      true,
    );
    expect(run.stdout).not.toMatch(/(^|[\n\r])\s*::error::from the environment/);
    expect(run.stdout).not.toMatch(/(^|[\n\r])\s*::error title=pwned/);
    expect(run.stdout).not.toMatch(/(^|[\n\r])\s*::add-mask::hidden/);
    expect(run.stdout).not.toContain('\u001b');
    // In the job summary no line that data could start is a heading: only ours are.
    const headings = run.summary
      .split(/\r\n|\n|\r|\u2028|\u2029|\u0085/)
      .filter((l) => /^\s*#/.test(l));
    expect(headings.every((h) => /^#{2,3} (testcycle|Failed tests|Unmatched tests)/.test(h))).toBe(
      true,
    );
    expect(run.summary).not.toMatch(/[\u2028\u2029\u0085\r]/);
  });
});

describe('action: pull-request comment', () => {
  test('comment: always twice on one PR leaves one comment, updated in place; a 403 is a notice', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const github = await fakeGitHub();
    const event = join(dir, 'pr-event.json');
    writeFileSync(
      event,
      JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef' } } }),
    );
    const env = {
      GITHUB_API_URL: github.server.url,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REF: 'refs/pull/12/merge',
      GITHUB_SHA: 'mergecommit',
    };
    const inputs = (report: string) => ({
      ...base(emu.url),
      reports: report,
      'cycle-name': 'PR {pr}',
      'min-pass-rate': '100',
      comment: 'always',
      'github-token': 'ghs_faketoken123',
    });
    const first = await runAction(
      inputs(
        junitFile('c1.xml', [
          ['opens', 'fail'],
          ['logs_in', 'pass'],
        ]),
      ),
      env,
    );
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('pull-request comment created');
    const second = await runAction(
      inputs(
        junitFile('c2.xml', [
          ['opens', 'pass'],
          ['logs_in', 'pass'],
        ]),
      ),
      env,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('pull-request comment updated');

    const comments = github.comments.get(12)!;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(
      /^<!-- testcycle-comment [0-9a-f]{16} -->\n## testcycle: ✅ Gate passed/,
    );
    // The same Markdown as the job summary.
    expect(comments[0]!.body).toContain(second.summary.trim().split('\n')[0]);
    expect(comments[0]!.body).not.toContain('ghs_faketoken123');
    // The second run asks who it writes as (GET /user: 403 for a GITHUB_TOKEN, so github-actions[bot]).
    expect(github.server.log.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /repos/acme/app/issues/12/comments?per_page=100',
      'POST /repos/acme/app/issues/12/comments',
      'GET /repos/acme/app/issues/12/comments?per_page=100',
      'GET /user',
      `PATCH /repos/acme/app/issues/comments/${comments[0]!.id}`,
    ]);

    github.forbid = true;
    const forbidden = await runAction(
      inputs(
        junitFile('c3.xml', [
          ['opens', 'pass'],
          ['logs_in', 'pass'],
        ]),
      ),
      env,
    );
    expect(forbidden.code).toBe(0);
    expect(forbidden.stdout).toMatch(/::notice::No pull-request comment: .*pull-requests: write/);
  });
});

describe('action: secrets of the run and GitHub limits', () => {
  const GH_TOKEN = 'ghs_prAuthTokenFor0123456789XYZ';
  const RUNTIME = 'eyJ0eXAiOiJKV1QiLCJydW50aW1lIjoidG9rZW4ifQ';
  /** A check run and a PR comment, as a workflow with a GitHub token asks for them. */
  const toGitHub = { 'check-name': 'tests', comment: 'always', 'github-token': GH_TOKEN };
  const prEnv = (url: string, event: string) => ({
    GITHUB_API_URL: url,
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_EVENT_PATH: event,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REF: 'refs/pull/12/merge',
    GITHUB_SHA: 'mergecommit',
    ACTIONS_RUNTIME_TOKEN: RUNTIME,
  });
  const prEvent = () => {
    const event = join(dir, 'secrets-event.json');
    writeFileSync(
      event,
      JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef' } } }),
    );
    return event;
  };
  /** The runs of MIN_SECRET_RUN characters of each secret, as a leak check. */
  const leaked = (text: string) =>
    [RW, GH_TOKEN, RUNTIME].flatMap((secret) =>
      Array.from({ length: secret.length - 11 }, (_, i) => secret.slice(i, i + 12)).filter((run) =>
        text.includes(run),
      ),
    );

  test('{env:INPUT_TOKEN} and {env:ACTIONS_RUNTIME_TOKEN} in cycle-name: a config error before any request', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const github = await fakeGitHub();
    const run = await runAction(
      {
        ...base(emu.url),
        reports: junitFile('env-secret.xml', [['opens', 'pass']]),
        'cycle-name': 'x {env:INPUT_TOKEN} {env:ACTIONS_RUNTIME_TOKEN}',
        ...toGitHub,
      },
      prEnv(github.server.url, prEvent()),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::input cycle-name: {env:INPUT_TOKEN}: INPUT_TOKEN holds a secret (its name says TOKEN); a cycle name is stored by the service and shown in PR comments, check runs and job summaries, where nothing masks it. Use a variable without secrets.',
    );
    expect(emu.stats().total).toBe(0);
    expect(github.server.log).toEqual([]);
    expect(run.outputs).toEqual({});
  });

  test('tokens echoed by tests reach no comment, check run, summary, output or stored name', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const github = await fakeGitHub();
    // A test that prints the tokens (whole, and one cut mid-way) in its name and failure message.
    const report = join(dir, 'echo-secrets.xml');
    writeFileSync(
      report,
      `<testsuite name="S"><testcase classname="app.LoginTest" name="opens ${GH_TOKEN.slice(0, 20)}" file="a.ts" line="3"><failure message="auth ${RW} ${GH_TOKEN} ${RUNTIME.slice(0, 25)}">trace</failure></testcase><testcase classname="app.New" name="uses ${GH_TOKEN}"><failure message="x"/></testcase></testsuite>`,
    );
    const run = await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'PR {pr}',
        ...toGitHub,
        'create-missing-cases': 'true',
        'automation-key': '{classname}',
      },
      prEnv(github.server.url, prEvent()),
    );
    expect(run.code).toBe(0);
    const comment = github.comments.get(12)![0]!.body;
    const checkRun = JSON.stringify([...github.checkRuns.values()]);
    const stored = JSON.stringify(
      ['test_cycles', 'test_cases', 'test_case_executions'].flatMap((type) => [
        ...emu.service.store.all(type as 'test_cycles'),
      ]),
    );
    expect(comment).toContain('***');
    expect(checkRun).toContain('***');
    expect(run.summary).toContain('***');
    for (const [where, text] of Object.entries({
      comment,
      checkRun,
      summary: run.summary,
      outputs: JSON.stringify(run.outputs),
      stored,
      log: run.stdout.replace(/^::add-mask::.*$/gm, ''),
    }))
      expect({ where, leaked: leaked(text) }).toEqual({ where, leaked: [] });
    expect(run.outputs['cycle-name']).toBe('PR 12');
  });

  test('an 80,000-character cycle name still makes a comment and a check run within GitHub limits', async () => {
    // Names are anyone's to write in the service; the gate reads this cycle by its key.
    const long = `Nightly ${"'@x#1".repeat(16_000)}`;
    const emu = await emulator({
      seed: { ...seed(), testCycles: [{ testCycleKey: 'DEMO-R7', name: long, status: 'ACTIVE' }] },
      rateLimit: '1000/1m',
    });
    const github = await fakeGitHub();
    const run = await runAction(
      {
        ...base(emu.url),
        mode: 'gate',
        'cycle-key': 'DEMO-R7',
        'fail-on-not-executed': 'true',
        ...toGitHub,
      },
      prEnv(github.server.url, prEvent()),
    );
    expect(run.code).toBe(0);
    const body = github.comments.get(12)![0]!.body;
    const [check] = [...github.checkRuns.values()];
    const output = check![0]!.output as { title: string; summary: string };
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(output.summary.length).toBeLessThanOrEqual(65_535);
    expect(output.title.length).toBeLessThanOrEqual(255);
    // The name is cut, marked, and its data stays inert: no mention, no issue link.
    expect(body).toMatch(/\*\*Cycle\*\* DEMO-R7 Nightly ('@\u200bx#\u200b1)+'?…/);
    expect(body).not.toMatch(/@x|#1/);
    expect(run.summary.length).toBeLessThan(5_000);
  });

  test('workflow_run of a fork PR: the PR found by the head commit gets the comment; a PR into another repository none', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const github = await fakeGitHub();
    github.pullsByCommit.set('forkhead', [
      { number: 31, state: 'open', base: { repo: { full_name: 'acme/app' } } },
    ]);
    const event = join(dir, 'fork-run.json');
    const runEnv = (payload: object) => {
      writeFileSync(event, JSON.stringify(payload));
      return {
        GITHUB_API_URL: github.server.url,
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_EVENT_PATH: event,
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_SHA: 'main-tip',
      };
    };
    const inputs = {
      ...base(emu.url),
      reports: junitFile('fork.xml', [['opens', 'pass']]),
      'cycle-name': 'Fork run',
      comment: 'always',
      'github-token': GH_TOKEN,
    };
    const fork = await runAction(
      inputs,
      runEnv({ repository: { id: 1 }, workflow_run: { head_sha: 'forkhead', pull_requests: [] } }),
    );
    expect(fork.code).toBe(0);
    expect(fork.stdout).toContain('pull-request comment created');
    expect(github.comments.get(31)).toHaveLength(1);
    const other = await runAction(
      inputs,
      runEnv({
        repository: { id: 1 },
        workflow_run: {
          head_sha: 'otherhead',
          pull_requests: [
            {
              number: 8,
              base: { repo: { id: 2, url: 'https://api.github.com/repos/upstream/app' } },
            },
          ],
        },
      }),
    );
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('no pull request into this repository for this run');
    expect(github.comments.has(8)).toBe(false);
  });
});
