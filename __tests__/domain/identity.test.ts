/**
 * One key per test whatever the reporter and the machine (docs/architecture.md "Test identity", docs/design.md
 * "keys"), checked through the emulator's state on the reports real runners wrote (samples/).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publish, publishSettings, settingsFrom } from '../../src/publish/index.js';
import { workspaceOf, workspacePath } from '../../src/domain/context.js';
import { keyBuilder, keyWarnings } from '../../src/domain/match.js';
import { render } from '../../src/shared/errors.js';
import { parseReport, readReports, type ParsedReport } from '../../src/parsers/index.js';
import { clientOf, closeAll, publishEmulator } from '../helpers/publish.js';

afterEach(closeAll);

/**
 * The folder a sample's runner ran in, as the absolute paths its reports hold say (the checkout
 * root of the sample's project); a sample whose reports hold none needs no workspace.
 */
function sampleRoot(runner: string, inputs: string[]): string {
  for (const input of inputs.filter((i) => /\.(json|xml)$/.test(i))) {
    // googletest's JSON escapes every slash.
    const text = readFileSync(join('samples', runner, input), 'utf8').replaceAll('\\/', '/');
    const root = new RegExp(`"(/[^"]*?/samples/${runner})/`).exec(text)?.[1];
    if (root) return root;
  }
  return '/nowhere';
}

const casesIn = (emu: Awaited<ReturnType<typeof publishEmulator>>) =>
  [...emu.service.store.all('test_cases')].map((c) => String(c.attributes.automationKey));

/** `testcycle publish --create-missing-cases` of one report, its own cycle, default key. */
async function publishEach(
  emu: Awaited<ReturnType<typeof publishEmulator>>,
  runner: string,
  inputs: string[],
  env: Record<string, string>,
) {
  const warnings: string[] = [];
  for (const input of inputs) {
    const reports = await readReports([join('samples', runner, input)]);
    const settings = publishSettings(
      settingsFrom({ 'cycle-name': `${runner} ${input}`, 'create-missing-cases': true }),
      env,
    );
    const result = await publish(clientOf(emu), { ...settings, reports });
    expect(result.unmatched).toEqual([]);
    warnings.push(...result.warnings);
  }
  return warnings;
}

describe('every reporter of one run gives one case per test (samples/)', () => {
  test.each([
    // [runner, the reporters' files that write the whole identity, cases, why it is not the run's count]
    ['jest', ['reports/jest.json', 'reports/ctrf.json', 'reports/allure-results'], 19, ''],
    ['vitest', ['reports/vitest.json', 'reports/junit.xml', 'reports/ctrf-d2t.json'], 18, ''],
    [
      'playwright',
      [
        'reports/playwright.json',
        'reports/junit.xml',
        'reports/ctrf.json',
        'reports/allure-results',
      ],
      15,
      '',
    ],
    ['cucumber-js', ['reports/cucumber.json', 'reports/messages.ndjson'], 16, ''],
    ['go', ['reports/go-test.json', 'reports/gotestsum-junit.xml'], 22, ''],
    ['go', ['reports/gotestsum-rerun.json', 'reports/gotestsum-rerun-junit.xml'], 20, ''],
    [
      'testng',
      ['reports/testng-output/testng-results.xml', 'reports/testng-output/junitreports'],
      14,
      '16 tests, of which 3 invocations of one data-provider test are one case unless {params} is in the key',
    ],
    [
      'mocha',
      [
        'reports/mocha.json',
        'reports/mocha-xunit.xml',
        'reports/junit.xml',
        'reports/junit-include-pending.xml',
        'reports/junit-titles.xml',
        'reports/junit-jenkins.xml',
        'reports/junit-jenkins-titles.xml',
        'reports/mocha-xunit-suitename.xml',
        'reports/ctrf.json',
      ],
      14,
      '',
    ],
    ['rspec', ['reports/rspec.json', 'reports/rspec-junit.xml'], 18, ''],
    ['googletest', ['reports/gtest.xml', 'reports/gtest.json'], 14, ''],
    ['behave', ['reports/behave.json'], 16, ''],
  ])('%s: %j make %i cases %s', async (runner, inputs, cases) => {
    const emu = await publishEmulator();
    const root = sampleRoot(runner, inputs);
    const warnings = await publishEach(emu, runner, inputs, { GITHUB_WORKSPACE: root });
    // No warning of keys; cucumber-js and behave name their undefined step, a run error
    // (docs/design.md "Run errors"), in every report of it.
    expect(warnings.filter((w) => !/\brun error/.test(w))).toEqual([]);
    expect(casesIn(emu)).toHaveLength(cases);
  });

  test.each([
    ['jest', 'reports/junit.xml', 'jest-junit', '{file}', 'writes no test file', 'its 19'],
    [
      'cucumber-js',
      'reports/junit.xml',
      'cucumber-js junit',
      '{file}',
      'writes no feature file',
      'its 16',
    ],
    ['behave', 'reports/junit', 'behave junit', '{file}', 'writes no feature file', 'their 16'],
    [
      'vitest',
      'reports/ctrf.json',
      'vitest-ctrf-json-reporter',
      '{test}',
      "writes each test's title without its describe path",
      'its 17',
    ],
  ])(
    '%s: %s cannot tell the whole identity, and says so once, naming %s and %s',
    async (runner, input, reporter, placeholder, reason, count) => {
      const emu = await publishEmulator();
      const warnings = await publishEach(emu, runner, [input], { GITHUB_WORKSPACE: '/w' });
      const named = warnings.filter((w) => w.includes(`(${reporter}) ${reason}`));
      expect(named).toHaveLength(1);
      expect(named[0]).toContain(
        `${placeholder} in automation-key cannot be filled for ${count} test(s)`,
      );
    },
  );

  test('mocha-junit-reporter: the warning counts only the tests outside any describe', () => {
    // As the reporter writes them by default: the root suite's tests in "Root Suite", no file.
    const report = parseReport(
      'junit.xml',
      '<testsuites name="Mocha Tests"><testsuite name="Root Suite"><testcase name="top" classname="top"/></testsuite>' +
        '<testsuite name="math" file="/w/test/m.spec.js"><testcase name="math adds" classname="adds"/>' +
        '<testcase name="math subtracts" classname="subtracts"/></testsuite></testsuites>',
    );
    const warn = (automationKey: string) =>
      keyWarnings([report], { automationKey, workspace: '/w' }).map((w) => render(w));
    expect(warn('{file} › {test}')).toEqual([
      "junit.xml (mocha-junit-reporter) writes no test file for tests outside any describe: {file} in automation-key cannot be filled for 1 of its 3 test(s), so their keys differ from those the runner's other reporters give the same tests.",
    ]);
    expect(warn('{test}')).toEqual([]);
    // Every test in a describe: nothing lacks a file, nothing to say.
    const inDescribes = parseReport(
      'junit.xml',
      '<testsuites name="Mocha Tests"><testsuite name="Root Suite"/><testsuite name="math" file="/w/test/m.spec.js">' +
        '<testcase name="math adds" classname="adds"/></testsuite></testsuites>',
    );
    expect(
      keyWarnings([inDescribes], { automationKey: '{file} › {test}', workspace: '/w' }),
    ).toEqual([]);
  });

  test("behave: its JUnit (one file per feature) gives each scenario its JSON's {test}, and lacks only {file}, said once for all its files", async () => {
    const json = await readReports(['samples/behave/reports/behave.json']);
    const junit = await readReports(['samples/behave/reports/junit']);
    expect(junit).toHaveLength(4);
    const keys = (reports: ParsedReport[], template: string) =>
      reports.flatMap((r) => r.tests.map(keyBuilder(template, '/w'))).sort();
    expect(keys(junit, '{test}')).toEqual(keys(json, '{test}'));
    expect(keys(json, '{file} › {test}')).toContain('features/other.feature › Calculator.adds');
    expect(keys(junit, '{file} › {test}')).toEqual(keys(json, '{test}'));
    const warn = (automationKey: string) =>
      keyWarnings(junit, { automationKey, workspace: '/w' }).map((w) => render(w));
    expect(warn('{file} › {test}')).toEqual([
      expect.stringMatching(
        /^samples\/behave\/reports\/junit\/TESTS-\S+\.xml and 3 other report\(s\) \(behave junit\) writes no feature file .*: \{file\} in automation-key cannot be filled for their 16 test\(s\), so their keys differ/,
      ),
    ]);
    expect(warn('{test}')).toEqual([]);
    expect(keyWarnings(json, { automationKey: '{file} › {test}', workspace: '/w' })).toEqual([]);
  });
});

test('one JSON report published from two checkout roots (GitHub, then GitLab) creates no new case', async () => {
  const source = 'samples/jest/reports/jest.json';
  const root = sampleRoot('jest', ['reports/jest.json']);
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-roots-'));
  const copyAt = (checkout: string) => {
    const file = join(dir, `${checkout.split('/')[1]}.json`);
    writeFileSync(file, readFileSync(source, 'utf8').split(root).join(checkout));
    return file;
  };
  const github = copyAt('/home/runner/work/calc/calc');
  const gitlab = copyAt('/builds/acme/calc');
  expect(readFileSync(gitlab, 'utf8')).toContain('"/builds/acme/calc/__tests__/math.test.js"');
  const emu = await publishEmulator();
  const run = async (file: string, env: Record<string, string>, cycle: string) => {
    const settings = publishSettings(
      settingsFrom({ 'cycle-name': cycle, 'create-missing-cases': true }),
      env,
    );
    return publish(clientOf(emu), { ...settings, reports: await readReports([file]) });
  };
  const first = await run(github, { GITHUB_WORKSPACE: '/home/runner/work/calc/calc' }, 'GitHub');
  expect(first.writes.casesCreated).toBe(19);
  const second = await run(gitlab, { CI_PROJECT_DIR: '/builds/acme/calc' }, 'GitLab');
  expect(second.writes.casesCreated).toBe(0);
  expect(second.unmatched).toEqual([]);
  const keys = casesIn(emu);
  expect(keys).toHaveLength(19);
  expect(keys).toContain('__tests__/math.test.js › math adds');
  expect(keys.filter((k) => k.includes('/home/') || k.includes('/builds/'))).toEqual([]);
});

describe('the workspace', () => {
  const none = () => false;
  test.each([
    ['--workspace wins', 'ws', { GITHUB_WORKSPACE: '/g' }, '/cwd/ws'],
    [
      'GitHub',
      undefined,
      { GITHUB_WORKSPACE: '/home/runner/work/a/a', CI_PROJECT_DIR: '/b' },
      '/home/runner/work/a/a',
    ],
    ['GitLab', undefined, { CI_PROJECT_DIR: '/builds/acme/calc' }, '/builds/acme/calc'],
    [
      'Jenkins',
      undefined,
      { WORKSPACE: '/var/lib/jenkins/workspace/job' },
      '/var/lib/jenkins/workspace/job',
    ],
    ['Azure on Windows', undefined, { BUILD_SOURCESDIRECTORY: 'D:\\a\\1\\s' }, 'D:/a/1/s'],
    [
      'CircleCI (~)',
      undefined,
      { CIRCLE_WORKING_DIRECTORY: '~/project', HOME: '/home/circleci' },
      '/home/circleci/project',
    ],
    [
      'Bitbucket',
      undefined,
      { BITBUCKET_CLONE_DIR: '/opt/atlassian/pipelines/agent/build' },
      '/opt/atlassian/pipelines/agent/build',
    ],
    ['no CI: the working directory without git', undefined, {}, '/cwd'],
  ])('%s', (_name, explicit, env, want) => {
    expect(workspaceOf(explicit, env, '/cwd', none)).toBe(want);
  });

  test('no CI: the git top level above the working directory', () => {
    expect(workspaceOf(undefined, {}, '/repo/packages/calc', (d) => d === '/repo')).toBe('/repo');
  });

  test.each([
    [
      'absolute inside',
      '/home/runner/work/calc/calc/src/a.test.js',
      '/home/runner/work/calc/calc',
      'src/a.test.js',
      false,
    ],
    [
      'Windows inside, any case',
      'd:\\a\\calc\\calc\\src\\a.test.js',
      'D:/a/calc/calc',
      'src/a.test.js',
      false,
    ],
    ['relative, as written', '.\\src\\a.test.js', '/w', 'src/a.test.js', false],
    [
      'a GitHub checkout read on GitLab',
      '/home/runner/work/calc/calc/src/a.test.js',
      '/builds/acme/calc',
      'src/a.test.js',
      false,
    ],
    [
      'a Windows agent read on Linux',
      'C:\\a\\calc\\calc\\src\\a.test.js',
      '/w',
      'src/a.test.js',
      false,
    ],
    [
      'outside and unknown: relative with ../',
      '/srv/app/src/a.test.js',
      '/srv/ws',
      '../app/src/a.test.js',
      true,
    ],
  ])('%s', (_name, file, workspace, path, outside) => {
    expect(workspacePath(file, workspace)).toEqual({ path, outside });
  });
});
