/**
 * Links kept in step with the code (docs/design.md "Traceability: links"): each test's case linked
 * to the requirements and work items the test names, missing links added (publish --trace and
 * sync --trace), and under sync --trace this tool's links the code no longer declares removed.
 *
 * - Whose link it is needs no local state: testcycle marks the links it makes (`meta.origin` of a
 *   requirement member, the `origin` of a work-item link, both `testcycle`); a link without the
 *   mark is a person's and is never removed.
 * - A link is removed only on evidence: the test ran in full in this run (passed, the run whole,
 *   no run error touched it: the caller's `evidence`, the one src/inventory/retire.ts uses to
 *   archive) and its references no longer name it.
 * - A requirement key no requirement holds is reported with its file and test, never created.
 * - Reads: the routes (one), the run's cases with their linkage (chunks of keys), the named
 *   requirements (chunks of keys), the cases' work-item links (chunks of ids); writes: one POST
 *   and one DELETE per case whose requirements change, one request per work-item link.
 */
import {
  chunkIn,
  f,
  type Filter,
  type Resource,
  ServiceError,
  type ServiceClient,
} from '../client/index.js';
import {
  explicitKeyOf,
  forEachPooled,
  keyBuilder,
  isStandIn,
  MAX_FILTER_CHARS,
  standInId,
  warningList,
} from '../domain/index.js';
import type { ParsedReport, TestResult } from '../parsers/index.js';
import type { ResourceType } from '../schema/resources.js';
import { type Logger, oneLine, silentLogger } from '../shared/redact.js';
import { referencesOf, type TraceOptions } from './references.js';
import { findLinkRoutes } from './routes.js';

/** The mark of the links testcycle makes (docs/service-api.md 2.12, the meta of a link). */
export const LINK_ORIGIN = 'testcycle';

const WRITE_CONCURRENCY = 4;

export interface TraceLinkOptions {
  reports: ParsedReport[];
  /** How tests find their cases, as publish and sync match them. */
  match: { keyPattern: RegExp; automationKey: string; workspace?: string };
  trace: TraceOptions;
  /** sync --trace: this tool's links the code no longer declares are removed (on evidence). */
  remove: boolean;
  dryRun: boolean;
  /**
   * Why this run cannot prove that a test no longer declares what its report leaves out
   * (undefined: it can). Absent: nothing is proven, nothing removed.
   */
  evidence?: (test: TestResult) => string | undefined;
  /** A dry run: whether this run would create the case of a test key that has none yet. */
  creates?: (key: string) => boolean;
  logger?: Logger;
  signal?: AbortSignal;
}

/** One link: a case (its key, else its automation key) and a requirement key or a work item. */
export interface LinkChange {
  case: string;
  requirement?: string;
  workItem?: string;
}

export interface TraceResult {
  dryRun: boolean;
  /** The link routes the server does not offer (`POST /links`): nothing of theirs was written. */
  unavailable: string[];
  /** Links added (a dry run: that would be). */
  added: LinkChange[];
  /** This tool's links the code no longer declares, removed (a dry run: that would be). */
  removed: LinkChange[];
  /** Such links kept, because this run does not prove the test's references whole, and why. */
  held: (LinkChange & { reason: string })[];
  /** References to a requirement key no requirement of the Space holds: reported, never created. */
  unknown: { file: string; test: string; key: string }[];
  /** The writes (a dry run: the writes the run would send). */
  plannedRequests: number;
  warnings: string[];
}

/** One test key of the run: its references (every entry of it), and whether they are whole. */
interface Entry {
  key: string;
  explicit: boolean;
  requirements: Set<string>;
  workItems: Set<string>;
  /** Each requirement key with the first test that names it, for the report of unknown keys. */
  namedBy: Map<string, { file: string; test: string }>;
  /** Why this run does not prove the references whole; undefined: it does. */
  unproven?: string;
}

interface CaseLinks {
  id: string;
  /** Its Space, which a work-item link names (no request for it). */
  projectId: string;
  shown: string;
  /** Linked requirement ids, and whether testcycle made the link. */
  requirements: Map<string, boolean>;
  workItems: { id: string; workItem: string; ours: boolean }[];
}

interface CasePlan {
  links: CaseLinks;
  entry: Entry;
  addRequirements: string[];
  removeRequirements: string[];
  addWorkItems: string[];
  removeWorkItems: { id: string; workItem: string }[];
}

const chunkOptions = { maxItems: 100, maxEncodedLength: MAX_FILTER_CHARS };

/** Every record of `path` whose `field` is one of `values`, read in chunks. */
async function readIn<T extends ResourceType>(
  client: ServiceClient,
  path: string,
  field: string,
  values: readonly string[],
  fields: Partial<Record<ResourceType, string[]>>,
  and?: Filter,
): Promise<Resource<T>[]> {
  const out: Resource<T>[] = [];
  if (values.length === 0) return out;
  for (const filter of chunkIn(field, values, {
    ...chunkOptions,
    wrapChunk: (chunk) => f.and(and, chunk),
  }))
    out.push(...(await client.listAll<T>(path, { filter, fields })));
  return out;
}

/** The tests of the reports by key, with what each names. */
function entriesOf(options: TraceLinkOptions): Entry[] {
  const build = keyBuilder(options.match.automationKey, options.match.workspace);
  const byKey = new Map<string, Entry>();
  for (const report of options.reports)
    for (const test of report.tests) {
      const explicit = explicitKeyOf(test, options.match.keyPattern);
      const key = explicit ?? build(test);
      if (!key) continue;
      const refs = referencesOf(test, options.trace);
      const entry: Entry = byKey.get(key) ?? {
        key,
        explicit: explicit !== undefined,
        requirements: new Set<string>(),
        workItems: new Set<string>(),
        namedBy: new Map(),
      };
      byKey.set(key, entry);
      for (const r of refs.requirements) {
        entry.requirements.add(r);
        if (!entry.namedBy.has(r)) entry.namedBy.set(r, { file: report.file, test: test.name });
      }
      for (const w of refs.workItems) entry.workItems.add(w);
      const unproven = options.evidence
        ? options.evidence(test)
        : 'nothing here proves what a test no longer declares';
      entry.unproven ??= unproven;
    }
  return [...byKey.values()];
}

function linkageOf(record: Resource<'test_cases'>): Map<string, boolean> {
  const rel = record.relationships?.requirements as
    { data?: { id?: unknown; meta?: { origin?: unknown } }[] } | undefined;
  const out = new Map<string, boolean>();
  for (const m of Array.isArray(rel?.data) ? rel.data : [])
    if (typeof m.id === 'string') out.set(m.id, m.meta?.origin === LINK_ORIGIN);
  return out;
}

/**
 * Adds the links the run's tests name and (remove) drops this tool's links they no longer name;
 * in a dry run, says what it would do and what that costs.
 */
export async function traceLinks(
  client: ServiceClient,
  options: TraceLinkOptions,
): Promise<TraceResult> {
  const logger = options.logger ?? silentLogger;
  const { warnings, warn } = warningList(logger);
  const result: TraceResult = {
    dryRun: options.dryRun,
    unavailable: [],
    added: [],
    removed: [],
    held: [],
    unknown: [],
    plannedRequests: 0,
    warnings,
  };
  const all = entriesOf(options);
  const entries = options.remove
    ? all
    : all.filter((e) => e.requirements.size > 0 || e.workItems.size > 0);
  // Nothing named and nothing to remove: not a request.
  if (entries.length === 0) return result;

  const routes = await findLinkRoutes(client);
  result.unavailable = routes.missing;
  if (routes.missing.length) {
    const what =
      routes.requirements || routes.workItems
        ? `only the ${routes.requirements ? 'requirement' : 'work-item'} links are kept in step`
        : 'no link is written';
    warn(
      `trace: the server does not offer ${routes.missing.join(', ')} in its /openapi.json; ${what} (the rest of the job goes on).`,
    );
  }
  if (!routes.requirements && !routes.workItems) return result;

  const cases = await readCases(client, entries, routes.requirements);
  // A dry run: the cases this run would create have no links yet, and would get them all.
  let planned = 0;
  if (options.dryRun)
    for (const e of entries)
      if (!e.explicit && !cases.has(e.key) && options.creates?.(e.key))
        cases.set(e.key, {
          id: standInId(planned++),
          projectId: '',
          shown: e.key,
          requirements: new Map(),
          workItems: [],
        });
  const requirementIds = routes.requirements
    ? await readRequirements(client, entries, result)
    : new Map<string, string>();
  const caseIds = [...cases.values()].map((c) => c.id).filter((id) => !isStandIn(id));
  if (routes.workItems && entries.some((e) => e.workItems.size > 0 || options.remove)) {
    const links = await readIn<'links'>(client, '/links', 'testCaseId', caseIds, {
      links: ['testCaseId', 'workItem', 'origin'],
    });
    const byId = new Map([...cases.values()].map((c) => [c.id, c]));
    for (const l of links)
      byId.get(String(l.attributes.testCaseId))?.workItems.push({
        id: l.id,
        workItem: String(l.attributes.workItem),
        ours: l.attributes.origin === LINK_ORIGIN,
      });
  }

  const plans: CasePlan[] = [];
  const keyOfId = new Map([...requirementIds].map(([k, id]) => [id, k]));
  for (const entry of entries) {
    const links = cases.get(entry.key);
    if (!links) continue;
    const named = new Set(
      [...entry.requirements].map((k) => requirementIds.get(k)).filter((id) => id !== undefined),
    );
    const plan: CasePlan = {
      links,
      entry,
      addRequirements: routes.requirements
        ? [...named].filter((id) => !links.requirements.has(id))
        : [],
      removeRequirements: [],
      addWorkItems: routes.workItems
        ? [...entry.workItems].filter((w) => !links.workItems.some((l) => l.workItem === w))
        : [],
      removeWorkItems: [],
    };
    if (options.remove) {
      const stale = [...links.requirements].filter(([id, ours]) => ours && !named.has(id));
      const staleItems = links.workItems.filter((l) => l.ours && !entry.workItems.has(l.workItem));
      if (entry.unproven) {
        for (const [id] of stale)
          result.held.push({ case: links.shown, requirement: id, reason: entry.unproven });
        for (const l of staleItems)
          result.held.push({ case: links.shown, workItem: l.workItem, reason: entry.unproven });
      } else {
        plan.removeRequirements = stale.map(([id]) => id);
        plan.removeWorkItems = staleItems;
      }
    }
    plans.push(plan);
  }
  // The keys of the requirements to remove or hold that the run does not name: one read.
  const unnamed = [
    ...new Set([
      ...plans.flatMap((p) => p.removeRequirements),
      ...result.held.flatMap((h) => (h.requirement ? [h.requirement] : [])),
    ]),
  ].filter((id) => !keyOfId.has(id));
  for (const r of await readIn<'requirements'>(client, '/requirements', 'id', unnamed, {
    requirements: ['requirementKey'],
  }))
    keyOfId.set(r.id, String(r.attributes.requirementKey ?? r.id));
  const keyOf = (id: string) => keyOfId.get(id) ?? id;
  for (const h of result.held) if (h.requirement) h.requirement = keyOf(h.requirement);

  for (const p of plans) {
    const shown = p.links.shown;
    result.added.push(...p.addRequirements.map((id) => ({ case: shown, requirement: keyOf(id) })));
    result.added.push(...p.addWorkItems.map((w) => ({ case: shown, workItem: w })));
    result.removed.push(
      ...p.removeRequirements.map((id) => ({ case: shown, requirement: keyOf(id) })),
    );
    result.removed.push(...p.removeWorkItems.map((l) => ({ case: shown, workItem: l.workItem })));
  }
  const writes = plans.flatMap((p) => writesOf(client, p));
  result.plannedRequests = writes.length;
  for (const u of result.unknown)
    warn(
      `trace: ${oneLine(u.file)}: ${oneLine(u.test)} names requirement ${oneLine(u.key)}, which no requirement of the Space holds; no link is made (a requirement is never created).`,
    );
  if (!options.dryRun) await forEachPooled(writes, WRITE_CONCURRENCY, (w) => w(), options.signal);
  return result;
}

/** The run's cases by test key, with their requirement linkage (stand-ins for cases a dry run would create). */
async function readCases(
  client: ServiceClient,
  entries: Entry[],
  withLinkage: boolean,
): Promise<Map<string, CaseLinks>> {
  const fields = {
    test_cases: [
      'testCaseKey',
      'automationKey',
      'projectId',
      ...(withLinkage ? ['requirements'] : []),
    ],
  };
  const explicit = entries.filter((e) => e.explicit).map((e) => e.key);
  const automated = entries.filter((e) => !e.explicit).map((e) => e.key);
  const out = new Map<string, CaseLinks>();
  const found = [
    ...(await readIn<'test_cases'>(client, '/test_cases', 'testCaseKey', explicit, fields)).map(
      (r) => [String(r.attributes.testCaseKey), r] as const,
    ),
    ...(await readIn<'test_cases'>(client, '/test_cases', 'automationKey', automated, fields)).map(
      (r) => [String(r.attributes.automationKey), r] as const,
    ),
  ];
  for (const [key, record] of found) {
    // Two cases with one key: the first read wins, as matching keeps one (src/domain/match.ts).
    if (out.has(key)) continue;
    out.set(key, {
      id: record.id,
      projectId: String(record.attributes.projectId),
      shown: String(record.attributes.testCaseKey ?? key),
      requirements: linkageOf(record),
      workItems: [],
    });
  }
  return out;
}

/** The named requirements' ids by key; a key no requirement holds is reported per test. */
async function readRequirements(
  client: ServiceClient,
  entries: Entry[],
  result: TraceResult,
): Promise<Map<string, string>> {
  const keys = [...new Set(entries.flatMap((e) => [...e.requirements]))];
  const ids = new Map<string, string>();
  for (const r of await readIn<'requirements'>(client, '/requirements', 'requirementKey', keys, {
    requirements: ['requirementKey'],
  }))
    // The service may compare loosely: only the exact key counts (as findExact does).
    if (
      typeof r.attributes.requirementKey === 'string' &&
      keys.includes(r.attributes.requirementKey)
    )
      ids.set(r.attributes.requirementKey, r.id);
  for (const e of entries)
    for (const k of e.requirements)
      if (!ids.has(k)) result.unknown.push({ ...e.namedBy.get(k)!, key: k });
  return ids;
}

/** The writes of one case, each a request. */
function writesOf(client: ServiceClient, p: CasePlan): (() => Promise<void>)[] {
  const path = `/test_cases/${encodeURIComponent(p.links.id)}/relationships/requirements`;
  const members = (ids: string[], meta: boolean) => ({
    data: ids.map((id) => ({
      type: 'requirements',
      id,
      ...(meta ? { meta: { origin: LINK_ORIGIN } } : {}),
    })),
  });
  const out: (() => Promise<void>)[] = [];
  if (p.addRequirements.length)
    out.push(async () => {
      // Adding a member that is there changes nothing (JSON:API 1.1): two jobs at once end with one link.
      await client.request('POST', path, { body: members(p.addRequirements, true) });
    });
  if (p.removeRequirements.length)
    out.push(async () => {
      await client.request('DELETE', path, { body: members(p.removeRequirements, false) });
    });
  for (const workItem of p.addWorkItems)
    out.push(async () => {
      try {
        await client.create('links', {
          projectId: p.links.projectId,
          testCaseId: p.links.id,
          workItem,
          origin: LINK_ORIGIN,
        });
      } catch (error) {
        // Another job made it between the read and this write: the link is there once.
        if (!(error instanceof ServiceError && error.errors[0]?.code === 'CONFLICT')) throw error;
      }
    });
  for (const l of p.removeWorkItems)
    out.push(async () => {
      try {
        await client.delete('links', l.id);
      } catch (error) {
        if (!(error instanceof ServiceError && error.status === 404)) throw error;
      }
    });
  return out;
}
