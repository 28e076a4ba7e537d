/**
 * Quarantine, stored on the test case: a string custom field of test cases (setting
 * `quarantine-field`, default `quarantine`) holds a small JSON value
 * `{"since", "until"?, "reason", "by"}`. The gate leaves a quarantined case's results out of every
 * threshold; its executions are still written as they are. Custom fields are read, written and
 * filtered like other fields (docs/service-api.md 2.10), and the Space's definitions are listed at
 * `GET /service_custom_field`, which is asked before any quarantine is written.
 */
import { type Resource, type ServiceClient, updateWithRetry } from '../client/index.js';
import { ConfigError, ServiceError } from '../shared/errors.js';
import { chunkGroups, f, type Filter } from '../client/index.js';
import { oneLine } from '../shared/redact.js';
import type { ExecutionResult } from '../schema/resources.js';
import { DEFAULT_QUARANTINE_EXPIRY_DAYS } from '../shared/defaults.js';
import { compareKeys, MAX_FILTER_CHARS } from '../domain/index.js';

/** The path of the Space's custom field definitions (docs/service-api.md 2.10). */
export const CUSTOM_FIELDS_PATH = '/service_custom_field';
/** `by` of a quarantine the --auto-quarantine rule set; --release-after removes only these. */
export const RULE_BY = 'rule:auto-quarantine';

/** A quarantine as kept in a test case's custom field (docs/design.md "Triage"). */
export interface Quarantine {
  /** ISO date-time it was set. */
  since: string;
  /** ISO date (the whole day counts) or date-time; from then on it no longer counts. */
  until?: string;
  /** Why it was quarantined, as given. */
  reason: string;
  /** The person (email, else user id) who set it, or RULE_BY. */
  by: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The moment a quarantine ends: a date means the end of that day (UTC). */
function endOf(until: string): number {
  return DATE.test(until) ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);
}

/** `until` as this contract writes it: a date (2026-12-31) or an ISO date-time. */
function readableUntil(value: string): boolean {
  return (DATE.test(value) || /^\d{4}-\d{2}-\d{2}T/.test(value)) && !Number.isNaN(endOf(value));
}

/** `--until`: a date (2026-12-31) or an ISO date-time, in the future; checked before any request. */
export function untilSetting(
  value: string | undefined,
  now: Date,
  key = 'until',
): string | undefined {
  if (value === undefined) return undefined;
  if (!readableUntil(value))
    throw new ConfigError(key, `"${value}" is not a date: give YYYY-MM-DD or an ISO date-time.`);
  if (endOf(value) <= now.getTime())
    throw new ConfigError(key, `${value} is already past: give a later date, or leave it out.`);
  return value;
}

/**
 * Values that mean "not quarantined" (docs/design.md "Triage"): what a person types into the
 * service's app, or a tool writes, to turn it off. Compared trimmed and in any case.
 */
const OFF = new Set(['', 'false', 'no', 'off', '0', 'null', 'none', '[]', '{}']);

/**
 * The quarantine a field value holds. A value that is not this JSON (someone typed "flaky" in the
 * service's app) still quarantines: its text is the reason. A value that means off (OFF: false,
 * no, 0, null, [], empty) is no quarantine, nor is an empty object or list.
 */
export function parseQuarantine(value: unknown): Quarantine | undefined {
  if (value === null || value === undefined || value === false || value === 0) return undefined;
  if (Array.isArray(value))
    return value.length ? parseQuarantine(JSON.stringify(value)) : undefined;
  if (typeof value === 'object') return fromObject(value as Raw);
  const text = String(value);
  if (OFF.has(text.trim().toLowerCase())) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return fromObject(parsed as Raw);
  } catch {
    // plain text: below
  }
  return { since: '', reason: oneLine(text), by: '' };
}

type Raw = Record<string, unknown>;

function fromObject(raw: Raw): Quarantine | undefined {
  if (Object.keys(raw).length === 0) return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const until = str(raw.until);
  return {
    since: str(raw.since),
    ...(until ? { until } : {}),
    reason: str(raw.reason),
    by: str(raw.by),
  };
}

/** A quarantine as of a moment: how old it is, when it ends, whether it counts. */
export interface QuarantineView extends Quarantine {
  /** Counts now: its end (until, else the default expiry) is not past, and its until is readable. */
  active: boolean;
  /** Whole days since it was set (`since`, else the case's last update); absent when neither says. */
  ageDays?: number;
  /** When it stops counting (ISO date or date-time): `until`, else set + the default expiry. */
  ends?: string;
  /** `ends` is the default expiry's (quarantine-expiry-days), not an `until` someone gave. */
  endsByDefault?: boolean;
  /** `until` is no date: the quarantine is not applied, and the gate says so, naming the case. */
  invalidUntil?: boolean;
}

const DAY_MS = 86_400_000;

/**
 * The quarantine as of `now`. When it was set: `since`, else (a value typed by hand) the case's
 * `updatedAt`, the latest it can have been set. A quarantine without `until` ends `expiryDays`
 * (default 30) after it was set (0: never).
 */
export function viewQuarantine(
  q: Quarantine,
  options: { now: Date; expiryDays?: number; updatedAt?: unknown },
): QuarantineView {
  const now = options.now.getTime();
  const times = [q.since, options.updatedAt]
    .map((v) => (typeof v === 'string' ? Date.parse(v) : Number.NaN))
    .filter((t) => !Number.isNaN(t));
  // A `since` still to come (a typo, 2062 for 2026) is not when it was set, or the default expiry
  // would wait for it: the case's last update is the latest it can have been, else now.
  const set = times.find((t) => t <= now) ?? (times.length ? now : undefined);
  const ageDays = set === undefined ? undefined : Math.floor((now - set) / DAY_MS);
  const view: QuarantineView = {
    ...q,
    active: true,
    ...(ageDays === undefined ? {} : { ageDays }),
  };
  const expiryDays = options.expiryDays ?? DEFAULT_QUARANTINE_EXPIRY_DAYS;
  if (q.until !== undefined) {
    if (!readableUntil(q.until)) return { ...view, active: false, invalidUntil: true };
    view.ends = q.until;
  } else if (expiryDays && set !== undefined) {
    view.ends = new Date(set + expiryDays * DAY_MS).toISOString();
    view.endsByDefault = true;
  }
  view.active = view.ends === undefined || endOf(view.ends) > options.now.getTime();
  return view;
}

/** The field's value for a quarantine (a string field: JSON text). */
export function formatQuarantine(q: Quarantine): string {
  return JSON.stringify({
    since: q.since,
    ...(q.until ? { until: q.until } : {}),
    reason: q.reason,
    by: q.by,
  });
}

/** Counts now (viewQuarantine's `active`): its end not past, its until readable. */
export function isActive(q: Quarantine, now: Date, expiryDays?: number): boolean {
  return viewQuarantine(q, { now, expiryDays }).active;
}

/** The quarantine of a test case record, when its field holds one. */
export function quarantineOf(
  record: { attributes: Record<string, unknown> } | undefined,
  field: string,
): Quarantine | undefined {
  const fields = record?.attributes.customFields as Record<string, unknown> | undefined;
  return fields && Object.hasOwn(fields, field) ? parseQuarantine(fields[field]) : undefined;
}

/** The quarantine of a test case record as of `now` (viewQuarantine), when its field holds one. */
export function quarantineViewOf(
  record: { attributes: Record<string, unknown> } | undefined,
  field: string,
  options: { now: Date; expiryDays?: number },
): QuarantineView | undefined {
  const q = quarantineOf(record, field);
  return q && viewQuarantine(q, { ...options, updatedAt: record?.attributes.updatedAt });
}

/**
 * Before any quarantine is written: the Space must define the field on test cases (a key it does
 * not define is refused with 422, docs/service-api.md 2.10). One read of the definitions.
 */
export async function checkQuarantineField(client: ServiceClient, field: string): Promise<void> {
  for await (const def of client.iterate<'service_custom_field'>(CUSTOM_FIELDS_PATH))
    if (def.attributes.name === field && def.attributes.entity === 'test_cases') return;
  throw new ConfigError(
    'quarantine-field',
    `the Space defines no test-case custom field "${oneLine(field)}" (the Space's custom fields are listed at GET ${CUSTOM_FIELDS_PATH}): define a string custom field "${oneLine(field)}" on test cases in the service, or name the one you use with this setting.`,
    'NO_QUARANTINE_FIELD',
  );
}

/** A test case by its key, or a ConfigError naming `case-key`. */
async function caseByKey(client: ServiceClient, key: string): Promise<Resource<'test_cases'>> {
  const found = await client.findExact<'test_cases'>('/test_cases', 'testCaseKey', key);
  if (!found) throw new ConfigError('case-key', `no test case has the key ${key} in this Space.`);
  return found;
}

/** Who the token belongs to, for `by`: its owner's email, else id; '' when the service cannot say. */
export async function currentUser(client: ServiceClient): Promise<string> {
  for await (const user of client.iterate<'users'>('/users', {
    filter: f.user('id = currentUser()', 'quarantine'),
    fields: { users: ['email', 'name'] },
  }))
    return String(user.attributes.email ?? user.id);
  return '';
}

/** A test case that holds a quarantine (`quarantine list`). */
export interface QuarantinedCase {
  /** The test case's id. */
  id: string;
  /** The test case's key. */
  key: string;
  /** The test case's name. */
  name: string;
  /** The user who owns the case, when set. */
  ownerId?: string;
  /** The quarantine as read from the case's field, with its age and end. */
  quarantine: QuarantineView;
  /** Whether it counts now (not expired). */
  active: boolean;
}

function toQuarantined(
  record: Resource<'test_cases'>,
  field: string,
  now: Date,
  expiryDays: number | undefined,
): QuarantinedCase | undefined {
  const quarantine = quarantineViewOf(record, field, { now, expiryDays });
  if (!quarantine) return undefined;
  const ownerId = record.attributes.ownerId;
  return {
    id: record.id,
    key: String(record.attributes.testCaseKey ?? record.id),
    name: String(record.attributes.name ?? ''),
    ...(typeof ownerId === 'string' ? { ownerId } : {}),
    quarantine,
    active: quarantine.active,
  };
}

/** Writes the field of one case, merged into its other custom fields, with If-Match (412: again). */
async function writeField(
  client: ServiceClient,
  record: Resource<'test_cases'>,
  field: string,
  value: string | null,
): Promise<Resource<'test_cases'>> {
  const { resource } = await updateWithRetry(client, 'test_cases', record.id, {
    current: record,
    change: (current) => {
      const fields = (current.attributes.customFields as Record<string, unknown> | undefined) ?? {};
      if ((fields[field] ?? null) === value) return null;
      return { customFields: { ...fields, [field]: value } };
    },
  });
  return resource;
}

/** The field of a case known by id: read for its ETag, then written (2 requests). */
export async function setQuarantineField(
  client: ServiceClient,
  caseId: string,
  field: string,
  value: string | null,
): Promise<void> {
  await writeField(client, await client.get('test_cases', caseId), field, value);
}

export interface QuarantineOptions {
  field: string;
  now?: () => Date;
  /** A quarantine without until ends this many days after it was set (0: never). */
  expiryDays?: number;
}

/** `quarantine add`: field checked, case found, the value written. 4 requests (5 with a 201-less ETag read). */
export async function addQuarantine(
  client: ServiceClient,
  options: QuarantineOptions & { caseKey: string; reason: string; until?: string; by?: string },
): Promise<QuarantinedCase> {
  const now = options.now?.() ?? new Date();
  await checkQuarantineField(client, options.field);
  const record = await caseByKey(client, options.caseKey);
  const by = options.by ?? (await currentUser(client));
  const quarantine: Quarantine = {
    since: now.toISOString(),
    ...(options.until ? { until: options.until } : {}),
    reason: options.reason,
    by,
  };
  const written = await writeField(client, record, options.field, formatQuarantine(quarantine));
  return toQuarantined(written, options.field, now, options.expiryDays)!;
}

/** `quarantine remove`: the field cleared (null); the case's quarantine as it was, if it had one. */
export async function removeQuarantine(
  client: ServiceClient,
  options: QuarantineOptions & { caseKey: string },
): Promise<QuarantinedCase | undefined> {
  const now = options.now?.() ?? new Date();
  await checkQuarantineField(client, options.field);
  const record = await caseByKey(client, options.caseKey);
  const before = toQuarantined(record, options.field, now, options.expiryDays);
  if (before) await writeField(client, record, options.field, null);
  return before;
}

/** `quarantine list`: one filtered, paged read of the cases whose field is set. */
export async function listQuarantined(
  client: ServiceClient,
  options: QuarantineOptions,
): Promise<QuarantinedCase[]> {
  const now = options.now?.() ?? new Date();
  await checkQuarantineField(client, options.field);
  const out: QuarantinedCase[] = [];
  for await (const record of client.iterate<'test_cases'>('/test_cases', {
    filter: f.isNotNull(`customFields.${options.field}`),
    fields: { test_cases: ['testCaseKey', 'name', 'ownerId', 'customFields', 'updatedAt'] },
  })) {
    const q = toQuarantined(record, options.field, now, options.expiryDays);
    if (q) out.push(q);
  }
  return out;
}

/** A test of the cycle as the gate lists it. */
export interface TriagedTest {
  caseId: string;
  key: string;
  name: string;
  ownerId?: string;
  result: ExecutionResult;
  quarantine?: QuarantineView;
}

/** What the gate's one read of the cycle's executions gives (see readGateExecutions). */
export interface GateExecutions {
  /** Executions of cases under an active quarantine: left out of every threshold. */
  quarantined: TriagedTest[];
  /** FAILED or BLOCKED executions of cases not quarantined (only when asked for). */
  failing: TriagedTest[];
  /** Quarantines not applied because their until is no date: the gate names them. */
  invalid: TriagedTest[];
  /** Set when the quarantine could not be read (the Space does not define the field). */
  unavailable?: string;
}

/** The test case fields the gate embeds with the executions. */
const CASE_FIELDS = ['testCaseKey', 'name', 'ownerId', 'customFields', 'updatedAt'];

/**
 * The cycle's executions whose case is quarantined, and with `failing` its FAILED and BLOCKED ones
 * too, in one paged read with their test cases embedded (include=testCase): usually one request.
 * A Space that does not define the field refuses the filter (400): then nothing is quarantined,
 * `unavailable` says why, and the failing executions are read without it.
 */
export async function readGateExecutions(
  client: ServiceClient,
  cycleId: string,
  options: {
    field: string;
    failing: boolean;
    gateFilter?: Filter;
    now: Date;
    /** A quarantine without until ends this many days after it was set (0: never). */
    expiryDays?: number;
  },
): Promise<GateExecutions> {
  const quarantined = f.isNotNull(`testCase.customFields.${options.field}`);
  const failing = f.in('result', ['FAILED', 'BLOCKED']);
  const read = (which: Filter) =>
    readWithCases(client, f.and(f.eq('testCycleId', cycleId), options.gateFilter, which));
  let rows: Row[];
  let unavailable: string | undefined;
  try {
    rows = await read(options.failing ? f.or(quarantined, failing) : quarantined);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 400) throw error;
    unavailable = `quarantine not applied: the service refused a filter on the test-case custom field "${oneLine(options.field)}" (${oneLine(error.message)}); GET ${CUSTOM_FIELDS_PATH} lists the Space's custom fields`;
    rows = options.failing ? await read(failing) : [];
  }
  const out: GateExecutions = {
    quarantined: [],
    failing: [],
    invalid: [],
    ...(unavailable ? { unavailable } : {}),
  };
  for (const row of rows) {
    const q = unavailable ? undefined : quarantineViewOf(row.testCase, options.field, options);
    const ref = refOf(row, q);
    if (q?.invalidUntil) out.invalid.push(ref);
    if (q?.active) out.quarantined.push(ref);
    else if (ref.result === 'FAILED' || ref.result === 'BLOCKED') out.failing.push(ref);
  }
  // In key order, not the order the executions were created in (concurrent writes finish in any
  // order): the summaries, the notifications and the gate's reasons read the same every time.
  for (const list of [out.quarantined, out.failing, out.invalid])
    list.sort((a, b) => compareKeys(a.key, b.key));
  return out;
}

interface Row {
  execution: Resource<'test_case_executions'>;
  testCase?: Resource<'test_cases'>;
}

async function readWithCases(client: ServiceClient, filter: Filter): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const page of client.pages<'test_case_executions'>('/test_case_executions', {
    filter,
    include: ['testCase'],
    fields: { test_case_executions: ['testCaseId', 'result'], test_cases: CASE_FIELDS },
  })) {
    const cases = new Map(page.included.map((r) => [r.id, r as Resource<'test_cases'>]));
    for (const execution of page.data)
      rows.push({ execution, testCase: cases.get(String(execution.attributes.testCaseId)) });
  }
  return rows;
}

function refOf(row: Row, quarantine: QuarantineView | undefined): TriagedTest {
  const caseId = String(row.execution.attributes.testCaseId);
  const ownerId = row.testCase?.attributes.ownerId;
  return {
    caseId,
    key: String(row.testCase?.attributes.testCaseKey ?? caseId),
    name: String(row.testCase?.attributes.name ?? ''),
    ...(typeof ownerId === 'string' ? { ownerId } : {}),
    result: (row.execution.attributes.result as ExecutionResult | undefined) ?? 'NOT_EXECUTED',
    ...(quarantine ? { quarantine } : {}),
  };
}

/**
 * The executions of these cases in a cycle (`in` chunks under the URL limit), with their cases:
 * for the previous cycle's pass rate without the quarantined, and the fixed tests of a baseline.
 */
export async function readCasesInCycle(
  client: ServiceClient,
  cycleId: string,
  caseIds: string[],
  extra?: Filter,
): Promise<TriagedTest[]> {
  const out: TriagedTest[] = [];
  for (const chunk of casesInCycleChunks(cycleId, caseIds, extra))
    for (const row of await readWithCases(client, chunk.filter)) out.push(refOf(row, undefined));
  return out;
}

/** The chunks readCasesInCycle reads, one request each (at most 100 cases, one execution each). */
export function casesInCycleChunks(cycleId: string, caseIds: string[], extra?: Filter) {
  return chunkGroups('testCaseId', caseIds, {
    maxItems: 100,
    maxEncodedLength: MAX_FILTER_CHARS,
    wrapChunk: (c) => f.and(f.eq('testCycleId', cycleId), extra, c),
  });
}

/** `12 days` (its age), `until 2026-12-31` or `until 2026-12-25 (default expiry)`: for lines. */
export function quarantineTerms(v: QuarantineView): string[] {
  return [
    ...(v.ageDays === undefined ? [] : [`${v.ageDays} day${v.ageDays === 1 ? '' : 's'} old`]),
    ...(v.invalidUntil
      ? [
          `until "${oneLine(v.until ?? '')}" is no date (YYYY-MM-DD or an ISO date-time): not applied`,
        ]
      : v.ends
        ? [`until ${v.ends.slice(0, 10)}${v.endsByDefault ? ' (default expiry)' : ''}`]
        : []),
  ];
}

/** One line per quarantined case: key, name, reason, until, by, since, age; expired ones marked. */
export function describeQuarantine(q: QuarantinedCase): string {
  const { quarantine: v } = q;
  const terms = [
    ...(v.until && !v.invalidUntil ? [`until ${v.until}`] : []),
    ...(v.by ? [`by ${v.by}`] : []),
    ...(v.since ? [`since ${v.since}`] : []),
    ...quarantineTerms({ ...v, ...(v.endsByDefault ? {} : { ends: undefined }) }),
  ];
  const state = v.invalidUntil || q.active ? '' : ' (expired: counted again)';
  return `${q.key} "${q.name}": ${v.reason || '(no reason)'}${terms.map((t) => `, ${t}`).join('')}${state}`;
}

/** `quarantine add|remove|list` and mode quarantine. */
export interface QuarantineSettings {
  /** Add a quarantine, remove it, or list the quarantined cases. */
  action: 'add' | 'remove' | 'list';
  /** The test cases' custom field that holds quarantines (quarantine-field). */
  field: string;
  /** The test case (add, remove). */
  caseKey?: string;
  /** Why it is quarantined (add). */
  reason?: string;
  /** When the quarantine ends: a date or a date-time (add). */
  until?: string;
  /** A quarantine without until ends this many days after it was set (0: never). */
  expiryDays: number;
}

/** Shared by the CLI and the action's mode quarantine. */
export async function runQuarantine(
  client: ServiceClient,
  s: QuarantineSettings,
  now: () => Date,
): Promise<{ action: string; quarantined: QuarantinedCase[]; text: string }> {
  const expiryDays = s.expiryDays;
  if (s.action === 'add') {
    const q = await addQuarantine(client, {
      expiryDays,
      field: s.field,
      caseKey: s.caseKey!,
      reason: s.reason!,
      until: s.until,
      now,
    });
    return { action: 'add', quarantined: [q], text: `quarantined ${describeQuarantine(q)}` };
  }
  if (s.action === 'remove') {
    const was = await removeQuarantine(client, {
      field: s.field,
      caseKey: s.caseKey!,
      now,
      expiryDays,
    });
    return {
      action: 'remove',
      quarantined: [],
      text: was
        ? `released ${describeQuarantine(was)}`
        : `${s.caseKey} was not quarantined; nothing written`,
    };
  }
  const list = await listQuarantined(client, { field: s.field, now, expiryDays });
  return {
    action: 'list',
    quarantined: list,
    text: list.length
      ? `${list.length} quarantined test case(s):\n${list.map((q) => `  ${describeQuarantine(q)}`).join('\n')}`
      : 'no test case is quarantined',
  };
}
