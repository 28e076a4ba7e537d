/**
 * sync (src/inventory/sync.ts) through the emulator's state and its request counts
 * (docs/design.md "Sync").
 */
import type { RunningEmulator } from '../../src/emulator/index.js';
import {
  RetireBoundError,
  publish,
  sync,
  settingsFrom,
  syncSettings,
} from '../../src/publish/index.js';
import { DEFAULT_AUTOMATION_KEY } from '../../src/publish/index.js';
import { keyBuilder } from '../../src/domain/match.js';
import { readFileSync } from 'node:fs';
import { parseReport, readReports } from '../../src/parsers/index.js';
import { call, OTHER_USER, testSeed } from '../helpers/emulator.js';
import {
  clientOf,
  closeAll,
  options as publishOptions,
  publishEmulator,
  report,
  testOf,
} from '../helpers/publish.js';
import {
  automatedSeed,
  byAutomationKey,
  casesOf,
  syncOptions,
  testsOf,
  writes,
} from '../helpers/sync.js';

afterEach(closeAll);

describe('request budget: a sync with nothing changed costs only reads', () => {
  test.each([1, 100, 250])('%i cases: projects + ceil(N/100) pages, no write', async (n) => {
    const emu = await publishEmulator({ seed: automatedSeed(n) });
    const result = await sync(clientOf(emu), syncOptions(testsOf(n), { 'retire-missing': true }));
    expect(writes(emu.stats())).toBe(0);
    expect(emu.stats().total).toBe(1 + Math.ceil(n / 100));
    expect(result.unchanged).toBe(n);
    expect(result.plannedRequests).toBe(0);
  });

  test('renamed cases cost a GET (for the ETag) and a PATCH each, as planned', async () => {
    const n = 200;
    const emu = await publishEmulator({ seed: automatedSeed(n) });
    // 10% of the cases carry another name: --case-names replace gives each its key's name.
    for (const c of casesOf(emu).slice(0, 20))
      emu.service.store.write(emu.service.store.get('test_cases', c.id)!, {
        name: `old ${c.name}`,
      });
    const replace = { 'case-names': 'replace' };
    const planned = await sync(
      clientOf(emu),
      syncOptions(testsOf(n), { ...replace, 'dry-run': true }),
    );
    expect(planned.renamed).toHaveLength(20);
    expect(planned.plannedRequests).toBe(40);
    expect(writes(emu.stats())).toBe(0);
    emu.resetStats();
    const result = await sync(clientOf(emu), syncOptions(testsOf(n), replace));
    expect(result.renamed).toHaveLength(20);
    expect(result.renamed[0]!.from).toMatch(/^old Suite\.test/);
    expect(emu.stats().byMethod.PATCH).toBe(20);
    expect(emu.stats().total).toBe(1 + Math.ceil(n / 100) + planned.plannedRequests);
    expect(casesOf(emu).filter((c) => String(c.name).startsWith('old'))).toHaveLength(0);
  });
});

describe('creates, dry run', () => {
  test('missing cases are created AUTOMATED with their key; a second sync writes nothing', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(2) });
    const result = await sync(clientOf(emu), syncOptions(testsOf(4)));
    expect(result.created.map((c) => c.name)).toEqual(['Suite.test2', 'Suite.test3']);
    const made = byAutomationKey(emu, 'Suite.test3')!;
    expect(made).toMatchObject({ automationStatus: 'AUTOMATED', status: 'ACTIVE' });
    emu.resetStats();
    const again = await sync(clientOf(emu), syncOptions(testsOf(4)));
    expect(writes(emu.stats())).toBe(0);
    expect(again.unchanged).toBe(4);
  });

  test('--dry-run sends no write and lists what it would do', async () => {
    const emu = await publishEmulator({
      seed: automatedSeed(20, [{ name: 'manual one', status: 'ACTIVE' }]),
    });
    const before = JSON.stringify(casesOf(emu));
    const tests = [...testsOf(19), testOf('Suite', 'brand new', 'passed')];
    const result = await sync(
      clientOf(emu),
      syncOptions(tests, { 'dry-run': true, 'retire-missing': true }),
    );
    expect(writes(emu.stats())).toBe(0);
    expect(JSON.stringify(casesOf(emu))).toBe(before);
    expect(result.dryRun).toBe(true);
    expect(result.created.map((c) => c.name)).toEqual(['Suite.brand new']);
    expect(result.archived.map((c) => c.name)).toEqual(['Suite.test19']);
    // rank read + POST; GET + PATCH for the archive
    expect(result.plannedRequests).toBe(4);
  });
});

describe('--retire-missing', () => {
  const manual = [
    { name: 'manual, no key', status: 'ACTIVE' },
    { name: 'manual with key', automationKey: 'Suite.gone', status: 'ACTIVE' },
  ];

  test('archives exactly the automated cases the reports lack, nothing manual; a case that comes back is ACTIVE again', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(20, manual) });
    const result = await sync(clientOf(emu), syncOptions(testsOf(18), { 'retire-missing': true }));
    expect(result.archived.map((c) => c.name).sort()).toEqual(['Suite.test18', 'Suite.test19']);
    const archived = casesOf(emu).filter((c) => c.status === 'ARCHIVED');
    expect(archived.map((c) => c.automationKey).sort()).toEqual(['Suite.test18', 'Suite.test19']);
    expect(casesOf(emu).filter((c) => String(c.name).startsWith('manual'))).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'ACTIVE' })]),
    );
    expect(
      casesOf(emu)
        .filter((c) => String(c.name).startsWith('manual'))
        .every((c) => c.status === 'ACTIVE' && c.automationStatus === 'MANUAL'),
    ).toBe(true);

    // The ARCHIVED case is still found by its key: restored, not duplicated.
    const back = await sync(clientOf(emu), syncOptions(testsOf(19), { 'retire-missing': true }));
    expect(back.restored.map((c) => c.name)).toEqual(['Suite.test18']);
    expect(back.created).toEqual([]);
    expect(byAutomationKey(emu, 'Suite.test18')!.status).toBe('ACTIVE');
    expect(casesOf(emu).filter((c) => c.automationKey === 'Suite.test18')).toHaveLength(1);
  });

  test('more than the bound: refused (config error), nothing written, saying how to widen it', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(20) });
    // 11 of 20 missing from a suite that ran; the default bound is 50% of 20 = 10.
    const error = await sync(
      clientOf(emu),
      syncOptions(testsOf(9), { 'retire-missing': true }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetireBoundError);
    expect((error as RetireBoundError).kind).toBe('config');
    expect((error as Error).message).toMatch(
      /would archive 11 of the 20 automated test case\(s\) in this pipeline's scope, more than the default bound of 10 .*retire-max: 11/,
    );
    expect(writes(emu.stats())).toBe(0);
    const widened = await sync(
      clientOf(emu),
      syncOptions(testsOf(9), { 'retire-missing': true, 'retire-max': 11 }),
    );
    expect(widened.archived).toHaveLength(11);
  });

  test('publish --sync creates the cases, then publishes; it never archives', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(3) });
    const result = await publish(
      clientOf(emu),
      publishOptions([report([...testsOf(1), testOf('Suite', 'new', 'failed')])], { sync: true }),
    );
    expect(result.sync!.created.map((c) => c.name)).toEqual(['Suite.new']);
    expect(result.unmatched).toEqual([]);
    expect(result.writes.created).toBe(2);
    expect(casesOf(emu).filter((c) => c.status === 'ARCHIVED')).toHaveLength(0);
  });
});

describe('renames and --migrate-keys', () => {
  test('a renamed test with an explicit case key keeps its case, and the name a person gave it', async () => {
    const emu = await publishEmulator({
      seed: testSeed({ testCases: [{ name: 'Adds numbers', status: 'ACTIVE' }] }),
    });
    const [{ id, testCaseKey }] = casesOf(emu) as { id: string; testCaseKey: string }[];
    const named = (name: string) => [testOf('Calc', `${testCaseKey} ${name}`, 'passed')];
    const linked = await sync(clientOf(emu), syncOptions(named('adds numbers')));
    expect(linked.renamed).toEqual([]);
    expect(linked.kept).toEqual([
      expect.objectContaining({ field: 'name', name: 'Adds numbers', why: 'written-by-person' }),
    ]);
    const kept = await sync(clientOf(emu), syncOptions(named('adds two numbers')));
    expect(kept.created).toEqual([]);
    expect(casesOf(emu)).toEqual([
      expect.objectContaining({ id, name: 'Adds numbers', automationStatus: 'AUTOMATED' }),
    ]);
    // --case-names replace names it after the test, and follows the test's renames.
    const replace = { 'case-names': 'replace' };
    await sync(clientOf(emu), syncOptions(named('adds numbers'), replace));
    const result = await sync(clientOf(emu), syncOptions(named('adds two numbers'), replace));
    expect(result.renamed).toEqual([
      {
        key: testCaseKey,
        name: `Calc.${testCaseKey} adds two numbers`,
        from: `Calc.${testCaseKey} adds numbers`,
      },
    ]);
    expect(result.created).toEqual([]);
    expect(casesOf(emu)).toHaveLength(1);
    expect(casesOf(emu)[0]).toMatchObject({ id, automationStatus: 'AUTOMATED' });
  });

  test('--migrate-keys "{classname}.{name}" moves a Space from the old default key to the new one without a new case', async () => {
    const n = 30;
    const emu = await publishEmulator({ seed: automatedSeed(n) });
    const ids = casesOf(emu).map((c) => c.id);
    const tests = testsOf(n).map((t) => ({ ...t, file: 'src/suite.test.js' }));
    const plan = await sync(
      clientOf(emu),
      syncOptions(tests, { 'migrate-keys': '{classname}.{name}', 'dry-run': true }),
    );
    expect(plan.rekeyed).toHaveLength(n);
    expect(plan.created).toEqual([]);
    emu.resetStats();
    const result = await sync(
      clientOf(emu),
      syncOptions(tests, { 'migrate-keys': '{classname}.{name}', 'retire-missing': true }),
    );
    expect(result.rekeyed[0]).toMatchObject({
      from: 'Suite.test0',
      to: 'src/suite.test.js › Suite.test0',
    });
    expect(result.created).toEqual([]);
    expect(result.archived).toEqual([]);
    // One PATCH each (after the GET that gives its ETag): key and name together.
    expect(emu.stats().byMethod.PATCH).toBe(n);
    expect(emu.stats().byMethod.POST ?? 0).toBe(0);
    expect(casesOf(emu).map((c) => c.id)).toEqual(ids);
    expect(
      casesOf(emu).every((c) => String(c.automationKey).startsWith('src/suite.test.js › ')),
    ).toBe(true);
    // Published with the new default key, the same cases get the results.
    const published = await publish(clientOf(emu), publishOptions([report(tests)]));
    expect(published.unmatched).toEqual([]);
    expect(casesOf(emu)).toHaveLength(n);
  });

  test('--case-names keep: a name a person wrote stays, a new case is named by its key, the key still moves', async () => {
    const emu = await publishEmulator({
      seed: automatedSeed(3, [
        {
          name: 'Checkout applies a voucher',
          automationKey: 'Suite.voucher',
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
        },
      ]),
    });
    const tests = [
      ...testsOf(3),
      testOf('Suite', 'voucher', 'passed'),
      testOf('Suite', 'new', 'passed'),
    ];
    const keep = { 'case-names': 'keep' };
    const plan = await sync(clientOf(emu), syncOptions(tests, { ...keep, 'dry-run': true }));
    expect(plan.renamed).toEqual([]);
    expect(plan.created.map((c) => c.name)).toEqual(['Suite.new']);
    // The default keeps it too, and says so; replace names it after its key: the plan says so.
    const byDefault = await sync(clientOf(emu), syncOptions(tests, { 'dry-run': true }));
    expect(byDefault.renamed).toEqual([]);
    expect(byDefault.kept).toEqual([
      expect.objectContaining({ name: 'Checkout applies a voucher', ours: 'Suite.voucher' }),
    ]);
    const byKey = await sync(
      clientOf(emu),
      syncOptions(tests, { 'case-names': 'replace', 'dry-run': true }),
    );
    expect(byKey.renamed).toEqual([
      expect.objectContaining({ name: 'Suite.voucher', from: 'Checkout applies a voucher' }),
    ]);
    emu.resetStats();
    const result = await sync(clientOf(emu), syncOptions(tests, keep));
    expect(result.renamed).toEqual([]);
    expect(byAutomationKey(emu, 'Suite.voucher')!.name).toBe('Checkout applies a voucher');
    expect(byAutomationKey(emu, 'Suite.new')!.name).toBe('Suite.new');
    expect(emu.stats().byMethod.PATCH ?? 0).toBe(0);
    // Re-keyed under keep: the key changes, the name a person gave does not.
    emu.service.store.write(
      emu.service.store.get('test_cases', byAutomationKey(emu, 'Suite.test0')!.id)!,
      {
        name: 'Zero, by hand',
      },
    );
    const filed = tests.map((t) => ({ ...t, file: 'src/suite.test.js' }));
    const moved = await sync(
      clientOf(emu),
      syncOptions(filed, { ...keep, 'migrate-keys': '{classname}.{name}' }),
    );
    expect(moved.rekeyed).toHaveLength(5);
    expect(moved.renamed).toEqual([]);
    expect(byAutomationKey(emu, 'src/suite.test.js › Suite.test0')!.name).toBe('Zero, by hand');
  });

  test('publish --sync leaves a hand-written name (keep, and the default); replace gives the key back', async () => {
    const seed = automatedSeed(1);
    const emu = await publishEmulator({ seed });
    const { id } = byAutomationKey(emu, 'Suite.test0')!;
    emu.service.store.write(emu.service.store.get('test_cases', id)!, { name: 'Zero, by hand' });
    const tests = [report(testsOf(1))];
    const kept = await publish(
      clientOf(emu),
      publishOptions(tests, { sync: true, caseNames: 'keep' }),
    );
    expect(kept.sync!.renamed).toEqual([]);
    expect(byAutomationKey(emu, 'Suite.test0')!.name).toBe('Zero, by hand');
    const byDefault = await publish(clientOf(emu), publishOptions(tests, { sync: true }));
    expect(byDefault.sync!.renamed).toEqual([]);
    expect(byDefault.sync!.kept).toEqual([expect.objectContaining({ name: 'Zero, by hand' })]);
    const byKey = await publish(
      clientOf(emu),
      publishOptions(tests, { sync: true, caseNames: 'replace' }),
    );
    expect(byKey.sync!.renamed).toEqual([expect.objectContaining({ from: 'Zero, by hand' })]);
    expect(byAutomationKey(emu, 'Suite.test0')!.name).toBe('Suite.test0');
  });

  test('a bad --case-names is a config error naming the setting and its choices, before any request', () => {
    expect(() => syncSettings(settingsFrom({ 'case-names': 'manual' }), {})).toThrow(
      /case-names: "manual" is not one of key, keep, replace/,
    );
    expect(syncSettings(settingsFrom({}), {}).caseNames).toBe('key');
  });

  test('an unknown placeholder in --migrate-keys is a config error before any request', () => {
    expect(() => syncSettings(settingsFrom({ 'migrate-keys': '{klass}.{name}' }), {})).toThrow(
      /migrate-keys: unknown placeholder \{klass\}/,
    );
  });
});

describe('steps', () => {
  const stepsOf = (emu: RunningEmulator, caseId: string) =>
    [...emu.service.store.byForeignKey('test_steps', 'testCaseId', caseId)]
      .filter((s) => s.attributes.deletedAt == null)
      .sort((a, b) => Number(a.attributes.sequenceNumber) - Number(b.attributes.sequenceNumber))
      .map((s) => s.attributes.action);

  test('a Cucumber messages report gives every scenario its case, with its steps in order', async () => {
    const reports = await readReports(['samples/cucumber-js/reports/messages.ndjson']);
    const tests = reports.flatMap((r) => r.tests);
    expect(tests.length).toBeGreaterThan(5);
    const emu = await publishEmulator({ seed: testSeed() });
    const result = await sync(clientOf(emu), { ...syncOptions([]), reports });
    expect(result.created).toHaveLength(tests.length);
    const build = keyBuilder(DEFAULT_AUTOMATION_KEY, process.cwd());
    for (const test of tests) {
      const made = byAutomationKey(emu, build(test))!;
      expect(stepsOf(emu, made.id)).toEqual(test.steps!.map((s) => s.action));
    }
    const adds = tests.find((t) => t.name === 'adds')!;
    expect(stepsOf(emu, byAutomationKey(emu, build(adds))!.id)).toEqual([
      'Given a calculator',
      'When I add 1 and 1',
      'Then the result is 2',
    ]);
    // In step: a second sync reads the steps (one page) and writes nothing.
    emu.resetStats();
    await sync(clientOf(emu), { ...syncOptions([]), reports });
    expect(writes(emu.stats())).toBe(0);
    expect(emu.stats().total).toBe(1 + 1 + 1);
  });

  test("a scenario's data table and doc string are in its steps, the same from JSON and messages; a changed table updates the step", async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    const messages = await readReports(['samples/cucumber-js/reports/messages.ndjson']);
    await sync(clientOf(emu), { ...syncOptions([]), reports: messages });
    const scenario = messages[0]!.tests.find((t) => t.classname === 'Step arguments')!;
    const build = keyBuilder(DEFAULT_AUTOMATION_KEY, process.cwd());
    const { id } = byAutomationKey(emu, build(scenario))!;
    expect(stepsOf(emu, id)).toEqual([
      'Given a calculator',
      'When I add the rows:\n| a | b |\n| 1 | 2 |\n| 3 | 4 |',
      'Then the result is 10',
      'And the display shows:\n"""\n10\n"""',
    ]);
    // The same run's Cucumber JSON gives the same steps: nothing to write.
    const path = 'samples/cucumber-js/reports/cucumber.json';
    const json = await readReports([path]);
    emu.resetStats();
    const same = await sync(clientOf(emu), { ...syncOptions([]), reports: json });
    expect(writes(emu.stats())).toBe(0);
    expect(same.steps.cases).toBe(0);
    // A row of the table changed: that step is updated in place, the others stay.
    const text = readFileSync(path, 'utf8');
    const edited = text.replace(/"3",(\s+)"4"/, '"3",$1"5"');
    expect(edited).not.toBe(text);
    const changed = await sync(clientOf(emu), {
      ...syncOptions([]),
      reports: [parseReport(path, edited)],
    });
    expect(changed.steps).toEqual({ created: 0, updated: 1, deleted: 0, cases: 1 });
    expect(stepsOf(emu, id)[1]).toBe('When I add the rows:\n| a | b |\n| 1 | 2 |\n| 3 | 5 |');
  });

  test('changed steps are updated, extra ones soft-deleted (out of lists), new ones created', async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    const withSteps = (...actions: string[]) => [
      { ...testOf('Feature', 'scenario', 'passed'), steps: actions.map((action) => ({ action })) },
    ];
    await sync(clientOf(emu), syncOptions(withSteps('Given a', 'When b', 'Then c', 'And d')));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    expect(stepsOf(emu, id)).toEqual(['Given a', 'When b', 'Then c', 'And d']);
    const plan = await sync(
      clientOf(emu),
      syncOptions(withSteps('Given a', 'When B', 'Then c'), { 'dry-run': true }),
    );
    expect(plan.steps).toEqual({ created: 0, updated: 1, deleted: 1, cases: 1 });
    expect(plan.plannedRequests).toBe(4);
    const shorter = await sync(
      clientOf(emu),
      syncOptions(withSteps('Given a', 'When B', 'Then c')),
    );
    expect(shorter.steps).toEqual({ created: 0, updated: 1, deleted: 1, cases: 1 });
    expect(stepsOf(emu, id)).toEqual(['Given a', 'When B', 'Then c']);
    const listed = await call(emu, 'GET', `/test_cases/${id}/testSteps`);
    expect(
      listed.body.data.map((s: { attributes: { action: string } }) => s.attributes.action),
    ).toHaveLength(3);
    const longer = await sync(
      clientOf(emu),
      syncOptions(withSteps('Given a', 'When B', 'Then c', 'And e', 'And f')),
    );
    expect(longer.steps).toEqual({ created: 2, updated: 0, deleted: 0, cases: 1 });
    expect(stepsOf(emu, id)).toEqual(['Given a', 'When B', 'Then c', 'And e', 'And f']);
  });
});

describe('--case-fields', () => {
  test('priority from a tag, owner from a label (a user by email), a custom field from a property', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(1) });
    const tagged = (name: string) => ({
      ...testOf('Suite', name, 'passed'),
      properties: { tags: '@smoke,@priority:high', component: 'billing' },
      labels: { owner: 'BOB@example.com', severity: 'critical' },
    });
    const tests = [tagged('test0'), tagged('new')];
    const flags = {
      'case-fields': 'priority=tag:priority,owner=label:owner,component=property:component',
    };
    const result = await sync(clientOf(emu), syncOptions(tests, flags));
    const mapped = {
      priority: 'HIGH',
      ownerId: OTHER_USER,
      customFields: { component: 'billing' },
    };
    // A new case gets every mapped value.
    expect(byAutomationKey(emu, 'Suite.new')).toMatchObject(mapped);
    // An existing case: its empty fields are filled; its priority (MEDIUM, not the report's,
    // written by no one sync knows of) is kept (docs/design.md "Sync: what sync owns").
    expect(result.updated).toEqual([
      expect.objectContaining({ fields: ['owner', 'customFields'] }),
    ]);
    expect(byAutomationKey(emu, 'Suite.test0')).toMatchObject({ ...mapped, priority: 'MEDIUM' });
    expect(result.kept).toEqual([
      expect.objectContaining({ field: 'priority', ours: 'HIGH', why: 'not-recorded' }),
    ]);
    emu.resetStats();
    await sync(clientOf(emu), syncOptions(tests, flags));
    // In step: projects, custom fields, users, cases; no write.
    expect(writes(emu.stats())).toBe(0);
    expect(emu.stats().total).toBe(4);
  });

  test('a custom field the Space does not define is a config error before any write', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(1) });
    const error = await sync(
      clientOf(emu),
      syncOptions(testsOf(2), { 'case-fields': 'team=property:team' }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /case-fields: team is no custom field of test cases in this Space \(it defines component\)/,
    );
    expect(writes(emu.stats())).toBe(0);
  });

  test('the mapping syntax is checked with the settings, before any request', () => {
    expect(() => syncSettings(settingsFrom({ 'case-fields': 'priority:tag' }), {})).toThrow(
      /case-fields: "priority:tag" is not a mapping: write FIELD=SOURCE:NAME/,
    );
    expect(() => syncSettings(settingsFrom({ 'case-fields': 'priority=column:p' }), {})).toThrow(
      /unknown source column/,
    );
  });
});
