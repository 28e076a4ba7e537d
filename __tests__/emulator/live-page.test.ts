/** The live page at `/`: the Space's cycles and the latest requests, outside the API's counts. */
import { livePageAllowed } from '../../src/emulator/live-page.js';
import { call, closeEmulators, doc, emulator, RO, RW } from '../helpers/emulator.js';

afterEach(closeEmulators);

async function page(origin: string) {
  const res = await fetch(`${origin}/`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

test('serves HTML on loopback without a token, costs no request and shows the latest ones', async () => {
  const emu = await emulator();
  const empty = await page(emu.origin);
  expect(empty.status).toBe(200);
  expect(empty.type).toBe('text/html; charset=utf-8');
  expect(empty.text).toContain('No request yet');

  const project = (await call(emu, 'GET', '/projects')).body.data[0].id as string;
  const created = await call(emu, 'POST', '/test_cycles', {
    body: doc('test_cycles', {
      projectId: project,
      name: 'Nightly <1>',
      status: 'ACTIVE',
      rank: 1,
    }),
  });
  expect(created.body.errors).toBeUndefined();
  await call(emu, 'GET', '/test_cycles', { token: RO });
  await call(emu, 'GET', '/test_cycles', { token: 'not-a-token-at-all' });

  const shown = await page(emu.origin);
  // Names are text, never markup.
  expect(shown.text).toContain('Nightly &#60;1&#62;');
  const rows = [
    ...shown.text.matchAll(
      /<tr><td>[^<]*<\/td><td>(\w+)<\/td><td class="path">([^<]*)<\/td><td class="n">(\d+)<\/td><td class="n">\d+<\/td><td>([^<]*)<\/td><\/tr>/g,
    ),
  ].map((m) => [m[1], m[2], m[3], m[4]]);
  expect(rows).toEqual([
    ['GET', '/api/v1/test_cycles', '403', 'unknown token'],
    ['GET', '/api/v1/test_cycles', '200', 'dash'],
    ['POST', '/api/v1/test_cycles', '201', 'ci'],
    ['GET', '/api/v1/projects', '200', 'ci'],
  ]);
  for (const secret of [RW, RO, 'not-a-token-at-all']) expect(shown.text).not.toContain(secret);
  // The page itself is not an API request.
  expect(emu.stats().total).toBe(4);

  await fetch(`${emu.origin}/__emulator/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RW}` },
  });
  expect((await page(emu.origin)).text).toContain('No request yet');
});

test('beyond loopback the page needs a token of the Space (tests listen on loopback only, so the rule is tested alone)', () => {
  const tokens = new Map([[RW, {}]]);
  expect(livePageAllowed(true, undefined, tokens)).toBe(true);
  expect(livePageAllowed(false, undefined, tokens)).toBe(false);
  expect(livePageAllowed(false, 'someone-elses-token', tokens)).toBe(false);
  expect(livePageAllowed(false, RW, tokens)).toBe(true);
});
