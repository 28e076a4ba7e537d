/**
 * Triage through the emulator's state: quarantine stored on the test case, the gate leaving
 * quarantined tests out of every threshold, and new failures against a baseline cycle.
 */
import { ConfigError } from '../../src/shared/errors.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import {
  addQuarantine,
  gateCycle,
  gateSettings,
  listQuarantined,
  parseQuarantine,
  publish,
  publishSettings,
  removeQuarantine,
  renderSummary,
  describeQuarantine,
  settingsFrom,
} from '../../src/publish/index.js';
import { buildReport, dashboardSettings } from '../../src/dashboard/index.js';
import { runCli } from '../helpers/cli.js';
import { nightly, NOW, prEnv, publishAs, triageSeed } from '../helpers/triage.js';
import { silentLogger } from '../../src/shared/redact.js';
import { createCycle } from '../../src/publish/index.js';
import { readGateExecutions } from '../../src/triage/quarantine.js';
import { updateWithRetry } from '../../src/client/client.js';
import { RW, testSeed } from '../helpers/emulator.js';
import {
  clientOf,
  closeAll,
  publishEmulator,
  report,
  reportOf,
  testOf,
} from '../helpers/publish.js';

afterEach(closeAll);

const now = () => NOW;

async function quarantine(emu: RunningEmulator, key: string, until?: string) {
  return addQuarantine(clientOf(emu), {
    field: 'quarantine',
    caseKey: key,
    reason: 'flaky: races the cache',
    until,
    now,
  });
}

describe('quarantine add, remove, list', () => {
  test('add stores {since, until, reason, by} on the case; list shows it; remove clears it', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const client = clientOf(emu);
    const added = await addQuarantine(client, {
      field: 'quarantine',
      caseKey: 'DEMO-T1',
      reason: 'flaky: races the cache',
      until: '2026-12-31',
      now,
    });
    // The definitions, the case by key, who the token is, the case for its ETag, the PATCH.
    expect(client.stats.total).toBe(5);
    expect(added).toMatchObject({ key: 'DEMO-T1', name: 'A', active: true });
    const stored = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'A')!;
    expect(
      JSON.parse(String((stored.attributes.customFields as Record<string, unknown>).quarantine)),
    ).toEqual({
      since: NOW.toISOString(),
      until: '2026-12-31',
      reason: 'flaky: races the cache',
      by: 'ada@example.com',
    });
    const listed = await listQuarantined(client, { field: 'quarantine', now });
    expect(listed.map((q) => q.key)).toEqual(['DEMO-T1']);
    const removed = await removeQuarantine(client, {
      field: 'quarantine',
      caseKey: 'DEMO-T1',
      now,
    });
    expect(removed?.key).toBe('DEMO-T1');
    expect(await listQuarantined(client, { field: 'quarantine', now })).toEqual([]);
  });

  test('a Space without the field is told before any write, naming the field and /service_custom_field', async () => {
    const emu = await publishEmulator({
      seed: testSeed({ testCases: [{ name: 'A', status: 'ACTIVE' }] }),
    });
    const client = clientOf(emu);
    const attempt = addQuarantine(client, {
      field: 'quarantine',
      caseKey: 'DEMO-T1',
      reason: 'flaky',
      now,
    });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(
      /quarantine-field: the Space defines no test-case custom field "quarantine" \(the Space's custom fields are listed at GET \/service_custom_field\)/,
    );
    expect(client.stats.byMethod.PATCH ?? 0).toBe(0);
  });

  test('a value typed by hand still quarantines, with its text as the reason', () => {
    expect(parseQuarantine('flaky since Tuesday')).toEqual({
      since: '',
      reason: 'flaky since Tuesday',
      by: '',
    });
    expect(parseQuarantine('')).toBeUndefined();
    expect(parseQuarantine(null)).toBeUndefined();
  });
});

describe('what a quarantine value means', () => {
  /** Case A's quarantine field set to `value` as the service's app would store it. */
  const setA = (emu: RunningEmulator, value: unknown) => {
    const a = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'A')!;
    emu.service.store.write(a, { customFields: { quarantine: value } });
  };
  const gateA = async (emu: RunningEmulator, gate: Record<string, unknown> = {}) =>
    (await nightly(emu, '1', [0], { 'max-failed': 0, ...gate })).result;

  test.each(['false', 'no', '0', 'null', '[]', '{}', '', '  Off ', 'NONE'])(
    'the value %j means off: A is not quarantined, its failure counts',
    async (value) => {
      const emu = await publishEmulator({ seed: triageSeed() });
      setA(emu, value);
      const result = await gateA(emu);
      expect(result.triage?.quarantined).toEqual([]);
      expect(result.gate.reasons).toEqual(['1 failed, more than 0 allowed']);
    },
  );

  test('an until that is no date is not "forever": the gate fails naming the case, the field and the value', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    setA(
      emu,
      JSON.stringify({ since: NOW.toISOString(), until: 'next week', reason: 'x', by: 'y' }),
    );
    const result = await gateA(emu);
    expect(result.triage?.quarantined).toEqual([]);
    expect(result.gate.reasons).toEqual([
      '1 failed, more than 0 allowed',
      '1 quarantine not applied: the until of the test-case custom field "quarantine" is no date (give YYYY-MM-DD or an ISO date-time, or remove the quarantine: testcycle quarantine remove --case KEY): DEMO-T1 "A" until "next week"; counted meanwhile',
    ]);
    const listed = await listQuarantined(clientOf(emu), { field: 'quarantine', now });
    expect(listed.map(describeQuarantine)).toEqual([
      `DEMO-T1 "A": x, by y, since ${NOW.toISOString()}, 0 days old, until "next week" is no date (YYYY-MM-DD or an ISO date-time): not applied`,
    ]);
  });

  test('every quarantine has an age; one without until ends after quarantine-expiry-days (30), shown in the summary', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();
    setA(emu, JSON.stringify({ since: daysAgo(40), reason: 'forgotten', by: 'ada@example.com' }));
    const b = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'B')!;
    emu.service.store.write(b, {
      customFields: {
        quarantine: JSON.stringify({ since: daysAgo(3), reason: 'flaky', by: 'bob' }),
      },
    });
    const result = (await nightly(emu, '1', [0, 1], { 'max-failed': 0 })).result;
    // A's quarantine is 40 days old: expired, counted again. B's is 3 days old.
    expect(result.gate.reasons).toEqual(['1 failed, more than 0 allowed']);
    expect(
      result.triage?.quarantined.map((t) => [t.key, t.quarantine?.ageDays, t.quarantine?.ends]),
    ).toEqual([['DEMO-T2', 3, '2026-12-22T10:00:00.000Z']]);
    const md = renderSummary(result, []);
    expect(md).toContain(
      '1 quarantined test failed; not counted. A quarantine without until ends 30 days after it was set (default expiry, quarantine-expiry-days).',
    );
    expect(md).toContain(
      '| 🧊 DEMO-T2 B | FAILED | flaky | 3 days | 2026-12-22 (default expiry) | bob |',
    );
    // quarantine-expiry-days 0: only until ends a quarantine; A's counts again.
    const forever = await gateA(emu, { 'quarantine-expiry-days': 0 });
    expect(forever.gate).toMatchObject({ passed: true, reasons: [] });
    expect(forever.triage?.quarantined[0]?.quarantine).toMatchObject({ ageDays: 40 });
    expect(forever.triage?.quarantined[0]?.quarantine?.ends).toBeUndefined();
  });

  test("a value typed by hand is as old as the case's last update", async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    setA(emu, 'flaky, ask Ada');
    const a = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'A')!;
    const updated = String(a.attributes.updatedAt);
    const later = new Date(Date.parse(updated) + 2 * 86_400_000 + 1000);
    const [listed] = await listQuarantined(clientOf(emu), {
      field: 'quarantine',
      now: () => later,
    });
    expect(listed?.quarantine).toMatchObject({ reason: 'flaky, ask Ada', ageDays: 2 });
    expect(listed?.quarantine.endsByDefault).toBe(true);
  });

  test('a since in the future (a typo: 2062 for 2026) cannot keep a quarantine from its default expiry', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    setA(emu, JSON.stringify({ since: '2062-01-01T00:00:00Z', reason: 'flaky', by: 'ada' }));
    const a = [...emu.service.store.all('test_cases')].find((c) => c.attributes.name === 'A')!;
    // The case's last update is the latest it can have been set; 31 days after, it has ended.
    const later = new Date(Date.parse(String(a.attributes.updatedAt)) + 31 * 86_400_000);
    const [listed] = await listQuarantined(clientOf(emu), {
      field: 'quarantine',
      now: () => later,
    });
    expect(listed?.quarantine).toMatchObject({ ageDays: 31, active: false, endsByDefault: true });
  });
});

describe('the gate leaves quarantined tests out', () => {
  test('pass rate and counts leave out A (quarantined); its execution is still written as it is', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await quarantine(emu, 'DEMO-T1');
    const { result } = await nightly(emu, '1', [0, 1], { 'min-pass-rate': 50 });
    expect(result.counts).toMatchObject({ passed: 2, failed: 1, total: 3 });
    expect(result.passRate).toBe(66.67);
    expect(result.gate.passed).toBe(true);
    expect(result.gate.notes).toEqual(['1 quarantined test failed; not counted']);
    expect(result.triage?.quarantined.map((t) => [t.key, t.result])).toEqual([
      ['DEMO-T1', 'FAILED'],
    ]);
    const a = [...emu.service.store.all('test_case_executions')].filter(
      (e) => e.attributes.result === 'FAILED',
    );
    expect(a).toHaveLength(2);
  });

  test('an expired until no longer counts: the test is counted again', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await quarantine(emu, 'DEMO-T1', '2026-12-01');
    const later = new Date('2026-12-02T00:00:00Z');
    const settings = publishSettings(
      settingsFrom({ 'cycle-name': 'Nightly 1', 'max-failed': 0 }),
      {},
    );
    const result = await publish(clientOf(emu), {
      ...settings,
      gate: { ...settings.gate, now: () => later },
      reports: [reportOf(4, (i) => (i === 0 ? 'failed' : 'passed'))],
    });
    expect(result.gate.reasons).toEqual(['1 failed, more than 0 allowed']);
    expect(result.triage?.quarantined).toEqual([]);
  });

  test('a quarantined test left NOT_EXECUTED does not fail fail-on-not-executed', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await quarantine(emu, 'DEMO-T1');
    const client = clientOf(emu);
    await createCycle(client, {
      name: 'Nightly 1',
      status: 'ACTIVE',
      populate: 'status = "ACTIVE"',
      logger: silentLogger,
    });
    const settings = publishSettings(
      settingsFrom({ 'cycle-name': 'Nightly 1', 'fail-on-not-executed': true }),
      {},
    );
    const result = await publish(client, {
      ...settings,
      gate: { ...settings.gate, now },
      reports: [report([1, 2, 3].map((i) => testOf('Suite', `test${i}`, 'passed')))],
    });
    expect(result.triage?.quarantined.map((t) => [t.key, t.result])).toEqual([
      ['DEMO-T1', 'NOT_EXECUTED'],
    ]);
    expect(result.counts).toMatchObject({ passed: 3, notExecuted: 0, total: 3 });
    expect(result.gate).toMatchObject({ passed: true, reasons: [] });
    expect(result.gate.notes).toEqual(['1 quarantined test not counted (none failed)']);
  });

  test('max-failed and the trend leave quarantined tests out', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', []); // 100%
    await quarantine(emu, 'DEMO-T1');
    const { result } = await nightly(emu, '2', [0], {
      'max-failed': 0,
      'max-pass-rate-drop': 0,
    });
    expect(result.gate).toMatchObject({ passed: true, reasons: [] });
    expect(result.passRate).toBe(100);
  });

  test('the gate reads quarantine in one request (include=testCase); a Space without the field costs that request and quarantines nothing', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await quarantine(emu, 'DEMO-T1');
    await nightly(emu, '1', [0]);
    const client = clientOf(emu);
    const target = { name: 'Nightly 1' };
    const result = await gateCycle(client, target, {
      ...gateSettings(settingsFrom({ 'cycle-name': 'Nightly 1', 'max-failed': 0 })),
      now,
    });
    expect(result.gate.passed).toBe(true);
    // cycle lookup, aggregate, the quarantined executions with their cases.
    expect(client.stats.total).toBe(3);

    const bare = await publishEmulator({
      seed: testSeed({
        testCases: [{ name: 'A', automationKey: 'Suite.test0', status: 'ACTIVE' }],
      }),
    });
    await nightly(bare, '1', [0]);
    const other = clientOf(bare);
    const plain = await gateCycle(other, target, {
      ...gateSettings(settingsFrom({ 'cycle-name': 'Nightly 1', 'max-failed': 0 })),
      now,
    });
    expect(plain.gate.reasons).toEqual(['1 failed, more than 0 allowed']);
    expect(plain.gate.notes).toBeUndefined();
    expect(other.stats.total).toBe(3);
    // Another field named (the action passes the default as given, so only another name counts):
    // the refusal is said.
    const named = await gateCycle(clientOf(bare), target, {
      ...gateSettings(
        settingsFrom({
          'cycle-name': 'Nightly 1',
          'max-failed': 0,
          'quarantine-field': 'flaky_hold',
        }),
      ),
      now,
    });
    expect(named.gate.notes?.[0]).toMatch(
      /^quarantine not applied: the service refused a filter on the test-case custom field "flaky_hold"/,
    );
    expect(
      gateSettings(settingsFrom({ 'cycle-name': 'N', 'quarantine-field': 'quarantine' }))
        .quarantineFieldGiven,
    ).toBeUndefined();
    expect(() =>
      gateSettings(settingsFrom({ 'cycle-name': 'N', 'quarantine-field': 'a.b' })),
    ).toThrow(/^quarantine-field: "a\.b" is not a custom field name/);
  });
});

describe('max-new-failures against a baseline', () => {
  test('A quarantined, B and C new failures: fails naming B and C, not A; B and C quarantined too: passes', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', []); // baseline: A, B, C, D passed
    await quarantine(emu, 'DEMO-T1');
    const { result, client } = await nightly(emu, '2', [0, 1, 2], { 'max-new-failures': 0 });
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      '2 new failures against DEMO-R1 "Nightly 1", more than 0 allowed: DEMO-T2 "B", DEMO-T3 "C"',
    ]);
    expect(result.triage?.newFailures.map((t) => t.key)).toEqual(['DEMO-T2', 'DEMO-T3']);
    expect(result.triage?.baseline).toMatchObject({ key: 'DEMO-R1', name: 'Nightly 1' });
    expect(result.counts).toMatchObject({ passed: 1, failed: 2, total: 3 });
    expect(result.passRate).toBe(33.33);
    expect(client.stats.total).toBeGreaterThan(0);
    // The gate alone: cycle lookup, aggregate, the quarantined-or-failing executions with their
    // cases, the series page, the baseline's executions (one page); no fixed candidates, no read.
    const alone = clientOf(emu);
    const again = await gateCycle(
      alone,
      { name: 'Nightly 2' },
      {
        ...gateSettings(
          settingsFrom({ 'cycle-name': 'Nightly {run_number}', 'max-new-failures': 0 }),
        ),
        now,
      },
    );
    expect(again.gate.reasons).toEqual(result.gate.reasons);
    expect(alone.stats.total).toBe(5);

    await quarantine(emu, 'DEMO-T2');
    await quarantine(emu, 'DEMO-T3');
    const gate = await gateCycle(
      clientOf(emu),
      { name: 'Nightly 2' },
      {
        ...gateSettings(
          settingsFrom({ 'cycle-name': 'Nightly {run_number}', 'max-new-failures': 0 }),
        ),
        now,
      },
    );
    expect(gate.gate).toMatchObject({ passed: true, reasons: [] });
    expect(gate.gate.notes).toEqual(['3 quarantined tests failed; not counted']);
    expect(gate.counts).toMatchObject({ passed: 1, failed: 0, total: 1 });
  });

  test('still failing and fixed are told apart from new failures', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', [0, 1]); // A, B failed
    const { result } = await nightly(emu, '2', [1, 2], { 'max-new-failures': 1 });
    expect(result.gate.passed).toBe(true);
    expect(result.triage?.newFailures.map((t) => t.key)).toEqual(['DEMO-T3']);
    expect(result.triage?.stillFailing.map((t) => t.key)).toEqual(['DEMO-T2']);
    expect(result.triage?.fixed.map((t) => t.key)).toEqual(['DEMO-T1']);
  });

  test('--baseline-cycle names the baseline by key or name', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', [2]); // C failed
    await nightly(emu, '2', []); // all passed
    const byName = await nightly(emu, '3', [2], {
      'max-new-failures': 0,
      'baseline-cycle': 'Nightly 1',
    });
    expect(byName.result.gate.passed).toBe(true);
    expect(byName.result.triage?.stillFailing.map((t) => t.key)).toEqual(['DEMO-T3']);
    const byKey = await nightly(emu, '4', [2], {
      'max-new-failures': 0,
      'baseline-cycle': 'DEMO-R2',
    });
    expect(byKey.result.gate.reasons[0]).toMatch(/^1 new failure against DEMO-R2 "Nightly 2"/);
  });

  test('nightly on main + PR against main: baseline-cycle as a pattern is the latest complete nightly', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', [1]); // B failed a while ago
    await nightly(emu, '2', [2], { 'close-cycle': true }); // the latest nightly: C failing on main
    const settings = publishSettings(
      settingsFrom({
        'cycle-name': 'PR {pr}',
        'max-new-failures': 0,
        'baseline-cycle': 'Nightly {run_number}',
      }),
      { GITHUB_REF: 'refs/pull/7/merge', GITHUB_EVENT_NAME: 'pull_request' },
    );
    const pr = await publish(clientOf(emu), {
      ...settings,
      gate: { ...settings.gate, now },
      reports: [reportOf(4, (i) => (i === 2 || i === 3 ? 'failed' : 'passed'))],
    });
    expect(pr.cycle.name).toBe('PR 7');
    expect(pr.triage?.baseline).toMatchObject({ key: 'DEMO-R2', name: 'Nightly 2' });
    expect(pr.triage?.stillFailing.map((t) => t.key)).toEqual(['DEMO-T3']);
    expect(pr.gate.reasons).toEqual([
      '1 new failure against DEMO-R2 "Nightly 2", more than 0 allowed: DEMO-T4 "D"',
    ]);
  });

  test("a PR's default baseline is the latest complete nightly: never another PR's cycle, an unfinished nightly or a branch named like one", async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const gate = { 'max-new-failures': 0 };
    // The nightly of main: C failing; closed.
    await publishAs(emu, 'Nightly 2026-11-24', {}, [2], { 'close-cycle': true });
    // PR 5 broke A.
    await publishAs(emu, 'PR {pr} {sha7}', prEnv(5, 'fix-a', 'aaaaaaa5'), [0]);
    // Later cycles that fail A too, none of them the baseline: tonight's nightly, still running
    // (ACTIVE, nothing after it), and a branch's run named like a nightly (closed).
    await publishAs(emu, 'Nightly 2026-11-25', {}, [0]);
    await publishAs(emu, 'Nightly {branch}', { TESTCYCLE_BRANCH: 'fix-login' }, [0], {
      'close-cycle': true,
    });
    const { result } = await publishAs(
      emu,
      'PR {pr} {sha7}',
      prEnv(7, 'feature-x', 'bbbbbbb7'),
      [0, 2],
      gate,
    );
    expect(result.triage?.baseline).toMatchObject({ key: 'DEMO-R1', name: 'Nightly 2026-11-24' });
    expect(result.triage?.newFailures.map((t) => t.key)).toEqual(['DEMO-T1']);
    expect(result.triage?.stillFailing.map((t) => t.key)).toEqual(['DEMO-T3']);
    expect(result.gate.reasons).toEqual([
      '1 new failure against DEMO-R1 "Nightly 2026-11-24", more than 0 allowed: DEMO-T1 "A"',
    ]);
    // The gate alone costs what the previous-cycle baseline cost: cycle lookup, aggregate, the
    // failing-or-quarantined read, one page of the base series, the baseline's executions.
    const alone = clientOf(emu);
    const again = await gateCycle(
      alone,
      { name: 'PR 7 bbbbbbb' },
      {
        ...gateSettings(
          settingsFrom({ 'cycle-name': 'PR {pr} {sha7}', ...gate }),
          prEnv(7, 'feature-x', 'bbbbbbb7'),
        ),
        now,
      },
    );
    expect(again.gate.reasons).toEqual(result.gate.reasons);
    expect(alone.stats.total).toBe(5);
    // Once tonight's nightly is followed by another, it is complete: A fails on main too.
    await publishAs(emu, 'Nightly 2026-11-26', {}, [0]);
    const later = await publishAs(
      emu,
      'PR {pr} {sha7}',
      prEnv(7, 'feature-x', 'ccccccc7'),
      [0],
      gate,
    );
    expect(later.result.triage?.baseline).toMatchObject({ name: 'Nightly 2026-11-25' });
    expect(later.result.gate.passed).toBe(true);
    // Migration: baseline previous compares with this PR's previous push (PR 7's, never PR 5's).
    const own = await publishAs(emu, 'PR {pr} {sha7}', prEnv(7, 'feature-x', 'ddddddd7'), [0, 1], {
      ...gate,
      baseline: 'previous',
    });
    expect(own.result.triage?.baseline).toMatchObject({ name: 'PR 7 ccccccc' });
    expect(own.result.triage?.newFailures.map((t) => t.key)).toEqual(['DEMO-T2']);
  });

  test('a PR without a complete baseline: failing tests fail the gate, naming the series; none failing is a note', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const gate = { 'max-new-failures': 0, 'baseline-series': 'Nightly {branch} {date}' };
    await publishAs(emu, 'Nightly {branch} {date}', { TESTCYCLE_BRANCH: 'main' }, []);
    const red = await publishAs(emu, 'PR {pr}', prEnv(7, 'feature-x', 'bbbbbbb7'), [1], gate);
    expect(red.result.gate.reasons).toEqual([
      expect.stringMatching(
        /^no baseline cycle found, so new failures \(at most 0 allowed\) were not checked: the series "Nightly \{branch\} \{date\}" \(branch main\) has no complete cycle: its newest, DEMO-R1 \(ACTIVE\), is not DONE/,
      ),
    ]);
    const green = await publishAs(emu, 'PR {pr}', prEnv(7, 'feature-x', 'bbbbbbb7'), [], gate);
    expect(green.result.gate).toMatchObject({ passed: true, reasons: [] });
    expect(green.result.gate.notes?.[0]).toMatch(/^no baseline cycle: new failures not checked/);
    expect(() =>
      gateSettings(settingsFrom({ 'cycle-name': 'PR {pr}', 'baseline-series': 'Nightly {day}' })),
    ).toThrow(
      /^baseline-series: unknown placeholder \{day\} in "Nightly \{day\}"; use \* or \{date\}/,
    );
  });

  test('a push compares with the previous cycle of its own branch, for new failures and for the trend', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const at = (branch: string, sha: string) => ({ TESTCYCLE_BRANCH: branch, TESTCYCLE_SHA: sha });
    await publishAs(emu, 'CI {branch} {sha7}', at('main', 'aaaaaaa1'), []);
    await publishAs(emu, 'CI {branch} {sha7}', at('feature', 'bbbbbbb1'), [0]);
    const { result } = await publishAs(emu, 'CI {branch} {sha7}', at('main', 'ccccccc1'), [0], {
      'max-new-failures': 0,
      'max-pass-rate-drop': 0,
    });
    expect(result.triage?.baseline).toMatchObject({ name: 'CI main aaaaaaa' });
    expect(result.gate.reasons).toEqual([
      'pass rate 75% fell 25 points from 100% in DEMO-R1 "CI main aaaaaaa" (at most 0 allowed)',
      '1 new failure against DEMO-R1 "CI main aaaaaaa", more than 0 allowed: DEMO-T1 "A"',
    ]);
  });

  test("a dry run plans the gate's reads; the real run then sends that many", async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', [0]);
    await quarantine(emu, 'DEMO-T2');
    const gate = { 'max-new-failures': 0, 'min-pass-rate': 10 };
    emu.resetStats();
    const dry = await nightly(emu, '2', [1, 2], { ...gate, 'dry-run': true });
    const readsSoFar = emu.stats().total;
    emu.resetStats();
    const real = await nightly(emu, '2', [1, 2], gate);
    expect(real.result.triage?.fixed.map((t) => t.key)).toEqual(['DEMO-T1']);
    expect(dry.result.dryRun!.plannedRequests + readsSoFar).toBe(emu.stats().total);
  });

  test('the first cycle of a series has no baseline: passed, and it says so', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const { result } = await nightly(emu, '1', [1], { 'max-new-failures': 0 });
    expect(result.gate.passed).toBe(true);
    expect(result.gate.notes).toEqual([
      'no previous cycle: new failures not checked (DEMO-R1 (rank 1) is the first cycle of the series "Nightly {run_number}")',
    ]);
  });

  test('a baseline setting without max-new-failures or notify does nothing, and the run says so', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const { result } = await nightly(emu, '1', [], {
      'min-pass-rate': 50,
      'baseline-cycle': 'No such cycle',
      'baseline-series': 'Release {date}',
    });
    expect(result.gate).toMatchObject({ passed: true, reasons: [] });
    // Said by the settings table's needs, before any request (__tests__/cli/idle-settings.test.ts).
    expect(result.warnings).toEqual([]);
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    const cli = await runCli(
      ['gate', '--cycle-name', 'Nightly 1', '--max-failed', '0', '--baseline', 'series'],
      env,
    );
    expect(cli.code).toBe(0);
    expect(cli.err).toContain(
      '--baseline series has no effect without --max-new-failures, --notify or --notify-users; it is ignored.',
    );
    // With notify alone, a baseline-cycle that names no cycle tells no one; the gate stands.
    const told = await nightly(emu, '2', [1], {
      notify: 'owners',
      'baseline-cycle': 'No such cycle',
    });
    expect(told.result.gate.passed).toBe(true);
    expect(told.result.gate.notes).toEqual([
      'no baseline cycle: new failures not checked (baseline-cycle: no test cycle has the key or name "No such cycle" in this Space.)',
    ]);
    expect(told.result.notified?.recipients).toEqual([]);
  });

  test('without a cycle-name template or baseline-cycle: a config error before any request', () => {
    const attempt = () =>
      gateSettings(settingsFrom({ 'cycle-key': 'DEMO-R1', 'max-new-failures': 0 }));
    expect(attempt).toThrow(
      /^max-new-failures: needs a baseline: cycle-name .*, baseline-cycle, or baseline: series \(the latest complete cycle of baseline-series\)\.$/,
    );
  });
});

describe('what people see', () => {
  test('the summary shows new failures first, still failing, fixed, and the quarantined marked with reason and until', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    await nightly(emu, '1', [3]); // D failed
    await quarantine(emu, 'DEMO-T1', '2026-12-31');
    const { result } = await nightly(emu, '2', [0, 1], { 'max-new-failures': 0 });
    const md = renderSummary(result, []);
    const at = (text: string) => md.indexOf(text);
    expect(at('### New failures against DEMO-R1 Nightly 1 (1)')).toBeGreaterThan(0);
    expect(md).toContain('| DEMO-T2 B | FAILED |');
    expect(md).toContain('### Fixed (1)\n\n| Test | Result |\n|---|---|\n| DEMO-T4 D | PASSED |');
    // The email is data: neutralised so that it notifies no one on GitHub (src/shared/redact.ts).
    expect(md).toContain(
      '| 🧊 DEMO-T1 A | FAILED | flaky: races the cache | 0 days | 2026-12-31 | ada@\u200bexample.com |',
    );
    expect(md).toContain('1 quarantined test failed; not counted.');
    expect(at('### New failures')).toBeLessThan(at('### Fixed'));
    expect(at('### Fixed')).toBeLessThan(at('### 🧊 Quarantined'));
  });

  test('the report page marks the quarantined test in its flaky list, with reason and until', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    for (const [run, fail] of [
      ['1', [1]],
      ['2', []],
      ['3', [1]],
      ['4', []],
    ] as const)
      await nightly(emu, run, [...fail]);
    await quarantine(emu, 'DEMO-T2', '2026-12-31');
    const report = await buildReport(
      clientOf(emu),
      dashboardSettings(settingsFrom({ 'series-name': 'Nightly {run_number}' })),
    );
    const row = /<tr data-test-id="[^"]+"><td>B<span class="key">DEMO-T2<\/span>(.*?)<\/td>/.exec(
      report.html.slice(report.html.indexOf('id="flaky"')),
    );
    expect(row?.[1]).toContain('🧊 quarantined until 2026-12-31: flaky: races the cache');
    expect(report.markdown).toContain('🧊 quarantined until 2026-12-31: flaky: races the cache');
    expect(report.model.flaky?.items[0]).toMatchObject({
      key: 'DEMO-T2',
      quarantine: { reason: 'flaky: races the cache', until: '2026-12-31', by: 'ada@example.com' },
    });
  });

  test('CLI: quarantine add, list and remove; gate --max-new-failures exits 1 naming B and C', async () => {
    const emu = await publishEmulator({ seed: triageSeed() });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    await nightly(emu, '1', []);
    const add = await runCli(
      ['quarantine', 'add', '--case', 'DEMO-T1', '--reason', 'flaky', '--until', '2999-01-01'],
      env,
    );
    expect(add).toMatchObject({ code: 0 });
    expect(add.out).toMatch(
      /^quarantined DEMO-T1 "A": flaky, until 2999-01-01, by ada@example.com/,
    );
    const list = await runCli(['quarantine', 'list', '--json'], env);
    expect(JSON.parse(list.out).quarantined.map((q: { key: string }) => q.key)).toEqual([
      'DEMO-T1',
    ]);
    await nightly(emu, '2', [0, 1, 2]);
    const gateArgs = ['gate', '--cycle-name', 'Nightly 2', '--max-new-failures', '0'];
    const gate = await runCli([...gateArgs, '--baseline-cycle', 'Nightly 1'], env);
    expect(gate.code).toBe(1);
    expect(gate.out).toContain(
      '2 new failures against DEMO-R1 "Nightly 1", more than 0 allowed: DEMO-T2 "B", DEMO-T3 "C"',
    );
    expect(gate.out).toContain('quarantined, not counted (1): DEMO-T1 "A"');
    const json = await runCli([...gateArgs, '--baseline-cycle', 'Nightly 1', '--json'], env);
    const parsed = JSON.parse(json.out);
    expect(parsed.triage.newFailures.map((t: { key: string }) => t.key)).toEqual([
      'DEMO-T2',
      'DEMO-T3',
    ]);
    expect(parsed.triage.fixed).toEqual([]);
    expect(parsed.gate.outcome).toBe('failed');
    const remove = await runCli(['quarantine', 'remove', '--case', 'DEMO-T1'], env);
    expect(remove.out).toMatch(/^released DEMO-T1 "A"/);
    const bad = await runCli(
      ['quarantine', 'add', '--case', 'DEMO-T1', '--reason', 'x', '--until', 'tomorrow'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      '--until: "tomorrow" is not a date: give YYYY-MM-DD or an ISO date-time.',
    );
    expect((await runCli(['quarantine'], env)).err).toMatch(/say add, remove or list/);
  });
});

test('the gate reads its failing and quarantined tests in key order, whatever order their executions were written in', async () => {
  const emu = await publishEmulator({ seed: triageSeed() });
  const client = clientOf(emu);
  const project = await client.project();
  const cases = [...emu.service.store.all('test_cases')];
  const cycle = await client.create('test_cycles', {
    name: 'Order',
    rank: 1,
    projectId: project.id,
    status: 'ACTIVE',
  });
  // Written last key first, as concurrent writes may finish.
  for (const c of [...cases].reverse()) {
    const execution = await client.create('test_case_executions', {
      projectId: project.id,
      testCaseId: c.id,
      testCycleId: cycle.id,
    });
    await updateWithRetry(client, 'test_case_executions', execution.id, {
      change: () => ({ result: 'FAILED' as const }),
    });
  }
  await quarantine(emu, 'DEMO-T4');
  await quarantine(emu, 'DEMO-T2');
  const read = await readGateExecutions(client, cycle.id, {
    field: 'quarantine',
    failing: true,
    now: NOW,
  });
  expect(read.failing.map((t) => t.key)).toEqual(['DEMO-T1', 'DEMO-T3']);
  expect(read.quarantined.map((t) => t.key)).toEqual(['DEMO-T2', 'DEMO-T4']);
});
