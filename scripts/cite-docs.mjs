// Rewrites the citations of the old, external design files in the code to the repository's own
// docs: SERVICE-API.md -> docs/service-api.md (same section numbers), DESIGN.md -> docs/design.md
// (same headings), STYLE.md -> docs/architecture.md "Models followed" (its headings are that section's
// subsections). Mentions of issue numbers
// are reworded from a reviewed table (ISSUE_REWORDINGS); any left are listed for a person.
// __tests__/docs-citations.test.ts fails while an old citation or an issue number remains.
//
//   node scripts/cite-docs.mjs           rewrite in place; exit 1 if mentions are left to reword
//   node scripts/cite-docs.mjs --check   change nothing; list what would change; exit 1 if any
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folders whose code and tests cite the docs. */
export const CITING_ROOTS = ['src', '__tests__', 'bench', 'scripts'];
const EXTENSIONS = /\.(?:ts|mts|mjs|js|cjs)$/;
/** Data of other projects (report corpora), and the two files that name the old citations on purpose. */
const SKIPPED = [
  /^__tests__\/fixtures\//,
  /^__tests__\/docs-citations\.test\.ts$/,
  /^scripts\/cite-docs\.mjs$/,
];

/** Files under CITING_ROOTS that may cite the docs, as `/`-separated paths from `root`. */
export function citingFiles(root = '.') {
  const out = [];
  for (const top of CITING_ROOTS) {
    let entries;
    try {
      entries = readdirSync(join(root, top), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !EXTENSIONS.test(entry.name)) continue;
      const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
      if (path.includes('node_modules/') || SKIPPED.some((re) => re.test(path))) continue;
      out.push(path);
    }
  }
  return out.sort();
}

/** An old citation: one of the external files, or their fixtures and hooks (src/shared is ours). */
export const OLD_CITATION =
  /(?:\.\.\/)?(?:shared\/)?\b(?:SERVICE-API|DESIGN|STYLE)\.md\b|\.\.\/shared\/(?:fixtures|hooks)\b/;
/** A mention of an issue number ("issue 13", "Issue 16, point 5", "issue #4"). */
export const ISSUE_MENTION = /\bissues?\s+#?\d+/i;

/**
 * Issue numbers reworded by hand, reviewed: each is an exact piece of text and what replaces it
 * (a citation of the docs or a path, or the reason itself). Text not found is skipped.
 */
export const ISSUE_REWORDINGS = [
  [
    'URLs stay under 4 KB (issue 2); the rest',
    'URLs stay under 4 KB (docs/design.md "Publish: request budget"); the rest',
  ],
  [
    ' * Issue 2: URLs stay under 4 KB.',
    ' * URLs stay under 4 KB (docs/design.md "Publish: request budget").',
  ],
  [
    'one job (issue 13): the steps of a workflow job',
    'one job (docs/architecture.md "The request pipeline"): the steps of a workflow job',
  ],
  ['pace together (issue 13): RUNNER_TEMP', 'pace together (src/client/pace.ts): RUNNER_TEMP'],
  ["growing the heap (issue 4's peak RSS).", 'growing the heap (peak RSS: BENCHMARKS.md).'],
  [
    '(issue 16 point 5): fast-xml-parser',
    '(a hostile report must not exhaust memory): fast-xml-parser',
  ],
  ['on 34 empty comments; issue 16 point 5).', 'on 34 empty comments).'],
  [
    'The dashboard core (issue 15): read',
    'The dashboard core (`testcycle report`, `mode: report`): read',
  ],
  ['for a dashboard (issue 15).', 'for a dashboard.'],
  ['Dashboard benchmark (issue 15): model', 'Dashboard benchmark: model'],
  ['the emulator cannot (issue 13):', 'the emulator cannot:'],
  ['never redirect results (issue 16, point 1).', 'never redirect results.'],
  ['Key collisions (issue 11, point 5):', 'Key collisions (docs/design.md "Results and merging"):'],
  [
    'through its stats (issue 5\'s "done when").',
    'through its stats (docs/design.md "Publish: request budget").',
  ],
  ["share the token's pace (issue 13):", "share the token's pace (src/client/pace.ts):"],
  ['Hostile servers (issue 16, point 4):', 'Hostile servers:'],
  ['Hostile report files (issue 16 point 5):', 'Hostile report files:'],
  ['one job (issue 13): the state file', 'one job (src/client/pace.ts): the state file'],
  ['would evaluate (issue 16): found', 'would evaluate (docs/service-api.md 4.2): found'],
  ['hostile requests (issue 16, point 6):', 'hostile requests:'],
  [' * Issue 16, points 2 and 3: text from', ' * Text from'],
  ['at the CLI (issue 13):', 'at the CLI (docs/design.md "Exit codes"):'],
  [
    'Test identity and repeats (issue 11):',
    'Test identity and repeats (docs/design.md "Results and merging"):',
  ],
  ['in the action (issue 13):', 'in the action:'],
  ['final state (issue 6).', 'final state.'],
  ['is data (issue 16)', 'is data'],
  ['report (issue 15: the request cost)', 'report (the request cost)'],
];

/** Old headings cited in other words than the new docs use. */
const HEADING_RENAMES = [
  [/docs\/design\.md "locked types"/g, 'docs/design.md "Locked types"'],
  [/docs\/design\.md "request budget"/g, 'docs/design.md "Publish: request budget"'],
  [/docs\/design\.md "keys"/g, 'docs/design.md "Keys"'],
];

/** The text with every old citation rewritten and every known issue mention reworded. */
export function rewrite(text) {
  let out = text
    .replace(/(?:\.\.\/)?(?:shared\/)?\bSERVICE-API\.md\b/g, 'docs/service-api.md')
    .replace(/(?:\.\.\/)?(?:shared\/)?\bDESIGN\.md\b/g, 'docs/design.md')
    // STYLE.md's headings are the subsections of docs/architecture.md "Models followed".
    .replace(/\(STYLE\.md, liqe\/rsql\)/g, '(docs/architecture.md "Query language": liqe, rsql)')
    .replace(
      /\(STYLE\.md, dorny\/test-reporter\)/g,
      '(docs/architecture.md "Report parsers": dorny/test-reporter)',
    )
    .replace(/(?:\.\.\/)?(?:shared\/)?\bSTYLE\.md(?= "| \(")/g, 'docs/architecture.md')
    .replace(/(?:\.\.\/)?(?:shared\/)?\bSTYLE\.md\b/g, 'docs/architecture.md "Models followed"');
  for (const [from, to] of HEADING_RENAMES) out = out.replace(from, to);
  // `as docs/service-api.md allows (docs/service-api.md)`: the old name stood beside the new one.
  out = out.replace(/(docs\/[a-z-]+\.md)((?: [a-z]+)?) \(\1\)/g, '$1$2');
  for (const [from, to] of ISSUE_REWORDINGS) out = out.split(from).join(to);
  return out;
}

/**
 * Whether the issue mention at `index` of `line` is in a comment or a test's title, where it would
 * cite the issue; an "issue 7" inside test data is data.
 */
function citesIssue(line, index) {
  const before = line.slice(0, index);
  return (
    /^\s*(?:\*|\/\*|\/\/)/.test(line) ||
    before.includes('//') ||
    /\b(?:describe|test|it)(?:\.each\([^)]*\))?\s*\(/.test(before)
  );
}

/** Lines of `text` that still cite an old file, or an issue number in a comment or test title. */
export function leftovers(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    const issues = line.matchAll(new RegExp(ISSUE_MENTION.source, 'gi'));
    if (OLD_CITATION.test(line) || [...issues].some((m) => citesIssue(line, m.index)))
      out.push({ line: i + 1, text: line.trim() });
  });
  return out;
}

function main(argv) {
  const check = argv.includes('--check');
  let changed = 0;
  const left = [];
  for (const path of citingFiles()) {
    const before = readFileSync(path, 'utf8');
    const after = rewrite(before);
    if (after !== before) {
      changed++;
      if (check) console.log(`would rewrite ${path}`);
      else writeFileSync(path, after);
    }
    for (const { line, text } of leftovers(after)) left.push(`${path}:${line}: ${text}`);
  }
  console.log(`${changed} file(s) ${check ? 'to rewrite' : 'rewritten'}.`);
  if (left.length) {
    console.log(`${left.length} mention(s) left to reword by hand:`);
    for (const l of left) console.log(`  ${l}`);
  }
  return (check && changed > 0) || left.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));
