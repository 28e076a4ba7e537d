// docs/dashboard.png: the report page of a series of nightly cycles, as a browser shows it.
// Publishes 14 seeded nightly runs into an in-process emulator with the library (lib/: run
// `npm run build` first), reads the series back, renders the page and screenshots it in headless
// Chromium (scripts/chromium.mjs). `node scripts/render-dashboard.mjs`
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { ServiceClient } from '../lib/client/client.js';
import { analyze, readSeries, renderHtml, renderMarkdown } from '../lib/dashboard/index.js';
import { startEmulator } from '../lib/emulator/index.js';
import { publish, publishSettings, settingsFrom } from '../lib/publish/index.js';

const TOKEN = 'render-token-0123456789';
const RUNS = 14;
const suites = {
  Checkout: ['pays by card', 'pays by invoice', 'applies a voucher', 'rejects an expired card'],
  Search: ['finds by title', 'ranks exact matches first', 'suggests as you type'],
  Login: ['with password', 'with a passkey', 'locks after five attempts', 'remembers the device'],
  Cart: ['adds an item', 'merges guest and user carts', 'keeps items for 30 days'],
  Profile: ['changes the e-mail', 'exports personal data', 'deletes the account'],
};
const tests = Object.entries(suites).flatMap(([classname, names]) =>
  names.map((name) => ({ classname, name })),
);

// Deterministic: the same page every time (a small xorshift, seeded).
let state = 42;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4294967296;
};

/** Run r's outcome of test t: two flaky tests, one regression from run 9, one fix at run 12. */
function outcome(run, { classname, name }) {
  const id = `${classname}.${name}`;
  if (id === 'Search.suggests as you type' || id === 'Login.remembers the device')
    return random() < 0.45 ? 'failed' : 'passed';
  if (id === 'Checkout.applies a voucher') return run >= 9 ? 'failed' : 'passed';
  if (id === 'Cart.merges guest and user carts') return run < 12 ? 'failed' : 'passed';
  if (id === 'Profile.exports personal data') return run === RUNS ? 'failed' : 'passed';
  if (id === 'Profile.deletes the account') return run % 5 === 0 ? 'skipped' : 'passed';
  return random() < 0.02 ? 'failed' : 'passed';
}

const emu = await startEmulator({
  seed: {
    project: { key: 'SHOP', name: 'Shop' },
    tokens: [{ token: TOKEN, role: 'read-write' }],
    testCases: tests.map((t) => ({
      name: `${t.classname} › ${t.name}`,
      automationKey: `${t.classname}.${t.name}`,
      status: 'ACTIVE',
    })),
  },
  rateLimit: '100000/1m',
});
const client = new ServiceClient({ baseUrl: emu.url, token: TOKEN, rateLimit: '100000/1m' });
try {
  for (let run = 1; run <= RUNS; run++) {
    const day = String(run + 9).padStart(2, '0');
    await publish(client, {
      ...publishSettings(settingsFrom({ 'cycle-name': `Nightly 2026-11-${day}` }), {}),
      reports: [
        {
          file: 'junit.xml',
          format: 'junit',
          tests: tests.map((t) => {
            const o = outcome(run, t);
            return {
              ...t,
              suite: [t.classname],
              outcome: o,
              attempts: [{ outcome: o }],
              properties: {},
            };
          }),
        },
      ],
    });
  }
  emu.resetStats();
  const data = await readSeries(client, { namePattern: 'Nightly {date}' }, { last: 20 });
  const model = analyze(data, { title: 'Shop: nightly runs', generatedAt: '2026-11-23 06:00 UTC' });
  const page = renderHtml(model);
  const work = mkdtempSync(join(tmpdir(), 'testcycle-dashboard-'));
  writeFileSync(join(work, 'dashboard.html'), page);
  mkdirSync('docs', { recursive: true });
  writeFileSync('docs/dashboard.md', renderMarkdown(model));

  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 960, height: 900 } });
    await tab.goto(`file://${join(work, 'dashboard.html')}`);
    await tab.screenshot({ path: resolve('docs/dashboard.png'), fullPage: true });
    // The emulator's live page at /: the same cycles, and the requests that put them there.
    await tab.goto(`${emu.origin}/`);
    await tab.screenshot({ path: resolve('docs/emulator-live.png'), fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(
    `written: docs/dashboard.png, docs/emulator-live.png, docs/dashboard.md (${data.cycles.length} cycles, ${emu.stats().total} requests read them)`,
  );
} finally {
  await client.close();
  await emu.close();
}
