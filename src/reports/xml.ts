/**
 * Safe XML reading for every XML format: fast-xml-parser 5 with explicit entity limits, external
 * entities never resolved, bounded nesting, BOMs and UTF-16 handled.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

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

/** Console output: JUnit system-out/err, NUnit and xUnit output, TRX StdOut/StdErr, TestNG reporter-output. */
const LOG_ELEMENTS = ['system-out', 'system-err', 'output', 'StdOut', 'StdErr', 'reporter-output'];

const parser = new XMLParser({
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
  maxNestedTags: 256,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Captured console output is often most of a report and no format's model uses it: read it as
  // raw text (markup in logs does not break the parse) and leave it out of the tree.
  stopNodes: LOG_ELEMENTS.map((name) => `*.${name}`),
  updateTag: (name) => !LOG_ELEMENTS.includes(name),
});

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

/** Parse a whole document; malformed or truncated XML is an XmlError with line and column. */
export function parseXml(text: string): XmlNode {
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
  // Only the end matters; a bounded slice keeps this cheap on huge files.
  let tail = text.slice(-65_536).trimEnd();
  while (tail.endsWith('-->') && tail.includes('<!--'))
    tail = tail.slice(0, tail.lastIndexOf('<!--')).trimEnd();
  if (
    tail.endsWith('>') &&
    new RegExp(`</${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*>$`).test(tail)
  )
    return true;
  // A self-closing root such as <testsuites/>.
  return tail.endsWith('/>') && tail.lastIndexOf('<') === tail.indexOf(`<${root}`);
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
