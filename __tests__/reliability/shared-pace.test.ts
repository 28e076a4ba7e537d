/**
 * The steps of one job share the token's pace (src/client/pace.ts): five action steps back to back (the
 * built dist/index.js, as a runner starts them) against an emulator whose limit is scaled down to
 * 20 requests per 2 s, the steps told the same. Sharing RUNNER_TEMP, they draw no 429; each with
 * its own temporary directory (pacing alone, as before), the first two steps already do.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../helpers/action.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

const dir = mkdtempSync(join(tmpdir(), 'testcycle-pace-'));
function junit(name: string, n: number, failEvery: number): string {
  const cases = Array.from(
    { length: n },
    (_, i) =>
      `<testcase classname="Suite" name="test${i}">${i % failEvery === 0 ? '<failure message="boom"/>' : ''}</testcase>`,
  );
  const file = join(dir, name);
  writeFileSync(file, `<testsuite name="s">${cases.join('')}</testsuite>\n`);
  return file;
}

const LIMIT = '20/2s';

async function job(url: string, temp: () => string, count = 5) {
  const base = { 'base-url': url, token: RW, 'rate-limit': LIMIT, 'cycle-name': 'Paced' };
  const steps: Record<string, string>[] = [
    { mode: 'create-cycle' },
    { reports: junit('first.xml', 40, 7) },
    { reports: junit('second.xml', 40, 3) },
    { mode: 'gate', 'max-failed': '100' },
    { mode: 'close-cycle' },
  ];
  const codes: number[] = [];
  for (const step of steps.slice(0, count))
    codes.push((await runAction({ ...base, ...step }, { RUNNER_TEMP: temp() })).code);
  return codes;
}

test('five steps on one token, sharing RUNNER_TEMP: 0 x 429', async () => {
  const emu = await emulator({ seed: caseSeed(40), rateLimit: LIMIT });
  const shared = mkdtempSync(join(tmpdir(), 'testcycle-runner-temp-'));
  expect(await job(emu.url, () => shared)).toEqual([0, 0, 0, 0, 0]);
  const stats = emu.stats();
  // Enough requests to fill the window several times over.
  expect(stats.total).toBeGreaterThan(80);
  expect(stats.byStatus['429'] ?? 0).toBe(0);
  // The state file holds times under a hash, never the token.
  const files = readdirSync(shared);
  expect(files).toEqual([expect.stringMatching(/^testcycle-pace-[0-9a-f]{32}\.json$/)]);
  expect(readFileSync(join(shared, files[0]!), 'utf8')).not.toContain(RW);
}, 120_000);

test('the first two steps each pacing alone (no shared directory) draw 429s', async () => {
  const emu = await emulator({ seed: caseSeed(40), rateLimit: LIMIT });
  const alone = () => mkdtempSync(join(tmpdir(), 'testcycle-runner-temp-'));
  expect(await job(emu.url, alone, 2)).toEqual([0, 0]);
  expect(emu.stats().byStatus['429'] ?? 0).toBeGreaterThan(0);
}, 120_000);
