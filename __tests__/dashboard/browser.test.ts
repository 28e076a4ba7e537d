/**
 * The report page in a real headless browser (Debian's chromium, driven by playwright-core), after
 * publishes into the emulator: what a person sees (the trend's points, the counts, a flaky test's
 * history), no console error (a CSP violation is one), and no request but the page itself.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { analyze } from '../../src/dashboard/analyze.js';
import { renderHtml } from '../../src/dashboard/html.js';
import { readSeries } from '../../src/dashboard/series.js';
import { publish } from '../../src/publish/index.js';
import type { Outcome } from '../../src/reports/model.js';
import {
  caseSeed,
  clientOf,
  closeAll,
  options,
  publishEmulator,
  reportOf,
} from '../helpers/publish.js';

const CHROMIUM = process.env.TESTCYCLE_CHROMIUM ?? '/usr/bin/chromium';
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
let server: http.Server;
let pageUrl: string;
let html: string;
let expected: { passed: number; failed: number; skipped: number; total: number };

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The browser test needs Debian's chromium at ${CHROMIUM}: install it with "apt-get install chromium" (.ci/run does), or set TESTCYCLE_CHROMIUM to its path.`,
    );
  const emu = await publishEmulator({ seed: caseSeed(TESTS) });
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
  await closeAll();

  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.html`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
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
