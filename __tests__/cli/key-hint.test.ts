/**
 * A Space keyed by another template (docs/design.md "Results and merging"): when most tests match no case and
 * cases keyed by a known template match them, publish says which, with the flag that keeps those
 * keys and the sync that moves the cases to the new ones; both commands work as written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { describeKeyHint } from '../../src/domain/match.js';
import { ACTION_WORDS } from '../../src/action/inputs.js';
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { clientOf, closeClients, options, testOf } from '../helpers/publish.js';
import { publish } from '../../src/publish/index.js';
import { runCli } from '../helpers/cli.js';

afterEach(async () => {
  await closeClients();
  await closeEmulators();
});

const N = 30;

/** A JUnit report of N pytest tests that name their file, as most JUnit writers do. */
function report(): string {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-hint-'));
  const file = join(dir, 'junit.xml');
  const cases = Array.from(
    { length: N },
    (_, i) =>
      `<testcase classname="tests.test_shop" name="test_${i}" file="tests/test_shop.py" time="0.01"/>`,
  );
  writeFileSync(
    file,
    `<testsuites><testsuite name="pytest" tests="${N}">${cases.join('')}</testsuite></testsuites>`,
  );
  return file;
}

/** The Space testcycle 0.1.0 left: the cases keyed `{classname}.{name}`, named by people. */
const seed = () =>
  testSeed({
    testCases: Array.from({ length: N }, (_, i) => ({
      name: `Shop: case ${i}`,
      automationKey: `tests.test_shop.test_${i}`,
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    })),
  });

/** The words of a command line, as a POSIX shell splits them (quotes and backslashes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') word = (word ?? '') + line[++i];
    else if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

const cases = (emu: RunningEmulator) => [...emu.service.store.all('test_cases')];

test('30 of 30 tests unmatched under the new key: the hint names the template, the flag and the sync, and both work as written', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const file = report();
  const publish = ['publish', '--report', file, '--cycle-name', 'CI', '--json'];

  // With --create-missing-cases: none is created, each would duplicate a case that has history.
  const first = await runCli([...publish, '--create-missing-cases'], env);
  expect(first.code).toBe(0);
  expect(JSON.parse(first.out).unmatched).toHaveLength(N);
  expect(cases(emu)).toHaveLength(N);
  const hint = first.err.split('\n').find((line) => line.includes('keyed by'))!;
  expect(hint).toBe(
    `warn: ${N} of ${N} tests match no test case by --automation-key "{file} › {test}", but test cases keyed by "{classname}.{name}" (the default until 0.1.0) match 25 of the 25 looked up by that key; no test case is created for them (each would duplicate one). ` +
      `To match the cases as they are keyed: --automation-key '{classname}.{name}'. ` +
      `To give those cases the keys of "{file} › {test}" once, keeping their history: testcycle sync --report ${file} --migrate-keys '{classname}.{name}' (add --dry-run first to see the plan).`,
  );
  // The check costs one request: the Space, the cycle's lookup, its rank and create, the cases'
  // lookup, then the keys by the known templates of as many tests as one URL holds (25 here).
  expect(JSON.parse(first.out).requests.total).toBe(6);

  // The flag, as written: every test matches its case.
  const flag = /as they are keyed: (.*?)\. To give/.exec(hint)![1]!;
  const kept = await runCli([...publish, ...shellWords(flag)], env);
  expect(kept.code).toBe(0);
  expect(JSON.parse(kept.out)).toMatchObject({ unmatched: [], counts: { passed: N } });

  // The sync, as written: the cases get the new keys; then the default key matches them all.
  const command = /keeping their history: (testcycle .*?) \(add/.exec(hint)![1]!;
  const [, ...args] = shellWords(command);
  const synced = await runCli(args, env);
  expect(synced.code).toBe(0);
  expect(cases(emu).map((c) => c.attributes.automationKey)).toContain(
    'tests/test_shop.py › tests.test_shop.test_0',
  );
  const after = await runCli(publish, env);
  expect(JSON.parse(after.out)).toMatchObject({ unmatched: [], counts: { passed: N } });
  expect(after.err).not.toContain('keyed by');
  expect(cases(emu)).toHaveLength(N);
});

test('the hint in a workflow: the input with its value, and a step of mode sync', () => {
  const text = describeKeyHint(
    {
      template: '{classname}.{name}',
      tests: 30,
      unmatched: 30,
      sampled: 12,
      matched: 12,
      withheld: false,
    },
    '{file} › {test}',
  )(ACTION_WORDS);
  expect(text).toContain(
    "To match the cases as they are keyed: automation-key: '{classname}.{name}'.",
  );
  expect(text).toContain(
    "keeping their history: a step with mode: sync, migrate-keys: '{classname}.{name}' and the inputs of this step that mode sync reads (reports, base-url, token, ...) (add input dry-run first to see the plan).",
  );
});

test('sync, which reads every automated case, gives the same hint without a request more', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW, TESTCYCLE_RATE_LIMIT: '1000/1m' };
  const file = report();
  const plan = await runCli(['sync', '--report', file, '--dry-run', '--json'], env);
  expect(plan.code).toBe(0);
  expect(plan.err).toContain(
    `match ${N} of the ${N} looked up by that key; no test case is created for them (each would duplicate one). To match the cases as they are keyed: --automation-key '{classname}.{name}'.`,
  );
  expect(plan.err).toContain(
    `testcycle sync --report ${file} --migrate-keys '{classname}.{name}' (add --dry-run first`,
  );
  // The Space and the one page of automated cases, as any sync.
  expect(JSON.parse(plan.out).requests.total).toBe(2);
  // No case is created for tests whose cases the other template finds: each would be a duplicate.
  expect(JSON.parse(plan.out).created).toEqual([]);
  const real = await runCli(['sync', '--report', file, '--json'], env);
  expect(real.code).toBe(0);
  expect(JSON.parse(real.out).created).toEqual([]);
  expect(cases(emu).filter((c) => c.attributes.automationKey)).toHaveLength(N);
});

test('a matching that listed every automated case answers the hint from that listing: no request more', async () => {
  // Keys long enough that one listing of the 150 cases (2 pages) beats 4 `in` lookups.
  const n = 150;
  const name = (i: number) => `test_${'long_name_'.repeat(5)}${i}`;
  const emu = await emulator({
    rateLimit: '1000/1m',
    seed: testSeed({
      testCases: Array.from({ length: n }, (_, i) => ({
        name: `case ${i}`,
        automationKey: `tests.test_shop.${name(i)}`,
        status: 'ACTIVE',
      })),
    }),
  });
  const tests = Array.from({ length: n }, (_, i) =>
    testOf('tests.test_shop', name(i), 'passed', { file: 'tests/test_shop.py' }),
  );
  const client = clientOf(emu);
  const result = await publish(client, options([{ file: 'junit.xml', format: 'junit', tests }]));
  expect(result.warnings[0]).toMatch(
    /^150 of 150 tests match no test case by automation-key "\{file\} › \{test\}", but test cases keyed by "\{classname\}\.\{name\}" \(the default until 0\.1\.0\) match 150 of the 150 looked up/,
  );
  // The Space, the cycle's lookup, its rank and create, two pages of automated cases.
  expect(emu.stats().total).toBe(6);
});
