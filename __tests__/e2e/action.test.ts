/**
 * End to end: the built action (dist/index.js) and the CLI as subprocesses against the emulator;
 * outputs, summary, exit codes and the service's final state (issue 6).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeEmulators, emulator, RO, RW, testSeed } from '../helpers/emulator.js';
import { runAction } from '../helpers/action.js';
import { closeAll, startServer } from '../helpers/http-server.js';
import { executionsOf } from '../helpers/publish.js';
import { fakeGitHub } from '../helpers/fake-github.js';

afterEach(async () => {
  await closeEmulators();
  await closeAll();
});

const dir = mkdtempSync(join(tmpdir(), 'testcycle-e2e-'));
function junitFile(name: string, cases: [string, 'pass' | 'fail' | 'skip'][]): string {
  const body = cases
    .map(
      ([n, r]) =>
        `<testcase classname="app.LoginTest" name="${n}" file="src/login.test.ts" line="${n.length}">${r === 'fail' ? `<failure message="${n} broke">trace</failure>` : r === 'skip' ? '<skipped/>' : ''}</testcase>`,
    )
    .join('\n');
  const file = join(dir, name);
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<testsuites><testsuite name="LoginTest">\n${body}\n</testsuite></testsuites>\n`,
  );
  return file;
}

const CASES = ['opens', 'logs_in', 'logs_out', 'resets', 'locks'];
function seed() {
  return testSeed({
    testCases: CASES.map((n, i) => ({
      name: n,
      automationKey: `app.LoginTest.${n}`,
      status: 'ACTIVE',
      automationStatus: 'AUTOMATED',
      priority: i < 2 ? 'CRITICAL' : 'LOW',
    })),
  });
}
const base = (url: string, token = RW) => ({ 'base-url': url, token, 'rate-limit': '1000/1m' });

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
      requests: '14',
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
      'app.LoginTest.opens': ['PASSED'],
      'app.LoginTest.logs_in': ['PASSED'],
      'app.LoginTest.logs_out': ['FAILED'],
      'app.LoginTest.resets': ['SKIPPED'],
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
      requests: '2', // cycle lookup + one aggregate
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

describe('CLI as a subprocess', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['lib/cli/bin.js', ...args],
        { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  test('publish --json, gate exit 1, cycle create --populate, cycle close; the token never printed', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const env = {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: RW,
      TESTCYCLE_RATE_LIMIT: '1000/1m',
    };
    const summary = join(dir, 'cli-summary.md');
    const made = await cli(
      ['cycle', 'create', '--name', 'Nightly CLI', '--populate', 'priority = "CRITICAL"', '--json'],
      env,
    );
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      cycle: { name: 'Nightly CLI', status: 'ACTIVE' },
      created: true,
      populated: { created: 2, matched: 2 },
    });
    const pub = await cli(
      [
        'publish',
        '--report',
        junitFile('cli.xml', [
          ['opens', 'pass'],
          ['resets', 'fail'],
        ]),
        '--cycle-name',
        'Nightly CLI',
        '--json',
        '--summary-file',
        summary,
        '--verbose',
      ],
      env,
    );
    expect(pub.code).toBe(0);
    const out = JSON.parse(pub.stdout);
    expect(out).toMatchObject({
      counts: { passed: 1, failed: 1, notExecuted: 1, total: 3 },
      writes: { created: 1, updated: 1, unchanged: 0 },
    });
    expect(Object.keys(out).sort()).toEqual([
      'counts',
      'cycle',
      'gate',
      'notExecuted',
      'passRate',
      'requests',
      'unmatched',
      'writes',
    ]);
    // The populated case no report touched, by its key and automation key.
    expect(out.notExecuted).toEqual([expect.stringMatching(/^DEMO-T\d+ app\.LoginTest\.\w+$/)]);
    const gate = await cli(['gate', '--cycle-name', 'Nightly CLI', '--fail-on-not-executed'], env);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/gate: FAILED\n {2}- 1 not executed/);
    const closed = await cli(['cycle', 'close', '--cycle-name', 'Nightly CLI'], env);
    expect(closed.stdout).toMatch(/is DONE/);
    for (const r of [made, pub, gate, closed]) expect(r.stdout + r.stderr).not.toContain(RW);
  });
});

describe('action: many failures', () => {
  test('10 annotations per step and a notice for the rest; check-run annotations in chunks of 50', async () => {
    const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
    const api = await startServer((req) => ({
      status: req.method === 'POST' ? 201 : 200,
      headers: { 'content-type': 'application/json' },
      body: { id: 91 },
    }));
    const report = junitFile(
      'many.xml',
      Array.from({ length: 60 }, (_, i) => [`broken_${i}`, 'fail'] as [string, 'fail']),
    );
    const run = await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'Many',
        'check-name': 'tests',
        'github-token': 'ghs_faketoken456',
        'on-unmatched': 'ignore',
      },
      { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'acme/app', GITHUB_SHA: 'abc123' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^::error /gm)).toHaveLength(10);
    expect(run.stdout).toMatch(/::notice::50 more failed tests are not annotated/);
    expect(api.log.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /repos/acme/app/check-runs',
      'PATCH /repos/acme/app/check-runs/91',
    ]);
    expect(JSON.parse(api.log[0]!.body).output.annotations).toHaveLength(50);
    expect(JSON.parse(api.log[1]!.body).output.annotations).toHaveLength(10);
    expect(JSON.parse(api.log[0]!.body).head_sha).toBe('abc123');
    // workflow_run (fork PRs): the check lands on the tested commit, not the default branch.
    const event = join(dir, 'workflow_run.json');
    writeFileSync(event, JSON.stringify({ workflow_run: { head_sha: 'forkhead' } }));
    await runAction(
      {
        ...base(emu.url),
        reports: report,
        'cycle-name': 'Many',
        'check-name': 'tests',
        'github-token': 'ghs_faketoken456',
        'on-unmatched': 'ignore',
        annotations: 'false',
      },
      {
        GITHUB_API_URL: api.url,
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_SHA: 'main-tip',
        GITHUB_EVENT_PATH: event,
        GITHUB_EVENT_NAME: 'workflow_run',
      },
    );
    expect(JSON.parse(api.log[2]!.body).head_sha).toBe('forkhead');
  });
});

describe('action: text from reports and the environment is data (issue 16)', () => {
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
    expect(run.code).toBe(0);
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
    expect(github.server.log.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
    expect(github.server.log[0]!.url).toBe('/repos/acme/app/issues/12/comments?per_page=100');

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
