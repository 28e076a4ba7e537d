/**
 * `testcycle sync`: the Space's automated test cases kept in step with the code (docs/design.md
 * "Sync"). Reads first (the automated cases once, 100 a page, only the fields the plan looks at;
 * the steps of the cases whose tests carry steps), then a plan (created, renamed, re-keyed,
 * updated, archived, restored, steps), then the writes through the client's scheduler. Every
 * PATCH merges against the record it read (docs/architecture.md "Writes after reads"): a field
 * someone else changed in between is judged again, never overwritten by accident. Nothing here is
 * about executions: src/publish/sync.ts writes those.
 */
import { type Resource, type ServiceClient, updateWithRetry } from '../api/client.js';
import { ConfigError, ServiceError, stopIfInterrupted, type Words } from '../shared/errors.js';
import { chunkIn, f } from '../api/filter.js';
import { oneLine, type Logger, silentLogger } from '../shared/redact.js';
import type { ParsedReport, TestResult, TestStep } from '../reports/model.js';
import type { AttributesOf, WritableAttributesOf } from '../schema/resources.js';
import { type CaseFieldMapping, caseFieldsOf, resolveCaseFields } from './case-fields.js';
import { describeCollisions, findKeyCollisions, testKeysOf } from './collisions.js';
import { createOrFind } from './idempotent.js';
import {
  caseNameOf,
  checkAutomationKeyTemplate,
  compareKeys,
  createCase,
  describeKeyHint,
  explicitKeyOf,
  keyBuilder,
  keyHintOf,
  keyWarnings,
  MAX_FILTER_CHARS,
  type MatchOptions,
  nextRank,
} from './match.js';
import { forEachPooled } from './pool.js';
import { warningList } from './warnings.js';
import type { PublishResult } from './publish.js';
import { requestsOf } from './requests.js';

/**
 * `case-names` (docs/design.md "Sync"): `key` names an automated case after its key and gives the
 * name back when it differs; `keep` names a case only when it is created.
 */
export type CaseNames = 'key' | 'keep';

/** The share of the automated cases one sync may archive unless --retire-max says otherwise. */
export const DEFAULT_RETIRE_SHARE = 0.1;
const PAGE = 100;

export interface SyncOptions {
  reports: ParsedReport[];
  match: Pick<MatchOptions, 'keyPattern' | 'automationKey' | 'workspace'>;
  /** Archive the automated cases no report has (never from publish --sync). */
  retireMissing: boolean;
  /** The most cases one run may archive; absent: DEFAULT_RETIRE_SHARE of the automated, at least 1. */
  retireMax?: number;
  /** The key template the Space's cases were keyed by: such cases are re-keyed, not duplicated. */
  migrateKeys?: string;
  caseFields?: CaseFieldMapping;
  /** Absent: `key`. */
  caseNames?: CaseNames;
  dryRun: boolean;
  logger?: Logger;
  concurrency?: number;
  signal?: AbortSignal;
  /** The Space's id when the caller has read it (publish --sync): one request fewer. */
  projectId?: string;
  /** Key warnings already given by the caller (publish --sync): not repeated. */
  quiet?: boolean;
}

/** A case as results list it. */
export interface CaseRef {
  key: string | null;
  name: string;
}

export interface SyncResult {
  dryRun: boolean;
  created: CaseRef[];
  renamed: (CaseRef & { from: string })[];
  rekeyed: (CaseRef & { from: string; to: string })[];
  /** automationStatus, priority, owner and custom fields, by attribute name. */
  updated: (CaseRef & { fields: string[] })[];
  archived: CaseRef[];
  restored: CaseRef[];
  steps: { created: number; updated: number; deleted: number; cases: number };
  /** Matched cases with nothing to write. */
  unchanged: number;
  /** Automated cases (AUTOMATED with a key, not ARCHIVED) and how many one run may archive. */
  retire: { automated: number; max: number; enabled: boolean };
  /** The requests the writes cost (a dry run: would cost), beyond the reads already made. */
  plannedRequests: number;
  /** Writes the service refused (a name another case holds): not done, the rest went on. */
  failed: { case: string; reason: string }[];
  requests: PublishResult['requests'];
  warnings: string[];
}

/** The archive bound of docs/design.md "Sync": a partial run must not archive the suite. */
export class RetireBoundError extends ConfigError {
  constructor(count: number, automated: number, max: number, explicit: boolean) {
    super(
      'retire-max',
      (w) =>
        `retiring would archive ${count} of ${automated} automated test case(s), more than ${explicit ? `${w.name('retire-max')} ${max}` : `the default bound of ${max} (${DEFAULT_RETIRE_SHARE * 100}% of the automated cases, at least 1)`}; nothing was written. A partial run (one shard, a filtered run) lacks most tests: sync the reports of the whole suite at once, or, if these tests are gone, widen the bound with ${w.value('retire-max', String(count))}.`,
      'RETIRE_BOUND',
    );
  }
}

type CaseAttrs = AttributesOf<'test_cases'>;
type CaseChange = WritableAttributesOf<'test_cases'>;

/** One test (or the first of several report entries of it) as sync sees it. */
interface Entry {
  test: TestResult;
  file: string;
  key: string;
  explicit?: string;
  oldKey?: string;
}

interface ExistingStep {
  id: string;
  sequenceNumber: number;
  action: string;
  expectedResult: string;
}

interface StepPlan {
  create: { sequenceNumber: number; step: TestStep }[];
  update: { id: string; sequenceNumber: number; step: TestStep }[];
  remove: string[];
}

type Kind = 'renamed' | 'rekeyed' | 'updated' | 'archived' | 'restored';

interface CaseItem {
  id: string;
  ref: CaseRef;
  /** The attributes to write given the case as last read (null: nothing). */
  change: (current: CaseAttrs) => CaseChange | null;
  kinds: Set<Kind>;
  from: CaseAttrs;
  fields: string[];
  steps?: StepPlan;
}

interface NewCase {
  entry: Entry;
  extra: CaseChange;
}

interface Plan {
  creates: NewCase[];
  items: CaseItem[];
  unchanged: number;
  retire: SyncResult['retire'];
}

/** The plan, then (unless a dry run) the writes. */
export async function sync(client: ServiceClient, options: SyncOptions): Promise<SyncResult> {
  const logger = options.logger ?? silentLogger;
  const { warnings, warn } = warningList(logger);
  client.scheduler.stopWaitingOn(options.signal);
  if (options.migrateKeys) checkAutomationKeyTemplate(options.migrateKeys, 'migrate-keys');
  if (!options.quiet)
    for (const warning of keyWarnings(options.reports, options.match)) warn(warning);
  const entries = entriesOf(options, options.quiet ? () => {} : warn);

  const projectId = options.projectId ?? (await client.project()).id;
  stopIfInterrupted(options.signal);
  // Settings that depend on the Space are checked before any write: an unknown field stops here.
  const fields = options.caseFields
    ? await resolveCaseFields(client, options.caseFields)
    : undefined;
  const cases = await readCases(client, entries, fields !== undefined);
  const stepsOf = await readSteps(client, entries, cases);
  // Most tests have no case, and cases keyed by another template match them: say which (no request).
  const keyed = entries.filter((e) => !e.explicit);
  const missing = keyed.filter((e) => !caseOf(e, cases).found).map((e) => e.test);
  const hint = await keyHintOf(
    missing,
    { tests: keyed.length, unmatched: missing.length, withheld: false },
    options.match,
    [...cases.byAuto.keys()],
  );
  if (hint) warn(describeKeyHint(hint, options.match.automationKey));
  stopIfInterrupted(options.signal);

  const plan = makePlan(entries, cases, stepsOf, options, (test) =>
    fields ? caseFieldsOf(test, fields, warn) : {},
  );
  const planned = planCost(plan);
  logger.info(
    `sync plan: ${describePlan(plan)}; ${options.dryRun ? 'would cost' : 'costs'} about ${planned} more requests (${client.stats.total} read so far)`,
  );
  const result: SyncResult = {
    dryRun: options.dryRun,
    created: plan.creates.map((c) => ({ key: null, name: caseNameOf(c.entry.key) })),
    renamed: [],
    rekeyed: [],
    updated: [],
    archived: [],
    restored: [],
    steps: { created: 0, updated: 0, deleted: 0, cases: 0 },
    unchanged: plan.unchanged,
    retire: plan.retire,
    plannedRequests: planned,
    failed: [],
    requests: requestsOf(client),
    warnings,
  };
  if (options.dryRun) {
    listItems(result, plan.items, (item) => item.from);
    for (const item of [...plan.items, ...plan.creates.map(newCaseSteps)]) {
      const s = item.steps;
      if (!s || s.create.length + s.update.length + s.remove.length === 0) continue;
      result.steps.cases++;
      result.steps.created += s.create.length;
      result.steps.updated += s.update.length;
      result.steps.deleted += s.remove.length;
    }
    return result;
  }
  await write(client, projectId, plan, options, result, warn);
  result.requests = requestsOf(client);
  return result;
}

/**
 * The tests of the reports, one entry per key: distinct tests that share a key are left out
 * (docs/design.md "Keys"), runs of one test in several reports are one entry.
 */
function entriesOf(options: SyncOptions, warn: (text: string | Words) => void): Entry[] {
  const all = options.reports.flatMap((r) => r.tests.map((test) => ({ test, file: r.file })));
  const keys = testKeysOf(all, options.match);
  const collisions = findKeyCollisions(all, keys, options.match.automationKey);
  if (collisions.length) warn((w) => describeCollisions(collisions, 'left out of the sync', w));
  const shared = new Set(collisions.map((c) => c.key));
  const build = keyBuilder(options.match.automationKey, options.match.workspace);
  const old = options.migrateKeys
    ? keyBuilder(options.migrateKeys, options.match.workspace)
    : undefined;
  const byKey = new Map<string, Entry>();
  all.forEach(({ test, file }, i) => {
    const matchKey = keys[i]!;
    if (!matchKey || shared.has(matchKey) || byKey.has(matchKey)) return;
    const key = build(test);
    if (!key) return;
    const explicit = explicitKeyOf(test, options.match.keyPattern);
    const oldKey = old?.(test);
    byKey.set(matchKey, {
      test,
      file,
      key,
      ...(explicit ? { explicit } : {}),
      ...(oldKey && oldKey !== key ? { oldKey } : {}),
    });
  });
  return [...byKey.values()];
}

interface Cases {
  /** Every case with an automationKey, once (docs/design.md "Sync: request budget"). */
  automated: Resource<'test_cases'>[];
  byAuto: Map<string, Resource<'test_cases'>>;
  byKey: Map<string, Resource<'test_cases'>>;
}

const CASE_FIELDS = ['testCaseKey', 'automationKey', 'name', 'status', 'automationStatus'];
const METADATA_FIELDS = ['priority', 'ownerId', 'customFields'];

/** One listing of the cases with a key, and the explicitly keyed cases it did not hold. */
async function readCases(
  client: ServiceClient,
  entries: Entry[],
  withMetadata: boolean,
): Promise<Cases> {
  const fields = { test_cases: [...CASE_FIELDS, ...(withMetadata ? METADATA_FIELDS : [])] };
  const automated = await client.listAll<'test_cases'>('/test_cases', {
    filter: f.isNotNull('automationKey'),
    fields,
  });
  const byAuto = new Map<string, Resource<'test_cases'>>();
  const byKey = new Map<string, Resource<'test_cases'>>();
  const learn = (r: Resource<'test_cases'>) => {
    if (r.attributes.testCaseKey) byKey.set(String(r.attributes.testCaseKey), r);
    const auto = r.attributes.automationKey;
    if (typeof auto !== 'string' || !auto) return;
    // Two cases with one automationKey: the lowest key wins, as in matching (src/publish/match.ts).
    const seen = byAuto.get(auto);
    if (
      !seen ||
      compareKeys(String(r.attributes.testCaseKey ?? r.id), String(seen.attributes.testCaseKey)) < 0
    )
      byAuto.set(auto, r);
  };
  for (const r of automated) learn(r);
  const keys = [
    ...new Set(entries.map((e) => e.explicit).filter((k): k is string => !!k && !byKey.has(k))),
  ];
  for (const filter of chunkIn('testCaseKey', keys, {
    maxItems: PAGE,
    maxEncodedLength: MAX_FILTER_CHARS,
  }))
    for await (const r of client.iterate<'test_cases'>('/test_cases', { filter, fields }))
      byKey.set(String(r.attributes.testCaseKey), r);
  return { automated, byAuto, byKey };
}

/** The case an entry stands for, and how it was found. */
function caseOf(
  entry: Entry,
  cases: Cases,
): { found?: Resource<'test_cases'>; by?: 'key' | 'auto' | 'old' } {
  if (entry.explicit) {
    const found = cases.byKey.get(entry.explicit);
    return found ? { found, by: 'key' } : {};
  }
  const found = cases.byAuto.get(entry.key);
  if (found) return { found, by: 'auto' };
  const old = entry.oldKey ? cases.byAuto.get(entry.oldKey) : undefined;
  return old ? { found: old, by: 'old' } : {};
}

/**
 * The live steps of the matched cases whose tests carry steps: `GET /test_steps` filtered by
 * `testCaseId in (...)`, 100 a page, rather than one to-many read per case (docs/service-api.md
 * 4.1), which would cost a request per case on every sync.
 */
async function readSteps(
  client: ServiceClient,
  entries: Entry[],
  cases: Cases,
): Promise<Map<string, ExistingStep[]>> {
  const ids = [
    ...new Set(
      entries
        .filter((e) => e.test.steps)
        .map((e) => caseOf(e, cases).found?.id)
        .filter((id): id is string => !!id),
    ),
  ];
  const out = new Map<string, ExistingStep[]>(ids.map((id) => [id, []]));
  const fields = { test_steps: ['testCaseId', 'sequenceNumber', 'action', 'expectedResult'] };
  for (const filter of chunkIn('testCaseId', ids, {
    maxItems: PAGE,
    maxEncodedLength: MAX_FILTER_CHARS,
  })) {
    for await (const r of client.iterate<'test_steps'>('/test_steps', { filter, fields })) {
      const a = r.attributes;
      out.get(String(a.testCaseId))?.push({
        id: r.id,
        sequenceNumber: Number(a.sequenceNumber ?? 0),
        action: String(a.action ?? ''),
        expectedResult: String(a.expectedResult ?? ''),
      });
    }
  }
  for (const steps of out.values()) steps.sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  return out;
}

/** Desired steps against the case's: same place, same text is unchanged; by position otherwise. */
export function planSteps(
  desired: readonly TestStep[],
  existing: readonly ExistingStep[],
): StepPlan {
  const plan: StepPlan = { create: [], update: [], remove: [] };
  desired.forEach((step, i) => {
    const have = existing[i];
    const sequenceNumber = i + 1;
    if (!have) plan.create.push({ sequenceNumber, step });
    else if (
      have.action !== step.action ||
      have.expectedResult !== (step.expectedResult ?? '') ||
      have.sequenceNumber !== sequenceNumber
    )
      plan.update.push({ id: have.id, sequenceNumber, step });
  });
  for (const extra of existing.slice(desired.length)) plan.remove.push(extra.id);
  return plan;
}

function makePlan(
  entries: Entry[],
  cases: Cases,
  stepsOf: Map<string, ExistingStep[]>,
  options: SyncOptions,
  fieldsOf: (test: TestResult) => CaseChange,
): Plan {
  const creates: NewCase[] = [];
  const items: CaseItem[] = [];
  const matched = new Set<string>();
  let unchanged = 0;
  for (const entry of entries) {
    const { found, by } = caseOf(entry, cases);
    if (!found) {
      // An explicit key that names no case is not created: the key is the user's, not ours.
      if (!entry.explicit) creates.push({ entry, extra: fieldsOf(entry.test) });
      continue;
    }
    if (matched.has(found.id)) continue;
    matched.add(found.id);
    // Under case-names keep, a case's name is the person's once the case exists.
    const desired: CaseChange = {
      ...(options.caseNames === 'keep' ? {} : { name: caseNameOf(entry.key) }),
      ...fieldsOf(entry.test),
    };
    const oldKey = by === 'old' ? entry.oldKey : undefined;
    const change = (current: CaseAttrs): CaseChange | null => {
      const out: CaseChange = {};
      if (desired.name !== undefined && current.name !== desired.name) out.name = desired.name;
      // Re-keyed only while it still has the old key: a key set since by someone else stays.
      if (oldKey !== undefined && current.automationKey === oldKey) out.automationKey = entry.key;
      if (current.automationStatus !== 'AUTOMATED') out.automationStatus = 'AUTOMATED';
      if (current.status === 'ARCHIVED') out.status = 'ACTIVE';
      if (desired.priority !== undefined && current.priority !== desired.priority)
        out.priority = desired.priority;
      if (desired.ownerId !== undefined && current.ownerId !== desired.ownerId)
        out.ownerId = desired.ownerId;
      const custom = mergedCustomFields(current.customFields, desired.customFields);
      if (custom) out.customFields = custom;
      return Object.keys(out).length ? out : null;
    };
    const steps = entry.test.steps
      ? planSteps(entry.test.steps, stepsOf.get(found.id) ?? [])
      : undefined;
    const first = change(found.attributes);
    const stepWrites = steps ? steps.create.length + steps.update.length + steps.remove.length : 0;
    if (!first && stepWrites === 0) {
      unchanged++;
      continue;
    }
    items.push({
      id: found.id,
      ref: refOf(found.attributes),
      change,
      kinds: kindsOf(first ?? {}),
      from: found.attributes,
      fields: fieldNames(first ?? {}),
      steps,
    });
  }
  const isAutomated = (r: Resource<'test_cases'>) =>
    r.attributes.automationStatus === 'AUTOMATED' &&
    !!r.attributes.automationKey &&
    r.attributes.status !== 'ARCHIVED';
  const automated = cases.automated.filter(isAutomated);
  const max = options.retireMax ?? Math.max(1, Math.floor(automated.length * DEFAULT_RETIRE_SHARE));
  if (options.retireMissing) {
    const missing = automated.filter((r) => !matched.has(r.id));
    if (missing.length > max)
      throw new RetireBoundError(
        missing.length,
        automated.length,
        max,
        options.retireMax !== undefined,
      );
    for (const r of missing) {
      const auto = r.attributes.automationKey;
      items.push({
        id: r.id,
        ref: refOf(r.attributes),
        // Archived only while it is still the automated case that was read.
        change: (current) =>
          current.status !== 'ARCHIVED' &&
          current.automationStatus === 'AUTOMATED' &&
          current.automationKey === auto
            ? { status: 'ARCHIVED' }
            : null,
        kinds: new Set(['archived']),
        from: r.attributes,
        fields: [],
      });
    }
  }
  return {
    creates,
    items,
    unchanged,
    retire: { automated: automated.length, max, enabled: options.retireMissing },
  };
}

/** The case's custom fields with the report's values, or undefined when none differs. */
function mergedCustomFields(
  current: unknown,
  desired: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!desired) return undefined;
  const have = (current && typeof current === 'object' ? current : {}) as Record<string, unknown>;
  const differs = Object.entries(desired).some(([k, v]) => have[k] !== v);
  return differs ? { ...have, ...desired } : undefined;
}

function kindsOf(change: CaseChange): Set<Kind> {
  const kinds = new Set<Kind>();
  if (change.name !== undefined) kinds.add('renamed');
  if (change.automationKey !== undefined) kinds.add('rekeyed');
  if (change.status === 'ACTIVE') kinds.add('restored');
  if (change.status === 'ARCHIVED') kinds.add('archived');
  if (fieldNames(change).length) kinds.add('updated');
  return kinds;
}

/** The code-owned fields a change sets besides name, key and status. */
function fieldNames(change: CaseChange): string[] {
  const names: string[] = [];
  if (change.automationStatus !== undefined) names.push('automationStatus');
  if (change.priority !== undefined) names.push('priority');
  if (change.ownerId !== undefined) names.push('owner');
  if (change.customFields !== undefined) names.push('customFields');
  return names;
}

const refOf = (a: CaseAttrs): CaseRef => ({
  key: (a.testCaseKey as string | undefined) ?? null,
  name: String(a.name ?? ''),
});

/** A new case's steps, all created. */
function newCaseSteps(c: NewCase): { steps?: StepPlan } {
  return c.entry.test.steps ? { steps: planSteps(c.entry.test.steps, []) } : {};
}

/**
 * What the plan's writes cost: the rank read and a POST per new case; a GET (its ETag: lists
 * carry none, docs/service-api.md 8) and a PATCH per changed case; a POST per new step, a GET and
 * a PATCH or DELETE per changed or extra step.
 */
function planCost(plan: Plan): number {
  let cost = plan.creates.length ? 1 + plan.creates.length : 0;
  cost += 2 * plan.items.filter((i) => i.kinds.size > 0).length;
  for (const item of [...plan.items, ...plan.creates.map(newCaseSteps)]) {
    const s = item.steps;
    if (s) cost += s.create.length + 2 * (s.update.length + s.remove.length);
  }
  return cost;
}

function describePlan(plan: Plan): string {
  const count = (kind: Kind) => plan.items.filter((i) => i.kinds.has(kind)).length;
  const steps = [...plan.items, ...plan.creates.map(newCaseSteps)].reduce(
    (n, i) =>
      n + (i.steps ? i.steps.create.length + i.steps.update.length + i.steps.remove.length : 0),
    0,
  );
  return `${plan.creates.length} to create, ${count('renamed')} to rename, ${count('rekeyed')} to re-key, ${count('updated')} to update, ${count('archived')} to archive, ${count('restored')} to restore, ${steps} step write(s), ${plan.unchanged} unchanged`;
}

/** Lists each item under the kinds of its change. */
function listItems(
  result: SyncResult,
  items: readonly CaseItem[],
  before: (item: CaseItem) => CaseAttrs,
): void {
  for (const item of items) {
    const from = before(item);
    const change = item.change(from) ?? {};
    const ref = { key: item.ref.key, name: change.name ?? item.ref.name };
    if (change.name !== undefined) result.renamed.push({ ...ref, from: String(from.name ?? '') });
    if (change.automationKey !== undefined)
      result.rekeyed.push({ ...ref, from: String(from.automationKey), to: change.automationKey! });
    if (change.status === 'ARCHIVED') result.archived.push(ref);
    if (change.status === 'ACTIVE') result.restored.push(ref);
    const fields = fieldNames(change);
    if (fields.length) result.updated.push({ ...ref, fields });
  }
}

/** The writes: new cases (one rank read for all), then each changed case and its steps. */
async function write(
  client: ServiceClient,
  projectId: string,
  plan: Plan,
  options: SyncOptions,
  result: SyncResult,
  warn: (text: string | Words) => void,
): Promise<void> {
  const concurrency = options.concurrency ?? client.scheduler.concurrency;
  const created: CaseRef[] = [];
  if (plan.creates.length) {
    const first = await nextRank(client, 'test_cases', plan.creates.length);
    await forEachPooled(
      plan.creates,
      concurrency,
      async (c, i) => {
        const made = await createCase(client, projectId, c.entry.key, first + i, c.extra);
        if (!made.case) {
          result.failed.push({ case: caseNameOf(c.entry.key), reason: made.reason });
          return;
        }
        created.push({ key: made.case.key ?? null, name: caseNameOf(c.entry.key) });
        const steps = newCaseSteps(c).steps;
        if (steps) await writeSteps(client, projectId, made.case.id, steps, result);
      },
      options.signal,
    );
  }
  result.created = created;
  const before = new Map<CaseItem, CaseAttrs>();
  await forEachPooled(
    plan.items,
    concurrency,
    async (item) => {
      try {
        let stepsChanged = false;
        if (item.kinds.size) {
          const { written } = await updateWithRetry(client, 'test_cases', item.id, {
            change: (current) => {
              before.set(item, current.attributes);
              return item.change(current.attributes);
            },
            signal: options.signal,
          });
          if (!written) before.delete(item);
        }
        if (item.steps)
          stepsChanged = await writeSteps(client, projectId, item.id, item.steps, result);
        if (!before.has(item) && !stepsChanged) result.unchanged++;
      } catch (error) {
        // A name another case holds (409, 422) stops this case only; anything else stops the run.
        if (!(error instanceof ServiceError) || (error.status !== 409 && error.status !== 422))
          throw error;
        before.delete(item);
        result.failed.push({ case: item.ref.key ?? item.id, reason: error.message });
      }
    },
    options.signal,
  );
  // Listed by what was written: the change against the record each write merged with.
  listItems(result, [...before.keys()], (item) => before.get(item)!);
  for (const failure of result.failed)
    warn(`test case ${oneLine(failure.case)} not written: ${oneLine(failure.reason)}`);
}

/** A case's steps: updates in place, extras soft-deleted, new ones created after. */
async function writeSteps(
  client: ServiceClient,
  projectId: string,
  caseId: string,
  plan: StepPlan,
  result: SyncResult,
): Promise<boolean> {
  const any = plan.create.length + plan.update.length + plan.remove.length > 0;
  if (any) result.steps.cases++;
  for (const u of plan.update) {
    const { written } = await updateWithRetry(client, 'test_steps', u.id, {
      change: (current) => {
        const a = current.attributes;
        const out: WritableAttributesOf<'test_steps'> = {};
        if (a.action !== u.step.action) out.action = u.step.action;
        if ((a.expectedResult ?? '') !== (u.step.expectedResult ?? ''))
          out.expectedResult = u.step.expectedResult ?? '';
        if (a.sequenceNumber !== u.sequenceNumber) out.sequenceNumber = u.sequenceNumber;
        return Object.keys(out).length ? out : null;
      },
    });
    if (written) result.steps.updated++;
  }
  for (const id of plan.remove) if (await deleteStep(client, id)) result.steps.deleted++;
  for (const c of plan.create) {
    await createOrFind(
      () =>
        client.create('test_steps', {
          testCaseId: caseId,
          projectId,
          sequenceNumber: c.sequenceNumber,
          action: c.step.action,
          ...(c.step.expectedResult !== undefined ? { expectedResult: c.step.expectedResult } : {}),
        }),
      // A create whose answer was lost: the step at that place with that text is the one made.
      async () => {
        for await (const r of client.iterate<'test_steps'>('/test_steps', {
          filter: f.and(f.eq('testCaseId', caseId), f.eq('sequenceNumber', c.sequenceNumber)),
        }))
          if (r.attributes.action === c.step.action) return r;
        return undefined;
      },
      client.scheduler.policy.createAttempts,
    );
    result.steps.created++;
  }
  return any;
}

/** Soft delete with the step's ETag; a 412 reads again (bounded), a step already gone is done. */
async function deleteStep(client: ServiceClient, id: string): Promise<boolean> {
  for (let round = 1; ; round++) {
    try {
      const current = await client.get('test_steps', id);
      await client.delete('test_steps', id, current.etag);
      return true;
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return false;
      if (
        !(error instanceof ServiceError) ||
        error.status !== 412 ||
        round >= client.scheduler.policy.conflictRounds
      )
        throw error;
    }
  }
}

/** The result in a few lines, for the CLI and the action's log. */
export function describeSyncResult(r: SyncResult): string {
  const would = r.dryRun ? 'would be ' : '';
  const list = (label: string, items: CaseRef[]) =>
    items.length
      ? [
          `${label}: ${items.length}`,
          ...items.slice(0, 10).map((c) => `  ${c.key ?? '(new)'} ${oneLine(c.name)}`),
          ...(items.length > 10 ? [`  ... and ${items.length - 10} more`] : []),
        ]
      : [];
  const lines = [
    `${r.dryRun ? 'dry run: nothing written' : 'sync done'}: ${r.created.length} ${would}created, ${r.renamed.length} ${would}renamed, ${r.rekeyed.length} ${would}re-keyed, ${r.updated.length} ${would}updated, ${r.archived.length} ${would}archived, ${r.restored.length} ${would}restored, ${r.unchanged} unchanged`,
    ...list(`${would}created`, r.created),
    ...list(`${would}renamed`, r.renamed),
    ...list(`${would}re-keyed`, r.rekeyed),
    ...list(`${would}archived`, r.archived),
    ...list(`${would}restored`, r.restored),
  ];
  if (r.steps.cases)
    lines.push(
      `steps of ${r.steps.cases} case(s): ${r.steps.created} ${would}created, ${r.steps.updated} ${would}updated, ${r.steps.deleted} ${would}deleted`,
    );
  if (r.failed.length) lines.push(`not written: ${r.failed.length} (see the warnings)`);
  lines.push(
    r.dryRun
      ? `requests: ${r.requests.total} read; about ${r.plannedRequests} more to write the plan`
      : `requests: ${r.requests.total}${r.requests.retried ? ` (${r.requests.retried} retried)` : ''}`,
  );
  return lines.join('\n');
}
