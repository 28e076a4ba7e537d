/**
 * Safe XML reading for every XML format: fast-xml-parser 5 with explicit entity limits, external
 * entities never resolved, bounded nesting, BOMs and UTF-16 handled.
 */
import { type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlNode = Record<string, unknown>;

const ENTITY_LIMITS = {
  enabled: true,
  maxEntitySize: 10_000,
  maxExpansionDepth: 5,
  maxTotalExpansions: 1_000,
  maxExpandedLength: 100_000,
  maxEntityCount: 50,
  // Limits count entities a DOCTYPE declares, not &lt; &amp; and friends (a big report has millions).
  appliesTo: 'external',
};

/**
 * Bounds on what one document may build (a hostile report must not exhaust memory): fast-xml-parser builds an object per
 * element and a property per attribute before any check of ours could run, so a 98 MB file of one
 * element with 10 million attributes grew past 4.5 GB. A linear pre-scan counts them first. A
 * 100,000-test JUnit file has about 430,000 elements and attributes; at the node limit a parse takes
 * about 6 s and 500 MB on a 2-core machine (the reliability suite's bound is 10 s and 1 GB).
 */
export const XML_LIMITS = {
  /** No report format has more than a few dozen attributes on one element. */
  attributesPerElement: 1_000,
  /** Elements plus attributes in one document (about 450,000 JUnit test cases). */
  nodes: 2_000_000,
  /** Nesting depth (the parser's own maxNestedTags, named here so the message can say it). */
  depth: 256,
} as const;

/** Console output: JUnit system-out/err, NUnit and xUnit output, TRX StdOut/StdErr, TestNG reporter-output. */
const LOG_ELEMENTS = ['system-out', 'system-err', 'output', 'StdOut', 'StdErr', 'reporter-output'];
const LOG_FIRST = new Set(LOG_ELEMENTS.map((name) => name.charCodeAt(0)));

/** The console-output element whose name starts at `at`, if one does. */
function logElementAt(text: string, at: number): string | undefined {
  return LOG_ELEMENTS.find((name) => {
    if (!text.startsWith(name, at)) return false;
    const after = text.charCodeAt(at + name.length);
    return (
      after === 0x3e /* > */ || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d
    );
  });
}

/**
 * The options every XML format is parsed with; bench/parse-worker.mjs gives the bare parser the
 * same ones, so the parse benchmark measures what testcycle adds, not what these options cost.
 */
export const XML_PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: ENTITY_LIMITS,
  // fast-xml-parser 5 decodes character references (&#9; &#xD;, common in TRX) only with this on;
  // it also decodes HTML's named entities, which is harmless for report text.
  htmlEntities: true,
  maxNestedTags: XML_LIMITS.depth,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Captured console output is often most of a report and no format's model uses it: read it as
  // raw text (markup in logs does not break the parse) and leave it out of the tree.
  stopNodes: LOG_ELEMENTS.map((name) => `*.${name}`),
  updateTag: (name) => !LOG_ELEMENTS.includes(name),
} satisfies X2jOptions;

const parser = new XMLParser(XML_PARSER_OPTIONS);

/** Text from bytes: UTF-8 (with or without BOM) or UTF-16 with a BOM. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  // Buffer#toString keeps ASCII text as a one-byte string (half the memory of TextDecoder's).
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}

export class XmlError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** A document over one of XML_LIMITS: refused before it is parsed. */
export class XmlLimitError extends Error {}

/**
 * Counts elements and attributes (outside quotes, comments, CDATA and declarations) in one pass
 * that never backtracks: each character is looked at a bounded number of times.
 */
export function checkXmlLimits(text: string, limits = XML_LIMITS): void {
  let nodes = 0;
  let depth = 0;
  let i = text.indexOf('<');
  const skipTo = (from: number, end: string) => {
    const at = text.indexOf(end, from);
    return at < 0 ? text.length : at + end.length;
  };
  while (i >= 0 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) i = skipTo(i + 4, '-->');
      else if (text.startsWith('<![CDATA[', i)) i = skipTo(i + 9, ']]>');
      else i = skipTo(i + 2, '>'); // a declaration (the DOCTYPE is blanked before parsing)
    } else if (next === 0x3f /* ? */) i = skipTo(i + 2, '?>');
    else if (next === 0x2f /* / */) {
      depth--;
      i = skipTo(i + 2, '>');
    } else {
      // A start tag: count '=' outside quoted values, jumping over each value at once.
      let attributes = 0;
      let j = i + 1;
      let last = 0;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c === 0x3e /* > */) break;
        if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
          const close = text.indexOf(c === 0x22 ? '"' : "'", j + 1);
          // Found here, where it is cheap: the parser and its validator take gigabytes to say so.
          if (close < 0)
            throw new XmlError('an attribute value is never closed (truncated?)', lineOf(text, j));
          j = close;
        } else if (c === 0x3d /* = */ && ++attributes > limits.attributesPerElement)
          throw new XmlLimitError(
            `an element at line ${lineOf(text, i)} has more than ${limits.attributesPerElement} attributes (the limit per element)`,
          );
        if (c > 0x20) last = c;
      }
      if (j >= text.length)
        throw new XmlError('a tag is never closed (truncated?)', lineOf(text, i));
      nodes += 1 + attributes;
      if (nodes > limits.nodes)
        throw new XmlLimitError(
          `it has more than ${limits.nodes} elements and attributes (the limit per file; line ${lineOf(text, i)})`,
        );
      if (last !== 0x2f /* / */ && ++depth > limits.depth)
        throw new XmlLimitError(
          `elements are nested more than ${limits.depth} deep (the limit; line ${lineOf(text, i)})`,
        );
      // Console output is read raw (LOG_ELEMENTS): markup in it is text, not elements.
      const log = last !== 0x2f && LOG_FIRST.has(next) ? logElementAt(text, i + 1) : undefined;
      if (log) {
        const end = text.indexOf(`</${log}`, j);
        if (end >= 0) {
          i = end;
          continue;
        }
      }
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Parse a whole document; malformed or truncated XML is an XmlError with line and column. */
export function parseXml(text: string): XmlNode {
  checkXmlLimits(text);
  let doc: XmlNode;
  try {
    doc = parser.parse(withoutDoctype(text)) as XmlNode;
  } catch (error) {
    throw locate(text, (error as Error).message);
  }
  const root = Object.keys(doc).find(
    (k) => !k.startsWith('?') && k !== '#text' && !k.startsWith('!'),
  );
  if (!root) throw new XmlError('no root element (empty or not XML)', 1, 1);
  // fast-xml-parser tolerates a missing end; a truncated report must not pass for a short one.
  if (!endsWithRoot(text, root))
    throw locate(text, `the document ends before </${root}> (truncated?)`);
  return doc;
}

function endsWithRoot(text: string, root: string): boolean {
  // Only the end matters; a bounded slice keeps this cheap on huge files. Trailing comments are
  // stepped over by index (no copies), so thousands of them stay linear.
  const tail = text.slice(-65_536);
  let end = trimmedEnd(tail, tail.length);
  while (tail.startsWith('-->', end - 3)) {
    const open = tail.lastIndexOf('<!--', end - 3);
    if (open < 0) break;
    end = trimmedEnd(tail, open);
  }
  if (tail.charCodeAt(end - 1) !== 0x3e /* > */) return false;
  const closeEnd = trimmedEnd(tail, end - 1);
  if (tail.startsWith(`</${root}`, closeEnd - root.length - 2)) return true;
  // A self-closing root such as <testsuites/>.
  const body = tail.slice(0, end);
  return body.endsWith('/>') && body.lastIndexOf('<') === body.indexOf(`<${root}`);
}

/** The index after the last non-whitespace character before `end`. */
function trimmedEnd(s: string, end: number): number {
  while (end > 0 && /\s/.test(s[end - 1]!)) end--;
  return end;
}

/**
 * DTDs are never processed: a DOCTYPE (its internal subset included) is blanked out, keeping line
 * and column positions. External entities (XXE) are then never resolved and entity bombs never
 * expand; only XML's five predefined entities and character references remain.
 */
function withoutDoctype(text: string): string {
  const start = text.slice(0, 65_536).search(/<!DOCTYPE/i);
  if (start < 0) return text;
  let depth = 0;
  let quote = '';
  for (let i = start + 9; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0)
      return (
        text.slice(0, start) + text.slice(start, i + 1).replace(/[^\n]/g, ' ') + text.slice(i + 1)
      );
  }
  return text; // unterminated: the parser reports it
}

/** Slow path, only on failure: the validator knows where the problem is. */
function locate(text: string, fallback: string): XmlError {
  const result = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (result !== true) return new XmlError(result.err.msg, result.err.line, result.err.col);
  return new XmlError(fallback);
}

/** Children that may appear once or many times, as an array. */
export function list(value: unknown): XmlNode[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) =>
    typeof v === 'object' && v !== null ? (v as XmlNode) : { '#text': v },
  );
}

// Attribute keys are built once, not per call: 100,000-test files call attr() a million times.
const ATTR_KEYS = new Map<string, string>();
function attrKey(name: string): string {
  let key = ATTR_KEYS.get(name);
  if (key === undefined) ATTR_KEYS.set(name, (key = `@${name}`));
  return key;
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const v = node?.[attrKey(name)];
  return typeof v === 'string' ? v : undefined;
}

export function text(node: unknown): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(text).filter(Boolean).join('\n') || undefined;
  const t = (node as XmlNode)['#text'];
  return typeof t === 'string' ? t : undefined;
}

export function seconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.includes(',') ? value.replace(/,/g, '') : value);
  return Number.isFinite(n) ? Math.round(n * 1000) : undefined;
}
