/**
 * Matching report tests to test cases: an explicit key (--key-pattern, in the name or a property)
 * wins, else the automationKey built from --automation-key. Lookups are bulk `in (...)` filters in
 * chunks that keep URLs short, or one listing of the automated cases when that is fewer requests;
 * `--create-missing-cases` creates the rest.
 */
import { createHash } from 'node:crypto';
import { type ListParams, type Resource, type ServiceClient } from '../client/index.js';
import { commandOf, ConfigError, TestcycleError, type Words } from '../shared/errors.js';
import { chunkGroups, chunkIn, f, isEvaluated } from '../client/index.js';
import { DEFAULT_AUTOMATION_KEY, DEFAULT_KEY_PATTERN } from '../shared/defaults.js';
import { oneLine, type Logger } from '../shared/redact.js';
import type { IdentityGap, ParsedReport, TestResult } from '../parsers/index.js';
import type { WritableAttributesOf } from '../schema/resources.js';
import { workspaceOf, workspacePath } from './context.js';
import { createOrFind } from './idempotent.js';
import { standInId } from './plan-cost.js';
import { Progress, type ProgressOptions } from './progress.js';

/** The default key before the identity model: what users keep with --automation-key. */
export const PREVIOUS_AUTOMATION_KEY = '{classname}.{name}';
/**
 * Templates a Space's automated cases are often keyed by (testcycle's defaults old and new, and
 * what other tools write): when most tests match no case, these are tried (matchTests' hint).
 */
export const KNOWN_KEY_TEMPLATES: readonly string[] = [
  PREVIOUS_AUTOMATION_KEY,
  DEFAULT_AUTOMATION_KEY,
  '{test}',
  '{name}',
  '{file}::{name}',
  '{classname}#{name}',
];
/** URLs stay under 4 KB (docs/design.md "Publish: request budget"); the rest of the URL fits in what remains. */
export const MAX_FILTER_CHARS = 3500;
const PAGE = 100;

/**
 * "The lowest key wins" wherever two records compete (two cases with one automationKey, two
 * executions of one case in a cycle): keys compared by their numbers, so DEMO-T9 < DEMO-T10.
 */
export const compareKeys: (a: string, b: string) => number = new Intl.Collator('en', {
  numeric: true,
}).compare;

export interface MatchOptions {
  keyPattern: RegExp;
  automationKey: string;
  createMissingCases: boolean;
  /** The checkout root paths in keys are relative to; absent, workspaceOf() of this process. */
  workspace?: string;
}

export interface MatchedCase {
  id: string;
  key?: string;
  automationKey?: string | null;
}

export interface Unmatched {
  test: string;
  file?: string;
  reason: string;
}

export function keyPattern(source: string | undefined, parameter = 'key-pattern'): RegExp {
  try {
    return new RegExp(source ?? DEFAULT_KEY_PATTERN);
  } catch (error) {
    throw new ConfigError(
      parameter,
      `is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

const TEMPLATE_FIELDS = ['file', 'test', 'classname', 'name', 'suite', 'params'] as const;
type TemplateField = (typeof TEMPLATE_FIELDS)[number];
const PLACEHOLDER = /\{([^}]*)\}/g;

export function checkAutomationKeyTemplate(template: string, parameter = 'automation-key'): void {
  for (const [, field] of template.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(field!)) {
      throw new ConfigError(
        parameter,
        `unknown placeholder {${field}}; use ${TEMPLATE_FIELDS.map((x) => `{${x}}`).join(' ')}.`,
      );
    }
  }
}

/** `{test}`: the runner's name of the test, else `classname.name`. */
export function runnerNameOf(test: TestResult): string {
  if (test.fullName !== undefined) return test.fullName;
  const classname = test.classname ?? test.suite.join('.');
  return classname ? `${classname}.${test.name}` : test.name;
}

/** Builds keys from one template; files are made relative to the workspace once each. */
export interface KeyBuilder {
  (test: TestResult): string;
  /** The placeholders the template holds. */
  readonly fields: ReadonlySet<TemplateField>;
  readonly workspace: string;
}

/**
 * The automationKey of a test: the template's placeholders filled in. A placeholder with no value
 * takes the text that joins it to its neighbour with it (`{file} › {test}` without a file is the
 * test alone; `{classname}.{name}` without a classname the name), so no key starts or ends with a
 * separator.
 */
export function keyBuilder(template: string, workspace?: string): KeyBuilder {
  const ws = workspace ?? workspaceOf(undefined, process.env);
  const literals = template.split(PLACEHOLDER).filter((_, i) => i % 2 === 0);
  const fields = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as TemplateField);
  const files = new Map<string, string>();
  const fileOf = (file: string | undefined) => {
    if (!file) return '';
    let path = files.get(file);
    if (path === undefined) {
      files.set(file, (path = workspacePath(file, ws).path));
    }
    return path;
  };
  const value = (test: TestResult, field: TemplateField): string => {
    switch (field) {
      case 'file':
        return fileOf(test.file);
      case 'test':
        return runnerNameOf(test);
      case 'classname':
        return test.classname ?? test.suite.join('.');
      case 'name':
        return test.name;
      case 'suite':
        return test.suite.join('.');
      case 'params':
        return test.params ?? '';
    }
  };
  const build = (test: TestResult) => {
    let key = literals[0]!;
    // The text after the last value written, added when another value or the end follows.
    let pending = '';
    let started = false;
    for (let i = 0; i < fields.length; i++) {
      const v = value(test, fields[i]!);
      if (v) {
        key += pending + v;
        started = true;
      }
      // An empty value drops the text before it, or (before any value) the text after it.
      pending = v || started ? literals[i + 1]! : '';
    }
    return key + pending;
  };
  return Object.assign(build, { fields: new Set(fields), workspace: ws });
}

/**
 * What keys cannot tell, said once per report before any request (docs/architecture.md "Test identity"):
 * a reporter that leaves a placeholder of the template empty (jest-junit writes no file). Test
 * files outside the workspace and any known checkout root stop the run instead (a ConfigError
 * naming --workspace): their keys would begin with `../` and change with where the checkout lies,
 * so a publish would create cases that no other machine finds (docs/design.md "Keys").
 */
export function keyWarnings(
  reports: readonly ParsedReport[],
  match: Pick<MatchOptions, 'automationKey' | 'workspace'>,
): Words[] {
  const build = keyBuilder(match.automationKey, match.workspace);
  const warnings: Words[] = [];
  // One warning per gap, however many reports have it (behave's JUnit writes one per feature).
  const gaps = new Map<
    string,
    { gap: IdentityGap; files: string[]; lacking: number; all: number }
  >();
  for (const report of reports) {
    const gap = report.gap;
    if (!gap || gap.tests === 0) continue;
    if (!build.fields.has(gap.placeholder.slice(1, -1) as TemplateField)) continue;
    const id = JSON.stringify([gap.reporter, gap.placeholder, gap.reason]);
    const seen = gaps.get(id) ?? { gap, files: [], lacking: 0, all: 0 };
    gaps.set(id, seen);
    seen.files.push(report.file);
    seen.lacking += gap.tests;
    seen.all += report.tests.length;
  }
  for (const { gap, files, lacking, all } of gaps.values()) {
    const [first, ...more] = files;
    const where = more.length
      ? `${oneLine(first!)} and ${more.length} other report(s)`
      : oneLine(first!);
    const whose = more.length ? 'their' : 'its';
    warnings.push(
      (w) =>
        `${where} (${gap.reporter}) ${gap.reason}: ${gap.placeholder} in ${w.name('automation-key')} cannot be filled for ${lacking === all ? whose : `${lacking} of ${whose}`} ${all} test(s), so their keys differ from those the runner's other reporters give the same tests.`,
    );
  }
  if (!build.fields.has('file')) return warnings;
  for (const report of reports) {
    const files = new Set(report.tests.map((t) => t.file).filter((f): f is string => !!f));
    const outside = [...files].filter((f) => workspacePath(f, build.workspace).outside);
    if (outside.length === 0) continue;
    throw new ConfigError(
      'workspace',
      (w) =>
        `${oneLine(report.file)}: ${outside.length} test file(s) lie outside the workspace ${oneLine(build.workspace)} (e.g. ${oneLine(outside[0]!)}), so {file} in their keys would begin with ../ and change with where the checkout lies; nothing was sent. Run testcycle in the folder the tests ran in (your project's), or set ${w.name('workspace')} to it.`,
    );
  }
  return warnings;
}

/** One key, for callers with one test (a builder per template is cheaper for many). */
export function automationKeyOf(test: TestResult, template: string, workspace?: string): string {
  return keyBuilder(template, workspace)(test);
}

/** An explicit test case key in the test's name or one of its properties. */
export function explicitKeyOf(test: TestResult, pattern: RegExp): string | undefined {
  const find = (text: string | undefined) =>
    text ? new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text)?.[0] : undefined;
  return (
    find(test.name) ??
    Object.entries(test.properties)
      .map(([k, v]) => find(v) ?? find(k))
      .find(Boolean)
  );
}

export interface MatchInput {
  tests: { test: TestResult; file: string }[];
  projectId: string;
  /** Cases already read (the cycle's, embedded in its executions): their tests need no lookup. */
  known?: Resource<'test_cases'>[];
  /**
   * A dry run of publish --sync: the automation keys whose cases sync would create before the
   * matching, so that the plan writes their results as the run will.
   */
  synced?: (automationKey: string) => boolean;
}

export interface MatchResult {
  /** Index in input.tests -> the matched case (a dry run: a stand-in for a case it would create). */
  byTest: Map<number, MatchedCase>;
  unmatched: Unmatched[];
  casesCreated: number;
  /** A dry run: the cases --create-missing-cases would create (their tests have stand-ins). */
  casesToCreate: number;
  /** Most tests matched no case, and cases keyed by another template match them. */
  keyHint?: KeyHint;
}

export interface KeyHint {
  /** The template whose keys the Space's cases carry. */
  template: string;
  /** Tests looked up by their automation key, and those of them that matched no case. */
  tests: number;
  unmatched: number;
  /** Unmatched tests whose keys by the other templates were looked up, and the cases keyed by `template` among them. */
  sampled: number;
  matched: number;
  /** --create-missing-cases was set, and created nothing: the cases would duplicate those. */
  withheld: boolean;
}

export async function matchTests(
  client: ServiceClient,
  input: MatchInput,
  options: MatchOptions & {
    dryRun: boolean;
    logger: Logger;
    /** Progress lines of the cases created (--create-missing-cases), as the writes have. */
    progress?: Pick<ProgressOptions, 'sink' | 'intervalMs' | 'trail'>;
  },
): Promise<MatchResult> {
  const keyOfTest: (string | undefined)[] = [];
  const autoOfTest: string[] = [];
  const automationKey = keyBuilder(options.automationKey, options.workspace);
  input.tests.forEach(({ test }, i) => {
    keyOfTest[i] = explicitKeyOf(test, options.keyPattern);
    autoOfTest[i] = automationKey(test);
  });
  const byKey = new Map<string, MatchedCase>();
  const byAuto = new Map<string, MatchedCase>();
  const toCase = (r: Resource<'test_cases'>): MatchedCase => ({
    id: r.id,
    key: r.attributes.testCaseKey as string | undefined,
    automationKey: r.attributes.automationKey as string | null | undefined,
  });
  const learn = (r: Resource<'test_cases'>) => {
    if (r.attributes.testCaseKey) byKey.set(String(r.attributes.testCaseKey), toCase(r));
    const auto = r.attributes.automationKey;
    if (typeof auto !== 'string' || !auto) return;
    // Two live cases with one automationKey: take the lowest key, deterministically.
    const seen = byAuto.get(auto);
    if (!seen || compareKeys(String(r.attributes.testCaseKey ?? r.id), seen.key ?? seen.id) < 0)
      byAuto.set(auto, toCase(r));
  };
  for (const r of input.known ?? []) learn(r);

  // Only what the known cases do not answer is looked up.
  const keys = [...new Set(keyOfTest.filter((k): k is string => !!k && !byKey.has(k)))];
  const autos = [...new Set(autoOfTest.filter((a, i) => !keyOfTest[i] && a && !byAuto.has(a)))];
  const fields = { test_cases: ['testCaseKey', 'automationKey', 'name'] };
  for (const filter of chunkIn('testCaseKey', keys, {
    maxItems: PAGE,
    maxEncodedLength: MAX_FILTER_CHARS,
  })) {
    for await (const r of client.iterate<'test_cases'>('/test_cases', { filter, fields }))
      byKey.set(String(r.attributes.testCaseKey), toCase(r));
  }
  const lookup = await casesByAutomationKey(client, autos, fields);
  for (const r of lookup.found) learn(r);

  const byTest = new Map<number, MatchedCase>();
  const unmatched: Unmatched[] = [];
  const missing = new Map<string, number[]>();
  input.tests.forEach(({ test, file }, i) => {
    const key = keyOfTest[i];
    const found = key ? byKey.get(key) : byAuto.get(autoOfTest[i]!);
    if (found) byTest.set(i, found);
    else if (key)
      unmatched.push({ test: display(test), file, reason: `test case ${key} not found` });
    else if (!autoOfTest[i])
      unmatched.push({
        test: display(test),
        file,
        reason: 'no name to build an automation key from',
      });
    else missing.set(autoOfTest[i]!, [...(missing.get(autoOfTest[i]!) ?? []), i]);
  });

  let casesCreated = 0;
  let casesToCreate = 0;
  // Most tests found no case: is the Space keyed by another template? Then no case is created for
  // them (each would duplicate one that holds their history) and the warning says what to do. A
  // dry run's tests whose cases sync would create first are found by the run: not missed there.
  const looked = autoOfTest.filter((a, i) => a && !keyOfTest[i]).length;
  const missedKeys = [...missing].filter(([auto]) => !(options.dryRun && input.synced?.(auto)));
  const missed = missedKeys.reduce((n, [, indexes]) => n + indexes.length, 0);
  const keyHint = await keyHintOf(
    missedKeys.map(([, indexes]) => input.tests[indexes[0]!]!.test),
    { tests: looked, unmatched: missed, withheld: options.createMissingCases },
    options,
    lookup.all ? [...byAuto.keys()] : client,
  );
  const withheld = !!keyHint?.withheld;
  /** The tests at `indexes`, unmatched for one reason. */
  const leave = (indexes: number[], reason: string) => {
    for (const i of indexes)
      unmatched.push({ test: display(input.tests[i]!.test), file: input.tests[i]!.file, reason });
  };
  const noCase = (auto: string, indexes: number[]) =>
    leave(
      indexes,
      `no test case with automationKey "${oneLine(auto)}"${withheld ? `; none created: cases keyed by "${keyHint!.template}" match most tests` : ''}`,
    );
  if (options.dryRun) {
    // The plan is the run's (docs/design.md "Dry run"): a test whose case the run would create
    // (sync first, or --create-missing-cases) is matched to a stand-in, so that its result is
    // planned and counted as the run will write it.
    let n = 0;
    for (const [auto, indexes] of missing) {
      const synced = input.synced?.(auto) ?? false;
      if (!synced && (!options.createMissingCases || withheld)) noCase(auto, indexes);
      else {
        if (!synced) casesToCreate++;
        const standIn = { id: standInId(++n, input.projectId), automationKey: auto };
        for (const i of indexes) byTest.set(i, standIn);
      }
    }
  } else if (missing.size > 0 && options.createMissingCases && !withheld) {
    let rank = await nextRank(client, 'test_cases', missing.size);
    const progress = new Progress(missing.size, {
      ...options.progress,
      requests: () => client.stats.total,
      rateLimit: client.scheduler.rateLimit,
      unit: { one: 'test case', many: 'test cases', done: 'created' },
    });
    progress.begin();
    for (const [auto, indexes] of missing) {
      const created = await createCase(client, input.projectId, auto, rank++);
      progress.step();
      if (created.case) {
        if (created.created) casesCreated++;
        for (const i of indexes) byTest.set(i, created.case);
      } else leave(indexes, created.reason);
    }
    progress.end();
  } else for (const [auto, indexes] of missing) noCase(auto, indexes);
  return { byTest, unmatched, casesCreated, casesToCreate, ...(keyHint ? { keyHint } : {}) };
}

/**
 * The cases with these automationKeys, in the fewest requests: `in (...)` chunks, or one listing of
 * every automated case when that takes fewer pages. Short keys fill chunks of 100 and no listing
 * can beat that, so they never pay for a look. Long keys make chunks small: then the listing's
 * first page, which gives the number of automated cases, decides (at worst one request more).
 * Keys too long for any URL can only be found by the listing.
 */
async function casesByAutomationKey(
  client: ServiceClient,
  autos: string[],
  fields: ListParams['fields'],
): Promise<{ found: Resource<'test_cases'>[]; all: boolean }> {
  const chunksOf = (keys: string[]) =>
    chunkIn('automationKey', keys, { maxItems: PAGE, maxEncodedLength: MAX_FILTER_CHARS });
  const fitting = autos.filter(
    (a) => encodeURIComponent(JSON.stringify(a)).length + 40 <= MAX_FILTER_CHARS,
  );
  const mustList = fitting.length < autos.length;
  const chunkCount = chunksOf(fitting).length;
  const found: Resource<'test_cases'>[] = [];
  let rest = fitting;
  let all = false;
  if (mustList || chunkCount - Math.ceil(fitting.length / PAGE) >= 2) {
    const listing = client.pages<'test_cases'>('/test_cases', {
      filter: f.isNotNull('automationKey'),
      fields,
    });
    let pagesRead = 0;
    const seen = new Set<string>();
    for await (const page of listing) {
      found.push(...page.data);
      pagesRead++;
      // Read to its end: every automated case of the Space is known.
      if (!page.next) all = true;
      if (mustList) continue;
      // After each page: the rest of the listing, or chunks for the keys still missing.
      for (const r of page.data) seen.add(String(r.attributes.automationKey));
      rest = rest.filter((a) => !seen.has(a));
      const pagesLeft =
        page.totalCount === undefined ? Infinity : Math.ceil(page.totalCount / PAGE) - pagesRead;
      if (page.next && pagesLeft <= chunksOf(rest).length) continue;
      if (!page.next) rest = [];
      break;
    }
    if (mustList) return { found, all };
  }
  for (const filter of chunksOf(rest)) {
    for await (const r of client.iterate<'test_cases'>('/test_cases', { filter, fields }))
      found.push(r);
  }
  return { found, all };
}

/**
 * When most tests looked up by their automation key match no case (`counts`): the known template
 * (KNOWN_KEY_TEMPLATES) whose keys most of the unmatched tests' cases carry, if one does. From the
 * keys of every automated case when they were read (`cases`: a sync, or a matching that listed
 * them); else one request: the tests' keys by the other templates, as many tests as fit in one
 * `automationKey in (...)` URL.
 */
export async function keyHintOf(
  unmatched: TestResult[],
  counts: Pick<KeyHint, 'tests' | 'unmatched' | 'withheld'>,
  options: Pick<MatchOptions, 'automationKey' | 'workspace'>,
  cases: ServiceClient | string[],
): Promise<KeyHint | undefined> {
  if (counts.unmatched === 0 || 2 * counts.unmatched <= counts.tests) return undefined;
  const current = keyBuilder(options.automationKey, options.workspace);
  const others = KNOWN_KEY_TEMPLATES.filter((t) => t !== options.automationKey).map((t) => ({
    template: t,
    build: keyBuilder(t, options.workspace),
  }));
  const fits = (key: string) =>
    !!key &&
    !isEvaluated(key) &&
    encodeURIComponent(JSON.stringify(key)).length + 40 <= MAX_FILTER_CHARS;
  const keysOf = unmatched.map((test) => {
    const own = current(test);
    return others
      .map(({ template, build }) => ({ template, key: build(test) }))
      .filter((c) => c.key !== own && fits(c.key));
  });
  let sample = keysOf.filter((keys) => keys.length > 0);
  let found: Set<string>;
  if (Array.isArray(cases)) found = new Set(cases);
  else {
    const [first] = chunkGroups(
      'automationKey',
      sample.flatMap((keys) => keys.map((c) => c.key)),
      { maxItems: PAGE, maxEncodedLength: MAX_FILTER_CHARS },
    );
    if (!first) return undefined;
    const asked = new Set(first.values.map(String));
    sample = sample.filter((keys) => keys.every((c) => asked.has(c.key)));
    const page = await cases.page<'test_cases'>('/test_cases', {
      filter: first.filter,
      fields: { test_cases: ['automationKey'] },
    });
    found = new Set(page.data.map((r) => String(r.attributes.automationKey)));
  }
  // Cases, not tests: tests that all meet one case (the invocations of a parameterized test, now
  // keyed apart by {params}) are no sign that the Space keys them by that template.
  let best: { template: string; matched: number } | undefined;
  for (const { template } of others) {
    const keys = sample.flatMap((candidates) =>
      candidates.filter((c) => c.template === template && found.has(c.key)).map((c) => c.key),
    );
    const matched = new Set(keys).size;
    if (matched > (best?.matched ?? 0)) best = { template, matched };
  }
  return best && 2 * best.matched > sample.length
    ? { ...counts, ...best, sampled: sample.length }
    : undefined;
}

/** The hint in words: which template, the flag that keeps it, the sync that moves the cases. */
export function describeKeyHint(hint: KeyHint, current: string): Words {
  const which = `"${hint.template}"${hint.template === PREVIOUS_AUTOMATION_KEY ? ' (the default until 0.1.0)' : ''}`;
  return (w) =>
    `${hint.unmatched} of ${hint.tests} tests match no test case by ${w.name('automation-key')} "${current}", but test cases keyed by ${which} match ${hint.matched} of the ${hint.sampled} looked up by that key${hint.withheld ? `; no test case is created for them (each would duplicate one)` : ''}. ` +
    `To match the cases as they are keyed: ${w.value('automation-key', `'${hint.template}'`)}. ` +
    `To give those cases the keys of "${current}" once, keeping their history: ${commandOf(w, 'sync', { 'migrate-keys': hint.template })} (add ${w.name('dry-run')} first to see the plan).`;
}

/** A test as people read it, on one line (names are data: no line breaks or control codes). */
export function display(test: TestResult): string {
  return oneLine(test.classname ? `${test.classname} › ${test.name}` : test.name);
}

/**
 * The Space's ranks are past what orders exactly: from 2^53 on, JSON numbers (doubles) cannot
 * tell rank + 1 from rank, so a new record would not rank after the newest one.
 */
export class RankRangeError extends TestcycleError {
  constructor(type: 'test_cases' | 'test_cycles', top: number, count: number) {
    const what = type === 'test_cycles' ? 'test cycle' : 'test case';
    super(
      `the highest ${what} rank in this Space is ${top}; ${count > 1 ? `${count} new ${what}s` : `a new ${what}`} would need ranks past ${Number.MAX_SAFE_INTEGER} (2^53 - 1), which JSON numbers cannot order exactly (rank + 1 rounds back to rank). Renumber the ${what}s' ranks below that in the service, then run again.`,
      'RANK_OUT_OF_RANGE',
      'service',
    );
  }
}

/** The first of `count` ranks after the highest of the type; exact, or a RankRangeError. */
export async function nextRank(
  client: ServiceClient,
  type: 'test_cases' | 'test_cycles',
  count = 1,
): Promise<number> {
  const page = await client.page(`/${type}`, {
    sort: ['-rank'],
    pageSize: 1,
    fields: { [type]: ['rank'] },
  });
  const top = page.data[0]?.attributes.rank;
  const base = typeof top === 'number' ? top : 0;
  if (!(base + count <= Number.MAX_SAFE_INTEGER)) throw new RankRangeError(type, base, count);
  return base + 1;
}

/**
 * The name a case created for a test gets: its key (names are unique), cut to 255 characters: its
 * first 240, `…` and 12 hex digits of the whole key's SHA-256, so two keys that share their first
 * 240 characters name two cases (docs/design.md "Results and merging": one name would let the
 * second test find the first one's case, and its result land in "unmatched").
 */
export function caseNameOf(automationKey: string): string {
  if (automationKey.length <= 255) return automationKey;
  // Never half of a surrogate pair (an emoji) at the cut.
  const head = automationKey.slice(0, 240).replace(/[\uD800-\uDBFF]$/, '');
  return `${head}…${createHash('sha256').update(automationKey).digest('hex').slice(0, 12)}`;
}

/**
 * AUTOMATED with automationKey; the name is the key (names are unique). A 409 is re-read, never
 * duplicated. `extra`: attributes sync sets from the report (priority, owner, custom fields).
 */
export async function createCase(
  client: ServiceClient,
  projectId: string,
  automationKey: string,
  rank: number,
  extra: WritableAttributesOf<'test_cases'> = {},
): Promise<{ case?: MatchedCase; created?: boolean; reason: string }> {
  const name = caseNameOf(automationKey);
  const toCase = (r: Resource<'test_cases'>): MatchedCase => ({
    id: r.id,
    key: r.attributes.testCaseKey as string,
    automationKey: r.attributes.automationKey as string | null,
  });
  const { value, created } = await createOrFind(
    async () =>
      toCase(
        await client.create('test_cases', {
          ...extra,
          name,
          projectId,
          rank,
          automationStatus: 'AUTOMATED',
          automationKey,
          status: 'ACTIVE',
        }),
      ),
    async () => {
      const r = await client.findExact<'test_cases'>('/test_cases', 'name', name);
      return r ? toCase(r) : undefined;
    },
    client.scheduler.policy.createAttempts,
  );
  if (value.automationKey !== automationKey) {
    return {
      reason: `a test case named "${name}" (${value.key}) exists with another automationKey; set its automationKey or rename it`,
    };
  }
  return { case: value, created, reason: '' };
}
