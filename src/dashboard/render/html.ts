/**
 * The dashboard as one self-contained static page: no script, no external style, font, image or
 * request (the CSP says so to the browser too), charts as inline SVG. Fit to upload as a CI
 * artifact or publish as a page. Every text from the service goes through html() (escape.ts).
 *
 * Size: the charts grow with the cycles (a few hundred bytes each); the per-test tables are top-N
 * lists (analyze's `top`) with a "N more" line, so 100 cycles of 10,000 tests stay well under 2 MB.
 */
import type { Coverage } from '../../schema/coverage.js';
import { dropText, html, shorten } from './escape.js';
import {
  type DashboardCycle,
  type DashboardModel,
  type FlakyTest,
  RESULT_STYLES,
  STYLE_OF,
  type TestChange,
  type TestRef,
  type TopList,
} from './model.js';

/** No script, nothing fetched: styles inline, images (none today) only as data: URLs. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const WIDTH = 880;
const PAD = { left: 44, right: 16, top: 14, bottom: 34 };
const PLOT_W = WIDTH - PAD.left - PAD.right;

const CSS = `
:root { color-scheme: light; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f6f8fa; }
main { max-width: ${WIDTH + 40}px; margin: 0 auto; padding: 16px 20px 40px; }
h1 { font-size: 22px; margin: 8px 0 2px; }
h2 { font-size: 16px; margin: 0 0 8px; }
.meta { color: #59636e; margin: 0 0 12px; }
section { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 12px 16px; margin: 12px 0; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #59636e; }
.line { fill: none; stroke: #0969da; stroke-width: 2; }
.point { fill: #0969da; stroke: #fff; stroke-width: 1.5; }
.grid { stroke: #eaeef2; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; overflow-wrap: anywhere; }
th { font-weight: 600; color: #59636e; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.key { color: #59636e; font-size: 12px; margin-left: 6px; white-space: nowrap; }
.quarantine { color: #0a5c8a; font-size: 12px; margin-left: 6px; }
.legend { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 6px; color: #59636e; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.strip { display: flex; gap: 2px; flex-wrap: wrap; }
.cell { display: inline-block; min-width: 14px; height: 16px; border-radius: 2px; font: 10px/16px ui-monospace, monospace; text-align: center; color: #fff; }
.cell.none { background: #f6f8fa; color: #8c959f; border: 1px dashed #d1d9e0; box-sizing: border-box; }
.more, .empty { color: #59636e; font-style: italic; margin: 6px 0 0; }
.big { font-size: 28px; font-weight: 600; }
.up { color: #1a7f37; } .down { color: #cf222e; }
ul.omitted { margin: 0; padding-left: 18px; color: #59636e; }
td.path { font: 12px ui-monospace, monospace; }
#requests td:not(.path), #requests th { white-space: nowrap; }
${RESULT_STYLES.map((s) => `.r-${s.result} { background: ${s.color}; }`).join('\n')}
`;

const pct = (n: number | null) => (n === null ? '–' : `${n}%`);
const cycleLabel = (c: DashboardCycle) => `${c.key} ${c.name}`;

/** The x of cycle i of n, centred in its slot. */
const xOf = (i: number, n: number) => PAD.left + (PLOT_W / n) * (i + 0.5);

/** Cycle keys along the x axis, thinned from the newest back so that they do not overlap. */
function xLabels(cycles: DashboardCycle[], height: number): string {
  const every = Math.max(1, Math.ceil(cycles.length / 12));
  const n = cycles.length;
  return cycles
    .map((c, i) =>
      (n - 1 - i) % every === 0
        ? `<text x="${xOf(i, n).toFixed(1)}" y="${height - 14}" text-anchor="middle">${html(shorten(c.key, 16))}</text>`
        : '',
    )
    .join('');
}

function trendChart(model: DashboardModel): string {
  const n = model.cycles.length;
  const h = 220;
  const plotH = h - PAD.top - PAD.bottom;
  const yOf = (rate: number) => PAD.top + plotH * (1 - rate / 100);
  const grid = [0, 25, 50, 75, 100]
    .map(
      (v) =>
        `<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${yOf(v)}" y2="${yOf(v)}"/><text x="${PAD.left - 6}" y="${yOf(v) + 4}" text-anchor="end">${v}%</text>`,
    )
    .join('');
  // A cycle without a pass rate (nothing executed) breaks the line.
  const segments: string[][] = [[]];
  const points: string[] = [];
  model.cycles.forEach((c, i) => {
    if (c.passRate === null) {
      segments.push([]);
      return;
    }
    const x = xOf(i, n).toFixed(1);
    const y = yOf(c.passRate).toFixed(1);
    segments.at(-1)!.push(`${x},${y}`);
    points.push(
      `<circle class="point" cx="${x}" cy="${y}" r="4" data-cycle="${html(c.key)}" data-pass-rate="${c.passRate}"><title>${html(cycleLabel(c))}: ${pct(c.passRate)}</title></circle>`,
    );
  });
  const lines = segments
    .filter((s) => s.length > 1)
    .map((s) => `<polyline class="line" points="${s.join(' ')}"/>`)
    .join('');
  const change = model.trend.change;
  const delta =
    change === null
      ? ''
      : ` <span class="${change < 0 ? 'down' : change > 0 ? 'up' : ''}">(${change > 0 ? '+' : ''}${change} points over the window)</span>`;
  return `<section id="trend"><h2>Pass rate per cycle</h2><p class="meta">${pct(model.trend.first)} → ${pct(model.trend.last)}${delta}; basis: ${model.basis === 'all' ? 'all executions' : 'executed (passed, failed, blocked)'}</p>
<svg viewBox="0 0 ${WIDTH} ${h}" width="${WIDTH}" height="${h}" role="img" aria-label="Pass rate per cycle">${grid}${lines}${points.join('')}${xLabels(model.cycles, h)}</svg></section>`;
}

function legend(): string {
  return `<div class="legend">${RESULT_STYLES.map((s) => `<span><span class="swatch r-${s.result}"></span>${s.label}</span>`).join('')}</div>`;
}

function barsChart(model: DashboardModel): string {
  const n = model.cycles.length;
  const h = 220;
  const plotH = h - PAD.top - PAD.bottom;
  const max = Math.max(1, ...model.cycles.map((c) => c.counts.total));
  const barW = Math.max(2, (PLOT_W / n) * 0.7);
  const bars = model.cycles
    .map((c, i) => {
      let y = PAD.top + plotH;
      const x = (xOf(i, n) - barW / 2).toFixed(1);
      const rects = RESULT_STYLES.map((s) => {
        const count = c.counts[s.count];
        if (!count) return '';
        const height = (plotH * count) / max;
        y -= height;
        return `<rect x="${x}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${height.toFixed(1)}" fill="${s.color}" data-result="${s.result}" data-count="${count}"><title>${html(cycleLabel(c))}: ${count} ${s.label.toLowerCase()}</title></rect>`;
      }).join('');
      return `<g class="bar" data-cycle="${html(c.key)}" data-total="${c.counts.total}">${rects}</g>`;
    })
    .join('');
  const axis = `<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${max}</text><text x="${PAD.left - 6}" y="${PAD.top + plotH + 4}" text-anchor="end">0</text><line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}"/>`;
  return `<section id="results"><h2>Results per cycle</h2>
<svg viewBox="0 0 ${WIDTH} ${h}" width="${WIDTH}" height="${h}" role="img" aria-label="Results per cycle">${axis}${bars}${xLabels(model.cycles, h)}</svg>${legend()}</section>`;
}

function latestSection(model: DashboardModel): string {
  const latest = model.latest;
  if (!latest) return '';
  const c = latest.cycle;
  const drop = latest.drop;
  const versus = latest.previous
    ? ` <span class="${drop !== null && drop > 0 ? 'down' : drop !== null && drop < 0 ? 'up' : ''}">${drop === null ? '' : dropText(drop)} vs ${html(latest.previous.key)}</span>`
    : '';
  const total = Math.max(1, c.counts.total);
  let x = 0;
  const bar = RESULT_STYLES.map((s) => {
    const count = c.counts[s.count];
    if (!count) return '';
    const w = (WIDTH * count) / total;
    const rect = `<rect x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="18" fill="${s.color}"><title>${count} ${s.label.toLowerCase()}</title></rect>`;
    x += w;
    return rect;
  }).join('');
  const rows = RESULT_STYLES.map(
    (s) =>
      `<tr><td><span class="swatch r-${s.result}"></span>${s.label}</td><td class="n" data-count="${s.count}">${c.counts[s.count]}</td></tr>`,
  ).join('');
  return `<section id="latest"><h2>Latest cycle: ${html(c.key)} ${html(c.name)} <span class="key">${html(c.status)}</span></h2>
<p><span class="big" data-pass-rate="${c.passRate ?? ''}">${pct(c.passRate)}</span> pass rate${versus}</p>
<svg viewBox="0 0 ${WIDTH} 18" width="${WIDTH}" height="18" role="img" aria-label="Latest cycle breakdown">${bar}</svg>
<table><tbody>${rows}<tr><th>Total</th><td class="n" data-count="total">${c.counts.total}</td></tr></tbody></table></section>`;
}

function testCell(t: TestRef): string {
  const q = t.quarantine;
  const mark = q
    ? ` <span class="quarantine" data-quarantine="${html(q.until ?? '')}" title="${html(`quarantined${q.until ? ` until ${q.until}` : ''}: ${q.reason}${q.by ? ` (${q.by})` : ''}`)}">🧊 quarantined${q.until ? ` until ${html(q.until)}` : ''}: ${html(q.reason)}</span>`
    : '';
  return `${html(t.name)}${t.key ? `<span class="key">${html(t.key)}</span>` : ''}${mark}`;
}

function cell(result: string | null, where: string): string {
  const style = result ? STYLE_OF.get(result as never) : undefined;
  return style
    ? `<span class="cell r-${style.result}" data-result="${style.result}" title="${html(where)}: ${style.label}">${style.letter}</span>`
    : `<span class="cell none" data-result="" title="${html(where)}: not run or not read">·</span>`;
}

function more(list: TopList<unknown>, what: string): string {
  const rest = list.total - list.items.length;
  return rest > 0
    ? `<p class="more">… and ${rest} more ${what} (the page lists the first ${list.items.length}; --json has the same lists).</p>`
    : '';
}

function changesSection(
  id: string,
  title: string,
  list: TopList<TestChange> | null,
  previous: string,
): string {
  if (!list)
    return `<section id="${id}"><h2>${title}</h2><p class="empty">Needs the per-test history of the latest two cycles, which was not read.</p></section>`;
  const body = list.items.length
    ? `<table><thead><tr><th>Test</th><th>${html(previous)}</th><th>Latest</th></tr></thead><tbody>${list.items
        .map(
          (t) =>
            `<tr data-test-id="${html(t.id)}"><td>${testCell(t)}</td><td>${cell(t.previous, previous)}</td><td>${cell(t.latest, 'latest')}</td></tr>`,
        )
        .join('')}</tbody></table>${more(list, 'tests')}`
    : '<p class="empty">None.</p>';
  return `<section id="${id}"><h2>${title} (${list.total})</h2>${body}</section>`;
}

function flakySection(model: DashboardModel): string {
  const flaky = model.flaky;
  if (!flaky)
    return `<section id="flaky"><h2>Flaky tests</h2><p class="empty">Needs the per-test history of at least two cycles.</p></section>`;
  const rows = flaky.items
    .map(
      (t: FlakyTest) =>
        `<tr data-test-id="${html(t.id)}"><td>${testCell(t)}</td><td class="n">${t.flips}</td><td class="n">${t.failures}</td><td><div class="strip">${t.history
          .map((r, i) => cell(r, cycleLabel(model.cycles[i]!)))
          .join('')}</div></td></tr>`,
    )
    .join('');
  const body = flaky.items.length
    ? `<table><thead><tr><th>Test</th><th class="n">Flips</th><th class="n">Failures</th><th>History, oldest → newest</th></tr></thead><tbody>${rows}</tbody></table>${more(flaky, 'flaky tests')}`
    : '<p class="empty">None.</p>';
  return `<section id="flaky"><h2>Flaky tests (${flaky.total})</h2><p class="meta">Results that flip between passed and failed or blocked at least ${flaky.minFlips} times over the ${flaky.cyclesWithHistory} cycles with per-test history.</p>${body}</section>`;
}

/** One request the emulator answered, for its live page (never a header, never the token). */
export interface LiveRequest {
  at: string;
  method: string;
  path: string;
  status: number | string;
  ms: number;
  /** The seed's name of the token, or "no token". */
  token: string;
}

export interface HtmlOptions {
  /** The emulator's live page: reload every few seconds, and show the latest requests. */
  live?: { refreshSeconds: number; requests: LiveRequest[] };
  /** The traceability matrix of the latest cycle (docs/design.md "Traceability: coverage"). */
  coverage?: Coverage;
}

/** Rows of the matrix a page shows; the rest are counted (coverage --json lists them all). */
export const MATRIX_ROWS = 500;

function coverageSection(c: Coverage): string {
  const t = c.totals;
  const rows = c.requirements
    .slice(0, MATRIX_ROWS)
    .map(
      (r) =>
        `<tr data-requirement="${html(r.key)}" data-status="${r.status}"><td>${html(r.key)}</td><td>${html(r.name)}</td><td>${r.status}</td><td>${
          r.cases.length
            ? r.cases
                .map((k) => `${cell(k.result, k.key)}<span class="key">${html(k.key)}</span>`)
                .join(' ')
            : '<span class="empty">none linked</span>'
        }</td></tr>`,
    )
    .join('');
  const rest = c.requirements.length - MATRIX_ROWS;
  return `<section id="coverage"><h2>Requirement coverage (latest cycle)</h2>
<p class="meta">${t.passed} of ${t.requirements} PASSED${t.coverage === null ? '' : ` (${t.coverage}%)`} · ${t.failed} FAILED · ${t.notRun} NOT_RUN · ${t.uncovered} UNCOVERED</p>${
    c.requirements.length
      ? `<table><thead><tr><th>Requirement</th><th>Name</th><th>Status</th><th>Test cases</th></tr></thead><tbody>${rows}</tbody></table>${rest > 0 ? `<p class="more">… and ${rest} more requirements (coverage --json lists them all).</p>` : ''}`
      : '<p class="empty">No requirement in scope.</p>'
  }</section>`;
}

function requestsSection(requests: LiveRequest[]): string {
  const rows = requests
    .map(
      (r) =>
        `<tr><td>${html(r.at.slice(11, 23))}</td><td>${html(r.method)}</td><td class="path">${html(r.path)}</td><td class="n">${html(String(r.status))}</td><td class="n">${r.ms}</td><td>${html(r.token)}</td></tr>`,
    )
    .join('');
  return `<section id="requests"><h2>Latest requests (${requests.length})</h2>${
    requests.length
      ? `<table><thead><tr><th>Time (UTC)</th><th>Method</th><th>Path</th><th class="n">Status</th><th class="n">ms</th><th>Token</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p class="empty">No request yet: point testcycle at this emulator.</p>'
  }</section>`;
}

/**
 * The dashboard as one self-contained HTML page (no script, no request): every text from the
 * service escaped.
 */
export function renderHtml(model: DashboardModel, options: HtmlOptions = {}): string {
  const latest = model.latest;
  const previous = latest?.previous?.key ?? 'previous';
  const omitted = model.omitted.length
    ? `<section id="omitted"><h2>Left out</h2><ul class="omitted">${model.omitted.map((o) => `<li>${html(o)}</li>`).join('')}</ul></section>`
    : '';
  const r = model.requests;
  const body = model.cycles.length
    ? [
        trendChart(model),
        barsChart(model),
        latestSection(model),
        options.coverage ? coverageSection(options.coverage) : '',
        changesSection('newly-failing', 'Newly failing', model.newlyFailing, previous),
        changesSection('newly-fixed', 'Newly fixed', model.newlyFixed, previous),
        flakySection(model),
        omitted,
      ].join('\n')
    : '<section><p class="empty">No cycle matches the series.</p></section>';
  const live = options.live;
  // A meta refresh reloads without any script, so the CSP stays script-free.
  const refresh = live
    ? `\n<meta http-equiv="refresh" content="${Math.max(1, Math.round(live.refreshSeconds))}">`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">${refresh}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(model.title)}</title>
<style>${CSS}</style></head>
<body><main>
<h1>${html(model.title)}</h1>
<p class="meta">${html(model.series)} · ${model.cycles.length} cycles, oldest first${model.generatedAt ? ` · ${html(model.generatedAt)}` : ''} · ${r.sent} requests${r.budget !== undefined ? ` (budget ${r.budget})` : ''}</p>
${body}${live ? `\n${requestsSection(live.requests)}` : ''}
</main></body></html>
`;
}
