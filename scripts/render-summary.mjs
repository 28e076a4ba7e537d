// docs/job-summary.png: the job summary the demo produces, rendered as GitHub shows it, in
// headless Chromium (scripts/chromium.mjs: the @sparticuz/chromium devDependency, or
// TESTCYCLE_CHROMIUM). `node scripts/render-summary.mjs`
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { marked } from 'marked';
import { launchChromium } from './chromium.mjs';

const work = mkdtempSync(join(tmpdir(), 'testcycle-render-'));
const summaryFile = join(work, 'summary.md');
execFileSync(process.execPath, ['scripts/demo.mjs'], {
  env: { ...process.env, DEMO_SUMMARY_FILE: summaryFile },
  stdio: 'ignore',
});
const markdown = readFileSync(summaryFile, 'utf8');
mkdirSync('docs', { recursive: true });
writeFileSync('docs/job-summary.md', markdown);

const css = `
body { margin: 0; background: #f6f8fa; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji"; color: #1f2328; }
.card { margin: 24px; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px 24px 16px; width: 940px; }
.bar { font-weight: 600; padding: 12px 0; border-bottom: 1px solid #d1d9e0; margin-bottom: 8px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { font-size: 1.25em; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; overflow-wrap: anywhere; }
tr:nth-child(2n) { background: #f6f8fa; }
th { font-weight: 600; }
a { color: #0969da; text-decoration: none; }`;
const html = `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><div class="card"><div class="bar">testcycle summary</div>${marked.parse(markdown)}</div></body></html>`;
const page = join(work, 'summary.html');
writeFileSync(page, html);
const browser = await launchChromium();
try {
  const tab = await browser.newPage({ viewport: { width: 1040, height: 820 } });
  await tab.goto(`file://${page}`);
  await tab.screenshot({ path: resolve('docs/job-summary.png') });
} finally {
  await browser.close();
}
console.log('written: docs/job-summary.md, docs/job-summary.png');
