/**
 * Every kind of error at the CLI (docs/design.md "Exit codes"): one line on stderr naming the flag as typed on a
 * command line, and the exit code docs/design.md gives the kind. Nothing expected is "unexpected".
 */
import { COMMON_KEYS, settingOf } from '../../src/settings/table.js';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RO, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

const run = runCli;

describe('each kind: one line naming the flag, the right exit code', () => {
  const report = 'examples/reports/junit/TEST-com.acme.shop.cart.CartServiceTest.xml';
  const seed = {
    ...caseSeed(1),
    testCycles: [
      { name: 'Done', status: 'DONE' as const },
      { name: 'Empty', status: 'ACTIVE' as const },
    ],
  };
  const cases: [string, (url: string) => string[], Record<string, string>, number, RegExp][] = [
    [
      'usage: an unknown flag',
      () => ['publish', '--bogus'],
      {},
      2,
      /^testcycle publish: unknown flag --bogus\. See testcycle publish --help\.$/,
    ],
    ['usage: an unknown command', () => ['pubish'], {}, 2, /unknown command "pubish"/],
    [
      'config: a format that does not exist',
      () => ['publish', '--report', report, '--cycle-name', 'X', '--format', 'junk'],
      {},
      2,
      /--format: "junk" is not one of auto, junit, /,
    ],
    [
      'config: a missing required flag',
      () => ['publish', '--cycle-name', 'X'],
      {},
      2,
      /--report: is required: globs or directories/,
    ],
    [
      'config: --no-create-cycle and no such cycle',
      () => ['publish', '--report', report, '--cycle-name', 'Nope', '--no-create-cycle'],
      {},
      2,
      /--cycle-name: no test cycle is named "Nope" and --no-create-cycle is set\./,
    ],
    [
      'config: a DONE cycle names --reopen-done-cycle',
      () => ['publish', '--report', report, '--cycle-name', 'Done'],
      {},
      2,
      /--cycle-name: test cycle DEMO-R1 "Done" is DONE; use --reopen-done-cycle to record results/,
    ],
    [
      'config: cycle create names its own flag (--name)',
      () => ['cycle', 'create', '--name', '{nope}'],
      {},
      2,
      /--name: unknown placeholder \{nope\}/,
    ],
    [
      'config: a value from a variable names the variable',
      () => ['gate', '--cycle-name', 'Empty', '--max-failed', '0'],
      { TESTCYCLE_RATE_LIMIT: 'fast' },
      2,
      /TESTCYCLE_RATE_LIMIT: "fast" is not COUNT\/WINDOW/,
    ],
    [
      'report: a glob that matches nothing',
      () => ['publish', '--report', 'nope/*.xml', '--cycle-name', 'X'],
      {},
      4,
      /nope\/\*\.xml: matches no file/,
    ],
    [
      'report: --on-unmatched fail',
      () => ['publish', '--report', report, '--cycle-name', 'X', '--on-unmatched', 'fail'],
      {},
      4,
      /test\(s\) match no test case \(--on-unmatched fail\)/,
    ],
    [
      'service: a read-only token writes nothing',
      () => ['publish', '--report', report, '--cycle-name', 'New', '--create-missing-cases'],
      { TESTCYCLE_TOKEN: RO },
      3,
      /failed with 403 .*read-write token/,
    ],
    [
      'gate: thresholds not met',
      () => ['gate', '--cycle-name', 'Empty', '--min-pass-rate', '50'],
      {},
      1,
      /^$/,
    ],
  ];
  test.each(cases)('%s', async (_name, args, env, code, message) => {
    const emu = await emulator({ seed, rateLimit: '1000/1m' });
    const result = await run(args(emu.url), {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: RW,
      ...env,
    });
    const lines = result.err.split('\n').filter((l) => l.startsWith('testcycle '));
    expect({ code: result.code, lines: lines.length }).toEqual({
      code,
      lines: code === 1 ? 0 : 1,
    });
    expect(lines.join('\n') || result.err).toMatch(message);
    expect(result.err).not.toContain('unexpected');
  });
});

test('--help is generated from the settings table, per command', async () => {
  const help = await run(['publish', '--help'], {});
  expect(help.code).toBe(0);
  expect(help.out).toMatch(
    /^usage: testcycle publish --report GLOB \(repeatable\) \[--format F\] \[--max-report-bytes N\] \(--cycle-key KEY \| --cycle-name NAME\) \[--no-create-cycle\]/,
  );
  // Every flag the command takes is listed with its default, as the settings table says.
  expect(help.out).toMatch(
    /--max-report-bytes N +Refuse report files larger than this \(bytes\)\. \(default 104857600\)/,
  );
  expect(help.out).toMatch(
    /--rate-limit C\/W +At most COUNT[^]*?\(default\s+100\/1m; env\s+TESTCYCLE_RATE_LIMIT\)/,
  );
  const create = await run(['cycle', 'create', '--help'], {});
  expect(create.out).toMatch(
    /^usage: testcycle cycle create --name NAME \[--custom-fields JSON\] \[--status ACTIVE\|DRAFT\] \[--populate FILTRQL\] \[--json\] \[common flags\]/,
  );
});

test('the common flags are the rows the settings table marks `common`: taken by every service command, listed once', async () => {
  const service = settingOf('base-url')!.commands!;
  // A row marked common that some service command does not take would be listed where it is not taken.
  for (const key of COMMON_KEYS)
    expect([key, service.filter((c) => !settingOf(key)!.commands!.includes(c))]).toEqual([key, []]);
  const flagsIn = (text: string) => [...text.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
  const common = (text: string) => flagsIn(text.slice(text.indexOf('common flags:')));
  const top = await run(['--help'], {});
  const gate = await run(['gate', '--help'], {});
  // The same flags in the same order under `testcycle --help` and under each command's help.
  expect(common(top.out)).toEqual(COMMON_KEYS.map((k) => `--${k}`));
  expect(common(gate.out)).toEqual(COMMON_KEYS.map((k) => `--${k}`));
  expect(gate.out.slice(0, gate.out.indexOf('common flags:'))).not.toMatch(
    /^ {2}--(base-url|verbose)\b/m,
  );
});
