/**
 * Settings that do nothing where they are given are said, before the first request
 * (docs/design.md "Settings that do nothing"): the table's `needs` (src/settings/table.ts), checked row by
 * row, and the CLI's words for them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY_WORDS } from '../../src/shared/errors.js';
import { settingsFrom } from '../../src/shared/setting-readers.js';
import {
  idleSettings,
  type Need,
  type Place,
  type Setting,
  SETTINGS,
  settingOf,
  THRESHOLD_KEYS,
} from '../../src/settings/table.js';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

afterEach(closeEmulators);

const ROWS = Object.entries(SETTINGS as Record<string, Setting>);

/** A value that sets (or turns on) a setting: not its default. */
function on(key: string): unknown {
  const s = settingOf(key)!;
  if (s.type === 'boolean') return s.default !== 'true';
  return s.type === 'list' ? ['x@example.com'] : 'x';
}
/** Values that satisfy a need: the first setting it names, and what that one needs in turn. */
function meets(need: Need, place: Place): [string, unknown][] {
  if (!need.anyOf.length) return [[THRESHOLD_KEYS[0]!, '1']];
  const key = need.anyOf[0]!;
  const value = settingOf(key)!.type === 'boolean' ? true : on(key);
  const further = (settingOf(key)!.needs ?? []).filter((n) => holdsAt(n, place));
  return [[key, value], ...further.flatMap((n) => meets(n, place))];
}

const holdsAt = (need: Need, place: Place) =>
  !need.in ||
  ('command' in place
    ? (need.in.commands ?? []).includes(place.command)
    : (need.in.modes ?? []).includes(place.mode));

const idle = (values: Record<string, unknown>, place: Place) =>
  idleSettings(settingsFrom(values), settingsFrom(values), place).map((w) => w(KEY_WORDS));

/** Every place a row with needs is read, with the needs that hold there. */
const CASES = ROWS.filter(([, s]) => s.needs).flatMap(([key, s]) => [
  ...(s.commands ?? []).map((command) => ({
    key,
    place: { command } as Place,
    needs: s.needs!.filter((n) => !n.in || n.in.commands?.includes(command)),
  })),
  ...(s.modes ?? []).map((mode) => ({
    key,
    place: { mode } as Place,
    needs: s.needs!.filter((n) => !n.in || n.in.modes?.includes(mode)),
  })),
]);

test('the needs of the table name settings of the table, read where the need holds', () => {
  for (const [key, s] of ROWS)
    for (const need of s.needs ?? []) {
      for (const other of need.anyOf)
        expect([key, settingOf(other) !== undefined]).toEqual([key, true]);
      for (const command of need.in?.commands ?? []) expect(s.commands).toContain(command);
      for (const mode of need.in?.modes ?? []) expect(s.modes).toContain(mode);
    }
  // The rows with needs, as docs/design.md "Settings that do nothing" lists them.
  const section = readFileSync('docs/design.md', 'utf8').split('### Settings that do nothing')[1]!;
  const documented = [...section.split('\n## ')[0]!.matchAll(/^\| (`.*?) \|/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((k) => k[1]),
  );
  expect(documented).toEqual(ROWS.filter(([, s]) => s.needs).map(([key]) => key));
  expect(documented).toEqual([
    'create-cycle',
    'cycle-custom-fields',
    'requirement-pattern',
    'requirement-names',
    'work-item-pattern',
    'work-item-names',
    'quarantine-field',
    'baseline',
    'baseline-series',
    'baseline-cycle',
    'link-template',
    'max-annotations',
    'retire-max',
    'retire-grace',
    'retire-series',
    'retire-scope',
    'case-names',
    'replace-steps',
    'ownership-field',
    'case-fields',
    'requirements',
  ]);
});

test.each(CASES)(
  '$key in $place: a warning without what it needs, none with it',
  ({ key, place, needs }) => {
    const alone = idle({ [key]: on(key) }, place);
    if (needs.length === 0) {
      expect(alone).toEqual([]);
      return;
    }
    expect(alone).toEqual([
      expect.stringMatching(
        new RegExp(`^${key}: .* has no effect (without|with) .*; it is ignored\\.$`),
      ),
    ]);
    const all = Object.fromEntries(needs.flatMap((n) => meets(n, place)));
    expect(idle({ [key]: on(key), ...all }, place)).toEqual([]);
    // Each need on its own counts: with the others met and this one's settings off, one warning
    // for this setting (a setting met for another need may then warn for itself).
    for (const need of needs) {
      const others = Object.fromEntries(
        needs.filter((n) => n !== need).flatMap((n) => meets(n, place)),
      );
      const off = Object.fromEntries(
        need.anyOf.map((k) => [k, settingOf(k)!.type === 'boolean' ? false : undefined]),
      );
      const warned = idle({ [key]: on(key), ...others, ...off }, place);
      expect(warned.filter((w) => w.startsWith(`${key}:`))).toHaveLength(1);
    }
  },
);

test('in the action, an input its mode does not read is said, and a default is no value given', () => {
  expect(
    idle({ 'min-pass-rate': '90', 'retire-missing': false, format: 'auto' }, { mode: 'sync' }),
  ).toEqual([
    'min-pass-rate: 90 has no effect in mode sync (it is read in modes publish, gate); it is ignored.',
  ]);
  expect(idle({ 'max-annotations': '5' }, { mode: 'publish' })).toEqual([
    'max-annotations: 5 has no effect without check-name; it is ignored.',
  ]);
});

/** A JUnit report of two tests. */
function junit(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'testcycle-idle-')), 'junit.xml');
  writeFileSync(file, '<testsuite name="Suite"><testcase classname="Suite" name="a"/></testsuite>');
  return file;
}

test.each([
  [['sync', '--retire-max', '5'], '--retire-max 5 has no effect without --retire-missing'],
  [
    ['publish', '--cycle-key', 'DEMO-R1', '--no-create-cycle'],
    '--no-create-cycle has no effect without --cycle-name',
  ],
  [
    [
      'publish',
      '--cycle-name',
      'CI',
      '--no-create-cycle',
      '--cycle-custom-fields',
      '{"build":"1"}',
    ],
    '--cycle-custom-fields {"build":"1"} has no effect with --no-create-cycle',
  ],
  [
    ['publish', '--cycle-name', 'CI', '--baseline-cycle', 'Nightly 1'],
    '--baseline-cycle Nightly 1 has no effect without --max-new-failures, --notify or --notify-users',
  ],
  [
    ['publish', '--cycle-name', 'CI', '--quarantine-field', 'flaky'],
    '--quarantine-field flaky has no effect without a gate threshold, --notify, --notify-users, --gate-filter, --auto-quarantine or --release-after',
  ],
  [
    ['publish', '--cycle-name', 'CI', '--case-names', 'keep'],
    '--case-names keep has no effect without --sync',
  ],
  [
    ['gate', '--cycle-name', 'CI', '--max-failed', '0', '--link-template', 'https://x/{key}'],
    '--link-template https://x/{key} has no effect without --summary-file',
  ],
])('%j: said first, before any request', async (args, warning) => {
  const report = args[0] === 'gate' ? [] : ['--report', junit()];
  const { err } = await runCli([...args, ...report], {});
  expect(err.split('\n')[0]).toBe(`warn: ${warning}; it is ignored.`);
});

test('a setting that works says nothing: with what it needs, from a variable, a default', async () => {
  const emu = await emulator({ seed: testSeed(), rateLimit: '1000/1m' });
  const env = {
    TESTCYCLE_BASE_URL: emu.url,
    TESTCYCLE_TOKEN: RW,
    TESTCYCLE_RATE_LIMIT: '1000/1m',
    // Set for every step of a pipeline: no mistake of this one.
    TESTCYCLE_CASE_NAMES: 'keep',
  };
  const report = junit();
  const runs = [
    ['sync', '--report', report, '--retire-missing', '--retire-max', '5', '--dry-run'],
    [
      'publish',
      '--report',
      report,
      '--cycle-name',
      'CI',
      '--quarantine-field',
      'quarantine',
      '--max-failed',
      '0',
    ],
    ['publish', '--report', report, '--cycle-name', 'CI', '--case-names', 'keep', '--sync'],
  ];
  for (const args of runs) {
    const { code, err } = await runCli(args, env);
    expect({
      args,
      code,
      idle: err.split('\n').filter((l) => l.includes('has no effect')),
    }).toEqual({
      args,
      code: 0,
      idle: [],
    });
  }
});
