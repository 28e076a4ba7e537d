/**
 * What the gate adds for triage: quarantined cases left out of every threshold
 * (src/triage/quarantine.ts), and new failures against a baseline cycle (src/triage/baseline.ts),
 * with the tests still failing and those fixed. Requests: one paged read of the cycle's
 * quarantined (and, for new failures, failing) executions with their cases; for new failures the
 * baseline's lookup, one paged read of its executions, and one `in` read of the fixed candidates.
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { f, type Filter } from '../client/index.js';
import { oneLine } from '../shared/redact.js';
import { ConfigError } from '../shared/errors.js';
import type { ExecutionResult } from '../schema/resources.js';
import { baselineSource, findBaseline, isFailing, readBaseline } from './baseline.js';
import type { CycleCounts } from '../schema/counts.js';
import { MAX_NAMED, type Triage } from './model.js';
import type { TriageGateOptions } from './options.js';
import { DEFAULT_QUARANTINE_EXPIRY_DAYS, DEFAULT_QUARANTINE_FIELD } from '../shared/defaults.js';
import { readCasesInCycle, readGateExecutions, type TriagedTest } from './quarantine.js';

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
  const field = gate.quarantineField ?? DEFAULT_QUARANTINE_FIELD;
  const read = await readGateExecutions(client, cycle.id, {
    field,
    failing: wantFailures,
    gateFilter,
    now,
    expiryDays: gate.quarantineExpiryDays ?? DEFAULT_QUARANTINE_EXPIRY_DAYS,
  });
  const triage: Triage = {
    quarantined: read.quarantined,
    newFailures: [],
    stillFailing: [],
    fixed: [],
    quarantineExpiryDays: gate.quarantineExpiryDays ?? DEFAULT_QUARANTINE_EXPIRY_DAYS,
  };
  const reasons: string[] = [];
  const notes: string[] = [];
  if (read.unavailable && gate.quarantineFieldGiven) notes.push(read.unavailable);
  // A quarantine whose end cannot be read is no quarantine "forever": the gate says which, and fails.
  if (read.invalid.length)
    reasons.push(
      `${plural(read.invalid.length, 'quarantine')} not applied: the until of the test-case custom field "${oneLine(field)}" is no date (give YYYY-MM-DD or an ISO date-time, or remove the quarantine: testcycle quarantine remove --case KEY): ${read.invalid
        .slice(0, MAX_NAMED)
        .map((t) => `${t.key} "${oneLine(t.name)}" until "${oneLine(t.quarantine?.until ?? '')}"`)
        .join(
          ', ',
        )}${read.invalid.length > MAX_NAMED ? ` and ${read.invalid.length - MAX_NAMED} more` : ''}; counted meanwhile`,
    );
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
  let baseline: Awaited<ReturnType<typeof findBaseline>>;
  try {
    baseline = await findBaseline(client, cycle, gate);
  } catch (error) {
    // Only notify reads the baseline: a baseline-cycle that names no cycle tells no one, and the
    // gate, which checks no new failures, stands.
    if (max !== undefined || !(error instanceof ConfigError)) throw error;
    baseline = { first: false, why: error.message };
  }
  if ('why' in baseline) {
    const what = baselineSource(gate) === 'previous' ? 'no previous cycle' : 'no baseline cycle';
    // Nothing failing now is nothing new, whatever the baseline would have said.
    if (baseline.first || max === undefined || read.failing.length === 0)
      notes.push(`${what}: new failures not checked (${baseline.why})`);
    else
      reasons.push(
        `${what} found, so new failures (at most ${max} allowed) were not checked: ${baseline.why}`,
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
