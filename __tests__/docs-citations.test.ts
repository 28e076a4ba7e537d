/**
 * The code cites the repository's own docs, and every citation leads somewhere:
 * `docs/service-api.md 4.1` (or `section 4.1`, `3, rule 2`, `5.7-5.8`) to a numbered section or rule,
 * `docs/design.md "Heading"` and `docs/architecture.md "Heading"` to a heading, `docs/design.md
 * \`--flag\`` to a flag the contract names. No file cites the old external design files or an issue
 * number (scripts/cite-docs.mjs rewrites the old citations).
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  citingFiles,
  leftovers,
  rewrite,
  // @ts-expect-error: a plain .mjs script, no types
} from '../scripts/cite-docs.mjs';

type Doc = 'service-api' | 'design' | 'architecture';
const DOCS: Doc[] = ['service-api', 'design', 'architecture'];

interface Outline {
  /** Heading texts, lower case. */
  headings: Set<string>;
  /** Section numbers (`4`, `4.1`) and the numbered rules of each (`3` -> {1, 2, 3, 4}). */
  sections: Map<string, Set<number>>;
  text: string;
}

/** The headings of a Markdown file (outside code fences), its section numbers and their rules. */
function outline(text: string): Outline {
  const headings = new Set<string>();
  const sections = new Map<string, Set<number>>();
  let fenced = false;
  let current: Set<number> | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^(#{1,6})\s+(.+?)\s*$/.exec(line);
    if (heading) {
      const title = heading[2]!;
      headings.add(title.toLowerCase());
      const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(title)?.[1];
      if (number) {
        const rules = new Set<number>();
        sections.set(number, rules);
        // Rules belong to the top-level section (`3, rule 2`), also when they sit below a subsection.
        if (!number.includes('.')) current = rules;
      }
      continue;
    }
    const rule = /^(\d+)\.\s/.exec(line);
    if (rule && current) current.add(Number(rule[1]));
  }
  return { headings, sections, text };
}

const outlines = Object.fromEntries(
  DOCS.map((doc) => [doc, outline(readFileSync(`docs/${doc}.md`, 'utf8'))]),
) as Record<Doc, Outline>;

const REF = String.raw`\d+(?:\.\d+)?(?:,?\s+rule\s+\d+)?`;
const SECTION_CITATION = new RegExp(
  String.raw`docs/service-api\.md,?\s+(?:sections?\s+)?(${REF}(?:\s*(?:,|-|and)\s*${REF})*)`,
  'g',
);
const HEADING_CITATION = /docs\/(service-api|design|architecture)\.md`?\s*\(?\s*"([^"\n]+)"/g;
const FLAG_CITATION = /docs\/design\.md`?\s+`?(--[a-z][a-z-]*)/g;

/** Every citation in `text` that leads nowhere, in words. */
function brokenCitations(source: string, docs: Record<Doc, Outline> = outlines): string[] {
  // A citation may wrap onto the next line of a comment or a paragraph.
  const text = source.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  const broken: string[] = [];
  for (const match of text.matchAll(SECTION_CITATION)) {
    for (const ref of match[1]!.split(/\s*(?:,(?!\s*rule)|-|and)\s*/)) {
      const [, number, rule] = /^(\d+(?:\.\d+)?)(?:,?\s+rule\s+(\d+))?$/.exec(ref.trim()) ?? [];
      if (!number) continue;
      const rules = docs['service-api'].sections.get(number);
      if (!rules) broken.push(`docs/service-api.md has no section ${number}`);
      else if (rule && !rules.has(Number(rule)))
        broken.push(`docs/service-api.md section ${number} has no rule ${rule}`);
    }
  }
  for (const [, doc, heading] of text.matchAll(HEADING_CITATION)) {
    if (!docs[doc as Doc].headings.has(heading!.toLowerCase()))
      broken.push(`docs/${doc}.md has no heading "${heading}"`);
  }
  for (const [, flag] of text.matchAll(FLAG_CITATION)) {
    if (!new RegExp(`${flag}\\b`).test(docs.design.text))
      broken.push(`docs/design.md does not name ${flag}`);
  }
  return broken;
}

const files: string[] = citingFiles();
const sources = new Map<string, string>(files.map((path) => [path, readFileSync(path, 'utf8')]));
const docTexts = new Map(DOCS.map((doc) => [`docs/${doc}.md`, outlines[doc].text]));

function report(texts: Map<string, string>): string[] {
  return [...texts].flatMap(([path, text]) =>
    brokenCitations(text).map((problem) => `${path}: ${problem}`),
  );
}

/** `path:line: text` of every line that cites an old file or an issue number. */
function leftoverLines(texts: Map<string, string>): string[] {
  return [...texts].flatMap(([path, text]) =>
    leftovers(text).map((l: { line: number; text: string }) => `${path}:${l.line}: ${l.text}`),
  );
}

describe('the citation checker', () => {
  test('resolves sections, rules, ranges, headings and flags that exist', () => {
    expect(
      brokenCitations(
        'docs/service-api.md 4.1, 4.3; docs/service-api.md section 8; docs/service-api.md 3, rule 2; ' +
          'docs/service-api.md 3 rule 1; docs/service-api.md 5.7-5.8; docs/service-api.md 5, 7, 8; ' +
          'docs/design.md "Results and merging"; docs/design.md ("Emulator contract"); ' +
          'docs/architecture.md "Retry policy"; docs/design.md `--rate-limit`; docs/design.md --chaos',
      ),
    ).toEqual([]);
  });

  test.each([
    ['docs/service-api.md 4.9', 'docs/service-api.md has no section 4.9'],
    ['docs/service-api.md section 12', 'docs/service-api.md has no section 12'],
    ['docs/service-api.md 3, rule 9', 'docs/service-api.md section 3 has no rule 9'],
    ['docs/service-api.md 5.7-5.12', 'docs/service-api.md has no section 5.12'],
    ['docs/design.md "Results and mergers"', 'docs/design.md has no heading "Results and mergers"'],
    ['docs/architecture.md "Retries"', 'docs/architecture.md has no heading "Retries"'],
    ['docs/design.md `--no-such-flag`', 'docs/design.md does not name --no-such-flag'],
  ])('finds the broken citation in %s', (text, problem) => {
    expect(brokenCitations(text)).toEqual([problem]);
  });

  test('finds old citations and issue numbers', () => {
    expect(
      leftovers('a\n// SERVICE-API.md 4.1\n// see ../shared/DESIGN.md\n// (issue 13)\nb'),
    ).toEqual([
      { line: 2, text: '// SERVICE-API.md 4.1' },
      { line: 3, text: '// see ../shared/DESIGN.md' },
      { line: 4, text: '// (issue 13)' },
    ]);
    expect(leftovers('docs/service-api.md 4.1; docs/design.md; an issue of timing')).toEqual([]);
    // In a test's title it cites; in test data it is data.
    expect(leftovers("describe('hostile (issue 16)', () => {")).toHaveLength(1);
    expect(
      leftovers("  expect(clean('plain text, issue 7, C#')).toBe(x); // issue 7"),
    ).toHaveLength(1);
    expect(leftovers("  expect(clean('plain text, issue 7, C#')).toBe(x);")).toEqual([]);
  });
});

describe('scripts/cite-docs.mjs', () => {
  test('rewrites each old citation to the docs, headings and sections kept', () => {
    expect(rewrite('(SERVICE-API.md section 7) (DESIGN.md "Results and merging")')).toBe(
      '(docs/service-api.md section 7) (docs/design.md "Results and merging")',
    );
    expect(rewrite('(STYLE.md) ../shared/SERVICE-API.md 4.2')).toBe(
      '(docs/architecture.md "Models followed") docs/service-api.md 4.2',
    );
    expect(rewrite('DESIGN.md "locked types"')).toBe('docs/design.md "Locked types"');
    expect(rewrite('(STYLE.md "Test identity") (STYLE.md, liqe/rsql)')).toBe(
      '(docs/architecture.md "Test identity") (docs/architecture.md "Query language": liqe, rsql)',
    );
    expect(rewrite('as SERVICE-API.md allows (docs/service-api.md), so')).toBe(
      'as docs/service-api.md allows, so',
    );
    expect(rewrite('docs/service-api.md 4.1')).toBe('docs/service-api.md 4.1');
  });

  test("leaves today's tree with every citation resolvable and no old citation or issue number", () => {
    const rewritten = new Map([...sources].map(([path, text]) => [path, rewrite(text)]));
    expect(report(rewritten)).toEqual([]);
    expect(leftoverLines(rewritten)).toEqual([]);
  });
});

describe('the code and the docs cite the docs', () => {
  test('the files cited are found (the scan covers src, tests, bench and scripts)', () => {
    expect(files).toEqual(
      expect.arrayContaining(['src/client/client.ts', 'src/schema/resources.ts']),
    );
    expect(files.some((f) => f.startsWith('__tests__/'))).toBe(true);
  });

  test('every citation of the docs, in the code and in the docs themselves, leads to a section', () => {
    expect(report(new Map([...sources, ...docTexts]))).toEqual([]);
  });

  test('no file cites SERVICE-API.md, DESIGN.md, STYLE.md or ../shared, nor an issue number (run node scripts/cite-docs.mjs)', () => {
    expect(leftoverLines(sources)).toEqual([]);
  });
});

describe('paths the code and the docs name exist', () => {
  /** The comments of a source file; the whole text of a Markdown page. */
  const prose = (path: string, text: string): string =>
    path.endsWith('.md') ? text : (text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? []).join('\n');

  /**
   * Every `src/...` path in the comments of the code (src, tests, bench, scripts) and in the docs
   * that is no file or folder of the tree. A path that ends in a pattern (`src/parsers/formats/<id>.ts`,
   * `src/**`) stands for many and is left out, and so is a test file (`src/cart.test.ts`: a
   * user's project in an example); a `.js` path is its `.ts` source (ESM imports).
   */
  function missingPaths(texts: Map<string, string>): string[] {
    const missing: string[] = [];
    for (const [path, text] of texts) {
      const said = prose(path, text);
      for (const m of said.matchAll(/(?<![\w./-])src\/[\w./-]*[\w/]/g)) {
        if (/[*<{]/.test(said.charAt(m.index + m[0].length))) continue;
        // A test file under src is a user's project in an example: src holds none of ours.
        if (m[0].includes('.test.')) continue;
        const cited = m[0].replace(/\.js$/, '.ts');
        if (!existsSync(cited)) missing.push(`${path}: ${m[0]}`);
      }
    }
    return missing;
  }

  const pages = ['README.md', 'CONTRIBUTING.md', ...DOCS.map((doc) => `docs/${doc}.md`)];

  test('every src/ path cited in a comment of the code or in the docs is a file or folder of the tree', () => {
    const texts = new Map([
      ...sources,
      ...pages.map((page) => [page, readFileSync(page, 'utf8')] as const),
    ]);
    expect(missingPaths(texts)).toEqual([]);
  });

  test('a path that is gone is found, in a comment or a page; one in a string of code is data', () => {
    expect(
      missingPaths(
        new Map([
          ['src/a.ts', "// keys (src/publish/identity.ts)\nconst p = 'src/gone.ts';"],
          ['docs/x.md', 'masked (`src/api/redact.ts`), formats in `src/parsers/formats/<id>.ts`'],
        ]),
      ),
    ).toEqual(['src/a.ts: src/publish/identity.ts', 'docs/x.md: src/api/redact.ts']);
  });
});
