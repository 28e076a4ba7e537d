/**
 * Sync never erases what a person wrote (docs/design.md "Sync: what sync owns"): names, steps,
 * expected results and mapped fields a person set are kept and listed, steps are matched by their
 * text, and every write merges against the record it read. Counted against the emulator.
 */
import type { ServiceClient } from '../../src/client/client.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import {
  describeSyncResult,
  publish,
  publishSettings,
  settingsFrom,
  sync,
} from '../../src/publish/index.js';
import { renderSyncSection, renderSyncSummary } from '../../src/inventory/summary.js';
import { markdownCell } from '../../src/shared/markdown.js';
import { marked } from 'marked';
import type { TestResult, TestStep } from '../../src/parsers/base/model.js';
import { call, PROJECT, testSeed } from '../helpers/emulator.js';
import { clientOf, closeAll, publishEmulator, report, testOf } from '../helpers/publish.js';
import {
  automatedSeed,
  byAutomationKey,
  casesOf,
  editByHand,
  liveSteps,
  syncOptions,
  testsOf,
  writes,
} from '../helpers/sync.js';

afterEach(closeAll);

const scenario = (...steps: (string | TestStep)[]): TestResult[] => [
  {
    ...testOf('Feature', 'scenario', 'passed'),
    steps: steps.map((s) => (typeof s === 'string' ? { action: s } : s)),
  },
];

/** The steps as [id, action] pairs, in order. */
const stepIds = (emu: RunningEmulator, caseId: string) =>
  liveSteps(emu, caseId).map((s) => [s.id, s.attributes.action]);

/** Steps a person wrote in the service's app, through the API. */
async function writeStepsByHand(
  emu: RunningEmulator,
  caseId: string,
  steps: [string, string][],
): Promise<void> {
  for (const [i, [action, expectedResult]] of steps.entries()) {
    const made = await call(emu, 'POST', '/test_steps', {
      body: {
        data: {
          type: 'test_steps',
          attributes: {
            testCaseId: caseId,
            projectId: PROJECT,
            sequenceNumber: i + 1,
            action,
            expectedResult,
          },
        },
      },
    });
    expect(made.status).toBe(201);
  }
}

/** The client, with `after` run once each GET of `path` has answered and before the caller sees it. */
function afterRead(client: ServiceClient, path: string, after: () => void): ServiceClient {
  const get = client.get.bind(client);
  let done = false;
  client.get = (async (...args: Parameters<ServiceClient['get']>) => {
    const answer = await get(...args);
    if (!done && `${args[0]}/${args[1]}` === path) {
      done = true;
      after();
    }
    return answer;
  }) as ServiceClient['get'];
  return client;
}

describe('expected results', () => {
  test("a step's expectedResult a person wrote is kept while the report gives none", async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    const tests = scenario('Given a cart', 'When I add an item', 'Then it holds 1 item');
    await sync(clientOf(emu), syncOptions(tests));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    const third = liveSteps(emu, id)[2]!;
    editByHand(emu, 'test_steps', third.id, { expectedResult: 'The badge shows 1' });
    emu.resetStats();
    const again = await sync(clientOf(emu), syncOptions(tests));
    expect(writes(emu.stats())).toBe(0);
    expect(again.steps.cases).toBe(0);
    expect(liveSteps(emu, id)[2]!.attributes.expectedResult).toBe('The badge shows 1');
    // A report that gives one owns it: the code's expected result is written.
    const given = scenario('Given a cart', 'When I add an item', {
      action: 'Then it holds 1 item',
      expectedResult: 'one item',
    });
    const written = await sync(clientOf(emu), syncOptions(given));
    expect(written.steps).toEqual({ created: 0, updated: 1, deleted: 0, cases: 1 });
    expect(liveSteps(emu, id)[2]).toMatchObject({
      id: third.id,
      attributes: { expectedResult: 'one item' },
    });
  });
});

describe('names', () => {
  const cart = {
    name: 'Cart: add an item',
    automationKey: 'Suite.cart',
    automationStatus: 'AUTOMATED',
    status: 'ACTIVE',
  };
  const tests = [...testsOf(1), testOf('Suite', 'cart', 'passed')];

  test('a name a person wrote is kept by default; the plan shows it with the name its key would give', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(1, [cart]) });
    const plan = await sync(clientOf(emu), syncOptions(tests, { 'dry-run': true }));
    expect(plan.renamed).toEqual([]);
    expect(plan.plannedRequests).toBe(0);
    const kept = {
      key: expect.any(String),
      name: 'Cart: add an item',
      field: 'name',
      ours: 'Suite.cart',
      theirs: 'Cart: add an item',
      why: 'written-by-person',
    };
    expect(plan.kept).toEqual([kept]);
    expect(describeSyncResult(plan)).toMatch(
      /name kept: 1\n {2}\S+ Cart: add an item \(its key would name it Suite\.cart\)/,
    );
    expect(renderSyncSummary(plan)).toContain(
      'Cart: add an item (its key would name it Suite.cart)',
    );
    expect(renderSyncSection(plan, (t) => t)).toContain('1 kept');
    emu.resetStats();
    const result = await sync(clientOf(emu), syncOptions(tests));
    expect(result.renamed).toEqual([]);
    expect(result.kept).toEqual([kept]);
    expect(emu.stats().byMethod.PATCH ?? 0).toBe(0);
    expect(byAutomationKey(emu, 'Suite.cart')!.name).toBe('Cart: add an item');
  });

  test('--case-names replace names every matched case after its key; the plan shows the old and the new name', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(1, [cart]) });
    const plan = await sync(
      clientOf(emu),
      syncOptions(tests, { 'case-names': 'replace', 'dry-run': true }),
    );
    expect(plan.renamed).toEqual([
      { key: expect.any(String), name: 'Suite.cart', from: 'Cart: add an item' },
    ]);
    expect(plan.kept).toEqual([]);
    expect(describeSyncResult(plan)).toMatch(
      /would be renamed: 1\n {2}\S+ Cart: add an item → Suite\.cart/,
    );
    emu.resetStats();
    await sync(clientOf(emu), syncOptions(tests, { 'case-names': 'replace' }));
    expect(emu.stats().total).toBe(2 + plan.plannedRequests);
    expect(byAutomationKey(emu, 'Suite.cart')!.name).toBe('Suite.cart');
  });

  test('--migrate-keys: a name sync gave follows its key (old and new name in the plan), a name a person wrote stays', async () => {
    const emu = await publishEmulator({ seed: automatedSeed(2) });
    editByHand(emu, 'test_cases', byAutomationKey(emu, 'Suite.test1')!.id, {
      name: 'One, by hand',
    });
    const filed = testsOf(2).map((t) => ({ ...t, file: 'src/suite.test.js' }));
    const flags = { 'migrate-keys': '{classname}.{name}' };
    const plan = await sync(clientOf(emu), syncOptions(filed, { ...flags, 'dry-run': true }));
    const newKey = (i: number) => `src/suite.test.js › Suite.test${i}`;
    expect(plan.renamed).toEqual([
      { key: expect.any(String), name: newKey(0), from: 'Suite.test0' },
    ]);
    expect(plan.rekeyed).toHaveLength(2);
    expect(plan.kept).toEqual([
      expect.objectContaining({ name: 'One, by hand', field: 'name', ours: newKey(1) }),
    ]);
    expect(describeSyncResult(plan)).toContain(`Suite.test0 → ${newKey(0)}`);
    await sync(clientOf(emu), syncOptions(filed, flags));
    expect(byAutomationKey(emu, newKey(0))!.name).toBe(newKey(0));
    expect(byAutomationKey(emu, newKey(1))!.name).toBe('One, by hand');
  });

  test('a bad --case-names names the three choices', () => {
    expect(() => syncOptions([], { 'case-names': 'force' })).toThrow(
      /case-names: "force" is not one of key, keep, replace/,
    );
  });
});

describe('written steps', () => {
  const written: [string, string][] = [
    ['Open the shop', 'The shop shows its books'],
    ['Put a book in the cart', 'The badge shows 1'],
    ['Open the cart', 'The book is listed'],
  ];
  const code = ['Given an empty cart', 'When I add a book', 'Then the cart holds 1 book'];

  test('linking a MANUAL case by its case key keeps its written steps and its name; --replace-steps replaces them in place', async () => {
    const emu = await publishEmulator({
      seed: testSeed({ testCases: [{ name: 'Cart: add a book', status: 'ACTIVE' }] }),
    });
    const [{ id, testCaseKey }] = casesOf(emu) as { id: string; testCaseKey: string }[];
    await writeStepsByHand(emu, id, written);
    const before = liveSteps(emu, id).map((s) => ({ ...s.attributes, id: s.id, etag: s.etag }));
    const linked = [
      {
        ...testOf('Cart', `${testCaseKey} adds a book`, 'passed'),
        steps: code.map((action) => ({ action })),
      },
    ];
    emu.resetStats();
    const result = await sync(clientOf(emu), syncOptions(linked));
    expect(emu.stats().byMethod.POST ?? 0).toBe(0);
    expect(emu.stats().byMethod.DELETE ?? 0).toBe(0);
    expect(liveSteps(emu, id).map((s) => ({ ...s.attributes, id: s.id, etag: s.etag }))).toEqual(
      before,
    );
    expect(result.steps.cases).toBe(0);
    expect(result.kept).toEqual([
      expect.objectContaining({ key: testCaseKey, field: 'name', name: 'Cart: add a book' }),
      expect.objectContaining({ key: testCaseKey, field: 'steps', why: 'written-by-person' }),
    ]);
    expect(describeSyncResult(result)).toMatch(/steps kept: 1/);
    // Linked, its name, its steps and its status (what says the steps are a person's) stay.
    expect(casesOf(emu)[0]).toMatchObject({ automationStatus: 'MANUAL', name: 'Cart: add a book' });
    const again = await sync(clientOf(emu), syncOptions(linked));
    expect(again.steps.cases).toBe(0);
    expect(liveSteps(emu, id).map((s) => s.attributes.action)).toEqual(written.map(([a]) => a));

    const replaced = await sync(clientOf(emu), syncOptions(linked, { 'replace-steps': true }));
    expect(replaced.steps).toEqual({ created: 0, updated: 3, deleted: 0, cases: 1 });
    expect(stepIds(emu, id)).toEqual(before.map((s, i) => [s.id, code[i]]));
    // AUTOMATED from then on: its steps follow the code.
    expect(casesOf(emu)[0]!.automationStatus).toBe('AUTOMATED');
  });

  test('a MANUAL case found by its automation key keeps its written steps and its status', async () => {
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: [
          { name: 'Feature.scenario', automationKey: 'Feature.scenario', status: 'ACTIVE' },
        ],
      }),
    });
    const [{ id }] = casesOf(emu);
    await writeStepsByHand(emu, id, written);
    for (let run = 0; run < 2; run++) {
      const result = await sync(clientOf(emu), syncOptions(scenario(...code)));
      expect(result.kept).toEqual([expect.objectContaining({ field: 'steps' })]);
      expect(liveSteps(emu, id).map((s) => s.attributes.action)).toEqual(written.map(([a]) => a));
      expect(casesOf(emu)[0]!.automationStatus).toBe('MANUAL');
    }
  });

  test("a test whose report records no steps (jest) links a MANUAL case with written steps without making it AUTOMATED, so its steps stay a person's and it is never retired; a case with no steps becomes AUTOMATED", async () => {
    const emu = await publishEmulator({
      seed: testSeed({
        testCases: [
          { name: 'Cart: add a book', status: 'ACTIVE' },
          { name: 'Cart: empty it', status: 'ACTIVE' },
          { name: 'Feature.scenario', automationKey: 'Feature.scenario', status: 'ACTIVE' },
        ],
      }),
    });
    const [written1, bare, keyed] = casesOf(emu) as { id: string; testCaseKey: string }[];
    await writeStepsByHand(emu, written1!.id, written);
    await writeStepsByHand(emu, keyed!.id, written);
    // Step-less tests, as jest's reports give them: two link by case key, one by automation key.
    const tests = [
      testOf('Cart', `${written1!.testCaseKey} adds a book`, 'passed'),
      testOf('Cart', `${bare!.testCaseKey} empties the cart`, 'passed'),
      testOf('Feature', 'scenario', 'passed'),
    ];
    for (let run = 0; run < 2; run++) {
      const result = await sync(clientOf(emu), syncOptions(tests));
      expect(casesOf(emu).map((c) => c.automationStatus)).toEqual([
        'MANUAL',
        'AUTOMATED',
        'MANUAL',
      ]);
      expect(result.kept.filter((k) => k.field === 'automationStatus')).toEqual([
        expect.objectContaining({ key: written1!.testCaseKey, ours: 'AUTOMATED' }),
        expect.objectContaining({ key: keyed!.testCaseKey, ours: 'AUTOMATED' }),
      ]);
    }
    expect(describeSyncResult(await sync(clientOf(emu), syncOptions(tests)))).toContain(
      'steps kept: 2\n  DEMO-T1 Cart: add a book (MANUAL, with 3 written step(s) kept, not made AUTOMATED',
    );
    // Its test gone while its suite ran, the keyed MANUAL case is no candidate: only AUTOMATED
    // cases are retired.
    const gone = await sync(
      clientOf(emu),
      syncOptions(
        [
          testOf('Cart', `${bare!.testCaseKey} empties the cart`, 'passed'),
          testOf('Feature', 'another scenario', 'passed'),
        ],
        { 'retire-missing': true },
      ),
    );
    expect(gone.archived).toEqual([]);
    expect(liveSteps(emu, keyed!.id).map((s) => s.attributes.action)).toEqual(
      written.map(([a]) => a),
    );
  });
});

describe('steps matched by their text', () => {
  test('inserting a step creates one step; the others keep their ids and texts, renumbered only where needed', async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    await sync(clientOf(emu), syncOptions(scenario('Given a', 'When b', 'Then c', 'And d')));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    const [a, b, c, d] = liveSteps(emu, id).map((s) => ({ id: s.id, etag: s.etag }));
    const inserted = scenario('Given a', 'When x', 'When b', 'Then c', 'And d');
    const plan = await sync(clientOf(emu), syncOptions(inserted, { 'dry-run': true }));
    // One POST; b, c and d move one place down (a GET and a PATCH each); a is not written.
    expect(plan.steps).toEqual({ created: 1, updated: 3, deleted: 0, cases: 1 });
    expect(plan.plannedRequests).toBe(1 + 2 * 3);
    emu.resetStats();
    const result = await sync(clientOf(emu), syncOptions(inserted));
    expect(result.steps).toEqual(plan.steps);
    expect(emu.stats().byMethod).toMatchObject({ POST: 1, PATCH: 3 });
    // projects, cases, steps, then the plan
    expect(emu.stats().total).toBe(3 + plan.plannedRequests);
    const now = liveSteps(emu, id);
    expect(now.map((s) => [s.id, s.attributes.action])).toEqual([
      [a!.id, 'Given a'],
      [expect.any(String), 'When x'],
      [b!.id, 'When b'],
      [c!.id, 'Then c'],
      [d!.id, 'And d'],
    ]);
    expect(now[0]!.etag).toBe(a!.etag);
    expect(now.map((s) => s.attributes.sequenceNumber)).toEqual([1, 2, 3, 4, 5]);
  });

  test('appending costs one POST; removing one step costs its GET and DELETE, no renumbering; a changed text updates that step', async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    await sync(clientOf(emu), syncOptions(scenario('Given a', 'When b', 'Then c')));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    const [a, b, c] = liveSteps(emu, id).map((s) => s.id);
    const run = async (...steps: string[]) => {
      emu.resetStats();
      const result = await sync(clientOf(emu), syncOptions(scenario(...steps)));
      expect(emu.stats().total).toBe(3 + result.plannedRequests);
      return result;
    };
    expect((await run('Given a', 'When b', 'Then c', 'And e')).plannedRequests).toBe(1);
    const e = liveSteps(emu, id)[3]!.id;
    const removed = await run('Given a', 'Then c', 'And e');
    expect(removed.steps).toEqual({ created: 0, updated: 0, deleted: 1, cases: 1 });
    expect(removed.plannedRequests).toBe(2);
    expect(stepIds(emu, id)).toEqual([
      [a, 'Given a'],
      [c, 'Then c'],
      [e, 'And e'],
    ]);
    const changed = await run('Given a', 'Then C', 'And e');
    expect(changed.steps).toEqual({ created: 0, updated: 1, deleted: 0, cases: 1 });
    expect(stepIds(emu, id)).toEqual([
      [a, 'Given a'],
      [c, 'Then C'],
      [e, 'And e'],
    ]);
    expect(b).not.toBe(c);
  });
});

describe('writes merge against what they read', () => {
  test("a step a person edits between sync's read and its delete stays", async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    await sync(clientOf(emu), syncOptions(scenario('Given a', 'When b', 'Then c')));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    const b = liveSteps(emu, id)[1]!.id;
    const client = afterRead(clientOf(emu), `test_steps/${b}`, () =>
      editByHand(emu, 'test_steps', b, { expectedResult: 'b happened' }),
    );
    const result = await sync(client, syncOptions(scenario('Given a', 'Then c')));
    expect(stepIds(emu, id)).toEqual([
      [expect.any(String), 'Given a'],
      [b, 'When b'],
      [expect.any(String), 'Then c'],
    ]);
    expect(result.steps.deleted).toBe(0);
    expect(result.kept).toEqual([
      expect.objectContaining({ field: 'step 2', ours: '(removed)', why: 'edited' }),
    ]);
  });

  test("a person's rename between sync's read and its write is kept; the key still moves", async () => {
    const emu = await publishEmulator({ seed: automatedSeed(1) });
    const { id } = byAutomationKey(emu, 'Suite.test0')!;
    const filed = testsOf(1).map((t) => ({ ...t, file: 'src/suite.test.js' }));
    const client = afterRead(clientOf(emu), `test_cases/${id}`, () =>
      editByHand(emu, 'test_cases', id, { name: 'Zero, by hand' }),
    );
    const result = await sync(client, syncOptions(filed, { 'migrate-keys': '{classname}.{name}' }));
    expect(casesOf(emu)[0]).toMatchObject({
      name: 'Zero, by hand',
      automationKey: 'src/suite.test.js › Suite.test0',
    });
    expect(result.renamed).toEqual([]);
    expect(result.rekeyed).toHaveLength(1);
    expect(result.kept).toEqual([
      expect.objectContaining({ field: 'name', name: 'Zero, by hand' }),
    ]);
  });

  test("a person's edit of a step between sync's read and its write is kept", async () => {
    const emu = await publishEmulator({ seed: testSeed() });
    await sync(clientOf(emu), syncOptions(scenario('Given a', 'When b')));
    const { id } = byAutomationKey(emu, 'Feature.scenario')!;
    const b = liveSteps(emu, id)[1]!.id;
    const client = afterRead(clientOf(emu), `test_steps/${b}`, () =>
      editByHand(emu, 'test_steps', b, { action: 'When b, as the person wrote it' }),
    );
    const result = await sync(client, syncOptions(scenario('Given a', 'When B')));
    expect(liveSteps(emu, id)[1]!.attributes.action).toBe('When b, as the person wrote it');
    expect(result.steps.updated).toBe(0);
    expect(result.kept).toEqual([expect.objectContaining({ field: 'step 2', why: 'edited' })]);
  });
});

test("what was kept is data in every summary: a person's name and value never become Markdown", async () => {
  const hostile = '@octocat fixes #12 *bold* [link](x) <img src=x> | cell';
  const emu = await publishEmulator({
    seed: automatedSeed(0, [
      {
        name: hostile,
        automationKey: 'Suite.cart',
        automationStatus: 'AUTOMATED',
        status: 'ACTIVE',
        customFields: { component: hostile },
      },
    ]),
  });
  const test = {
    ...testOf('Suite', 'cart', 'passed'),
    properties: { component: '<b>billing</b>' },
  };
  const plan = await sync(
    clientOf(emu),
    syncOptions([test], { 'case-fields': 'component=property:component', 'dry-run': true }),
  );
  expect(plan.kept.map((k) => k.field)).toEqual(['name', 'component']);
  for (const md of [renderSyncSummary(plan), renderSyncSection(plan, markdownCell)]) {
    const html = marked.parse(md, { async: false, gfm: true });
    expect(html).not.toMatch(/<img|<a |<b>|<strong>|<em>/);
    expect(md).not.toMatch(/(^|[^\\\u200b])@octocat/);
  }
});

describe('fields mapped from labels', () => {
  const OWN = 'testcycle_sync';
  const seed = (cases: Record<string, unknown>[] = []) =>
    testSeed({
      testCases: cases,
      customFields: [
        { name: 'component', entity: 'test_cases', type: 'string' },
        { name: OWN, entity: 'test_cases', type: 'string' },
      ],
    });
  const tagged = (priority: string, component?: string) => [
    {
      ...testOf('Suite', 'cart', 'passed'),
      properties: { tags: `@priority:${priority}`, ...(component ? { component } : {}) },
    },
  ];
  const mapping = { 'case-fields': 'priority=tag:priority,component=property:component' };

  test('without ownership-field: a value a person set is kept (and said, with the hint); an empty field is filled', async () => {
    const emu = await publishEmulator({
      seed: seed([
        {
          name: 'Suite.cart',
          automationKey: 'Suite.cart',
          automationStatus: 'AUTOMATED',
          status: 'ACTIVE',
          priority: 'LOW',
        },
      ]),
    });
    const infos: string[] = [];
    const logger = {
      debug() {},
      info: (m: unknown) =>
        infos.push(
          String(
            typeof m === 'function'
              ? m({
                  name: (k: string) => `--${k}`,
                  value: (k: string, v: unknown) => `--${k} ${v}`,
                })
              : m,
          ),
        ),
      warn() {},
      error() {},
    };
    const result = await sync(
      clientOf(emu),
      syncOptions(tagged('high', 'billing'), mapping, { logger }),
    );
    expect(byAutomationKey(emu, 'Suite.cart')).toMatchObject({
      priority: 'LOW',
      customFields: { component: 'billing' },
    });
    expect(result.updated).toEqual([expect.objectContaining({ fields: ['customFields'] })]);
    expect(result.kept).toEqual([
      expect.objectContaining({ field: 'priority', ours: 'HIGH', why: 'not-recorded' }),
    ]);
    expect(infos.join('\n')).toMatch(/--ownership-field/);
  });

  test('with ownership-field: sync follows its own values and keeps a value a person changed since', async () => {
    const emu = await publishEmulator({ seed: seed() });
    const flags = { ...mapping, 'ownership-field': OWN };
    await sync(clientOf(emu), syncOptions(tagged('high', 'billing'), flags));
    const made = () => byAutomationKey(emu, 'Suite.cart')!;
    expect(made()).toMatchObject({ priority: 'HIGH', customFields: { component: 'billing' } });
    // The report changes: sync's own values follow it.
    const followed = await sync(clientOf(emu), syncOptions(tagged('critical', 'cart'), flags));
    expect(followed.kept).toEqual([]);
    expect(made()).toMatchObject({ priority: 'CRITICAL', customFields: { component: 'cart' } });
    // A person changes the priority: kept from then on, the component still follows the report.
    editByHand(emu, 'test_cases', made().id, { priority: 'LOW' });
    const kept = await sync(clientOf(emu), syncOptions(tagged('normal', 'checkout'), flags));
    expect(made()).toMatchObject({ priority: 'LOW', customFields: { component: 'checkout' } });
    expect(kept.kept).toEqual([
      expect.objectContaining({ field: 'priority', ours: 'MEDIUM', why: 'edited' }),
    ]);
    emu.resetStats();
    const again = await sync(clientOf(emu), syncOptions(tagged('normal', 'checkout'), flags));
    expect(writes(emu.stats())).toBe(0);
    expect(again.kept).toHaveLength(1);
    // A test with no mapped labels: nothing to record, nothing written once its case exists.
    const bare = [testOf('Suite', 'bare', 'passed')];
    await sync(clientOf(emu), syncOptions(bare, flags));
    emu.resetStats();
    await sync(clientOf(emu), syncOptions(bare, flags));
    expect(writes(emu.stats())).toBe(0);
  });

  test('publish --sync reads ownership-field and replace-steps as sync does; an ownership-field that case-fields also maps is refused', async () => {
    const emu = await publishEmulator({ seed: seed() });
    const settings = publishSettings(
      settingsFrom({ 'cycle-name': 'CI run', sync: true, ...mapping, 'ownership-field': OWN }),
      {},
    );
    expect(settings).toMatchObject({ ownershipField: OWN, replaceSteps: false });
    await publish(clientOf(emu), { ...settings, reports: [report(tagged('high', 'billing'))] });
    const made = byAutomationKey(emu, 'Suite.cart')!;
    expect(JSON.parse(String((made.customFields as Record<string, unknown>)[OWN]))).toEqual({
      priority: 'HIGH',
      component: 'billing',
    });
    expect(() => syncOptions([], { ...mapping, 'ownership-field': 'component' })).toThrow(
      /ownership-field: component is mapped by case-fields too/,
    );
  });

  test('an ownership-field the Space does not define is a config error before any write', async () => {
    const emu = await publishEmulator({ seed: seed() });
    const error = await sync(
      clientOf(emu),
      syncOptions(tagged('high'), { ...mapping, 'ownership-field': 'nope' }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /ownership-field: nope is no custom field of test cases/,
    );
    expect(writes(emu.stats())).toBe(0);
  });
});
