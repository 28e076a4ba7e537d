/**
 * `testcycle sync`: the Space's automated test cases kept in step with the code (docs/design.md
 * "Sync"). Reads first (the automated cases once, 100 a page, only the fields the plan looks at;
 * the steps of the cases whose tests carry steps), then a plan (created, renamed, re-keyed,
 * updated, archived, restored, steps, kept), then the writes through the client's scheduler.
 * Sync writes only what it owns and keeps what a person wrote (src/inventory/ownership.ts; steps
 * matched by their text: src/inventory/steps.ts). Every PATCH merges against the record it read
 * (docs/architecture.md "Writes after reads"): a field someone else changed in between is judged
 * again, never overwritten by accident. Nothing here is about executions: src/publish/writes.ts
 * writes those.
 */
import { type Resource, type ServiceClient, updateWithRetry } from '../client/index.js';
import {
  KEY_WORDS,
  ServiceError,
  type SettingWords,
  stopIfInterrupted,
  type Words,
} from '../shared/errors.js';
import { chunkIn, f } from '../client/index.js';
import { oneLine, type Logger, silentLogger } from '../shared/redact.js';
import type { ParsedReport, TestResult } from '../parsers/index.js';
import type { AttributesOf, WritableAttributesOf } from '../schema/resources.js';
import { type CaseFieldMapping, caseFieldsOf, resolveCaseFields } from './case-fields.js';
import { describeCollisions, findKeyCollisions, testKeysOf } from '../domain/index.js';
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
} from '../domain/index.js';
import {
  createdFields,
  judgeFields,
  judgeName,
  type Kept,
  keptDetail,
  type KeptField,
  keptGroup,
  keptHints,
} from './ownership.js';
import { forEachPooled } from '../domain/index.js';
import {
  type ExistingStep,
  planSteps,
  stepCost,
  type StepPlan,
  stepWrites,
  writeSteps,
} from './steps.js';
import {
  checkRetireGrace,
  describeRetire,
  type LikelyRename,
  logRetirement,
  type NewTest,
  planRetirement,
  type RetireInput,
  type RetireOptions,
  type Retirement,
  type RetireReport,
} from './retire.js';
import { warningList } from '../domain/index.js';
import { DEFAULT_RETIRE_MAX_PERCENT } from '../shared/defaults.js';
import type { CaseNames, CaseRef } from './model.js';
import { type RequestFigures, requestsOf } from '../client/index.js';

/** The share of the in-scope automated cases one sync may archive unless --retire-max says otherwise. */
export const DEFAULT_RETIRE_SHARE = DEFAULT_RETIRE_MAX_PERCENT / 100;
const PAGE = 100;

/** retireMissing is never set by publish --sync: a publish never archives. */
export interface SyncOptions extends RetireOptions {
  /** The reports, read before any request. */
  reports: ParsedReport[];
  /** How a test's key and automation key are made (key-pattern, automation-key, the workspace). */
  match: Pick<MatchOptions, 'keyPattern' | 'automationKey' | 'workspace'>;
  /** The key template the Space's cases were keyed by: such cases are re-keyed, not duplicated. */
  migrateKeys?: string;
  /** Report properties mapped to the cases' fields (priority, owner, custom fields). */
  caseFields?: CaseFieldMapping;
  /** Absent: `key`. */
  caseNames?: CaseNames;
  /** Replace the written steps of cases that are not AUTOMATED (absent: they are kept). */
  replaceSteps?: boolean;
  /** The string custom field of test cases where sync records the mapped values it wrote. */
  ownershipField?: string;
  /** Read and plan only; write nothing. */
  dryRun: boolean;
  /** Where it logs; default silent. */
  logger?: Logger;
  /** Writes under way at once; default the client's concurrency. */
  concurrency?: number;
  /** Stop between writes when aborted: InterruptedError. */
  signal?: AbortSignal;
  /** The Space's id when the caller has read it (publish --sync): one request fewer. */
  projectId?: string;
  /** Key warnings already given by the caller (publish --sync): not repeated. */
  quiet?: boolean;
}

/** What sync did (in a dry run, would do) to the Space's automated test cases. */
export interface SyncResult {
  /** Whether this was a dry run (nothing written). */
  dryRun: boolean;
  /** Test cases created for tests that had none. */
  created: CaseRef[];
  /** Cases whose name followed their test's, with the name they had. */
  renamed: (CaseRef & { from: string })[];
  /** Cases given a new automation key (migrate-keys, follow-renames), with the old and the new. */
  rekeyed: (CaseRef & { from: string; to: string })[];
  /** automationStatus, priority, owner and custom fields, by attribute name. */
  updated: (CaseRef & { fields: string[] })[];
  /** Cases archived (retire-missing). */
  archived: CaseRef[];
  /** Archived cases brought back because their test is back. */
  restored: CaseRef[];
  /** Steps created, updated and deleted, and the cases they belong to. */
  steps: { created: number; updated: number; deleted: number; cases: number };
  /**
   * Fields sync would have written and left, because a person wrote them (docs/design.md "Sync:
   * what sync owns"): each with what sync would have written and why.
   */
  kept: Kept[];
  /** Matched cases with nothing to write. */
  unchanged: number;
  /** Retirement: the bound, the scope, what blocks it, each unmatched case in scope and why. */
  retire: RetireReport;
  /** Vanished tests and new tests of the same file with alike names (docs/design.md "Sync"). */
  renames: LikelyRename[];
  /** The requests the writes cost (a dry run: would cost), beyond the reads already made. */
  plannedRequests: number;
  /** Writes the service refused (a name another case holds): not done, the rest went on. */
  failed: { case: string; reason: string }[];
  /** The requests sync sent, by method, with retries and 429s. */
  requests: RequestFigures;
  /** What the user should look at; sync went on. */
  warnings: string[];
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

type Kind = 'renamed' | 'rekeyed' | 'updated' | 'archived' | 'restored';

interface CaseItem {
  id: string;
  ref: CaseRef;
  /** The attributes to write given the case as last read (null: nothing). */
  change: (current: CaseAttrs) => CaseChange | null;
  /** What that change leaves to a person, given the same record. */
  kept?: (current: CaseAttrs) => KeptField[];
  kinds: Set<Kind>;
  from: CaseAttrs;
  fields: string[];
  steps?: StepPlan;
  /** The case's steps, kept as a person's (nothing of them is written). */
  stepsKept?: KeptField;
}

interface NewCase {
  entry: Entry;
  extra: CaseChange;
}

interface Plan {
  creates: NewCase[];
  items: CaseItem[];
  /** What the cases with nothing to write keep. */
  kept: Kept[];
  unchanged: number;
  retire: SyncResult['retire'];
}

/** The plan, then (unless a dry run) the writes. */
export async function sync(client: ServiceClient, options: SyncOptions): Promise<SyncResult> {
  const logger = options.logger ?? silentLogger;
  const { warnings, warn } = warningList(logger);
  client.scheduler.stopWaitingOn(options.signal);
  if (options.migrateKeys) checkAutomationKeyTemplate(options.migrateKeys, 'migrate-keys');
  checkRetireGrace(options);
  if (!options.quiet)
    for (const warning of keyWarnings(options.reports, options.match)) warn(warning);
  const entries = entriesOf(options, options.quiet ? () => {} : warn);

  const projectId = options.projectId ?? (await client.project()).id;
  stopIfInterrupted(options.signal);
  // Settings that depend on the Space are checked before any write: an unknown field stops here.
  const fields = options.caseFields
    ? await resolveCaseFields(client, options.caseFields, options.ownershipField)
    : undefined;
  const cases = await readCases(client, entries, fields !== undefined);
  // Before the steps are read: a test that follows its renamed case takes that case's steps.
  const retirement = await planRetirement(client, retireInput(entries, cases, options));
  for (const entry of entries) {
    const old = retirement.follow.get(entry.key);
    if (old !== undefined) entry.oldKey = old;
  }
  logRetirement(retirement, options, logger, warn);
  const stepsOf = await readSteps(client, entries, cases, !!options.replaceSteps);
  // Most tests have no case, and cases keyed by another template match them: say which (no request).
  const keyed = entries.filter((e) => !e.explicit);
  const missing = keyed.filter((e) => !caseOf(e, cases).found).map((e) => e.test);
  const hint = await keyHintOf(
    missing,
    { tests: keyed.length, unmatched: missing.length, withheld: true },
    options.match,
    [...cases.byAuto.keys()],
  );
  if (hint) warn(describeKeyHint(hint, options.match.automationKey));
  // A test whose case the other template finds is not created again: the new case would
  // duplicate the one that holds its history (docs/design.md "Results and merging": a Space keyed by
  // another template).
  const other = hint && keyBuilder(hint.template, options.match.workspace);
  const withheld = new Set(
    other ? keyed.filter((e) => !caseOf(e, cases).found && cases.byAuto.has(other(e.test))) : [],
  );
  stopIfInterrupted(options.signal);

  const plan = makePlan(entries, cases, stepsOf, options, retirement, withheld, (test) =>
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
    kept: [...plan.kept],
    unchanged: plan.unchanged,
    retire: plan.retire,
    renames: retirement.renames,
    plannedRequests: planned,
    failed: [],
    requests: requestsOf(client),
    warnings,
  };
  if (options.dryRun) {
    listItems(result, plan.items, (item) => item.from);
    listKept(result, plan.items, (item) => item.from);
    for (const item of [...plan.items, ...plan.creates.map(newCaseSteps)]) {
      const s = item.steps;
      if (!s || stepWrites(s) === 0) continue;
      result.steps.cases++;
      result.steps.created += s.create.length;
      result.steps.updated += s.update.length;
      result.steps.deleted += s.remove.length;
    }
  } else {
    await write(client, projectId, plan, options, result, warn);
    result.requests = requestsOf(client);
  }
  for (const hint of keptHints(result.kept)) logger.info(hint);
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
    // Two cases with one automationKey: the lowest key wins, as in matching (src/domain/match.ts).
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
 * The live steps of the matched cases whose tests carry steps, and of those that are not
 * AUTOMATED (written steps keep a case's status, whatever its test records: docs/design.md "Sync:
 * what sync owns"): `GET /test_steps` filtered by `testCaseId in (...)`, 100 a page, rather than
 * one to-many read per case (docs/service-api.md 4.1), which would cost a request per case on
 * every sync.
 */
async function readSteps(
  client: ServiceClient,
  entries: Entry[],
  cases: Cases,
  replaceSteps: boolean,
): Promise<Map<string, ExistingStep[]>> {
  const ids = [
    ...new Set(
      entries
        .map((e) => ({ e, found: caseOf(e, cases).found }))
        .filter(
          ({ e, found }) =>
            e.test.steps || (!replaceSteps && found?.attributes.automationStatus !== 'AUTOMATED'),
        )
        .map(({ found }) => found?.id)
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

function makePlan(
  entries: Entry[],
  cases: Cases,
  stepsOf: Map<string, ExistingStep[]>,
  options: SyncOptions,
  retirement: Retirement,
  withheld: ReadonlySet<Entry>,
  fieldsOf: (test: TestResult) => CaseChange,
): Plan {
  const creates: NewCase[] = [];
  const items: CaseItem[] = [];
  const kept: Kept[] = [];
  const matched = new Set<string>();
  let unchanged = 0;
  for (const entry of entries) {
    const { found, by } = caseOf(entry, cases);
    if (!found) {
      // An explicit key that names no case is not created: the key is the user's, not ours.
      if (!entry.explicit && !withheld.has(entry))
        creates.push({
          entry,
          extra: createdFields(fieldsOf(entry.test), options.ownershipField),
        });
      continue;
    }
    if (matched.has(found.id)) continue;
    matched.add(found.id);
    const { steps, stepsKept } = stepsFor(
      entry.test,
      found.attributes,
      stepsOf.get(found.id) ?? [],
      options,
    );
    const desired = fieldsOf(entry.test);
    const oldKey = by === 'old' ? entry.oldKey : undefined;
    // Judged again against each record a write merges with (docs/design.md "Sync: what sync owns").
    const judge = (current: CaseAttrs): { change: CaseChange | null; kept: KeptField[] } => {
      const out: CaseChange = {};
      const named = judgeName(current, caseNameOf(entry.key), options.caseNames ?? 'key', oldKey);
      if (named.name !== undefined) out.name = named.name;
      // Re-keyed only while it still has the old key: a key set since by someone else stays.
      if (oldKey !== undefined && current.automationKey === oldKey) out.automationKey = entry.key;
      // A case whose written steps stay keeps its status too: it is what says they are a person's.
      if (current.automationStatus !== 'AUTOMATED' && !stepsKept)
        out.automationStatus = 'AUTOMATED';
      if (current.status === 'ARCHIVED') out.status = 'ACTIVE';
      const fields = judgeFields(current, desired, options.ownershipField);
      Object.assign(out, fields.change);
      return {
        change: Object.keys(out).length ? out : null,
        kept: [...(named.kept ? [named.kept] : []), ...fields.kept],
      };
    };
    const first = judge(found.attributes);
    if (!first.change && !(steps && stepWrites(steps))) {
      unchanged++;
      for (const k of [...first.kept, ...(stepsKept ? [stepsKept] : [])])
        kept.push({ ...refOf(found.attributes), ...k });
      continue;
    }
    items.push({
      id: found.id,
      ref: refOf(found.attributes),
      change: (current) => judge(current).change,
      kept: (current) => judge(current).kept,
      kinds: kindsOf(first.change ?? {}),
      from: found.attributes,
      fields: fieldNames(first.change ?? {}),
      steps,
      stepsKept,
    });
  }
  // Only what this run proved gone (src/inventory/retire.ts), and never a case a test matched.
  for (const r of retirement.archive) if (!matched.has(r.id)) items.push(archiveItem(r));
  return { creates, items, kept, unchanged, retire: retirement.report };
}

/** An archive, made only while the case is still the automated case that was read. */
function archiveItem(r: Resource<'test_cases'>): CaseItem {
  const auto = r.attributes.automationKey;
  return {
    id: r.id,
    ref: refOf(r.attributes),
    change: (current) =>
      current.status !== 'ARCHIVED' &&
      current.automationStatus === 'AUTOMATED' &&
      current.automationKey === auto
        ? { status: 'ARCHIVED' }
        : null,
    kinds: new Set(['archived']),
    from: r.attributes,
    fields: [],
  };
}

/** What retirement needs of the plan: the cases this run's tests matched, the tests that match none. */
function retireInput(entries: Entry[], cases: Cases, options: SyncOptions): RetireInput {
  const matched = new Set<string>();
  const created: NewTest[] = [];
  for (const entry of entries) {
    const { found } = caseOf(entry, cases);
    if (found) matched.add(found.id);
    else if (!entry.explicit) created.push({ key: entry.key, test: entry.test });
  }
  return {
    ...options,
    cases: cases.automated,
    matched,
    created,
    automationKey: options.match.automationKey,
    workspace: options.match.workspace,
  };
}

/**
 * A matched case's steps: sync's on an AUTOMATED case (as sync makes the cases it creates or
 * links) or one that has none; the written steps of any other case are a person's and stay,
 * unless --replace-steps (docs/design.md "Sync: what sync owns").
 */
function stepsFor(
  test: TestResult,
  current: CaseAttrs,
  existing: ExistingStep[],
  options: SyncOptions,
): { steps?: StepPlan; stepsKept?: KeptField } {
  if (existing.length === 0 || options.replaceSteps || current.automationStatus === 'AUTOMATED')
    return test.steps ? { steps: planSteps(test.steps, existing) } : {};
  const status = String(current.automationStatus ?? 'MANUAL');
  // A report without steps (jest, JUnit) writes none, and must not hand the written ones to sync
  // by making the case AUTOMATED: a later report with steps would replace them.
  if (!test.steps)
    return {
      stepsKept: {
        field: 'automationStatus',
        ours: 'AUTOMATED',
        theirs: `${status}, with ${existing.length} written step(s)`,
        why: 'written-by-person',
      },
    };
  const steps = planSteps(test.steps, existing);
  if (stepWrites(steps) === 0) return {};
  return {
    stepsKept: {
      field: 'steps',
      ours: `${test.steps.length} step(s)`,
      theirs: `${existing.length} written step(s) of a ${status} case`,
      why: 'written-by-person',
    },
  };
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
  for (const item of [...plan.items, ...plan.creates.map(newCaseSteps)])
    if (item.steps) cost += stepCost(item.steps);
  return cost;
}

function describePlan(plan: Plan): string {
  const count = (kind: Kind) => plan.items.filter((i) => i.kinds.has(kind)).length;
  const steps = [...plan.items, ...plan.creates.map(newCaseSteps)].reduce(
    (n, i) => n + (i.steps ? stepWrites(i.steps) : 0),
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

/**
 * What the items leave to a person, judged against the record each write merged with (the
 * listing's where nothing of the case itself was written), in the plan's order.
 */
function listKept(
  result: SyncResult,
  items: readonly CaseItem[],
  current: (item: CaseItem) => CaseAttrs,
  stepEdits?: ReadonlyMap<CaseItem, KeptField[]>,
): void {
  for (const item of items) {
    const attrs = current(item);
    const kept = [
      ...(item.kept?.(attrs) ?? []),
      ...(item.stepsKept ? [item.stepsKept] : []),
      ...(stepEdits?.get(item) ?? []),
    ];
    const name = item.change(attrs)?.name ?? String(attrs.name ?? item.ref.name);
    for (const k of kept) result.kept.push({ key: item.ref.key, name, ...k });
  }
}

/** A case's planned step writes, counted in the result; a step a person changed since is kept. */
async function writeCaseSteps(
  client: ServiceClient,
  projectId: string,
  caseId: string,
  plan: StepPlan,
  result: SyncResult,
  kept: (k: KeptField) => void,
): Promise<boolean> {
  if (stepWrites(plan) === 0) return false;
  const done = await writeSteps(client, projectId, caseId, plan, (now, ours) =>
    kept({
      field: `step ${now.sequenceNumber}`,
      ours,
      theirs: now.action,
      why: 'edited',
    }),
  );
  if (done.created + done.updated + done.deleted === 0) return false;
  result.steps.cases++;
  result.steps.created += done.created;
  result.steps.updated += done.updated;
  result.steps.deleted += done.deleted;
  return true;
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
        const ref = { key: made.case.key ?? null, name: caseNameOf(c.entry.key) };
        created.push(ref);
        const steps = newCaseSteps(c).steps;
        if (steps) await writeCaseSteps(client, projectId, made.case.id, steps, result, () => {});
      },
      options.signal,
    );
  }
  result.created = created;
  const before = new Map<CaseItem, CaseAttrs>();
  const read = new Map<CaseItem, CaseAttrs>();
  const stepEdits = new Map<CaseItem, KeptField[]>();
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
              read.set(item, current.attributes);
              return item.change(current.attributes);
            },
            signal: options.signal,
          });
          if (!written) before.delete(item);
        }
        if (item.steps)
          stepsChanged = await writeCaseSteps(client, projectId, item.id, item.steps, result, (k) =>
            stepEdits.set(item, [...(stepEdits.get(item) ?? []), k]),
          );
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
  listKept(result, plan.items, (item) => read.get(item) ?? item.from, stepEdits);
  for (const failure of result.failed)
    warn(`test case ${oneLine(failure.case)} not written: ${oneLine(failure.reason)}`);
}

/** The result in a few lines, for the CLI and the action's log (settings in `words`). */
export function describeSyncResult(r: SyncResult, words: SettingWords = KEY_WORDS): string {
  const would = r.dryRun ? 'would be ' : '';
  // A renamed case shows both names; a kept field what sync would have written and why.
  const list = <T extends CaseRef>(label: string, items: T[], text: (c: T) => string) =>
    items.length
      ? [
          `${label}: ${items.length}`,
          ...items.slice(0, 10).map((c) => `  ${c.key ?? '(new)'} ${text(c)}`),
          ...(items.length > 10 ? [`  ... and ${items.length - 10} more`] : []),
        ]
      : [];
  const named = (c: CaseRef) => oneLine(c.name);
  const groups = new Map<string, Kept[]>();
  for (const k of r.kept) groups.set(keptGroup(k), [...(groups.get(keptGroup(k)) ?? []), k]);
  const lines = [
    `${r.dryRun ? 'dry run: nothing written' : 'sync done'}: ${r.created.length} ${would}created, ${r.renamed.length} ${would}renamed, ${r.rekeyed.length} ${would}re-keyed, ${r.updated.length} ${would}updated, ${r.archived.length} ${would}archived, ${r.restored.length} ${would}restored, ${r.unchanged} unchanged${r.kept.length ? `, ${r.kept.length} kept as a person's` : ''}`,
    ...list(`${would}created`, r.created, named),
    ...list(`${would}renamed`, r.renamed, (c) => `${oneLine(c.from)} → ${oneLine(c.name)}`),
    ...list(`${would}re-keyed`, r.rekeyed, named),
    ...list(`${would}archived`, r.archived, named),
    ...list(`${would}restored`, r.restored, named),
    ...[...groups].flatMap(([group, kept]) =>
      list(`${group} kept`, kept, (k) => `${oneLine(k.name)} (${keptDetail(k, oneLine)})`),
    ),
  ];
  if (r.steps.cases)
    lines.push(
      `steps of ${r.steps.cases} case(s): ${r.steps.created} ${would}created, ${r.steps.updated} ${would}updated, ${r.steps.deleted} ${would}deleted`,
    );
  lines.push(...describeRetire(r, words));
  if (r.failed.length) lines.push(`not written: ${r.failed.length} (see the warnings)`);
  lines.push(
    r.dryRun
      ? `requests: ${r.requests.total} read; about ${r.plannedRequests} more to write the plan`
      : `requests: ${r.requests.total}${r.requests.retried ? ` (${r.requests.retried} retried)` : ''}`,
  );
  return lines.join('\n');
}
