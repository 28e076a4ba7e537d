/** Bad input at the CLI: one clear line naming the flag, the right exit code, nothing sent. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardSettings } from '../../src/dashboard/index.js';
import { settingsFrom } from '../../src/publish/index.js';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';
import { closeAll, startServer } from '../helpers/http-server.js';

afterEach(closeEmulators);

const run = runCli;

test('every flag is checked before a report is read: a bad flag is exit 2 even when the report is missing too', async () => {
  const env = { TESTCYCLE_BASE_URL: 'https://eu.example.test', TESTCYCLE_TOKEN: RW };
  const publish = ['publish', '--report', 'missing/*.xml', '--cycle-name', 'x'];
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['--rate-limit', '0/1m'], env, /--rate-limit: "0\/1m" is not COUNT\/WINDOW/],
    [[], { ...env, TESTCYCLE_RATE_LIMIT: 'fast' }, /TESTCYCLE_RATE_LIMIT: "fast" is not COUNT/],
    [['--timeout-ms', 'soon'], env, /--timeout-ms/],
    [['--base-url', 'http://eu.example.test'], env, /--base-url: must use https/],
    [[], { TESTCYCLE_TOKEN: RW }, /--base-url: is required/],
  ];
  for (const [extra, environment, message] of cases) {
    const result = await run([...publish, ...extra], environment);
    expect({ code: result.code, err: result.err }).toEqual({
      code: 2,
      err: expect.stringMatching(message),
    });
    expect(result.err).not.toContain(RW);
  }
  // With good flags, the missing report is what fails (exit 4), still before any request.
  expect((await run(publish, env)).code).toBe(4);
});

test('an unquoted glob that the shell expanded gets a hint to quote it', async () => {
  const result = await run(
    ['parse', '--report', 'examples/reports/junit/a.xml', 'examples/reports/junit/b.xml'],
    {},
  );
  expect(result.code).toBe(2);
  expect(result.err).toContain(
    "Unexpected argument 'examples/reports/junit/b.xml'. This command does not take positional arguments. Quote --report globs",
  );
});

test('--report DIRECTORY publishes the reports in it', async () => {
  const emu = await emulator({ seed: caseSeed(0), rateLimit: '1000/1m' });
  const result = await run(
    [
      'publish',
      '--report',
      'examples/reports/',
      '--cycle-name',
      'Dir',
      '--create-missing-cases',
      '--json',
    ],
    { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' },
  );
  expect(result.code).toBe(0);
  // 13 JUnit tests and 4 Playwright tests, as `testcycle parse --report examples/reports` lists them.
  expect(JSON.parse(result.out).counts.total).toBe(17);
});

test('an older Node gets one line saying which Node to use, not a stack trace from a dependency', async () => {
  // Node 24 pretending to be 22.11: what a node:22 CI image would run.
  const pretend =
    'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"22.11.0"}});Object.defineProperty(process,"version",{value:"v22.11.0"});';
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, ['--import', pretend, ...args], (error, stdout, stderr) =>
        resolve({ code: Number(error?.code ?? 0), stdout, stderr }),
      ),
    );
  const needs =
    'testcycle needs Node.js 24 or later; this is v22.11.0. Use a node:24 image, or actions/setup-node with node-version: 24.';
  expect(await run(['lib/cli/bin.js', 'parse', '--report', 'examples/reports'])).toEqual({
    code: 2,
    stdout: '',
    stderr: `${needs}\n`,
  });
  // The library says the same when it is imported, before its HTTP client loads.
  const library = await run([
    '--input-type=module',
    '-e',
    "import('testcycle').then(() => console.log('loaded'), (e) => console.log(e.message))",
  ]);
  expect(library.stdout).toBe(`${needs}\n`);
});

describe('output files are checked before the first request', () => {
  const work = mkdtempSync(join(tmpdir(), 'testcycle-out-'));
  const report = join(work, 'r.xml');
  writeFileSync(
    report,
    '<testsuite name="s"><testcase classname="Suite" name="test0"/></testsuite>',
  );
  const missing = join(work, 'no', 'such', 'dir');

  /** What the emulator counted, read as a client would (GET /__emulator/stats). */
  async function requestsSeen(emu: { origin: string }): Promise<number> {
    const res = await fetch(`${emu.origin}/__emulator/stats`);
    return ((await res.json()) as { total: number }).total;
  }

  test.each([
    ['report', ['--html-file', `${missing}/x.html`], '--html-file'],
    ['report', ['--markdown-file', `${missing}/x.md`], '--markdown-file'],
    ['report', ['--html-file', work], '--html-file'],
    [
      'publish',
      ['--report', report, '--cycle-name', 'CI', '--summary-file', `${missing}/s.md`],
      '--summary-file',
    ],
    [
      'gate',
      ['--cycle-name', 'CI', '--max-failed', '0', '--summary-file', `${missing}/s.md`],
      '--summary-file',
    ],
  ])('%s %j: exit 2 naming the flag and the path, no request sent', async (command, args, flag) => {
    const emu = await emulator({ seed: caseSeed(1) });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    const result = await run([command, ...args], env);
    expect(result.code).toBe(2);
    const path = args[args.indexOf(flag) + 1]!;
    expect(result.err).toContain(`${flag}: cannot write ${path}: `);
    expect(result.err).not.toMatch(/unexpected error/);
    expect(await requestsSeen(emu)).toBe(0);
  });

  test('the message says what to do: create the directory, or give a file name', () => {
    const settings = (file: string) => settingsFrom({ 'html-file': file });
    expect(() => dashboardSettings(settings(`${missing}/x.html`))).toThrow(
      `html-file: cannot write ${missing}/x.html: the directory ${missing} does not exist; create it first (mkdir -p) or give another path.`,
    );
    expect(() => dashboardSettings(settings(work))).toThrow(
      `html-file: cannot write ${work}: it is a directory; give a file name.`,
    );
    expect(dashboardSettings(settings(join(work, 'ok.html'))).htmlFile).toBe(join(work, 'ok.html'));
  });
});

test('{env:NAME} naming or holding a secret of the run is exit 2 before any request, the secret not shown', async () => {
  const server = await startServer(() => ({ status: 200, body: { data: [] } }));
  const env = { TESTCYCLE_BASE_URL: server.url, TESTCYCLE_TOKEN: RW, LABEL: RW };
  for (const [name, why] of [
    ['TESTCYCLE_TOKEN', /TESTCYCLE_TOKEN holds a secret \(its name says TOKEN\)/],
    ['LABEL', /the value of LABEL is a secret of this run/],
  ] as const) {
    for (const args of [
      ['publish', '--report', 'missing/*.xml', '--cycle-name', `CI {env:${name}}`],
      ['gate', '--cycle-name', `CI {env:${name}}`],
      ['cycle', 'create', '--name', `CI {env:${name}}`],
    ]) {
      const result = await run(args, env);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(new RegExp(`--(cycle-name|name): \\{env:${name}\\}: `));
      expect(result.err).toMatch(why);
      expect(result.err).not.toContain(RW);
    }
  }
  expect(server.log).toEqual([]);
  await closeAll();
});
