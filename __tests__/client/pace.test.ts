/** The pace shared by the steps of one job (src/client/pace.ts): the state file, and the Scheduler reading it. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaceFile } from '../../src/client/pace.js';
import { formatRateLimit, parseRateLimit, Scheduler } from '../../src/client/scheduler.js';
import { FakeClock } from '../helpers/clock.js';

const TOKEN = 'rw-token-0123456789abcdef';
const URL = 'http://127.0.0.1:1/api/v1';

describe('PaceFile', () => {
  test("one process's answer times reach the next one; the file is named by a hash, never the token", () => {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-pace-unit-'));
    let wall = 1_000_000;
    const first = new PaceFile(dir, URL, TOKEN, 60_000, () => wall);
    first.record(wall - 100);
    first.record(wall - 50);
    first.flush();
    const next = new PaceFile(dir, URL, TOKEN, 60_000, () => wall);
    expect(next.recent(60_000)).toEqual([wall - 100, wall - 50]);
    // Its own times are not "others'"; another token or base URL is another file.
    expect(first.recent(60_000)).toEqual([]);
    expect(new PaceFile(dir, URL, 'other-token-0123456789', 60_000).recent(60_000)).toEqual([]);
    expect(new PaceFile(dir, `${URL}x`, TOKEN, 60_000).recent(60_000)).toEqual([]);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^testcycle-pace-[0-9a-f]{32}\.json$/)]);
    expect(files[0]).not.toContain(TOKEN);
    expect(readFileSync(join(dir, files[0]!), 'utf8')).not.toContain(TOKEN);
    // Times leave with the window, and a flush drops them from the file.
    wall += 60_000 - 75;
    expect(next.recent(60_000)).toEqual([wall - 60_000 + 75 - 50]);
    wall += 1000;
    first.flush();
    expect(next.recent(60_000)).toEqual([]);
  });

  test('two processes keep each other’s entries; a broken or foreign file reads as empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'testcycle-pace-unit-'));
    const wall = 5_000_000;
    const a = new PaceFile(dir, URL, TOKEN, 1000, () => wall);
    const b = new PaceFile(dir, URL, TOKEN, 1000, () => wall);
    a.record(wall - 10);
    a.flush();
    b.record(wall - 5);
    b.flush();
    const c = new PaceFile(dir, URL, TOKEN, 1000, () => wall);
    expect(c.recent(1000)).toEqual([wall - 10, wall - 5]);
    for (const junk of ['{', '[1,2]', '{"x":"y","z":[1,"a",null]}', 'null']) {
      writeFileSync(a.path, junk);
      expect(c.recent(1000)).toEqual([]);
    }
    // Times from the future (a clock stepped back) do not hold a process up.
    writeFileSync(a.path, JSON.stringify({ other: [wall + 30_000] }));
    expect(c.recent(1000)).toEqual([]);
  });
});

describe('Scheduler with a shared pace', () => {
  test("the previous step's answers count in the window: the first request waits for room", async () => {
    const clock = new FakeClock();
    const wall = clock.wall();
    const calls = { record: 0, flush: 0 };
    const shared = {
      recent: () => [wall - 20, wall - 10],
      record: () => void calls.record++,
      flush: () => void calls.flush++,
    };
    const scheduler = new Scheduler({ rateLimit: { count: 2, windowMs: 300 }, shared, clock });
    let sentAt: number | undefined;
    const done = scheduler.schedule({ method: 'GET', repeatable: true }, async () => {
      sentAt = clock.now();
      return { kind: 'response', status: 200, value: 1 };
    });
    await clock.advance(100);
    expect(sentAt).toBeUndefined();
    await clock.run(done);
    // The older of the two answers leaves the window 280 ms from now (its answer came 20 ms ago).
    expect(sentAt).toBeGreaterThanOrEqual(280);
    expect(sentAt).toBeLessThanOrEqual(300);
    // Its own answers are recorded for the step after it, and written when it closes.
    expect(calls).toEqual({ record: 1, flush: 0 });
    scheduler.close();
    expect(calls).toEqual({ record: 1, flush: 1 });
  });
});

test.each(['100/1m', '30/30s', '10/500ms', '7/2h', '5/90s'])(
  'formatRateLimit writes %s back as users write it',
  (text) => {
    expect(formatRateLimit(parseRateLimit(text))).toBe(text);
  },
);
