/**
 * Rules that a real service and real CI systems exercise and the emulator cannot:
 * every aggregate shape the gate reads, each CI system's variables for cycle names, and the
 * one "lowest key wins" comparator.
 */
import type { JsonApiDocument, Resource, ServiceClient } from '../../src/client/client.js';
import { toFiltrQL, type Filter } from '../../src/client/filter.js';
import { Redactor } from '../../src/shared/redact.js';
import {
  ciContext,
  cycleCounts,
  gateSettings,
  hasThresholds,
  readGrouped,
  renderCycleName,
  settingsFrom,
} from '../../src/publish/index.js';
import { settingOf, THRESHOLD_KEYS } from '../../src/settings/table.js';
import { OVERRIDES } from '../../src/domain/context.js';
import { compareKeys, matchTests } from '../../src/domain/match.js';
import { makePlan } from '../../src/publish/writes.js';
import { testOf } from '../helpers/publish.js';

describe('grouped aggregate shapes (docs/service-api.md 4.3, 4.6: the grouped shape is not documented)', () => {
  const rows = [
    { result: 'PASSED', count: 3 },
    { result: 'FAILED', count: 1 },
  ];
  const expected = { PASSED: 3, FAILED: 1 };
  const shapes: [string, JsonApiDocument][] = [
    [
      'data: resources with attributes {result, count}',
      { data: rows.map((r, i) => ({ type: 'agg', id: String(i), attributes: r })) },
    ],
    ['data: plain rows {result, count}', { data: rows }],
    ['data.attributes.groups', { data: { type: 'agg', id: 'x', attributes: { groups: rows } } }],
    ['meta.groups', { data: null, meta: { groups: rows } }],
    [
      'rows with group {result} and aggregations {count}',
      {
        data: rows.map((r) => ({
          attributes: { group: { result: r.result }, aggregations: { count: r.count } },
        })),
      },
    ],
    ['rows keyed by key', { data: rows.map((r) => ({ key: r.result, count: r.count })) }],
    ['rows keyed by value', { data: rows.map((r) => ({ value: r.result, count: r.count })) }],
    ['a map of counts in attributes', { data: { attributes: { PASSED: 3, FAILED: 1 } } }],
    ['a map under attributes.counts', { data: { attributes: { counts: expected } } }],
    [
      'one result split over two rows (summed)',
      { data: [...rows, { result: 'PASSED', count: 0 }] },
    ],
  ];
  test.each(shapes)('%s', (_name, doc) => {
    expect(readGrouped(doc)).toEqual(expected);
  });

  const unreadable: [string, JsonApiDocument][] = [
    ['an ungrouped count', { data: { attributes: { count: 4 } } }],
    ['a row without a count', { data: [{ result: 'PASSED' }] }],
    ['a count that is not a number', { data: [{ result: 'PASSED', count: '3' }] }],
    ['nothing', {}],
  ];
  test.each(unreadable)('unreadable: %s (the gate falls back)', (_name, doc) => {
    expect(readGrouped(doc)).toBeUndefined();
  });

  test.each([
    ['data.attributes.count', (n: number) => ({ data: { attributes: { count: n } } })],
    ['meta.count', (n: number) => ({ meta: { count: n } })],
  ])('fallback: one ungrouped count per result, answered as %s', async (_name, answer) => {
    const asked: string[] = [];
    const client = {
      aggregate: async (_type: string, params: { filter: Filter; groupBy?: string[] }) => {
        const filter = toFiltrQL(params.filter);
        asked.push(filter);
        if (params.groupBy) return { data: { attributes: { unknown: true } } };
        const result = /result = "([A-Z_]+)"/.exec(filter)![1]!;
        return answer({ PASSED: 5, FAILED: 2, BLOCKED: 1 }[result] ?? 0);
      },
    } as unknown as ServiceClient;
    expect(await cycleCounts(client, 'c1', 'testCase.priority = "CRITICAL"')).toEqual({
      passed: 5,
      failed: 2,
      blocked: 1,
      skipped: 0,
      notExecuted: 0,
      inProgress: 0,
      total: 8,
    });
    // One grouped request, then one per result value, each on the cycle and the gate filter.
    expect(asked.length).toBe(7);
    expect(asked.every((q) => q.includes('testCycleId = "c1"') && q.includes('CRITICAL'))).toBe(
      true,
    );
  });
});

describe('CI variables for {sha} {branch} {pr} {run_id} {run_number}', () => {
  const template = '{sha7} {branch} {pr} {run_id} {run_number}';
  const systems: [string, Record<string, string>, string][] = [
    [
      'GitHub Actions, pull_request',
      {
        GITHUB_SHA: 'a1b2c3d4e5f6',
        GITHUB_HEAD_REF: 'feature/x',
        GITHUB_REF_NAME: '12/merge',
        GITHUB_REF: 'refs/pull/12/merge',
        GITHUB_RUN_ID: '9001',
        GITHUB_RUN_NUMBER: '42',
      },
      'a1b2c3d feature/x 12 9001 42',
    ],
    [
      'GitLab CI, merge request pipeline',
      {
        CI_COMMIT_SHA: 'b2c3d4e5f6a7',
        CI_COMMIT_REF_NAME: 'feature/y',
        CI_MERGE_REQUEST_IID: '7',
        CI_PIPELINE_ID: '555',
        CI_PIPELINE_IID: '31',
      },
      'b2c3d4e feature/y 7 555 31',
    ],
    [
      'Jenkins multibranch, a change request',
      {
        GIT_COMMIT: 'c3d4e5f6a7b8',
        BRANCH_NAME: 'PR-5',
        CHANGE_BRANCH: 'feature/z',
        CHANGE_ID: '5',
        BUILD_ID: '77',
        BUILD_NUMBER: '77',
      },
      'c3d4e5f feature/z 5 77 77',
    ],
    [
      'Azure Pipelines, a pull request build',
      {
        BUILD_SOURCEVERSION: 'd4e5f6a7b8c9',
        BUILD_SOURCEBRANCHNAME: 'merge',
        SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feature/w',
        SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '88',
        BUILD_BUILDID: '1234',
        BUILD_BUILDNUMBER: '20240101.3',
      },
      'd4e5f6a feature/w 88 1234 20240101.3',
    ],
    [
      'Jenkins freestyle (Git plugin: GIT_BRANCH names the remote)',
      {
        GIT_COMMIT: 'c3d4e5f6a7b8',
        GIT_BRANCH: 'origin/main',
        BUILD_ID: '78',
        BUILD_NUMBER: '78',
        TESTCYCLE_PR: '-',
      },
      'c3d4e5f main - 78 78',
    ],
    [
      'Azure Pipelines, a branch build of refs/heads/feature/x',
      {
        BUILD_SOURCEVERSION: 'd4e5f6a7b8c9',
        BUILD_SOURCEBRANCH: 'refs/heads/feature/x',
        BUILD_SOURCEBRANCHNAME: 'x',
        BUILD_BUILDID: '1235',
        BUILD_BUILDNUMBER: '20240101.4',
        TESTCYCLE_PR: '-',
      },
      'd4e5f6a feature/x - 1235 20240101.4',
    ],
    [
      'CircleCI',
      {
        CIRCLE_SHA1: 'e5f6a7b8c9d0',
        CIRCLE_BRANCH: 'main',
        CIRCLE_PULL_REQUEST: 'https://github.com/o/r/pull/9',
        CIRCLE_WORKFLOW_ID: 'wf-1',
        CIRCLE_BUILD_NUM: '300',
      },
      'e5f6a7b main 9 wf-1 300',
    ],
    [
      'TESTCYCLE_* override any CI',
      {
        GITHUB_SHA: 'a1b2c3d4e5f6',
        GITHUB_REF_NAME: 'main',
        TESTCYCLE_SHA: 'f6a7b8c9d0e1',
        TESTCYCLE_BRANCH: 'release',
        TESTCYCLE_PR: '3',
        TESTCYCLE_RUN_ID: 'r1',
        TESTCYCLE_RUN_NUMBER: 'n1',
      },
      'f6a7b8c release 3 r1 n1',
    ],
  ];
  test.each(systems)('%s', (_name, env, name) => {
    expect(renderCycleName(template, ciContext(env))).toBe(name);
  });

  test.each(Object.entries(OVERRIDES))(
    '{%s} with no value names %s, and setting it gives the placeholder its value',
    (placeholder, variable) => {
      const template = `Local {${placeholder}}`;
      expect(() => renderCycleName(template, ciContext({}))).toThrow(
        `{${placeholder}} has no value in this environment; set ${variable} or use another placeholder.`,
      );
      expect(renderCycleName(template, ciContext({ [variable]: 'a1b2c3d4e5f6' }))).toBe(
        `Local ${placeholder === 'sha7' ? 'a1b2c3d' : 'a1b2c3d4e5f6'}`,
      );
    },
  );

  test('a placeholder with no value names the variable that would give it one', () => {
    expect(() => renderCycleName('{pr}', ciContext({ GITHUB_REF: 'refs/heads/main' }))).toThrow(
      /\{pr\} has no value in this environment; set TESTCYCLE_PR/,
    );
  });
});

describe('{env:NAME} never reads a secret of the run into a name', () => {
  const TOKEN = 'tc_live_0123456789abcdefXYZ';
  const GH = 'ghs_0123456789abcdefghijkl';
  const env = {
    INPUT_TOKEN: TOKEN,
    'INPUT_GITHUB-TOKEN': GH,
    ACTIONS_RUNTIME_TOKEN: 'eyJ0eXAiOiJKV1Qi.runtime.token',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'eyJ0eXAiOiJKV1Qi.id.request',
    GITHUB_TOKEN: 'ghs_workflowtoken0123456789',
    DEPLOY_PASSWORD: 'hunter2hunter2',
    NPM_API_KEY: 'npm_0123456789',
    BUILD_LABEL: GH,
    LONGER: `prefix-${TOKEN.slice(0, 14)}`,
    STAGE: 'staging',
  };
  const render = (template: string, secrets?: Redactor) =>
    renderCycleName(template, ciContext(env, new Date(0), secrets));

  test.each([
    ['INPUT_TOKEN', 'TOKEN'],
    ['ACTIONS_RUNTIME_TOKEN', 'TOKEN'],
    ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'TOKEN'],
    ['GITHUB_TOKEN', 'TOKEN'],
    ['DEPLOY_PASSWORD', 'PASSWORD'],
    ['NPM_API_KEY', 'API_KEY'],
    ['my_secret', 'SECRET'],
  ])('{env:%s} is refused by its name (%s), whatever it holds', (name, word) => {
    expect(() => render(`x {env:${name}}`)).toThrow(
      new RegExp(
        `^cycle-name: \\{env:${name}\\}: ${name} holds a secret \\(its name says ${word}\\); a cycle name is stored by the service`,
      ),
    );
  });

  test('a variable that holds the token under another name is refused by its value', () => {
    expect(() => render('x {env:BUILD_LABEL}')).toThrow(
      /\{env:BUILD_LABEL\}: the value of BUILD_LABEL is a secret of this run/,
    );
    // Part of a token is a secret too (12 characters or more of it).
    expect(() => render('x {env:LONGER}')).toThrow(/the value of LONGER is a secret of this run/);
  });

  test('a token given as a flag (not in the environment) is known through the Redactor', () => {
    const secrets = new Redactor();
    secrets.add('staging-flag-token-123');
    expect(() =>
      renderCycleName(
        '{env:FROM_FLAG}',
        ciContext({ FROM_FLAG: 'staging-flag-token-123' }, new Date(0), secrets),
      ),
    ).toThrow(/the value of FROM_FLAG is a secret of this run/);
  });

  test('a secret reaching the name another way (written in, or through {branch}) is refused', () => {
    expect(() => render(`x ${GH}`)).toThrow(/^cycle-name: renders to a name that holds a secret/);
    expect(() =>
      renderCycleName('{branch}', ciContext({ ...env, TESTCYCLE_BRANCH: TOKEN })),
    ).toThrow(/renders to a name that holds a secret/);
    // No error message shows the secret.
    try {
      render('x {env:BUILD_LABEL}');
    } catch (error) {
      expect((error as Error).message).not.toContain(GH);
    }
  });

  test('ordinary variables still render', () => {
    expect(render('{env:STAGE} tests')).toBe('staging tests');
  });
});

describe('the lowest key wins, compared by number: DEMO-T9 before DEMO-T10', () => {
  test('the comparator', () => {
    expect(['DEMO-T10', 'DEMO-T9', 'DEMO-T100', 'DEMO-T1'].sort(compareKeys)).toEqual([
      'DEMO-T1',
      'DEMO-T9',
      'DEMO-T10',
      'DEMO-T100',
    ]);
  });

  test('two cases with one automationKey: the test matches DEMO-T9', async () => {
    const kase = (id: string, key: string): Resource<'test_cases'> =>
      ({ type: 'test_cases', id, attributes: { testCaseKey: key, automationKey: 'A.b' } }) as never;
    for (const known of [
      [kase('10', 'DEMO-T10'), kase('9', 'DEMO-T9')],
      [kase('9', 'DEMO-T9'), kase('10', 'DEMO-T10')],
    ]) {
      // Every case is known: no request (the client has no methods).
      const match = await matchTests(
        {} as ServiceClient,
        { tests: [{ test: testOf('A', 'b', 'passed'), file: 'r.xml' }], projectId: 'p', known },
        {
          keyPattern: /\bDEMO-T\d+\b/,
          automationKey: '{classname}.{name}',
          createMissingCases: false,
          dryRun: true,
          logger: { debug() {}, info() {}, warn() {}, error() {} },
        },
      );
      expect(match.byTest.get(0)?.key).toBe('DEMO-T9');
    }
  });

  test('two executions of one case in the cycle: DEMO-E9 is kept', () => {
    const plan = makePlan(
      [
        { id: 'x', caseId: 'c', key: 'DEMO-E10', result: 'FAILED' },
        { id: 'y', caseId: 'c', key: 'DEMO-E9', result: 'FAILED' },
      ],
      [{ caseId: 'c', result: 'PASSED' }],
      'latest',
    );
    expect(plan.duplicates).toEqual([{ caseId: 'c', kept: 'DEMO-E9', ignored: ['DEMO-E10'] }]);
  });
});

describe('a threshold is what the settings table marks as one (src/settings/table.ts `threshold: true`)', () => {
  const gateOf = (values: Record<string, unknown>) =>
    gateSettings(settingsFrom({ 'cycle-name': 'Nightly {date}', ...values }));

  test('the threshold rows are the eight gate thresholds, in table order', () => {
    expect(THRESHOLD_KEYS).toEqual([
      'min-pass-rate',
      'max-pass-rate-drop',
      'max-failed',
      'max-blocked',
      'fail-on-not-executed',
      'max-new-failures',
      'min-coverage',
      'max-failing-requirements',
    ]);
  });

  test.each(THRESHOLD_KEYS.map((key) => [key]))(
    '%s alone gives the gate work to do (its GateOptions field is read)',
    (key) => {
      const value = settingOf(key)!.type === 'boolean' ? true : 5;
      expect(hasThresholds(gateOf({ [key]: value }))).toBe(true);
    },
  );

  test('without a threshold, a notification or a filter the gate has nothing to do', () => {
    expect(hasThresholds(gateOf({}))).toBe(false);
    expect(hasThresholds(gateOf({ 'fail-on-not-executed': false }))).toBe(false);
    expect(hasThresholds(gateOf({ 'gate-filter': 'testCase.priority = "HIGH"' }))).toBe(true);
  });
});
