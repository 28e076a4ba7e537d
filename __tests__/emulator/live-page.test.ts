/** The live page at `/`: the Space's cycles and the latest requests, outside the API's counts. */
import http from 'node:http';
import { livePageAllowed } from '../../src/emulator/http/live-page.js';
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

test('the request log keeps no value of a secret-looking query parameter', async () => {
  const emu = await emulator();
  const secrets = ['s3cr3t-access', 's3cr3t-token', 's3cr3t-apikey', 's3cr3t-pass', 's3cr3t-sig'];
  await call(
    emu,
    'GET',
    `/projects?access_token=${secrets[0]}&Token=${secrets[1]}&x-api%5Fkey=${secrets[2]}` +
      `&password=${secrets[3]}%26tail-of-pass&signature=${secrets[4]}&page[size]=5`,
  );
  await call(emu, 'GET', `/test_cases?filter=${encodeURIComponent('name = "kept"')}`);
  const shown = (await page(emu.origin)).text;
  for (const secret of secrets) expect(shown).not.toContain(secret);
  expect(shown).not.toContain('tail-of-pass');
  expect(shown).toContain(
    '/api/v1/projects?access_token=***&#38;Token=***&#38;x-api_key=***&#38;password=***&#38;signature=***&#38;page[size]=5',
  );
  // Other parameters are shown as people read them.
  expect(shown).toContain('/api/v1/test_cases?filter=name = &#34;kept&#34;');
});

test('refused cross-site requests are counted but not logged', async () => {
  const emu = await emulator();
  const port = new URL(emu.origin).port;
  await fetch(`${emu.url}/projects?from=attacker`, {
    headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
  });
  await fetch(`${emu.url}/projects?from=null-origin`, { headers: { origin: 'null' } });
  // Same origin: logged as before.
  await fetch(`${emu.url}/projects?from=self`, {
    headers: { origin: `http://127.0.0.1:${port}` },
  });
  // DNS rebinding: a page of attacker.example whose name resolves to 127.0.0.1 (Host is its own).
  const rebound = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${emu.url}/projects?from=rebound`,
      { headers: { host: `attacker.example:${port}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  expect(rebound).toBe(421);
  await call(emu, 'GET', '/projects?from=client');
  const shown = (await page(emu.origin)).text;
  expect(shown).not.toContain('attacker');
  expect(shown).not.toContain('rebound');
  expect(shown).not.toContain('null-origin');
  expect(shown).toContain('from=self');
  expect(shown).toContain('from=client');
  expect(emu.stats().total).toBe(5);
});

test('security headers: the page cannot be framed or sniffed; every answer is nosniff', async () => {
  const emu = await emulator();
  const res = await fetch(`${emu.origin}/`);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  // What the page's <meta> policy allows, and nothing more.
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/script-src|unsafe-eval/);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  for (const path of ['/projects', '/no-such-route', '/openapi.json']) {
    const answer = await call(emu, 'GET', path);
    expect([path, answer.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
  }
  const stats = await fetch(`${emu.origin}/__emulator/stats`);
  expect(stats.headers.get('x-content-type-options')).toBe('nosniff');
});
