/** analyze(): counts, trend, latest vs previous, flips; and what the renderers make of it. */
import { analyze } from '../../src/dashboard/render/analyze.js';
import { renderHtml } from '../../src/dashboard/render/html.js';
import { renderMarkdown, sparkline } from '../../src/dashboard/render/markdown.js';
import { seriesOf } from './series-of.js';

describe('analyze', () => {
  test('pass rate per cycle, the trend and the drop of the latest cycle', () => {
    const model = analyze(seriesOf({ a: 'PPPP', b: 'PPFF', c: 'PFPF', d: 'PPSF', e: 'SSSS' }));
    expect(model.trend.points).toEqual([100, 75, 66.67, 25]);
    expect(model.trend).toMatchObject({ first: 100, last: 25, change: -75 });
    expect(model.latest!.cycle.key).toBe('DEMO-R4');
    expect(model.latest!.previous!.key).toBe('DEMO-R3');
    expect(model.latest!.drop).toBe(41.67);
    expect(model.cycles[3]!.counts).toMatchObject({ passed: 1, failed: 3, skipped: 1, total: 5 });
    expect(analyze(seriesOf({ a: 'PS' }), { basis: 'all' }).trend.points).toEqual([100, 0]);
  });

  test('newly failing: passed before, failed or blocked now; newly fixed the other way', () => {
    const model = analyze(
      seriesOf({
        broke: 'PPF',
        blocked: 'PPB',
        fixed: 'FFP',
        unblocked: 'PBP',
        stillBroken: 'PFF',
        newAndFailing: '--F',
        goneMissing: 'PP-',
        skippedThenFailed: 'PSF',
      }),
    );
    expect(model.newlyFailing).toEqual({
      total: 2,
      items: [
        { id: 'id-blocked', name: 'blocked', previous: 'PASSED', latest: 'BLOCKED' },
        { id: 'id-broke', name: 'broke', previous: 'PASSED', latest: 'FAILED' },
      ],
    });
    expect(model.newlyFixed!.items.map((t) => t.name)).toEqual(['fixed', 'unblocked']);
  });

  test('without the history of either of the latest two cycles, the changes are unknown, not empty', () => {
    expect(analyze(seriesOf({ a: 'PPF' }, { withoutHistory: [1] })).newlyFailing).toBeNull();
    expect(analyze(seriesOf({ a: 'PPF' }, { withoutHistory: [0] })).newlyFailing!.total).toBe(1);
  });

  test('flaky: flips both ways at least twice, skips and absences neither count nor break a run', () => {
    const model = analyze(
      seriesOf({
        flaky: 'PFPFP',
        twice: 'PF-SP',
        brokeOnce: 'PPPFF',
        steady: 'PPPPP',
        blockedFlip: 'BPB--',
      }),
    );
    expect(model.flaky!.items.map((t) => [t.name, t.flips, t.failures])).toEqual([
      ['flaky', 4, 2],
      ['blockedFlip', 2, 2],
      ['twice', 2, 1],
    ]);
    expect(model.flaky!.items[2]!.history).toEqual(['PASSED', 'FAILED', null, 'SKIPPED', 'PASSED']);
    expect(model.flaky).toMatchObject({ total: 3, cyclesWithHistory: 5, minFlips: 2 });
    expect(analyze(seriesOf({ brokeOnce: 'PPPFF' }), { minFlips: 1 }).flaky!.total).toBe(1);
  });

  test('a cycle without history leaves a gap in the strips, not a flip', () => {
    const model = analyze(seriesOf({ t: 'PFPFP' }, { withoutHistory: [1] }));
    expect(model.flaky!.items[0]).toMatchObject({
      flips: 2,
      history: ['PASSED', null, 'PASSED', 'FAILED', 'PASSED'],
    });
  });

  test('top-N lists keep the total', () => {
    const rows = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`t${i}`, 'PFPF']));
    const model = analyze(seriesOf(rows), { top: 5 });
    expect(model.flaky!.items).toHaveLength(5);
    expect(model.flaky!.total).toBe(40);
    expect(model.newlyFailing!.items.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(renderHtml(model)).toContain('… and 35 more flaky tests');
    expect(renderMarkdown(model)).toContain('_… and 35 more');
  });

  test('an empty series is a model too', () => {
    const model = analyze(seriesOf({}));
    expect(model).toMatchObject({ cycles: [], latest: null, newlyFailing: null, flaky: null });
    expect(renderHtml(model)).toContain('No cycle matches the series.');
    expect(renderMarkdown(model)).toContain('No cycle matches the series');
  });
});

describe('renderers keep names as data', () => {
  const hostile = '<img src=x onerror=alert(1)>"\' | [x](http://evil) `code` **b** # h\n- item';
  const model = analyze(
    seriesOf({ [hostile]: 'PFPF', ok: 'PPPF' }, { tests: { ok: { key: '</span><script>' } } }),
  );

  test('HTML: no tag, attribute or entity from a name survives unescaped', () => {
    const page = renderHtml(model);
    expect(page).not.toMatch(/<img|<script|onerror=alert\(1\)>/i);
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62;&#34;&#39;');
    // Only our own tags: every "<" starts one of the elements the renderer writes.
    const tags = new Set(
      [...page.matchAll(/<\/?([a-z!][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase()),
    );
    expect([...tags].sort()).toEqual(
      [
        '!doctype',
        'body',
        'circle',
        'div',
        'g',
        'h1',
        'h2',
        'head',
        'html',
        'line',
        'main',
        'meta',
        'p',
        'polyline',
        'rect',
        'section',
        'span',
        'style',
        'svg',
        'table',
        'tbody',
        'td',
        'text',
        'th',
        'thead',
        'title',
        'tr',
      ].sort(),
    );
  });

  test('HTML: a strict CSP, and nothing that would reach out', () => {
    const page = renderHtml(analyze(seriesOf({ a: 'PFPF', b: 'PPPF' })));
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;`,
    );
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org)|\bsrc=|\bhref=|url\(|@import|<script/i);
  });

  test('Markdown: a name never becomes a link, a list, a heading or a table cell', () => {
    const text = renderMarkdown(model);
    const row = text.split('\n').find((l) => l.includes('onerror'))!;
    expect(row).toContain(
      '\\<img src=x onerror=alert(1)\\>"\' \\| \\[x\\](http\u200b://evil) \\`code\\` \\*\\*b\\*\\* # h↵- item',
    );
    // The row keeps its three cells: | test | flips | history |
    expect(row.split(/(?<!\\)\|/).length).toBe(5);
    expect(text).not.toMatch(/^- item/m);
    expect(text).toContain('\\</span\\>\\<script\\>');
  });

  test('a long name is cut to 200 characters', () => {
    const long = analyze(seriesOf({ ['x'.repeat(5000)]: 'PFPF' }));
    expect(renderHtml(long)).toContain(`${'x'.repeat(199)}…`);
    expect(renderHtml(long)).not.toContain('x'.repeat(200));
  });
});

test.each([
  [[50, 75, 100], '▁▅█'],
  [[80, null, 80], '█ █'],
  [[null], ' '],
])('sparkline %j is %s', (points, line) => {
  expect(sparkline(points)).toBe(line);
});
