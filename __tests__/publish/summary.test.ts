/** The Markdown users see (job summary, --summary-file), committed as a snapshot. */
import { marked } from 'marked';
import { renderSummary, type PublishResult, type SyncResult } from '../../src/publish/index.js';
import type { ParsedReport } from '../../src/parsers/base/model.js';

const result: PublishResult = {
  cycle: { id: 'c-1', key: 'SHOP-R7', name: 'Release <2.3> | "rc"', status: 'ACTIVE' },
  counts: {
    passed: 40,
    failed: 2,
    blocked: 1,
    skipped: 3,
    notExecuted: 1,
    inProgress: 0,
    total: 47,
  },
  passRate: 93.02,
  gate: {
    passed: false,
    reasons: [
      'pass rate 93.02% is below 95% (basis: executed)',
      '1 not executed (fail-on-not-executed)',
    ],
    evaluated: true,
  },
  writes: { created: 30, updated: 5, unchanged: 11, casesCreated: 0 },
  unmatched: [
    {
      test: 'Cart › new_test',
      file: 'reports/cart.xml',
      reason: 'no test case with automationKey "Cart.new_test"',
    },
  ],
  requests: { total: 76, byMethod: { GET: 11, POST: 30, PATCH: 35 }, retried: 2, rateLimited: 0 },
  warnings: [],
};

const reports: ParsedReport[] = [
  {
    file: 'reports/cart.xml',
    format: 'junit',
    tests: [
      {
        suite: ['Cart'],
        classname: 'Cart',
        name: 'adds | item *fast*',
        outcome: 'failed',
        message: 'expected <1> but was <2>\nat Cart.java:10',
        file: 'src/Cart.java',
        line: 10,
        properties: {},
      },
      {
        suite: ['Cart'],
        classname: 'Cart',
        name: 'removes',
        outcome: 'error',
        message: 'NullPointerException',
        properties: {},
      },
      { suite: ['Cart'], classname: 'Cart', name: 'passes', outcome: 'passed', properties: {} },
    ],
  },
];

test('a failed gate: verdict, cycle link, counts, reasons, failed tests with file:line, unmatched tests, requests', () => {
  expect(
    renderSummary(result, reports, { linkTemplate: 'https://tm.example/cycles/{key}' }),
  ).toMatchSnapshot();
});

test('report text is escaped: no HTML, no table breaks, one line per cell', () => {
  const md = renderSummary(result, reports);
  expect(md).toContain('Release \\<2.3\\> \\| "rc"');
  expect(md).toContain('Cart › adds \\| item \\*fast\\*');
  expect(md).not.toContain('<2>');
});

test("the demo's failure <90.00> reads as itself in the raw Markdown and renders as itself: no tag, no entity", () => {
  const message = 'expected: <90.00> but was: <100.00> & <img src=x onerror=alert(1)> &amp;';
  const md = renderSummary(result, [
    {
      file: 'checkout.xml',
      format: 'junit',
      tests: [
        {
          suite: ['C'],
          classname: 'C',
          name: 'voucher',
          outcome: 'failed',
          message,
          properties: {},
        },
      ],
    },
  ]);
  const row = md.split('\n').find((l) => l.includes('voucher'))!;
  expect(row).toContain('expected: \\<90.00\\> but was: \\<100.00\\>');
  expect(row).not.toContain('&#');
  const cell = /<td>([^<]*voucher[^<]*|[^<]*90\.00[^<]*)<\/td>/g;
  const html = marked.parse(md, { async: false, gfm: true });
  const cells = [...html.matchAll(cell)].map((m) => m[1]);
  // As GitHub shows it: the HTML's text, entities decoded once.
  const shown = cells.map((c) =>
    c!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
  expect(shown).toContain(message);
  expect(html).not.toContain('<img');
});

test('a summary over the size limit is cut at a row boundary, with a note', () => {
  const many: ParsedReport = {
    file: 'big.xml',
    format: 'junit',
    tests: Array.from({ length: 20_000 }, (_, i) => ({
      suite: ['S'],
      classname: 'S',
      name: `test ${i} ${'x'.repeat(60)}`,
      outcome: 'failed' as const,
      message: 'm'.repeat(100),
      properties: {},
    })),
  };
  const md = renderSummary(result, [many], { maxBytes: 100_000 });
  expect(Buffer.byteLength(md)).toBeLessThanOrEqual(100_000);
  expect(md).toMatch(/_… \d+ more rows left out to stay under the summary size limit\._/);
  expect(
    md
      .split('\n')
      .filter((l) => l.startsWith('| S › test'))
      .every((l) => l.endsWith(' |')),
  ).toBe(true);
  const full = renderSummary(result, [many]);
  expect(Buffer.byteLength(full)).toBeLessThanOrEqual(1024 * 1024);
});

test('a dry run reads as a plan: a cycle that would be created, what would change, no verdict', () => {
  const plan: PublishResult = {
    ...result,
    cycle: { id: null, key: null, name: 'Nightly', status: '' },
    gate: { passed: true, reasons: [], evaluated: false },
    writes: { created: 0, updated: 0, unchanged: 4, casesCreated: 0 },
    dryRun: {
      plannedRequests: 12,
      totalRequests: 16,
      createCycle: true,
      activateCycle: false,
      create: 30,
      update: 5,
      casesToCreate: 0,
    },
  };
  const md = renderSummary(plan, []);
  expect(md).toContain('## testcycle: 📝 Dry run: the plan, nothing written');
  expect(md).toContain('**Cycle** Nightly (would be created)');
  expect(md).toContain(
    '**Plan** would create 30, update 5, leave 4 unchanged · 12 more requests (16 in all) · Requests: 76 (reads) · Gate: not evaluated (dry run)',
  );
  expect(md).not.toMatch(/ACTIVE|Gate passed|Published/);
});

test('a gate that passed but could not check the trend says so in the summary', () => {
  const note =
    'no previous cycle: trend not checked (SHOP-R7 (rank 7) is the first cycle of the series "Nightly {run_number}")';
  const passed = { ...result, gate: { passed: true, reasons: [], evaluated: true, notes: [note] } };
  const md = renderSummary(passed, []);
  expect(md).toContain('## testcycle: ✅ Gate passed');
  expect(md).toContain(
    '**Gate**\n\n- Note: no previous cycle: trend not checked (SHOP-R7 (rank 7)',
  );
  const quiet = renderSummary(
    { ...passed, gate: { passed: true, reasons: [], evaluated: true } },
    [],
  );
  expect(quiet).not.toContain('**Gate**');
});

describe('publish --sync: what sync did, in a short section of the summary', () => {
  const ref = (i: number, name = `Suite.test${i}`) => ({ key: `SHOP-T${i}`, name });
  const sync: SyncResult = {
    dryRun: false,
    created: [
      {
        key: 'SHOP-T90',
        name: '@octocat fixes #12 <img src=x> | *bold* [link](x)',
      },
      ...Array.from({ length: 7 }, (_, i) => ref(100 + i)),
    ],
    renamed: [{ ...ref(3), from: 'old | name' }],
    rekeyed: [],
    updated: [{ ...ref(4), fields: ['automationStatus'] }],
    archived: [],
    restored: [ref(5)],
    steps: { created: 3, updated: 1, deleted: 0, cases: 2 },
    kept: [],
    unchanged: 11,
    retire: {
      automated: 20,
      max: 2,
      enabled: false,
      inScope: 20,
      outOfScope: 0,
      blocked: [],
      candidates: [],
    },
    renames: [],
    plannedRequests: 0,
    failed: [],
    requests: { total: 9, byMethod: {}, retried: 0, rateLimited: 0 },
    warnings: [],
  };

  test('counts of each kind, the first five cases of each named, report text as data', () => {
    const md = renderSummary({ ...result, sync }, reports);
    const section = md.slice(
      md.indexOf('### Test cases synced (publish --sync)'),
      md.indexOf('### Failed tests'),
    );
    expect(section).toContain(
      '8 created, 1 renamed, 0 re-keyed, 1 updated, 1 restored, 11 unchanged. Steps of 2 case(s): 3 created, 1 updated, 0 deleted.',
    );
    expect(section).toContain('- renamed: SHOP-T3 Suite.test3 (was old \\| name)');
    expect(section).toContain('- updated: SHOP-T4 Suite.test4');
    expect(section).toContain('- restored: SHOP-T5 Suite.test5');
    const created = section.split('\n').find((l) => l.startsWith('- created: '))!;
    expect(created).toContain('SHOP-T103 Suite.test103; … and 3 more');
    expect(created).not.toContain('Suite.test104');
    // A mention, an issue reference, HTML, a table break and a link from a report stay text.
    const html = marked.parse(section, { async: false, gfm: true });
    expect(html).not.toMatch(/<img|<a |<strong>|<em>|<table>/);
    expect(created).not.toMatch(/(^|[^\\\u200b])@octocat/);
    expect(created).not.toMatch(/(^|\s)#12/);
  });

  test('a dry run says what would be done; a publish without --sync has no such section', () => {
    const md = renderSummary({ ...result, sync: { ...sync, dryRun: true } }, reports);
    expect(md).toContain('### Test cases sync plan (publish --sync, nothing written)');
    expect(md).toContain('8 would be created, 1 would be renamed');
    expect(md).toContain('- would be created: SHOP-T90');
    expect(renderSummary(result, reports)).not.toContain('Test cases sync');
  });
});
