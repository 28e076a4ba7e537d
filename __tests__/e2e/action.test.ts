/**
 * End to end, what a release needs: the bundle (dist/index.js) started as a runner starts it, and
 * the CLI (lib/cli/bin.js) as a subprocess, against the emulator. A few runs prove the packaging:
 * a publish, a failed gate, a bad input, a check run through the lazily loaded GitHub client.
 * Every mode's behaviour is tested in this process, from src, in __tests__/action.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base, dir, junitFile, seed } from '../helpers/login-suite.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { runAction } from '../helpers/action.js';
import { closeAll, startServer } from '../helpers/http-server.js';
import { executionsOf } from '../helpers/publish.js';

afterEach(async () => {
  await closeEmulators();
  await closeAll();
});

describe('the bundle as a release ships it', () => {
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
    expect(out.notExecuted).toEqual([
      expect.stringMatching(/^DEMO-T\d+ src\/login\.test\.ts › app\.LoginTest\.\w+$/),
    ]);
    const gate = await cli(['gate', '--cycle-name', 'Nightly CLI', '--fail-on-not-executed'], env);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/gate: FAILED\n {2}- 1 not executed/);
    const closed = await cli(['cycle', 'close', '--cycle-name', 'Nightly CLI'], env);
    expect(closed.stdout).toMatch(/is DONE/);
    for (const r of [made, pub, gate, closed]) expect(r.stdout + r.stderr).not.toContain(RW);
  });
});
