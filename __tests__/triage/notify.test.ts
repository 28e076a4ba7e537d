/**
 * --notify owners and --notify-users through the emulator's state: one notification per recipient
 * per cycle, none for a recipient who turned the type off, none for quarantined tests, none twice.
 */
import {
  addQuarantine,
  gateCycle,
  gateSettings,
  publish,
  publishSettings,
  renderSummary,
  settingsFrom,
} from '../../src/publish/index.js';
import type { Outcome } from '../../src/parsers/base/model.js';
import { OTHER_USER, OWNER, RO, RW } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { clientOf, closeAll, publishEmulator, report, testOf } from '../helpers/publish.js';
import { nightly, publishAs, triageSeed } from '../helpers/triage.js';

afterEach(closeAll);

const now = () => new Date('2026-11-25T10:00:00Z');

/** Bob turned EXECUTION_COMPLETED off; Ada did not. */
const seed = () =>
  triageSeed({
    notificationPreferences: [
      { userId: OTHER_USER, notificationType: 'EXECUTION_COMPLETED', inAppEnabled: false },
      { userId: OWNER, notificationType: 'MENTION', inAppEnabled: false },
    ],
  });

const notifications = (emu: Awaited<ReturnType<typeof publishEmulator>>) =>
  [...emu.service.store.all('notifications')].map((n) => n.attributes);

async function quarantineA(emu: Awaited<ReturnType<typeof publishEmulator>>) {
  await addQuarantine(clientOf(emu), {
    field: 'quarantine',
    caseKey: 'DEMO-T1',
    reason: 'flaky',
    now,
  });
}

test("--notify owners: A's and B's owner gets one notification (for B; A is quarantined), C's owner none, a re-run none", async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  await quarantineA(emu);
  const first = await nightly(emu, '2', [0, 1, 2], { notify: 'owners' });
  const cycle = [...emu.service.store.all('test_cycles')].find(
    (c) => c.attributes.name === 'Nightly 2',
  )!;
  expect(notifications(emu)).toEqual([
    expect.objectContaining({
      recipientUserId: OWNER,
      type: 'EXECUTION_COMPLETED',
      title: '1 new failure in DEMO-R2 "Nightly 2"',
      message: 'New failures against DEMO-R1 "Nightly 1":\n- DEMO-T2 "B"',
      relatedEntityType: 'TEST_CYCLE',
      relatedEntityId: cycle.id,
      relatedEntityKey: 'DEMO-R2',
      relatedEntityName: 'Nightly 2',
    }),
  ]);
  expect(first.result.notified?.recipients.map((r) => [r.who, r.outcome])).toEqual([
    ['ada@example.com', 'sent'],
    ['bob@example.com', 'turned off'],
  ]);
  emu.resetStats();
  const again = await nightly(emu, '2', [0, 1, 2], { notify: 'owners' });
  expect(notifications(emu)).toHaveLength(1);
  expect(again.result.notified?.recipients.map((r) => r.outcome)).toEqual([
    'already sent',
    'turned off',
  ]);
  expect(emu.stats().byMethod.POST ?? 0).toBe(0);
});

test('the notification costs three reads and one POST per recipient', async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  await nightly(emu, '2', [1, 3]);
  const settings = gateSettings(
    settingsFrom({
      'cycle-name': 'Nightly {run_number}',
      notify: 'owners',
      'max-new-failures': 100,
    }),
  );
  const quiet = clientOf(emu);
  await gateCycle(quiet, { name: 'Nightly 2' }, { ...settings, notify: undefined, now });
  const told = clientOf(emu);
  const result = await gateCycle(told, { name: 'Nightly 2' }, { ...settings, now });
  expect(result.notified?.recipients).toEqual([
    expect.objectContaining({ who: 'ada@example.com', outcome: 'sent' }),
  ]);
  expect(notifications(emu)[0]?.title).toBe('2 new failures in DEMO-R2 "Nightly 2"');
  // Users, preferences, notifications of the cycle, one POST; no preference of Ada's for the
  // type carried the organization id, so one token is read for it.
  expect(told.stats.total - quiet.stats.total).toBe(3 + 1 + 1);
});

test('--notify-users tells named users of every new failure; an unknown email is listed', async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  const { result } = await nightly(emu, '2', [1, 3], {
    'notify-users': 'ada@example.com,nobody@example.com',
  });
  expect(result.notified?.unknownUsers).toEqual(['nobody@example.com']);
  expect(result.warnings).toContain('notify-users: no user of the Space has nobody@example.com');
  expect(notifications(emu)).toEqual([
    expect.objectContaining({
      recipientUserId: OWNER,
      message: 'New failures against DEMO-R1 "Nightly 1":\n- DEMO-T2 "B"\n- DEMO-T4 "D"',
    }),
  ]);
});

test('a message names at most 10 new failures, then "and N more"', async () => {
  const { notificationMessage } = await import('../../src/triage/notify.js');
  const tests = Array.from({ length: 12 }, (_, i) => ({
    caseId: String(i),
    key: `DEMO-T${i}`,
    name: `t${i}`,
    result: 'FAILED' as const,
  }));
  const message = notificationMessage(tests, undefined);
  expect(message.split('\n')).toHaveLength(12);
  // The rest by key, so that a later run knows each of them was told.
  expect(message.endsWith('- DEMO-T9 "t9"\nand 2 more: DEMO-T10, DEMO-T11')).toBe(true);
});

describe('notifications are best effort', () => {
  test('an owner who left the Space is not told, the run warns naming them, and the gate keeps its verdict (exit 1, not 3)', async () => {
    const emu = await publishEmulator({ seed: seed() });
    await nightly(emu, '1', []);
    // Bob (C's owner) left the Space; his preferences went with him.
    for (const type of ['notification_preferences', 'users'] as const)
      for (const r of [...emu.service.store.all(type)])
        if (r.id === OTHER_USER || r.attributes.userId === OTHER_USER) emu.service.store.remove(r);
    const { result } = await nightly(emu, '2', [1, 2], { notify: 'owners', 'max-new-failures': 0 });
    expect(result.gate.reasons).toEqual([
      '2 new failures against DEMO-R1 "Nightly 1", more than 0 allowed: DEMO-T2 "B", DEMO-T3 "C"',
    ]);
    expect(result.notified?.recipients.map((r) => [r.who, r.outcome, r.reason])).toEqual([
      [
        OTHER_USER,
        'not sent',
        'no user of the Space has this id (the owner may have left the Space)',
      ],
      ['ada@example.com', 'sent', undefined],
    ]);
    expect(result.warnings).toContain(
      `notifications: 1 not told (the results and the gate stand): ${OTHER_USER} (no user of the Space has this id (the owner may have left the Space))`,
    );
    expect(notifications(emu).map((n) => n.recipientUserId)).toEqual([OWNER]);
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    const cli = await runCli(
      [
        'gate',
        '--cycle-name',
        'Nightly 2',
        '--max-new-failures',
        '0',
        '--notify',
        'owners',
        '--baseline-cycle',
        'Nightly 1',
      ],
      env,
    );
    expect(cli.code).toBe(1);
    expect(cli.err).toContain('notifications: 1 not told (the results and the gate stand)');
  });

  test('a POST the service refuses (a read-only token: 403) is not sent, and the gate stands', async () => {
    const emu = await publishEmulator({ seed: seed() });
    await nightly(emu, '1', []);
    await nightly(emu, '2', [1]);
    const settings = gateSettings(
      settingsFrom({
        'cycle-name': 'Nightly {run_number}',
        notify: 'owners',
        'max-new-failures': 0,
      }),
    );
    const result = await gateCycle(
      clientOf(emu, { token: RO }),
      { name: 'Nightly 2' },
      {
        ...settings,
        now,
      },
    );
    expect(result.gate.reasons[0]).toMatch(/^1 new failure against DEMO-R1/);
    expect(result.notified?.recipients).toEqual([
      expect.objectContaining({
        who: 'ada@example.com',
        outcome: 'not sent',
        reason: expect.stringMatching(/^POST \/notifications: .*403/),
      }),
    ]);
    expect(result.warnings[0]).toMatch(
      /^notifications: 1 not told \(the results and the gate stand\): ada@example\.com \(POST \/notifications: /,
    );
  });
});

test("matrix legs into one cycle: each leg's new failure is told once, the second leg's too", async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  const leg = async (tests: [number, Outcome][]) => {
    const settings = publishSettings(
      settingsFrom({
        'cycle-name': 'Nightly {run_number}',
        notify: 'owners',
        'max-new-failures': 9,
      }),
      { TESTCYCLE_RUN_NUMBER: '2' },
    );
    return publish(clientOf(emu), {
      ...settings,
      gate: { ...settings.gate, now },
      reports: [report(tests.map(([i, o]) => testOf('Suite', `test${i}`, o)))],
    });
  };
  const first = await leg([
    [0, 'passed'],
    [1, 'failed'],
  ]); // B, Ada's
  const second = await leg([
    [2, 'passed'],
    [3, 'failed'],
  ]); // D, Ada's too
  expect(
    first.notified?.recipients.map((r) => [r.who, r.outcome, r.tests.map((t) => t.key)]),
  ).toEqual([['ada@example.com', 'sent', ['DEMO-T2']]]);
  expect(
    second.notified?.recipients.map((r) => [r.who, r.outcome, r.tests.map((t) => t.key)]),
  ).toEqual([['ada@example.com', 'sent', ['DEMO-T4']]]);
  expect(notifications(emu).map((n) => n.message)).toEqual([
    'New failures against DEMO-R1 "Nightly 1":\n- DEMO-T2 "B"',
    'New failures against DEMO-R1 "Nightly 1":\n- DEMO-T4 "D"',
  ]);
  // Either leg again: nothing new, nothing sent.
  emu.resetStats();
  const again = await leg([
    [2, 'passed'],
    [3, 'failed'],
  ]);
  expect(again.notified?.recipients.map((r) => r.outcome)).toEqual(['already sent']);
  expect(emu.stats().byMethod.POST ?? 0).toBe(0);
});

test('a notification neutralises test and branch names as summaries do: no mention, no HTML, no link', async () => {
  const emu = await publishEmulator({ seed: seed() });
  const d = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'D')!;
  emu.service.store.write(d, { name: 'pay @octo-team <b>now</b> see https://evil.example/x' });
  const branch = { TESTCYCLE_BRANCH: '@admins-<i>x</i>' };
  await publishAs(
    emu,
    'Nightly {branch} {run_number}',
    { ...branch, TESTCYCLE_RUN_NUMBER: '1' },
    [],
  );
  await publishAs(
    emu,
    'Nightly {branch} {run_number}',
    { ...branch, TESTCYCLE_RUN_NUMBER: '2' },
    [3],
    {
      notify: 'owners',
    },
  );
  const [sent] = notifications(emu);
  expect(sent?.title).toBe('1 new failure in DEMO-R2 "Nightly @\u200badmins-\\<i\\>x\\</i\\> 2"');
  expect(sent?.message).toBe(
    'New failures against DEMO-R1 "Nightly @\u200badmins-\\<i\\>x\\</i\\> 1":\n- DEMO-T4 "pay @\u200bocto-team \\<b\\>now\\</b\\> see https\u200b://evil.example/x"',
  );
});

test('--notify-users compares emails in any case', async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  const { result } = await nightly(emu, '2', [1], { 'notify-users': 'ADA@Example.COM' });
  expect(result.notified?.unknownUsers).toEqual([]);
  expect(result.notified?.recipients.map((r) => [r.who, r.outcome])).toEqual([
    ['ada@example.com', 'sent'],
  ]);
});

test('a dry run shows who would be told, sends nothing, and plans the POSTs', async () => {
  const emu = await publishEmulator({ seed: seed() });
  await nightly(emu, '1', []);
  await quarantineA(emu);
  emu.resetStats();
  const dry = await nightly(emu, '2', [0, 1, 2], { notify: 'owners', 'dry-run': true });
  const readsSoFar = emu.stats().total;
  expect(emu.stats().byMethod.POST ?? 0).toBe(0);
  expect(dry.result.notified?.recipients.map((r) => [r.who, r.outcome, r.tests.length])).toEqual([
    ['ada@example.com', 'would be told', 1],
    ['bob@example.com', 'turned off', 1],
  ]);
  expect(renderSummary(dry.result, [])).toContain('| ada@​example.com | 1 | would be told |');
  emu.resetStats();
  await nightly(emu, '2', [0, 1, 2], { notify: 'owners' });
  expect(notifications(emu)).toHaveLength(1);
  // The gate's reads, three reads, a token for the organization id and the POST.
  expect(dry.result.dryRun!.plannedRequests + readsSoFar).toBe(emu.stats().total);
});

test('the seed takes notificationPreferences, checked field by field', async () => {
  const { validateSeed } = await import('../../src/emulator/index.js');
  const bad = (p: Record<string, unknown>) => () =>
    validateSeed(triageSeed({ notificationPreferences: [p as never] }));
  expect(bad({ userId: OWNER, notificationType: 'LOUD' })).toThrow(
    /^seed: notificationPreferences\[0\]\.notificationType must be one of REVIEW_REQUESTED, /,
  );
  expect(
    bad({ userId: '0f0f0f0f-0000-4000-8000-000000000000', notificationType: 'SYSTEM' }),
  ).toThrow(
    'seed: notificationPreferences[0].userId is not the id of a user of the seed (users[].id).',
  );
  expect(bad({ userId: OWNER, notificationType: 'SYSTEM', inAppEnabled: 'no' })).toThrow(
    'seed: notificationPreferences[0].inAppEnabled must be true or false.',
  );
  const emu = await publishEmulator({ seed: seed() });
  expect(
    [...emu.service.store.all('notification_preferences')].map((p) => [
      p.attributes.userId,
      p.attributes.notificationType,
      p.attributes.inAppEnabled,
    ]),
  ).toEqual([
    [OTHER_USER, 'EXECUTION_COMPLETED', false],
    [OWNER, 'MENTION', false],
  ]);
});
