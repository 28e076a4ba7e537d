import { main, type CliIO } from '../../src/cli/main.js';
import { closeAll, errorBody, startServer } from '../helpers/http-server.js';

const TOKEN = 'tc_cli_0123456789abcdef0123456789';

afterEach(closeAll);

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  return { io: value, out, err };
}

describe('testcycle check', () => {
  test('reads the Space and the tokens (2 requests) and prints JSON', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: { data: [{ type: 'projects', id: 'p1', attributes: { name: 'Demo', key: 'DEMO' } }] },
    }));
    const t = io({ TESTCYCLE_TOKEN: TOKEN, TESTCYCLE_BASE_URL: server.url });
    const code = await main(['check', '--json', '--rate-limit', '10/1s'], t.io);
    expect(code).toBe(0);
    const out = JSON.parse(t.out.join(''));
    expect(out).toMatchObject({
      project: { id: 'p1', name: 'Demo', key: 'DEMO' },
      baseUrl: `${server.url}/api/v1`,
      token: { role: null, note: 'the tokens resource lists no live token' },
      requests: { total: 2 },
    });
  });

  test('a 403 exits 3 with the hint and without the token, even with --verbose', async () => {
    const server = await startServer(() => ({
      status: 403,
      body: errorBody(403, 'FORBIDDEN', 'token from another region'),
    }));
    const t = io({});
    const code = await main(
      ['check', '--base-url', server.url, '--token', TOKEN, '--verbose'],
      t.io,
    );
    expect(code).toBe(3);
    const text = t.err.join('\n');
    expect(text).toMatch(
      /testcycle check: GET \/projects failed with 403 \(FORBIDDEN: token from another region\)/,
    );
    expect(text).toMatch(/region where the token was created/);
    expect(text).toMatch(/GET \/projects -> 403/); // the verbose request log
    expect(text + t.out.join('')).not.toContain(TOKEN);
  });

  test.each([
    [['check'], {}, /--base-url: is required/],
    [['check', '--base-url', 'https://eu.example.com'], {}, /--token: is required/],
    [
      ['check', '--base-url', 'http://eu.example.com', '--token', TOKEN],
      {},
      /--base-url: must use https/,
    ],
    [
      ['check', '--concurrency', 'two'],
      { TESTCYCLE_TOKEN: TOKEN, TESTCYCLE_BASE_URL: 'https://x.example' },
      /--concurrency: "two" is not a whole number/,
    ],
    [
      ['check', '--legs', '0'],
      { TESTCYCLE_TOKEN: TOKEN, TESTCYCLE_BASE_URL: 'https://x.example' },
      /--legs: "0" is not a whole number from 1 to 1000/,
    ],
    [
      ['check', '--rate-limit', 'fast'],
      { TESTCYCLE_TOKEN: TOKEN, TESTCYCLE_BASE_URL: 'https://x.example' },
      /--rate-limit: "fast" is not COUNT\/WINDOW/,
    ],
    [['check', '--nope'], {}, /unknown flag --nope\. See testcycle check --help\./],
    [['frobnicate'], {}, /unknown command "frobnicate"/],
  ])('usage errors exit 2: %j', async (argv, env, message) => {
    const t = io(env);
    expect(await main(argv, t.io)).toBe(2);
    expect(t.err.join('\n')).toMatch(message);
  });

  test('--help and --version', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    // Generated from EXIT_CODES (src/cli/exit-codes.ts): every code once, in order.
    expect(t.out.join('')).toContain(
      'exit codes: 0 done | 1 gate failed | 2 usage or configuration error | 3 service error | 4 report error | 130 interrupted\n',
    );
    expect(await main(['check', '--help'], t.io)).toBe(0);
    expect(t.out.join('')).toMatch(/usage: testcycle check/);
    expect(await main(['--version'], t.io)).toBe(0);
  });
});
