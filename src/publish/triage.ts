/**
 * What the gate adds for triage: quarantined cases left out of every threshold
 * (src/publish/quarantine.ts), and new failures against a baseline cycle (src/publish/baseline.ts),
 * with the tests still failing and those fixed. Requests: one paged read of the cycle's
 * quarantined (and, for new failures, failing) executions with their cases; for new failures the
 * baseline's lookup, one paged read of its executions, and one `in` read of the fixed candidates.
 */
import type { Resource, ServiceClient } from '../api/client.js';
import { f, type Filter } from '../api/filter.js';
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from '../schema/resources.js';
import { findBaseline, isFailing, readBaseline } from './baseline.js';
import type { CycleCounts } from './gate.js';
import type { Notified, NotifyOptions } from './notify.js';
import type { AutoQuarantineOptions } from './auto-quarantine.js';
import { DEFAULT_QUARANTINE_FIELD } from '../shared/defaults.js';
import { readCasesInCycle, readGateExecutions, type TriagedTest } from './quarantine.js';
import type { CycleRef } from './series.js';

/** The gate's triage settings (part of GateOptions). */
export interface TriageGateOptions {
  /** The test-case custom field holding quarantines; default `quarantine`. */
  quarantineField?: string;
  /** The field is not the default one: a Space that refuses it is said in a note. */
  quarantineFieldGiven?: boolean;
  /** Fail when more tests fail now that passed (or had no execution) in the baseline. */
  maxNewFailures?: number;
  /** The baseline cycle by key or name; absent: the previous cycle of `series`. */
  baselineCycle?: string;
  /** The automatic quarantine rule, applied before the gate (src/publish/auto-quarantine.ts). */
  autoQuarantine?: AutoQuarantineOptions;
  /** Tell owners or named users of the new failures (src/publish/notify.ts). */
  notify?: NotifyOptions;
  /** The clock that decides whether a quarantine's `until` is past (tests inject one). */
  now?: () => Date;
}

/** A cycle's triage, as results, summaries and outputs show it. */
export interface Triage {
  /** Tests under an active quarantine: their results are in no count and no threshold. */
  quarantined: TriagedTest[];
  /** The baseline compared with (max-new-failures), when one was found. */
  baseline?: CycleRef;
  /** FAILED or BLOCKED now; PASSED, not run, or without an execution in the baseline. */
  newFailures: TriagedTest[];
  /** FAILED or BLOCKED now and in the baseline. */
  stillFailing: TriagedTest[];
  /** FAILED or BLOCKED in the baseline, PASSED now. */
  fixed: TriagedTest[];
}

/** How many tests a reason or a message names before "and N more". */
export const MAX_NAMED = 10;

/** `DEMO-T2 "B", DEMO-T3 "C" and 3 more`: bounded, each name on one line. */
export function nameTests(tests: TriagedTest[], max = MAX_NAMED): string {
  const shown = tests.slice(0, max).map((t) => `${t.key} "${oneLine(t.name)}"`);
  return `${shown.join(', ')}${tests.length > max ? ` and ${tests.length - max} more` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The cycle's triage, and what it adds to the verdict. */
export async function readTriage(
  client: ServiceClient,
  cycle: Resource<'test_cycles'>,
  gate: TriageGateOptions & { filter?: string; series?: string },
): Promise<{ triage: Triage; reasons: string[]; notes: string[] }> {
  const now = gate.now?.() ?? new Date();
  const gateFilter = gateFilterOf(gate);
  const wantFailures = gate.maxNewFailures !== undefined || !!gate.notify;
  const read = await readGateExecutions(client, cycle.id, {
    field: gate.quarantineField ?? DEFAULT_QUARANTINE_FIELD,
    failing: wantFailures,
    gateFilter,
    now,
  });
  const triage: Triage = {
    quarantined: read.quarantined,
    newFailures: [],
    stillFailing: [],
    fixed: [],
  };
  const reasons: string[] = [];
  const notes: string[] = [];
  if (read.unavailable && gate.quarantineFieldGiven) notes.push(read.unavailable);
  if (read.quarantined.length) {
    const failed = read.quarantined.filter((t) => isFailing(t.result)).length;
    const all = read.quarantined.length;
    notes.push(
      failed === 0
        ? `${plural(all, 'quarantined test')} not counted (none failed)`
        : `${plural(failed, 'quarantined test')} failed; not counted${failed === all ? '' : ` (${all} quarantined in all)`}`,
    );
  }
  if (!wantFailures) return { triage, reasons, notes };
  const max = gate.maxNewFailures;
  const baseline = await findBaseline(client, cycle, gate);
  if ('why' in baseline) {
    if (baseline.first || max === undefined)
      notes.push(`no previous cycle: new failures not checked (${baseline.why})`);
    else
      reasons.push(
        `no baseline cycle found, so new failures (at most ${max} allowed) were not checked: ${baseline.why}`,
      );
    return { triage, reasons, notes };
  }
  triage.baseline = baseline;
  const before = await readBaseline(client, baseline.id);
  for (const t of read.failing)
    (isFailing(before.get(t.caseId)) ? triage.stillFailing : triage.newFailures).push(t);
  const failingNow = new Set(read.failing.map((t) => t.caseId));
  const quarantined = new Set(read.quarantined.map((t) => t.caseId));
  const candidates = [...before]
    .filter(([id, r]) => isFailing(r) && !failingNow.has(id) && !quarantined.has(id))
    .map(([id]) => id);
  triage.fixed = await readCasesInCycle(
    client,
    cycle.id,
    candidates,
    f.and(f.eq('result', 'PASSED'), gateFilter),
  );
  if (max !== undefined && triage.newFailures.length > max)
    reasons.push(
      `${plural(triage.newFailures.length, 'new failure')} against ${baseline.key} "${oneLine(baseline.name)}", more than ${max} allowed: ${nameTests(triage.newFailures)}`,
    );
  return { triage, reasons, notes };
}

/** The gate-filter as the triage reads add it to theirs. */
export function gateFilterOf(gate: { filter?: string }): Filter | undefined {
  return gate.filter ? f.user(gate.filter, 'gate-filter') : undefined;
}

/** The counts without the quarantined tests' results. */
export function withoutTests(counts: CycleCounts, tests: TriagedTest[]): CycleCounts {
  const out = { ...counts };
  const key: Record<ExecutionResult, Exclude<keyof CycleCounts, 'total'>> = {
    PASSED: 'passed',
    FAILED: 'failed',
    BLOCKED: 'blocked',
    SKIPPED: 'skipped',
    NOT_EXECUTED: 'notExecuted',
    IN_PROGRESS: 'inProgress',
  };
  for (const t of tests) {
    const k = key[t.result];
    if (out[k] > 0) {
      out[k]--;
      out.total--;
    }
  }
  return out;
}

/**
 * The previous cycle's counts without the cases quarantined now (the trend compares like with
 * like): one `in` read of those cases' executions there, none when nothing is quarantined.
 */
export function withoutQuarantinedIn(
  client: ServiceClient,
  triage: Triage,
  gate: { filter?: string },
) {
  const ids = triage.quarantined.map((t) => t.caseId);
  return async (previousId: string, counts: CycleCounts): Promise<CycleCounts> =>
    ids.length
      ? withoutTests(counts, await readCasesInCycle(client, previousId, ids, gateFilterOf(gate)))
      : counts;
}

/** The triage in the CLI's human output: one line per list, each bounded; who was told. */
export function triageLines(triage: Triage | undefined, notified?: Notified): string[] {
  const told = notified?.recipients.length
    ? [
        `notified: ${notified.recipients.map((r) => `${r.who} (${r.outcome})`).join(', ')}`,
        ...(notified.problem ? [`notifications: ${notified.problem}`] : []),
        ...(notified.unknownUsers.length
          ? [`notify-users: no user has ${notified.unknownUsers.join(', ')}`]
          : []),
      ]
    : [];
  if (!triage) return told;
  const line = (label: string, tests: TriagedTest[]) =>
    tests.length ? [`${label} (${tests.length}): ${nameTests(tests)}`] : [];
  return [
    ...line(
      `new failures${triage.baseline ? ` against ${triage.baseline.key}` : ''}`,
      triage.newFailures,
    ),
    ...line('still failing', triage.stillFailing),
    ...line('fixed', triage.fixed),
    ...line('quarantined, not counted', triage.quarantined),
    ...told,
  ];
}
