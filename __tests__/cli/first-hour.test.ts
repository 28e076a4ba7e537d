/**
 * A new user's first hour at the CLI: thresholds that could never fail, publishing nothing,
 * mistyped flags and help that must be true for each command and each flag's polarity.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';
import { demoSeed, loadSeedFile } from '../../src/emulator/index.js';
import {
  flagNameOf,
  isNegatedFlag,
  settingsOfCommand,
  type CommandName,
} from '../../src/settings/table.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';

afterEach(closeEmulators);

/** No request can succeed here: an error before any request is the only way to exit 2 or 4. */
const OFFLINE = { TESTCYCLE_BASE_URL: 'https://eu.example.test', TESTCYCLE_TOKEN: RW };

describe('a threshold written as a fraction is refused with the percentage it meant', () => {
  test.each([
    [
      ['--min-pass-rate', '0.95'],
      '--min-pass-rate: 0.95 looks like a fraction; the pass rate is a percentage: use --min-pass-rate 95, or --min-pass-rate 0.95% if you mean 0.95 per cent.',
    ],
    [
      ['--min-pass-rate', '1'],
      '--min-pass-rate: 1 looks like a fraction; the pass rate is a percentage: use --min-pass-rate 100, or --min-pass-rate 1% if you mean 1 per cent.',
    ],
    [
      ['--max-pass-rate-drop', '0.05'],
      '--max-pass-rate-drop: 0.05 looks like a fraction; the drop is in percentage points of the pass rate: use --max-pass-rate-drop 5, or --max-pass-rate-drop 0.05% if you mean 0.05 points.',
    ],
  ])('gate %j', async (flags, message) => {
    const r = await runCli(['gate', '--cycle-name', 'Nightly', ...flags], OFFLINE);
    expect(r).toEqual({ code: 2, out: '', err: `testcycle gate: ${message}` });
  });

  test('95%, 0.5% and 0 are taken as written: 0 passes, 95% fails a lower pass rate', async () => {
    const emu = await emulator({ seed: caseSeed(11) });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    const publish = [
      'publish',
      '--report',
      'examples/reports/junit',
      '--cycle-name',
      'Nightly',
      '--create-missing-cases',
    ];
    const first = await runCli([...publish, '--min-pass-rate', '0'], env);
    expect(first.code).toBe(0);
    const gate = await runCli(['gate', '--cycle-name', 'Nightly', '--min-pass-rate', '95%'], env);
    expect(gate.code).toBe(1);
    expect(gate.out).toMatch(/pass rate [\d.]+% is below 95%/);
    const drop = await runCli(
      ['gate', '--cycle-name', 'Nightly', '--max-pass-rate-drop', '0.5%'],
      env,
    );
    expect(drop.code).toBe(0);
  });

  test('the action input is refused in its own words', async () => {
    const run = await runAction({
      mode: 'gate',
      'base-url': 'https://eu.example.test',
      token: RW,
      'cycle-name': 'Nightly',
      'min-pass-rate': '0.9',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::input min-pass-rate: 0.9 looks like a fraction; the pass rate is a percentage: use min-pass-rate: 90, or min-pass-rate: 0.9%25 if you mean 0.9 per cent.',
    );
    // (%25: a workflow command's escape of %, shown by the runner as %.)
  });
});

test('gate without a threshold is a usage error naming the thresholds (it could never fail)', async () => {
  const r = await runCli(['gate', '--cycle-name', 'Nightly'], OFFLINE);
  expect(r).toEqual({
    code: 2,
    out: '',
    err: 'testcycle gate: the gate needs a threshold, else it cannot fail: --min-pass-rate, --max-pass-rate-drop, --max-failed, --max-blocked, --fail-on-not-executed, --max-new-failures, --min-coverage, --max-failing-requirements.',
  });
  const action = await runAction({
    mode: 'gate',
    'base-url': 'https://eu.example.test',
    token: RW,
    'cycle-name': 'Nightly',
  });
  expect(action.code).toBe(1);
  expect(action.stdout).toContain(
    '::error::the gate needs a threshold, else it cannot fail: input min-pass-rate, input max-pass-rate-drop, input max-failed, input max-blocked, input fail-on-not-executed, input max-new-failures, input min-coverage, input max-failing-requirements.',
  );
});

describe('reports that hold no test at all are exit 4 before any request', () => {
  test('every file of the directory skipped: each named with why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-nothing-'));
    writeFileSync(join(dir, 'pom.xml'), '<project><modelVersion>4.0.0</modelVersion></project>');
    writeFileSync(join(dir, 'package.json'), '{"name": "x"}');
    writeFileSync(join(dir, 'data.json'), Buffer.from([0x7b, 0, 1, 2]));
    const r = await runCli(['publish', '--report', dir, '--cycle-name', 'Nightly'], OFFLINE);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(
      /^testcycle publish: no test results to publish, nothing was sent\. 3 file\(s\) in the report directories are not test reports and were skipped: /,
    );
    for (const file of [
      'pom.xml (is XML with root <project>',
      'package.json (is JSON',
      'data.json (is binary',
    ])
      expect(r.err).toContain(join(dir, file));
  });

  test('a forced --format that reads nothing from the files says so', async () => {
    const r = await runCli(
      ['publish', '--report', 'examples/reports/junit', '--format', 'nunit', '--cycle-name', 'N'],
      OFFLINE,
    );
    expect(r.code).toBe(4);
    expect(r.err).toContain('3 file(s) read as nunit hold no test: examples/reports/junit/');
    expect(r.err).toContain(
      "--format nunit reads them as nunit: leave it out to detect each file's format.",
    );
  });

  test('the action: the same error, before any request', async () => {
    const run = await runAction({
      'base-url': 'https://eu.example.test',
      token: RW,
      reports: 'examples/reports/junit',
      format: 'nunit',
      'cycle-name': 'Nightly',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::no test results to publish, nothing was sent. 3 file(s) read as nunit hold no test: examples/reports/junit/',
    );
    expect(run.stdout).toContain('format: nunit reads them as nunit');
  });
});

describe('a mistyped flag gets the flag it meant, not the usage line', () => {
  test.each([
    [
      ['publish', '--reports', 'x'],
      'testcycle publish: unknown flag --reports; did you mean --report? See testcycle publish --help.',
    ],
    [
      ['publish', '--cycle-nmae', 'x'],
      'testcycle publish: unknown flag --cycle-nmae; did you mean --cycle-name? See testcycle publish --help.',
    ],
    [
      ['cycle', 'create', '--cycle-name', 'x'],
      'testcycle cycle create: unknown flag --cycle-name; did you mean --name? See testcycle cycle create --help.',
    ],
    [
      ['parse', '--min-pass-rate', '90'],
      'testcycle parse: unknown flag --min-pass-rate; it is a flag of testcycle publish, testcycle gate. See testcycle parse --help.',
    ],
    [
      ['publish', '--report', '--cycle-name', 'X'],
      'testcycle publish: --report needs a value (a glob or directory of report files); the next word starts with a dash, so it is read as a flag (a value that starts with a dash: --report=-VALUE).',
    ],
    [['gate', '--cycle-name'], 'testcycle gate: --cycle-name needs a value (a cycle name).'],
    [
      ['publish', '--on-unmatched'],
      'testcycle publish: --on-unmatched needs a value (one of warn, fail, ignore).',
    ],
  ])('%j', async (args, message) => {
    expect(await runCli(args, {})).toEqual({ code: 2, out: '', err: message });
  });

  test('the action: a near miss of an input name fails naming the input meant', async () => {
    const run = await runAction({
      report: 'x.xml',
      'cycle-name': 'N',
      'base-url': 'https://x.test',
      token: RW,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::unknown input report; did you mean reports?');
    const typo = await runAction({
      reports: 'x.xml',
      'cycle-nmae': 'N',
      'base-url': 'https://x.test',
      token: RW,
    });
    expect(typo.stdout).toContain('::error::unknown input cycle-nmae; did you mean cycle-name?');
  });
});

describe('every --help line is true for its command and its flag polarity', () => {
  const COMMANDS: CommandName[] = [
    'publish',
    'gate',
    'cycle create',
    'cycle close',
    'parse',
    'check',
    'emulator',
    'report',
  ];
  const help = async (command: CommandName) => {
    const r = await runCli([...command.split(' '), '--help'], {});
    expect(r.code).toBe(0);
    return r.out;
  };
  /** The text beside one flag, its wrapped lines joined. */
  const textOf = (out: string, flag: string) => {
    const at = out.split('\n').findIndex((l) => new RegExp(`^  ${flag}( |$)`).test(l));
    if (at < 0) throw new Error(`${flag} not in the help`);
    const lines = [out.split('\n')[at]!.slice(2 + flag.length)];
    for (const l of out.split('\n').slice(at + 1)) {
      if (!/^ {10,}\S/.test(l)) break;
      lines.push(l);
    }
    return lines.map((l) => l.trim()).join(' ');
  };

  test.each(COMMANDS)('%s: every flag of the command is listed once', async (command) => {
    const out = await help(command);
    for (const [key, s] of settingsOfCommand(command)) {
      const flag = `--${isNegatedFlag(s) ? 'no-' : ''}${flagNameOf(key, command)}`;
      const lines = out.split('\n').filter((l) => l === `  ${flag}` || l.startsWith(`  ${flag} `));
      expect(lines).toHaveLength(1);
    }
    expect(out.startsWith(`usage: testcycle ${command} `)).toBe(true);
  });

  test('negated flags say what the negation does', async () => {
    expect(textOf(await help('publish'), '--no-create-cycle')).toMatch(
      /^Fail when no cycle has this name, instead of creating it\./,
    );
    expect(textOf(await help('report'), '--no-history')).toMatch(
      /^Report: skip each cycle's executions/,
    );
  });

  test('gate and cycle close never say they create the cycle; publish does', async () => {
    for (const command of ['gate', 'cycle close'] as const) {
      const text = textOf(await help(command), '--cycle-name NAME');
      expect(text).not.toMatch(/creat/i);
      expect(text).toMatch(/it must exist/);
    }
    expect(textOf(await help('publish'), '--cycle-name NAME')).toMatch(/created ACTIVE/);
  });

  test('parse sends no request and needs no publish', async () => {
    const out = await help('parse');
    expect(textOf(out, '--report GLOB')).not.toMatch(/publish/);
    expect(textOf(out, '--verbose')).not.toMatch(/request/);
    expect(textOf(out, '--verbose')).toMatch(/did not pass/);
  });

  test('no command help speaks of workflow secrets or job steps', async () => {
    for (const command of COMMANDS) {
      const out = await help(command);
      expect(out).not.toContain('secrets.TESTCYCLE_TOKEN');
      expect(out).not.toContain('steps of one job');
    }
  });
});

describe('the CLI names what failed and what was not executed, not only counts', () => {
  /** A JUnit report of gtest's shape: each failure message starts with `file:line`. */
  function gtestReport(failing: number, passing: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-gtest-'));
    const cases = [
      ...Array.from(
        { length: failing },
        (_, i) =>
          `<testcase classname="Suite" name="test${i}"><failure message="math_test.cc:${40 + i}&#x0A;Expected equality of these values:&#x0A;  2&#x0A;  ${i}"/></testcase>`,
      ),
      ...Array.from(
        { length: passing },
        (_, i) => `<testcase classname="Suite" name="test${failing + i}"/>`,
      ),
    ];
    writeFileSync(
      join(dir, 'gtest.xml'),
      `<testsuites><testsuite name="Suite" tests="${cases.length}">${cases.join('')}</testsuite></testsuites>`,
    );
    return join(dir, 'gtest.xml');
  }

  test('failed tests (first 20, then a count) with their first meaningful line; untouched NOT_EXECUTED cases', async () => {
    const emu = await emulator({ seed: caseSeed(30), rateLimit: '1000/1m' });
    const env = {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: RW,
      TESTCYCLE_RATE_LIMIT: '1000/1m',
    };
    const created = await runCli(
      ['cycle', 'create', '--name', 'Nightly', '--populate', 'name ~ "case"'],
      env,
    );
    expect(created.code).toBe(0);
    const r = await runCli(
      ['publish', '--report', gtestReport(22, 2), '--cycle-name', 'Nightly'],
      env,
    );
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    const failedAt = lines.indexOf('failed in the reports: 22');
    expect(failedAt).toBeGreaterThan(0);
    expect(lines[failedAt + 1]).toMatch(
      /^ {2}Suite › test0 \(.*gtest\.xml\): Expected equality of these values:$/,
    );
    expect(lines[failedAt + 21]).toBe('  and 2 more');
    const notRun = lines.indexOf('not executed in the cycle: 6');
    expect(notRun).toBe(failedAt + 22);
    expect(lines.slice(notRun + 1, notRun + 7)).toEqual(
      Array.from({ length: 6 }, (_, i) => `  DEMO-T${25 + i} Suite.test${24 + i}`),
    );
  });

  test("the summary: a dry run lists the reports' failures as such, gtest lines with what failed, collisions apart from unmatched", async () => {
    const emu = await emulator({ seed: caseSeed(30), rateLimit: '1000/1m' });
    const env = {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: RW,
      TESTCYCLE_RATE_LIMIT: '1000/1m',
    };
    const report = gtestReport(3, 1);
    // The same test in a second file: a key collision (warn: left out), which is not unmatched.
    const twin = join(mkdtempSync(join(tmpdir(), 'testcycle-twin-')), 'twin.xml');
    writeFileSync(
      twin,
      '<testsuite name="Shard2"><testcase classname="Suite" name="test3"/><testcase classname="Other" name="x"/></testsuite>',
    );
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'testcycle-summary-')), 'summary.md');
    const r = await runCli(
      [
        'publish',
        '--report',
        report,
        '--report',
        twin,
        '--cycle-name',
        'Nightly',
        '--dry-run',
        '--summary-file',
        summaryFile,
      ],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('unmatched: 1 test(s)\nleft out (key collisions): 2 test(s)');
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('### Failed tests in the reports (3)');
    expect(summary).toMatch(
      /\| Suite › test0 \| [^|]*gtest\.xml \| Expected equality of these values: \|/,
    );
    expect(summary).not.toContain('math_test.cc:40');
    expect(summary).toContain('### Unmatched tests (1)');
    expect(summary).toContain('### Left out: key collisions (2)');
  });
});

describe("testcycle check shows the token's role and expiry (Troubleshooting: a 403 on writes)", () => {
  const jwt = (claims: object) =>
    ['{"alg":"HS256"}', JSON.stringify(claims), 'signature']
      .map((p, i) => (i < 2 ? Buffer.from(p).toString('base64url') : p))
      .join('.');

  test('a read-only token, the only one of its Space', async () => {
    const emu = await emulator({
      seed: {
        ...caseSeed(0),
        tokens: [
          {
            token: 'ro-only-token-0123',
            name: 'dash',
            role: 'read-only',
            expiresAt: '2099-01-31T00:00:00Z',
          },
        ],
      },
    });
    const r = await runCli(['check'], {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: 'ro-only-token-0123',
    });
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[1]).toMatch(
      /^token: read-only \(writes get 403: publish, cycle create and cycle close need a read-write token\), expires 2099-01-31 \(in \d+ days\)$/,
    );
  });

  test('a JWT is told apart from the other tokens of the Space by its jti; --json has it too', async () => {
    const token = jwt({ jti: 'a7f0c1d2-0000-4000-8000-00000000abcd', sub: 'ci' });
    const emu = await emulator({
      seed: {
        ...caseSeed(0),
        tokens: [
          { token: RW, name: 'other', role: 'read-only' },
          { token, name: 'ci', role: 'read-write', expiresAt: '2099-06-30T00:00:00Z' },
        ],
      },
    });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: token };
    const r = await runCli(['check'], env);
    expect(r.out.split('\n')[1]).toMatch(
      /^token: read-write \(writes allowed\), expires 2099-06-30 \(in \d+ days\)$/,
    );
    const json = JSON.parse((await runCli(['check', '--json'], env)).out);
    expect(json.token).toEqual({ role: 'read-write', expiresAt: '2099-06-30T00:00:00Z' });
    expect(JSON.stringify(json)).not.toContain(token);
    // A token without an id among tokens of both roles: said so, not guessed.
    const other = await runCli(['check'], { ...env, TESTCYCLE_TOKEN: RW });
    expect(other.out.split('\n')[1]).toBe(
      'token: role not known; 2 live tokens reach this Space (other read-only, ci read-write) and this one carries no id (jti) to tell which',
    );
  });
});

describe("testcycle check reads the role of the emulator's own tokens", () => {
  test.each([
    [
      'read-write',
      0,
      /^token: read-write \(writes allowed\), expires \d{4}-\d\d-\d\d \(in 36[45] days\)$/,
    ],
    [
      'read-only',
      1,
      /^token: read-only \(writes get 403: .*\), expires \d{4}-\d\d-\d\d \(in 36[45] days\)$/,
    ],
  ])('examples/seed.json, its %s token', async (_role, index, line) => {
    const seed = loadSeedFile('examples/seed.json');
    const emu = await emulator({ seed });
    const r = await runCli(['check'], {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: seed.tokens![index]!.token,
    });
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[1]).toMatch(line);
  });

  test('the demo Space of an emulator started without a seed', async () => {
    const emu = await emulator({ seed: demoSeed() });
    for (const t of emu.seed.tokens!) {
      const r = await runCli(['check'], { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: t.token });
      expect(r.out.split('\n')[1]).toMatch(new RegExp(`^token: ${t.role} \\(`));
    }
  });
});
