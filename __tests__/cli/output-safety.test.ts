/* eslint-disable no-control-regex -- the assertions look for control codes */
/**
 * Issue 16, points 2 and 3: text from reports, servers and the environment cannot start a
 * workflow command or a Markdown structure, and no encoding of the token reaches any output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodedForms, oneLine, Redactor, safeLines } from '../../src/api/redact.js';
import { main, type CliIO } from '../../src/cli/main.js';
import { escapeHtml } from '../../src/publish/summary.js';
import { closeAll, errorBody, startServer } from '../helpers/http-server.js';

const TOKEN = 'tc_live_Zx9-Qw8_Er7+Ty6/Ui5=Op4';

afterEach(closeAll);

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env };
  return { io: value, text: () => [...out, ...err].join('\n') };
}

/** A line the GitHub runner would obey: `::cmd` or `##[cmd` after optional whitespace. */
const COMMAND_LINE = /(^|[\n\r])[ \t]*(::|##\[)/;

const HOSTILE = [
  'a\n::error title=pwned::owned',
  'b\r::add-mask::visible',
  'c\r\n::stop-commands::x',
  '::warning::at the start',
  '  ##[error]legacy form',
  'd\u2028# a heading',
  'e\u0085## NEL heading',
  'f\u001b[2J\u001b]0;title\u0007\u001b[31mred\u001b[0m',
];

describe('one sanitizer for every printed line', () => {
  test.each(HOSTILE)('%j: no command line, no escape code, no line break in oneLine', (text) => {
    expect(safeLines(`prefix ${text}`)).not.toMatch(COMMAND_LINE);
    expect(safeLines(text)).not.toMatch(COMMAND_LINE);
    expect(safeLines(text)).not.toContain('\u001b');
    expect(oneLine(text)).not.toMatch(/[\n\r\u2028\u2029\u0085\u001b]/);
    // In a table cell, a heading needs a line break before its #: there is none.
    expect(escapeHtml(text)).not.toMatch(/[\n\r\u2028\u2029\u0085\u001b]/);
  });

  test('colours survive on a terminal, other escape sequences do not', () => {
    expect(safeLines('\u001b[31mred\u001b[0m\u001b[2J', true)).toBe('\u001b[31mred\u001b[0m');
  });

  test('parse --verbose of a report with hostile test names prints no command and no escape', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tc-safe-'));
    try {
      const cases = HOSTILE.map(
        (name) =>
          `<testcase classname="S" name="${name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')}"><failure message="${name.replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')}"/></testcase>`,
      ).join('');
      const file = join(dir, 'hostile.xml');
      await writeFile(file, `<testsuite name="S">${cases}</testsuite>`);
      const t = io();
      expect(await main(['parse', '--report', file, '--verbose'], t.io)).toBe(0);
      expect(t.text()).toContain('pwned'); // the names are shown...
      expect(t.text()).not.toMatch(COMMAND_LINE); // ...but none as a command
      expect(t.text()).not.toContain('\u001b');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the token in none of its encodings', () => {
  const encodings: [string, (s: string) => string][] = [
    ['raw', (s) => s],
    ['url-encoded', (s) => encodeURIComponent(s)],
    ['JSON-escaped', (s) => JSON.stringify(s).slice(1, -1)],
    [
      '\\u-escaped',
      (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ],
    ['hex', (s) => Buffer.from(s).toString('hex')],
    ['HEX', (s) => Buffer.from(s).toString('hex').toUpperCase()],
    ['base64', (s) => Buffer.from(s).toString('base64')],
    ['base64url', (s) => Buffer.from(s).toString('base64url')],
    [
      'base64 of "Bearer " + token',
      (s) => Buffer.from(s.replace(/^Authorization: /, '')).toString('base64'),
    ],
    ['base64 of the token alone', () => Buffer.from(TOKEN).toString('base64')],
  ];

  test.each(encodings)('%s: masked by the redactor', (_name, encode) => {
    const redactor = new Redactor();
    redactor.add(TOKEN);
    const text = `the proxy said: ${encode(`Authorization: Bearer ${TOKEN}`)} (end)`;
    const out = redactor.redact(text);
    for (const form of encodedForms(TOKEN)) expect(out).not.toContain(form);
    expect(out).toContain('***');
  });

  test.each(encodings)(
    '%s: a server echoing the header in an error and in the project name leaks nothing through check',
    async (_name, encode) => {
      const echoed = (auth: string | undefined) => encode(String(auth));
      let calls = 0;
      const server = await startServer((req) =>
        calls++ === 0
          ? {
              status: 500,
              body: errorBody(500, 'INTERNAL', `echo ${echoed(req.headers.authorization)}`),
            }
          : {
              status: 200,
              body: {
                data: [
                  {
                    type: 'projects',
                    id: 'p1',
                    attributes: { name: `echo ${echoed(req.headers.authorization)}`, key: 'K' },
                  },
                ],
              },
            },
      );
      const t = io({ TESTCYCLE_TOKEN: TOKEN, TESTCYCLE_BASE_URL: server.url });
      const code = await main(['check', '--verbose', '--rate-limit', '100/1s'], t.io);
      expect(code).toBe(0);
      // The 500 was retried (its detail was logged), then the Space and the tokens were read.
      expect(server.log.length).toBe(3);
      const text = t.text();
      for (const form of encodedForms(TOKEN)) expect(text).not.toContain(form);
      expect(text).not.toContain(TOKEN);
    },
  );
});
