/**
 * Key collisions (docs/design.md "Results and merging"): distinct tests that produce one test-case key are named,
 * never one silent execution. Checked through the emulator's state.
 */
import { KeyCollisionError, publish, type PublishOptions } from '../../src/publish/index.js';
import { PREVIOUS_AUTOMATION_KEY } from '../../src/domain/match.js';
import { testSeed } from '../helpers/emulator.js';
import {
  clientOf,
  closeAll,
  executionsOf,
  options,
  publishEmulator,
  report,
  testOf,
} from '../helpers/publish.js';

const emulator = publishEmulator;

afterEach(closeAll);

const seedOf = (...keys: string[]) =>
  testSeed({
    testCases: keys.map((automationKey, i) => ({
      name: `case ${i}`,
      automationKey,
      status: 'ACTIVE',
    })),
  });

/**
 * The key before the identity model: jest-style tests (the describe path as classname) of two
 * files give one `math.adds` under it.
 */
const oldKey = (reports: ReturnType<typeof report>[], extra: Partial<PublishOptions> = {}) => {
  const settings = options(reports, extra);
  return { ...settings, match: { ...settings.match, automationKey: PREVIOUS_AUTOMATION_KEY } };
};

/** jest-style: the describe path is the classname, so two files give one `math.adds`. */
const twoFiles = () =>
  report([
    testOf('math', 'adds', 'passed', { file: 'a.test.js' }),
    testOf('math', 'adds', 'failed', { file: 'b.test.js' }),
    testOf('math', 'subtracts', 'passed', { file: 'a.test.js' }),
  ]);

test('default warn: the colliding tests are listed with their files and the placeholder that separates them, and not written', async () => {
  const emu = await emulator({ seed: seedOf('math.adds', 'math.subtracts') });
  const result = await publish(clientOf(emu), oldKey([twoFiles()]));
  expect(result.warnings.join('\n')).toMatch(
    /1 test case key\(s\) are shared by distinct tests[^\n]*\n {2}"math\.adds": 2 distinct tests: math › adds \(file "a\.test\.js"\); math › adds \(file "b\.test\.js"\) \[\{file\} in automation-key tells them apart\]/,
  );
  expect(result.unmatched).toEqual([]);
  expect(result.collided!.map((u) => u.reason)).toEqual([
    'key collision: 2 distinct tests share the key "math.adds"',
    'key collision: 2 distinct tests share the key "math.adds"',
  ]);
  const state = executionsOf(emu, 'CI run');
  expect(state.get('math.adds')).toBeUndefined();
  expect(state.get('math.subtracts')).toEqual(['PASSED']);
});

test('fail: stops before any request', async () => {
  const emu = await emulator({ seed: seedOf('math.adds') });
  await expect(
    publish(clientOf(emu), oldKey([twoFiles()], { onKeyCollision: 'fail' })),
  ).rejects.toThrow(KeyCollisionError);
  expect(emu.stats().total).toBe(0);
});

test('the default key holds the file: two files are two cases, no collision', async () => {
  const emu = await emulator({
    seed: seedOf('a.test.js › math.adds', 'b.test.js › math.adds', 'a.test.js › math.subtracts'),
  });
  const result = await publish(clientOf(emu), options([twoFiles()]));
  expect(result.warnings).toEqual([]);
  const state = executionsOf(emu, 'CI run');
  expect(state.get('a.test.js › math.adds')).toEqual(['PASSED']);
  expect(state.get('b.test.js › math.adds')).toEqual(['FAILED']);
});

test('a refusal names what tells the tests apart (their suites), never two identical lines', async () => {
  // Two calc.test.js files whose writer puts the path in the suite only, in one report.xml.
  const suites = report([
    testOf('Calc', 'adds', 'passed', { suite: ['src/a/calc.test.js'] }),
    testOf('Calc', 'adds', 'failed', { suite: ['src/b/calc.test.js'] }),
  ]);
  const emu = await emulator({ seed: seedOf('Calc.adds') });
  const refused = publish(clientOf(emu), oldKey([suites], { onKeyCollision: 'fail' }));
  await expect(refused).rejects.toThrow(KeyCollisionError);
  await expect(refused).rejects.toThrow(
    '"Calc.adds": 2 distinct tests: Calc › adds (suite "src/a/calc.test.js"); Calc › adds (suite "src/b/calc.test.js") [{suite} in automation-key tells them apart]',
  );
  expect(emu.stats().total).toBe(0);
});

test('tests that differ only in their line are told apart by it, with the way out', async () => {
  const lines = report([
    testOf('Calc', 'adds', 'passed', { file: 'calc.feature', line: 12 }),
    testOf('Calc', 'adds', 'failed', { file: 'calc.feature', line: 30 }),
  ]);
  const emu = await emulator({ seed: seedOf('calc.feature › Calc.adds') });
  await expect(
    publish(clientOf(emu), options([lines], { onKeyCollision: 'fail' })),
  ).rejects.toThrow(
    'Calc › adds (line "12"); Calc › adds (line "30") [only their line differs: give each an explicit test case key or its own name]',
  );
});

test('merge: one execution, the worst result, as asked', async () => {
  const emu = await emulator({ seed: seedOf('math.adds', 'math.subtracts') });
  const result = await publish(clientOf(emu), oldKey([twoFiles()], { onKeyCollision: 'merge' }));
  expect(result.unmatched).toEqual([]);
  expect(executionsOf(emu, 'CI run').get('math.adds')).toEqual(['FAILED']);
});

test('{file} in the key separates them: two cases, two executions', async () => {
  const emu = await emulator({
    seed: seedOf('a.test.js.math.adds', 'b.test.js.math.adds', 'a.test.js.math.subtracts'),
  });
  const settings = options([twoFiles()]);
  const result = await publish(
    clientOf(emu),
    options([twoFiles()], {
      match: { ...settings.match, automationKey: '{file}.{classname}.{name}' },
    }),
  );
  expect(result.warnings).toEqual([]);
  const state = executionsOf(emu, 'CI run');
  expect(state.get('a.test.js.math.adds')).toEqual(['PASSED']);
  expect(state.get('b.test.js.math.adds')).toEqual(['FAILED']);
});

test('invocations of one parameterized test are one case (worst wins), or a case each with {params}', async () => {
  const invocations = report(
    ['[1]', '[2]', '[3]'].map((params, i) =>
      testOf('Calc', 'adds', i === 2 ? 'failed' : 'passed', { params }),
    ),
  );
  const emu = await emulator({ seed: seedOf('Calc.adds') });
  const folded = await publish(clientOf(emu), oldKey([invocations]));
  expect(folded.warnings).toEqual([]);
  expect(executionsOf(emu, 'CI run').get('Calc.adds')).toEqual(['FAILED']);

  const settings = options([invocations]);
  const each = await publish(
    clientOf(emu),
    options([invocations], {
      cycle: { ...settings.cycle, name: 'per params' },
      match: {
        ...settings.match,
        automationKey: '{classname}.{name}{params}',
        createMissingCases: true,
      },
    }),
  );
  expect(each.writes.casesCreated).toBe(3);
  const state = executionsOf(emu, 'per params');
  expect([...state.entries()].sort()).toEqual([
    ['Calc.adds[1]', ['PASSED']],
    ['Calc.adds[2]', ['PASSED']],
    ['Calc.adds[3]', ['FAILED']],
  ]);
});

test('the same test in two report files (matrix legs) is one test run twice, not a collision', async () => {
  const emu = await emulator({ seed: seedOf('math.adds') });
  const leg = (outcome: 'passed' | 'failed', file: string) =>
    report([testOf('math', 'adds', outcome, { file: 'a.test.js' })], file);
  const result = await publish(
    clientOf(emu),
    oldKey([leg('passed', 'linux.xml'), leg('failed', 'windows.xml')]),
  );
  expect(result.warnings).toEqual([]);
  expect(executionsOf(emu, 'CI run').get('math.adds')).toEqual(['FAILED']);
});

test('case names cut to fit stay distinct: two tests whose keys share their first 240 characters get a case each; the failure is in the cycle, and --max-failed 0 fails', async () => {
  const stem = `checkout ${'applies every discount rule in order '.repeat(7)}`;
  const tests = [
    testOf('cart', `${stem}for a guest`, 'passed', { file: 'cart.test.js' }),
    testOf('cart', `${stem}for a staff`, 'failed', { file: 'cart.test.js' }),
  ];
  const emu = await publishEmulator();
  const defaults = options([]);
  const result = await publish(
    clientOf(emu),
    options([report(tests)], {
      match: { ...defaults.match, createMissingCases: true },
      gate: { ...defaults.gate!, maxFailed: 0 },
    }),
  );
  expect(result.unmatched).toEqual([]);
  expect(result.writes.casesCreated).toBe(2);
  const names = [...emu.service.store.all('test_cases')].map((c) => String(c.attributes.name));
  expect(names.map((n) => n.length)).toEqual([253, 253]);
  expect(names[0]!.slice(0, 240)).toBe(names[1]!.slice(0, 240));
  expect(names[0]).not.toBe(names[1]);
  expect([...executionsOf(emu, 'CI run').values()].flat().sort()).toEqual(['FAILED', 'PASSED']);
  expect(result.gate).toMatchObject({ passed: false, reasons: ['1 failed, more than 0 allowed'] });
});
