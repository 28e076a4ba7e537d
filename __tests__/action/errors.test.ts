/**
 * Every kind of error in the action: one ::error:: line naming the input as a workflow
 * writes it (`input format`, `create-cycle: false`) and what to do; nothing expected is
 * "unexpected". The action runs in this process with @actions/core replaced
 * (__tests__/helpers/action-in-process.ts).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  InterruptedError,
  ServiceError,
  UsageError,
} from '../../src/shared/errors.js';
import { GateFailedError } from '../../src/publish/index.js';
import { ReportError } from '../../src/parsers/base/model.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';
import { closeEmulators, emulator, RO, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

// After the helper has replaced @actions/core (a module that imported the real one would keep it).
const { failureLine } = await import('../../src/action/main.js');

afterEach(closeEmulators);

const dir = mkdtempSync(join(tmpdir(), 'testcycle-action-errors-'));
const report = join(dir, 'one.xml');
writeFileSync(
  report,
  '<testsuite name="S"><testcase classname="Suite" name="test0"/><testcase classname="Other" name="x"/></testsuite>',
);

const seed = {
  ...caseSeed(1),
  testCycles: [
    { name: 'Done', status: 'DONE' as const },
    { name: 'Empty', status: 'ACTIVE' as const },
  ],
};

const cases: [string, Record<string, string>, RegExp][] = [
  [
    'config: a missing required input',
    { 'cycle-name': 'X' },
    /^input reports: is required: globs or directories of report files/,
  ],
  [
    'config: create-cycle needs a cycle-name',
    { mode: 'create-cycle' },
    /^input cycle-name: is required: the name of the cycle/,
  ],
  [
    'config: an unknown format',
    { reports: report, 'cycle-name': 'X', format: 'junk' },
    /^input format: "junk" is not one of auto, junit, /,
  ],
  [
    'config: reports with only excludes',
    { reports: '!build/**', 'cycle-name': 'X' },
    /^input reports: needs at least one pattern that is not an exclude \(!\)\.$/,
  ],
  [
    'config: an unknown mode',
    { mode: 'publsh' },
    /^input mode: "publsh" is not one of publish, gate/,
  ],
  [
    'config: create-cycle: false and no such cycle',
    { reports: report, 'cycle-name': 'Nope', 'create-cycle': 'false' },
    /^input cycle-name: no test cycle is named "Nope" and create-cycle: false is set\.$/,
  ],
  [
    'config: a DONE cycle names reopen-done-cycle',
    { reports: report, 'cycle-name': 'Done' },
    /^input cycle-name: test cycle DEMO-R1 "Done" is DONE; use reopen-done-cycle: true to record results in it again\.$/,
  ],
  [
    'report: a glob that matches nothing',
    { reports: join(dir, 'nope/*.xml'), 'cycle-name': 'X' },
    /nope\/\*\.xml: matches no file .*check the path or the step that writes the reports\.$/,
  ],
  [
    'report: on-unmatched: fail',
    { reports: report, 'cycle-name': 'X', 'on-unmatched': 'fail' },
    /^1 test\(s\) match no test case \(on-unmatched: fail\): Other › x$/,
  ],
  [
    'service: a read-only token',
    { reports: report, 'cycle-name': 'New', token: RO },
    /^POST \/test_cycles failed with 403 .*writes need a read-write token/,
  ],
  [
    'gate: thresholds not met',
    { mode: 'gate', 'cycle-name': 'Empty', 'min-pass-rate': '50' },
    /^testcycle gate failed: no executed tests to compute a pass rate \(min 50%25\)$/,
  ],
];

/** The step's ::error:: lines, without the command. */
const errorsOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('::error::'))
    .map((l) => l.slice('::error::'.length));

test.each(cases)('%s', async (_name, inputs, message) => {
  const emu = await emulator({ seed, rateLimit: '1000/1m' });
  const run = await runAction({
    'base-url': emu.url,
    token: RW,
    'rate-limit': '1000/1m',
    ...inputs,
  });
  expect(run.code).toBe(1);
  expect(errorsOf(run.stdout)).toEqual([expect.stringMatching(message)]);
  expect(run.stdout).not.toMatch(/unexpected|--[a-z]/);
});

test('report mode: an html-file in a missing directory is a config error before any request', async () => {
  const emu = await emulator({ seed, rateLimit: '1000/1m' });
  const file = join(dir, 'no', 'such', 'dir', 'x.html');
  const run = await runAction({
    'base-url': emu.url,
    token: RW,
    mode: 'report',
    'html-file': file,
  });
  expect(run.code).toBe(1);
  const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toEqual([
    `::error::input html-file: cannot write ${file}: the directory ${join(dir, 'no', 'such', 'dir')} does not exist; create it first (mkdir -p) or give another path.`,
  ]);
  expect(emu.stats().total).toBe(0);
});

// How the result is shown on GitHub is read with every other input: a bad value fails the step
// before the first request, not after the cycle and its executions were written.
test.each([
  [
    'publish',
    'comment',
    'sometimes',
    /^input comment: "sometimes" is not one of off, always, on-failure\.$/,
  ],
  ['publish', 'annotations', 'maybe', /^input annotations: "maybe" is not true or false\.$/],
  ['publish', 'job-summary', 'perhaps', /^input job-summary: "perhaps" is not true or false\.$/],
  [
    'gate',
    'comment',
    'sometimes',
    /^input comment: "sometimes" is not one of off, always, on-failure\.$/,
  ],
  ['gate', 'annotations', 'maybe', /^input annotations: "maybe" is not true or false\.$/],
  ['report', 'job-summary', 'perhaps', /^input job-summary: "perhaps" is not true or false\.$/],
  ['sync', 'case-names', 'Keep', /^input case-names: "Keep" is not one of key, keep, replace\.$/],
  [
    'publish',
    'case-names',
    'manual',
    /^input case-names: "manual" is not one of key, keep, replace\.$/,
  ],
])(
  'mode %s with a bad %s (%s) sends no request and names the input',
  async (mode, input, value, message) => {
    const emu = await emulator({ seed, rateLimit: '1000/1m' });
    const run = await runAction(
      {
        'base-url': emu.url,
        token: RW,
        'rate-limit': '1000/1m',
        mode,
        ...(mode === 'report' ? {} : { reports: report, 'cycle-name': 'Nightly' }),
        'check-name': 'testcycle',
        // A gate needs a threshold: without one it fails on that first, whatever else is wrong.
        'max-failed': '0',
        'github-token': 'gh-token-0123456789',
        [input]: value,
      },
      {},
      // Where a report step would write its page, should it ever get that far.
      dir,
    );
    expect(run.code).toBe(1);
    expect(errorsOf(run.stdout)).toEqual([expect.stringMatching(message)]);
    expect(emu.stats().total).toBe(0);
    expect(run.outputs).toEqual({});
    expect(run.summary).toBe('');
    expect(existsSync(join(dir, 'testcycle-report.html'))).toBe(false);
  },
);

test.each([
  ['usage', new UsageError('unknown command "x".'), 'unknown command "x".'],
  [
    'config',
    new ConfigError('reopen-done-cycle', (w) => `see ${w.value('reopen-done-cycle', true)}.`),
    'input reopen-done-cycle: see reopen-done-cycle: true.',
  ],
  ['report', new ReportError('a.xml', 'is empty.'), 'a.xml: is empty.'],
  [
    'service',
    new ServiceError({ status: 429, method: 'GET', path: '/projects' }),
    expect.stringContaining('lower input rate-limit or run fewer jobs'),
  ],
  ['gate', new GateFailedError(['a', 'b']), 'testcycle gate failed: a; b'],
  [
    'interrupted',
    new InterruptedError(),
    'cancelled: interrupted: stopped between writes, none left half done.',
  ],
  ['a bug', new TypeError('x is undefined'), expect.stringMatching(/^unexpected error \(a bug/)],
])('the failure line of kind %s', (_kind, error, line) => {
  expect(failureLine(error)).toEqual(line);
});

test('verbose: each request is an ordinary log line (method, path, status, time, retries), never a header or the token', async () => {
  // The emulator allows 4 requests a second, the step believes it may send 1000 a minute: 429s.
  const emu = await emulator({ seed, rateLimit: '4/1s' });
  const run = await runAction({
    'base-url': emu.url,
    token: RW,
    'rate-limit': '1000/1m',
    reports: report,
    'cycle-name': 'Verbose',
    verbose: 'true',
    'retry-base-ms': '50',
  });
  expect(run.code).toBe(0);
  const lines = run.stdout.split('\n');
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^GET \/projects -> 200 \(\d+ ms\)$/),
      expect.stringMatching(/^[A-Z]+ \/.+ -> 429 \(\d+ ms(, retry \d+)?\)$/),
      expect.stringMatching(/^[A-Z]+ \/.+ -> 20\d \(\d+ ms, retry \d+\)$/),
    ]),
  );
  expect(run.stdout).not.toContain('::debug::');
  expect(run.stdout).not.toMatch(/authorization|bearer/i);
  expect(run.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(RW);
});

test('a dry run: summary and outputs are a plan, the gate is skipped, nothing is written', async () => {
  const emu = await emulator({ seed, rateLimit: '1000/1m' });
  const run = await runAction({
    'base-url': emu.url,
    token: RW,
    'rate-limit': '1000/1m',
    reports: report,
    'cycle-name': 'Planned',
    'dry-run': 'true',
    'min-pass-rate': '100',
  });
  expect(run.code).toBe(0);
  expect(run.outputs).toMatchObject({
    'dry-run': 'true',
    gate: 'skipped',
    'cycle-key': '',
    'cycle-status': '',
    created: '1',
    updated: '0',
    'planned-requests': expect.stringMatching(/^\d+$/),
  });
  expect(run.summary).toContain('📝 Dry run: the plan, nothing written');
  expect(run.summary).toContain('(would be created)');
  expect(run.summary).toContain('Gate: not evaluated (dry run)');
  expect(emu.stats().byMethod.POST ?? 0).toBe(0);
});
