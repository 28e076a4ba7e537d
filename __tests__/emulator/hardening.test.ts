/**
 * The emulator under hostile requests (issue 16, point 6): malformed paths and over-deep or
 * over-long filters are 400s that name the limit, state changes need a token, a loopback emulator
 * answers only its own host names, and idle connections are closed.
 */
import http from 'node:http';
import net from 'node:net';
import { call, closeEmulators, emulator, RO, RW } from '../helpers/emulator.js';

afterEach(closeEmulators);

const filter = (text: string) => `/test_cases?filter=${encodeURIComponent(text)}`;

test('a malformed percent-encoding in the path is a 400 naming the path, not a 500', async () => {
  const emu = await emulator();
  const answer = await call(emu, 'GET', '/test_cases/%E0%A4%A');
  expect(answer.status).toBe(400);
  expect(answer.body.errors[0]).toMatchObject({ code: 'INVALID_PATH' });
  expect(answer.body.errors[0].detail).toMatch(/malformed percent-encoding/);
});

test.each([
  [
    '3,000 nested parentheses',
    `${'('.repeat(3000)}name = "a"${')'.repeat(3000)}`,
    /Nested deeper than 64 levels/,
  ],
  ['100 nested NOTs', `${'NOT '.repeat(100)}name = "a"`, /Nested deeper than 64 levels/],
  [
    '600 ORs',
    Array.from({ length: 600 }, (_, i) => `rank=${i}`).join(' OR '),
    /More than 200 conditions/,
  ],
])('%s: a 400 with the limit in its message', async (_name, text, message) => {
  const emu = await emulator();
  const answer = await call(emu, 'GET', filter(text));
  expect(answer.status).toBe(400);
  expect(answer.body.errors[0].detail).toMatch(message);
});

test('filters within the limits still work: 64 levels, 200 conditions', async () => {
  const emu = await emulator();
  const deep = `${'('.repeat(63)}name = "a"${')'.repeat(63)}`;
  const wide = Array.from({ length: 200 }, (_, i) => `rank=${i}`).join(' OR ');
  expect((await call(emu, 'GET', filter(deep))).status).toBe(200);
  expect((await call(emu, 'GET', filter(wide))).status).toBe(200);
});

test('POST /__emulator/reset needs a read-write token: a web page cannot wipe the stats', async () => {
  const emu = await emulator();
  await call(emu, 'GET', '/projects');
  const reset = (token?: string) =>
    fetch(`${emu.origin}/__emulator/reset`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  expect((await reset()).status).toBe(403);
  expect((await reset(RO)).status).toBe(403);
  expect(emu.stats().total).toBe(1);
  expect((await reset(RW)).status).toBe(200);
  expect(emu.stats().total).toBe(0);
});

/** A request with a Host header of our choosing (fetch does not let a caller set Host). */
function withHost(origin: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}/api/v1/projects`,
      { headers: { host, authorization: `Bearer ${RW}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('on loopback, only its own host names are answered (DNS rebinding)', async () => {
  const emu = await emulator();
  const port = new URL(emu.origin).port;
  expect(await withHost(emu.origin, `127.0.0.1:${port}`)).toBe(200);
  expect(await withHost(emu.origin, `localhost:${port}`)).toBe(200);
  expect(await withHost(emu.origin, `attacker.example:${port}`)).toBe(421);
  expect(await withHost(emu.origin, `127.0.0.1.attacker.example`)).toBe(421);
});

test('an idle connection is closed by the server', async () => {
  const emu = await emulator({ idleTimeoutMs: 300 });
  const { hostname, port } = new URL(emu.origin);
  const socket = net.connect(Number(port), hostname);
  const closed = await new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    // The bound: well past the idle timeout, well within the test's.
    setTimeout(() => resolve(false), 5_000).unref();
  });
  socket.destroy();
  expect(closed).toBe(true);
});
