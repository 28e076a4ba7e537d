/**
 * Open Test Reporting XML (ota4j-team/open-test-reporting), the JUnit Platform's own format: the
 * events format it writes (`junit-platform-events-*.xml` in older JUnit Platforms,
 * `open-test-report.xml` in newer ones; `<e:events>` of `e:started`, `e:reported` and
 * `e:finished`) and the hierarchical format its tooling converts that into (`<h:execution>` of
 * `h:root` and `h:child`).
 * Both are one tree of containers and tests; each is read into that tree, then into tests.
 */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  firstLine,
  NO_PROPERTIES,
  type Outcome,
  type ParsedTests,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { oneLine } from '../../shared/redact.js';
import { attr, list, text, XML_LIMITS, type XmlNode } from '../base/xml.js';

/** Every Open Test Reporting namespace starts so: `.../core/0.2.0`, `.../events/0.1.0`, ... */
const OTR_SCHEMAS = 'https://schemas.opentest4j.org/reporting/';
/** The JUnit Platform's own namespace (uniqueId, legacyReportingName, type). */
const JUNIT_SCHEMA = 'https://schemas.junit.org/open-test-reporting';

export const openTestReporting: ReportFormat = {
  id: 'open-test-reporting',
  label: 'Open Test Reporting XML (JUnit Platform events or hierarchy)',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) =>
    (s.xmlRoot === 'events' || s.xmlRoot === 'execution') && s.head.includes(OTR_SCHEMAS),
  parse(doc) {
    const rootKey = Object.keys(doc).find((k) => /(^|:)(events|execution)$/.test(k));
    const root = rootKey ? doc[rootKey] : undefined;
    if (!rootKey || typeof root !== 'object' || root === null)
      throw new Error('no <events> or <execution> root element');
    const q = names(root as XmlNode);
    const nodes = rootKey.endsWith('events')
      ? fromEvents(root as XmlNode, q)
      : fromHierarchy(root as XmlNode, q);
    return toTests(nodes, q, revisionOf(list((root as XmlNode)[q.core('infrastructure')])[0], q));
  },
};

/**
 * The element names of a document: its namespaces are declared on the root with prefixes the
 * writer chose (JUnit: none for core, `e`, `h`, `java`, `git`, `junit`), so a name is looked up
 * by namespace and local name, never by a fixed prefix.
 */
interface Names {
  core(local: string): string;
  events(local: string): string;
  hierarchy(local: string): string;
  java(local: string): string;
  git(local: string): string;
  junit(local: string): string;
}

function names(root: XmlNode): Names {
  const prefixes = new Map<string, string>();
  for (const key of Object.keys(root)) {
    if (key !== '@xmlns' && !key.startsWith('@xmlns:')) continue;
    const uri = attr(root, key.slice(1)) ?? '';
    const kind = uri.startsWith(OTR_SCHEMAS)
      ? uri.slice(OTR_SCHEMAS.length).split('/')[0]!
      : uri.startsWith(JUNIT_SCHEMA)
        ? 'junit'
        : undefined;
    if (kind && !prefixes.has(kind)) prefixes.set(kind, key === '@xmlns' ? '' : key.slice(7));
  }
  const of = (kind: string) => {
    const prefix = prefixes.get(kind) ?? kind;
    return (local: string) => (prefix ? `${prefix}:${local}` : local);
  };
  return {
    core: of('core'),
    events: of('events'),
    hierarchy: of('hierarchy'),
    java: of('java'),
    git: of('git'),
    junit: of('junit'),
  };
}

/** One test or container: its element (an `e:started` or an `h:child`) and what it ended with. */
interface Node {
  element: XmlNode;
  parent?: Node;
  hasChildren: boolean;
  /**
   * The element holding `<result>`: the `e:finished` (absent if the run stopped first), or the
   * `h:child` itself.
   */
  end?: XmlNode;
  /** Elements holding `<attachments>`: the `e:reported` events, or the `h:child`. */
  reports: XmlNode[];
  durationMs?: number;
}

/**
 * The events format: `started` (with `parentId`), `reported` and `finished` events joined by id.
 * The parsed tree keeps each kind of event in document order but not their interleaving, so the
 * k-th `finished` of an id ends the k-th `started` of it (the JUnit Platform never reuses an id).
 */
function fromEvents(root: XmlNode, q: Names): Node[] {
  const nodes: Node[] = [];
  const byId = new Map<string, Node[]>();
  // Events are flat: their parentId chain nests as deep as a file says, so it gets the XML's bound
  // (a path is built per level, and the walk up to the root is recursive).
  const depths = new Map<Node | undefined, number>([[undefined, -1]]);
  for (const started of list(root[q.events('started')])) {
    const id = attr(started, 'id') ?? '';
    const parents = byId.get(attr(started, 'parentId') ?? '\u0000');
    const parent = parents?.at(-1);
    const depth = depths.get(parent)! + 1;
    if (depth > XML_LIMITS.depth)
      throw new Error(
        `started event "${oneLine(id)}" is nested more than ${XML_LIMITS.depth} deep (the limit)`,
      );
    if (parent) parent.hasChildren = true;
    const node: Node = { element: started, parent, hasChildren: false, reports: [] };
    depths.set(node, depth);
    nodes.push(node);
    const same = byId.get(id);
    if (same) same.push(node);
    else byId.set(id, [node]);
  }
  const ended = new Map<string, number>();
  for (const finished of list(root[q.events('finished')])) {
    const id = attr(finished, 'id') ?? '';
    const at = ended.get(id) ?? 0;
    const node = byId.get(id)?.[at];
    if (!node) continue;
    ended.set(id, at + 1);
    node.end = finished;
    const start = instant(attr(node.element, 'time'));
    const end = instant(attr(finished, 'time'));
    if (start !== undefined && end !== undefined && end >= start) node.durationMs = end - start;
  }
  for (const reported of list(root[q.events('reported')]))
    byId
      .get(attr(reported, 'id') ?? '')
      ?.at(-1)
      ?.reports.push(reported);
  return nodes;
}

/** The hierarchical format: `h:root` elements, each with nested `h:child` elements. */
function fromHierarchy(root: XmlNode, q: Names): Node[] {
  const nodes: Node[] = [];
  const childKey = q.hierarchy('child');
  const walk = (element: XmlNode, parent: Node | undefined, depth: number) => {
    const node: Node = {
      element,
      parent,
      hasChildren: element[childKey] !== undefined,
      end: element,
      reports: [element],
      durationMs: isoDuration(attr(element, 'duration')),
    };
    nodes.push(node);
    // The XML limits bound the depth already (src/parsers/base/xml.ts); this keeps the walk's own.
    if (depth < 256) for (const child of list(element[childKey])) walk(child, node, depth + 1);
  };
  for (const top of list(root[q.hierarchy('root')])) walk(top, undefined, 0);
  return nodes;
}

/**
 * The core statuses (core-0.2.0.xsd: SKIPPED, ABORTED, SUCCESSFUL, FAILED, ERRORED). ABORTED is
 * JUnit's failed assumption, which its legacy XML writes as skipped; a FAILED whose throwable is
 * no assertion (`assertionError="false"`) is an error, as that legacy XML has it.
 */
const STATUS: Record<string, Outcome> = {
  SUCCESSFUL: 'passed',
  SKIPPED: 'skipped',
  ABORTED: 'skipped',
  FAILED: 'failed',
  ERRORED: 'error',
};

/** What the JUnit Platform calls each (`junit:type`); other writers leave it out. */
type Kind = 'TEST' | 'CONTAINER' | 'CONTAINER_AND_TEST';

function toTests(
  nodes: Node[],
  q: Names,
  revision: Record<string, string> | undefined,
): ParsedTests {
  const tests: TestResult[] = [];
  const runErrors: RunError[] = [];
  const paths = new Map<Node, string[]>();
  const pathOf = (node: Node | undefined): string[] => {
    if (!node) return [];
    let path = paths.get(node);
    if (!path) paths.set(node, (path = [...pathOf(node.parent), attr(node.element, 'name') ?? '']));
    return path;
  };
  for (const node of nodes) {
    const metadata = list(node.element[q.core('metadata')])[0];
    const kind = text(metadata?.[q.junit('type')]) as Kind | undefined;
    // Without the JUnit Platform's type, the leaves are the tests.
    const isTest = kind ? kind !== 'CONTAINER' : !node.hasChildren;
    const result = list(node.end?.[q.core('result')])[0];
    const status = attr(result, 'status');
    const throwable = list(result?.[q.java('throwable')])[0];
    const reason = text(result?.[q.core('reason')])?.trim();
    const details = text(throwable)?.trim();
    const message = reason || firstLine(details);
    if (!isTest) {
      // A container that failed of its own (a @BeforeAll, a class that cannot be instantiated:
      // its throwable or reason says why): the tests it stopped were never started, so they are
      // not in the report. A container failed without a word only sums up its tests.
      if ((status === 'FAILED' || status === 'ERRORED') && message)
        runErrors.push({ suite: pathOf(node).join(' › '), message });
      continue;
    }
    let outcome: Outcome = status ? (STATUS[status] ?? 'error') : 'error';
    if (outcome === 'failed' && attr(throwable, 'assertionError') === 'false') outcome = 'error';
    const source = sourceOf(node, q);
    const { properties, labels } = extras(node, metadata, q, revision);
    tests.push({
      suite: pathOf(node.parent),
      classname: source.classname,
      // The JUnit Platform's legacy name (`adds()`, `matches(String)[1]`) is what its legacy XML
      // and Surefire write, so a test keeps its key when the reporter changes; else the name.
      name: text(metadata?.[q.junit('legacyReportingName')]) ?? attr(node.element, 'name') ?? '',
      file: source.file,
      line: source.line,
      durationMs: node.durationMs,
      outcome,
      message: status ? message : 'never finished: the run ended before it did',
      details,
      properties,
      ...(labels ? { labels } : {}),
    });
  }
  return Object.assign(tests, runErrors.length ? { runErrors } : {});
}

/**
 * The class and the source file of a test: the nearest `java:methodSource` or `java:classSource`
 * (its own, else an enclosing container's: a dynamic test's own source is its data file), and a
 * `fileSource` (`filePosition` for the line) or a `file:` URI source (`?line=N`, as JUnit 5.9
 * writes a dynamic test's).
 */
function sourceOf(node: Node, q: Names): { classname?: string; file?: string; line?: number } {
  const out: { classname?: string; file?: string; line?: number } = {};
  for (let at: Node | undefined = node; at && !out.classname; at = at.parent) {
    const sources = list(at.element[q.core('sources')])[0];
    if (!sources) continue;
    const java =
      list(sources[q.java('methodSource')])[0] ?? list(sources[q.java('classSource')])[0];
    out.classname = attr(java, 'className');
    if (at !== node) continue;
    const fileSource = list(sources[q.core('fileSource')])[0];
    if (fileSource) {
      out.file = attr(fileSource, 'path');
      out.line = positive(attr(list(fileSource[q.core('filePosition')])[0], 'line'));
      continue;
    }
    const uri = attr(list(sources[q.core('uriSource')])[0], 'uri');
    if (uri?.startsWith('file:')) {
      const query = uri.indexOf('?');
      out.file = decodePath(
        uri.slice(uri.startsWith('file://') ? 7 : 5, query < 0 ? undefined : query),
      );
      out.line = positive(/[?&]line=(\d+)/.exec(uri)?.[1]);
    }
  }
  return out;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function positive(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Tags as the `tags` property (as Cucumber's are), the key-value entries a test published
 * (`TestReporter.publishEntry`) as properties, captured output left out; the names of the files
 * it attached and the run's git metadata as labels.
 */
function extras(
  node: Node,
  metadata: XmlNode | undefined,
  q: Names,
  revision: Record<string, string> | undefined,
): Pick<TestResult, 'properties' | 'labels'> {
  const properties: Record<string, string> = {};
  const tags = list(list(metadata?.[q.core('tags')])[0]?.[q.core('tag')])
    .map((t) => text(t)?.trim())
    .filter((t): t is string => !!t);
  if (tags.length) properties.tags = tags.join(',');
  const files: string[] = [];
  for (const report of node.reports) {
    for (const attachments of list(report[q.core('attachments')])) {
      for (const data of list(attachments[q.core('data')]))
        for (const entry of list(data[q.core('entry')])) {
          const key = attr(entry, 'key');
          if (key && key !== 'stdout' && key !== 'stderr')
            addNamed(properties, key, text(entry) ?? '');
        }
      for (const file of list(attachments[q.core('file')])) {
        const path = attr(file, 'path');
        if (path) files.push(path);
      }
    }
  }
  const labels = files.length ? { ...revision, attachments: files.join(', ') } : revision;
  return {
    properties: Object.keys(properties).length ? properties : NO_PROPERTIES,
    labels,
  };
}

/**
 * The git metadata of the run (JUnit 5.12+ with `junit.platform.reporting.open.xml.git.enabled`):
 * `git.repository`, `git.branch`, `git.commit` and `git.clean` labels on every test. A repository
 * URL's credentials (`https://user:token@host/...`, which the JUnit Platform writes as git has
 * them) are removed: they must not travel on.
 */
function revisionOf(
  infrastructure: XmlNode | undefined,
  q: Names,
): Record<string, string> | undefined {
  if (!infrastructure) return undefined;
  const out: Record<string, string> = {};
  const url = attr(list(infrastructure[q.git('repository')])[0], 'originUrl');
  if (url) out['git.repository'] = withoutCredentials(url);
  const branch = text(infrastructure[q.git('branch')])?.trim();
  if (branch) out['git.branch'] = branch;
  const commit = text(infrastructure[q.git('commit')])?.trim();
  if (commit) out['git.commit'] = commit;
  const clean = attr(list(infrastructure[q.git('status')])[0], 'clean');
  if (clean) out['git.clean'] = clean;
  return Object.keys(out).length ? Object.freeze(out) : undefined;
}

function withoutCredentials(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url;
  const hostStart = scheme + 3;
  const pathStart = url.indexOf('/', hostStart);
  const authority = url.slice(hostStart, pathStart < 0 ? undefined : pathStart);
  const at = authority.lastIndexOf('@');
  return at < 0 ? url : url.slice(0, hostStart) + url.slice(hostStart + at + 1);
}

/** Milliseconds since the epoch of an ISO-8601 instant (nanoseconds allowed), if it is one. */
function instant(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Milliseconds of an ISO-8601 duration as java.time.Duration writes it (`PT0.0134S`, `PT1M2.5S`,
 * `PT2H`, `PT-0.5S` never for a test). One anchored pattern without nested repetition: linear.
 */
function isoDuration(value: string | undefined): number | undefined {
  const m = value
    ? /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(value)
    : null;
  if (!m) return undefined;
  const [, d, h, min, s] = m;
  const seconds =
    Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0);
  return Math.round(seconds * 1000);
}
