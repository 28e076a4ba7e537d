/**
 * The report page in a real headless browser (the @sparticuz/chromium build driven by
 * playwright-core, see scripts/chromium.mjs), after publishes into the emulator: what a person
 * sees (the trend's points, the counts, a flaky test's history), no console error (a CSP violation
 * is one), and no request but the page itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
// @ts-expect-error: a plain .mjs script, no types
import { launchChromium } from '../../scripts/chromium.mjs';
import { analyze } from '../../src/dashboard/render/analyze.js';
import { renderHtml } from '../../src/dashboard/render/html.js';
import { readSeries } from '../../src/dashboard/series.js';
import { publish } from '../../src/publish/index.js';
import type { Outcome } from '../../src/parsers/base/model.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { RW } from '../helpers/emulator.js';
import {
  caseSeed,
  clientOf,
  closeAll,
  options,
  publishEmulator,
  reportOf,
} from '../helpers/publish.js';

const CYCLES = 6;
const TESTS = 12;

/** Run r: test0 fails on odd runs (flaky), test1 breaks in the last run, test2 never runs in run 3. */
function outcomeOf(run: number, i: number): Outcome {
  if (i === 0) return run % 2 ? 'failed' : 'passed';
  if (i === 1) return run === CYCLES ? 'failed' : 'passed';
  if (i === 3) return 'skipped';
  return 'passed';
}

let browser: Browser;
let emu: RunningEmulator;
let server: http.Server;
let pageUrl: string;
let html: string;
let expected: { passed: number; failed: number; skipped: number; total: number };

beforeAll(async () => {
  emu = await publishEmulator({ seed: caseSeed(TESTS), liveRefreshSeconds: 60 });
  for (let run = 1; run <= CYCLES; run++)
    await publish(
      clientOf(emu),
      options([reportOf(TESTS, (i) => outcomeOf(run, i))], {
        cycle: { name: `Nightly ${run}`, create: true, reopenDone: false, close: false },
      }),
    );
  const data = await readSeries(clientOf(emu), { namePattern: 'Nightly *' });
  const model = analyze(data, { title: 'Nightly <b>runs</b>' });
  expected = model.cycles.at(-1)!.counts;
  html = renderHtml(model);

  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.html`;
  browser = (await launchChromium()) as Browser;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await emu?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await closeAll();
});

test('a person sees the trend, the counts and a flaky test history; nothing else is fetched', async () => {
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(pageUrl, { waitUntil: 'load' });

  // The title is a name from the caller: shown as text, not markup.
  await expect(page.locator('h1').innerText()).resolves.toBe('Nightly <b>runs</b>');
  // One point per cycle on the pass-rate line, each visible.
  const points = page.locator('#trend circle.point');
  await expect(points.count()).resolves.toBe(CYCLES);
  await expect(points.last().isVisible()).resolves.toBe(true);
  await expect(points.last().getAttribute('data-pass-rate')).resolves.toBe(
    String(Math.round((expected.passed / (expected.passed + expected.failed)) * 10_000) / 100),
  );
  // One stacked bar per cycle, and the latest cycle's counts as the aggregate gave them.
  await expect(page.locator('#results g.bar').count()).resolves.toBe(CYCLES);
  const count = (name: string) => page.locator(`#latest td[data-count="${name}"]`).innerText();
  await expect(count('passed')).resolves.toBe(String(expected.passed));
  await expect(count('failed')).resolves.toBe(String(expected.failed));
  await expect(count('skipped')).resolves.toBe(String(expected.skipped));
  await expect(count('total')).resolves.toBe(String(TESTS));
  // test1 broke in the last run: newly failing.
  await expect(page.locator('#newly-failing tbody tr').allInnerTexts()).resolves.toEqual([
    expect.stringContaining('case 1'),
  ]);
  // test0 flips every run: its history strip, oldest first, as letters a person reads.
  const flaky = page.locator('#flaky tbody tr', { hasText: 'case 0' });
  await expect(flaky.locator('.cell').allInnerTexts()).resolves.toEqual([
    'F',
    'P',
    'F',
    'P',
    'F',
    'P',
  ]);
  await expect(flaky.locator('.cell').first().getAttribute('title')).resolves.toMatch(
    /Nightly 1: Failed$/,
  );
  await expect(page.locator('#flaky tbody tr').count()).resolves.toBe(1);

  expect(problems).toEqual([]);
  expect(requests).toEqual([pageUrl]);
  await page.close();
});

test('the HTML holds no external reference', () => {
  expect(html).not.toMatch(
    /\b(?:src|href|action|srcset|xlink:href)\s*=|url\(|@import|<script|<link|<iframe|<object|<embed/i,
  );
  expect(html).not.toMatch(/(?:https?:|ftp:|\/\/)[^\s"'<]/i);
});

test('the emulator serves its own data live at /, with the requests it answered and never the token', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  const live = `${emu.origin}/`;
  await page.goto(live, { waitUntil: 'load' });
  await expect(page.locator('#trend circle.point').count()).resolves.toBe(CYCLES);
  await expect(page.locator('meta[http-equiv="refresh"]').getAttribute('content')).resolves.toBe(
    '60',
  );
  // The publishes' requests, newest first, by the token's name from the seed.
  const rows = page.locator('#requests tbody tr');
  await expect(rows.count()).resolves.toBeGreaterThan(10);
  const first = await rows.first().locator('td').allInnerTexts();
  expect(first[1]).toMatch(/^(GET|POST|PATCH)$/);
  expect(first[2]).toMatch(/^\/api\/v1\//);
  expect(first[5]).toBe('ci');
  expect(await page.content()).not.toContain(RW);

  // Live: another publish shows on the next load.
  await publish(
    clientOf(emu),
    options([reportOf(TESTS, () => 'passed')], {
      cycle: { name: 'Nightly 7', create: true, reopenDone: false, close: false },
    }),
  );
  await page.reload({ waitUntil: 'load' });
  await expect(page.locator('#trend circle.point').count()).resolves.toBe(CYCLES + 1);
  await expect(page.locator('#latest td[data-count="passed"]').innerText()).resolves.toBe(
    String(TESTS),
  );
  expect(problems).toEqual([]);
  expect(new Set(requests)).toEqual(new Set([live]));
  await page.close();
});
