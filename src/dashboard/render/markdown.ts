/**
 * The dashboard's essentials as Markdown for a job summary: a sparkline of the pass rate, the
 * newest cycles' counts, the newly failing and fixed tests and the flaky ones with a history strip.
 * Names are escaped as the publish summary escapes them (HTML-escaped, Markdown syntax neutralised,
 * one line), so no name becomes Markdown structure; lists are top-N with a "N more" line.
 */
import type { Coverage } from '../../schema/coverage.js';
import { coverageMarkdown } from './matrix.js';
import { markdownCell } from '../../shared/markdown.js';
import { dropText, shorten } from './escape.js';
import {
  type DashboardModel,
  RESULT_STYLES,
  STYLE_OF,
  type TestChange,
  type TestRef,
  type TopList,
} from './model.js';

const SPARKS = '▁▂▃▄▅▆▇█';
/** The counts table shows the newest cycles; the page has them all. */
export const MARKDOWN_CYCLE_ROWS = 10;

const md = (text: string) => markdownCell(shorten(text));
const pct = (n: number | null) => (n === null ? '–' : `${n}%`);

/** One character per cycle, scaled between the window's lowest and highest pass rate. */
export function sparkline(points: (number | null)[]): string {
  const rated = points.filter((p): p is number => p !== null);
  const low = Math.min(...rated);
  const span = Math.max(...rated) - low;
  return points
    .map((p) =>
      p === null
        ? ' '
        : SPARKS[
            span === 0 ? SPARKS.length - 1 : Math.round(((p - low) / span) * (SPARKS.length - 1))
          ],
    )
    .join('');
}

const test = (t: TestRef) =>
  `${md(t.name)}${t.key ? ` (${md(t.key)})` : ''}${t.quarantine ? ` 🧊 quarantined${t.quarantine.until ? ` until ${md(t.quarantine.until)}` : ''}: ${md(t.quarantine.reason)}` : ''}`;
const mark = (r: string | null) => (r ? (STYLE_OF.get(r as never)?.mark ?? '·') : '·');

function more(list: TopList<unknown>): string[] {
  const rest = list.total - list.items.length;
  return rest > 0
    ? [
        '',
        `_… and ${rest} more (the HTML page and --json list the first ${list.items.length} too)._`,
      ]
    : [];
}

function changes(title: string, list: TopList<TestChange> | null): string[] {
  if (!list)
    return [`### ${title}`, '', '_Needs the per-test history of the latest two cycles._', ''];
  if (!list.total) return [`### ${title} (0)`, '', 'None.', ''];
  return [
    `### ${title} (${list.total})`,
    '',
    '| Test | Before | Latest |',
    '|---|---|---|',
    ...list.items.map(
      (t) => `| ${test(t)} | ${mark(t.previous)} ${t.previous} | ${mark(t.latest)} ${t.latest} |`,
    ),
    ...more(list),
    '',
  ];
}

/**
 * The dashboard as Markdown, for a job summary or a pull-request comment: every text from the
 * service in a cell; the traceability matrix of the latest cycle at its end when given.
 */
export function renderMarkdown(
  model: DashboardModel,
  options: { coverage?: Coverage } = {},
): string {
  const lines = [`## ${md(model.title)}`, ''];
  if (!model.cycles.length)
    return [...lines, `No cycle matches the series (${md(model.series)}).`, ''].join('\n');
  const latest = model.latest!;
  const drop = latest.drop;
  const versus =
    latest.previous && drop !== null ? ` (${dropText(drop)} vs ${md(latest.previous.key)})` : '';
  lines.push(
    `**Latest** ${md(latest.cycle.key)} ${md(latest.cycle.name)} · **Pass rate** ${pct(latest.cycle.passRate)}${versus}`,
    '',
    `**Trend** ${sparkline(model.trend.points)} ${pct(model.trend.first)} → ${pct(model.trend.last)} over ${model.cycles.length} cycle${model.cycles.length === 1 ? '' : 's'} (${md(model.series)})`,
    '',
  );
  // Oldest first, as the page, the sparkline and the flaky history read (left to right in time).
  const shown = model.cycles.slice(-MARKDOWN_CYCLE_ROWS);
  lines.push(
    `| Cycle | ${RESULT_STYLES.map((s) => s.label).join(' | ')} | Total | Pass rate |`,
    `|---|${RESULT_STYLES.map(() => '---:').join('|')}|---:|---:|`,
    ...shown.map(
      (c) =>
        `| ${md(c.key)} ${md(c.name)} | ${RESULT_STYLES.map((s) => c.counts[s.count]).join(' | ')} | ${c.counts.total} | ${pct(c.passRate)} |`,
    ),
    ...(model.cycles.length > shown.length
      ? [
          '',
          `_The newest ${shown.length} of ${model.cycles.length} cycles, oldest first; the page shows all._`,
        ]
      : []),
    '',
  );
  lines.push(
    ...changes('Newly failing', model.newlyFailing),
    ...changes('Newly fixed', model.newlyFixed),
  );
  if (model.flaky) {
    lines.push(`### Flaky tests (${model.flaky.total})`, '');
    if (model.flaky.items.length)
      lines.push(
        '| Test | Flips | History, oldest → newest |',
        '|---|---:|---|',
        ...model.flaky.items.map(
          (t) => `| ${test(t)} | ${t.flips} | ${t.history.map(mark).join('')} |`,
        ),
        ...more(model.flaky),
      );
    else lines.push('None.');
    lines.push('');
  }
  if (options.coverage) lines.push(coverageMarkdown(options.coverage));
  if (model.omitted.length)
    lines.push('**Left out**', '', ...model.omitted.map((o) => `- ${md(o)}`), '');
  const r = model.requests;
  lines.push(`_${r.sent} requests${r.budget !== undefined ? ` (budget ${r.budget})` : ''}._`, '');
  return lines.join('\n');
}
