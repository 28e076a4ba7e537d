/**
 * The command words a newcomer types: the two-word commands' first word alone or with --help, a
 * misspelled command, the flags a command cannot do without, and a port the emulator cannot have.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';
import { SETTINGS } from '../../src/settings/table.js';

afterEach(closeEmulators);

describe('cycle and quarantine name their commands', () => {
  test.each([
    ['cycle', ['create --name NAME', 'close (--cycle-key KEY | --cycle-name NAME)']],
    ['quarantine', ['add [^\\n]* --case KEY --reason TEXT', 'remove [^\\n]* --case KEY', 'list']],
  ])('%s --help lists its commands with their usage, exit 0', async (group, usages) => {
    for (const help of ['--help', '-h', 'help']) {
      const r = await runCli([group, help], {});
      expect(r.code).toBe(0);
      expect(r.out.split('\n')[0]).toMatch(new RegExp(`^usage: testcycle ${group} \\S+\\|`));
      for (const usage of usages)
        expect(r.out).toMatch(
          new RegExp(`^  testcycle ${group} ${usage.replace(/[()|]/g, '\\$&')}`, 'm'),
        );
    }
  });

  test('alone, a usage error that names the commands', async () => {
    expect(await runCli(['cycle'], {})).toEqual({
      code: 2,
      out: '',
      err: 'testcycle cycle: say create or close: testcycle cycle create, testcycle cycle close. See testcycle cycle --help.',
    });
  });

  test('a misspelled second word gets the word it meant', async () => {
    const r = await runCli(['quarantine', 'ad', '--case', 'DEMO-T1'], {});
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^testcycle quarantine: unknown command "quarantine ad"; did you mean quarantine add\? Say add, remove or list: /,
    );
  });
});

describe('a misspelled command gets the command it meant', () => {
  test.each([
    ['publsh', 'publish'],
    ['emulater', 'emulator'],
    ['chek', 'check'],
  ])('%s: did you mean %s', async (typed, meant) => {
    const r = await runCli([typed, '--report', 'x'], {});
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(
        `^testcycle ${typed}: unknown command "${typed}"; did you mean ${meant}\\? Commands: publish, gate, `,
      ),
    );
  });

  test('the first word of a two-word command, with the second', async () => {
    const r = await runCli(['quarantin', 'add'], {});
    expect(r.err).toContain('unknown command "quarantin"; did you mean quarantine add?');
  });

  test('nothing near: the commands, no guess', async () => {
    const r = await runCli(['deploy'], {});
    expect(r.err).toMatch(/^testcycle deploy: unknown command "deploy"\. Commands: publish, /);
  });
});

test('quarantine add and remove show --case and --reason as required, not in brackets', async () => {
  const add = (await runCli(['quarantine', 'add', '--help'], {})).out.split('\n')[0];
  expect(add).toMatch(/ --case KEY --reason TEXT \[--until DATE\]/);
  const remove = (await runCli(['quarantine', 'remove', '--help'], {})).out.split('\n')[0];
  expect(remove).toMatch(/ --case KEY /);
  expect(remove).not.toContain('[--case KEY]');
});

test("the action's mode input names every mode, quarantine included", () => {
  for (const mode of SETTINGS.mode.choices)
    expect(SETTINGS.mode.description).toMatch(new RegExp(`\\b${mode}\\b`));
});

test('a port in use is a configuration error naming --port 0, not an unexpected error', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  try {
    expect(await runCli(['emulator', '--port', String(port)], {})).toEqual({
      code: 2,
      out: '',
      err: `testcycle emulator: --port: ${port} is in use on 127.0.0.1 (another emulator still running?): stop what listens there, or use --port 0 for any free port.`,
    });
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test('one test case created is one, not "1 test cases"', async () => {
  const emu = await emulator({ seed: caseSeed(0) });
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-one-case-'));
  const file = join(dir, 'one.xml');
  writeFileSync(
    file,
    '<testsuite name="Suite"><testcase classname="Suite" name="only"/></testsuite>',
  );
  const summary = join(dir, 'summary.md');
  const r = await runCli(
    [
      'publish',
      '--report',
      file,
      '--cycle-name',
      'One',
      '--create-missing-cases',
      '--summary-file',
      summary,
    ],
    { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW },
  );
  expect(r.code).toBe(0);
  expect(r.out).toContain('writes: 1 created, 0 updated, 0 unchanged, 1 test case created');
  expect(readFileSync(summary, 'utf8')).toContain('1 test case created');
});

describe('--report takes the comma or newline list its help describes', () => {
  const files = (out: string) =>
    out
      .split('\n')
      .filter((l) => l.startsWith('examples/'))
      .map((l) => l.split(/\s+/)[0]);

  test.each([
    ['a comma', ['examples/reports/junit/*Cart*.xml,examples/reports/playwright']],
    ['a comma and spaces', ['examples/reports/junit/*Cart*.xml , examples/reports/playwright']],
    ['a line end', ['examples/reports/junit/*Cart*.xml\nexamples/reports/playwright']],
    ['the flag twice', ['examples/reports/junit/*Cart*.xml', 'examples/reports/playwright']],
  ])('%s', async (_how, values) => {
    const r = await runCli(['parse', ...values.flatMap((v) => ['--report', v])], {});
    expect(r.err).toBe('');
    expect(files(r.out)).toEqual([
      'examples/reports/junit/TEST-com.acme.shop.cart.CartServiceTest.xml',
      'examples/reports/playwright/results.json',
    ]);
  });

  test("a glob's {a,b} alternatives stay one pattern, in the flag and the input", async () => {
    const glob = 'examples/reports/junit/TEST-com.acme.shop.{cart,catalog}.*.xml';
    const r = await runCli(['parse', '--report', glob], {});
    expect(files(r.out)).toEqual([
      'examples/reports/junit/TEST-com.acme.shop.cart.CartServiceTest.xml',
      'examples/reports/junit/TEST-com.acme.shop.catalog.SearchTest.xml',
    ]);
    const { listSetting } = await import('../../src/shared/setting-readers.js');
    const input = { string: () => `${glob},\nexamples/reports/playwright`, bool: () => undefined };
    expect(listSetting(input, 'reports')).toEqual([glob, 'examples/reports/playwright']);
  });
});
