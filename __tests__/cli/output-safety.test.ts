/* eslint-disable no-control-regex -- the assertions look for control codes */
/**
 * Text from reports, servers and the environment cannot start a
 * workflow command or a Markdown structure, and no encoding of the token reaches any output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodedForms,
  MIN_SECRET_RUN,
  neutralise,
  oneLine,
  plainText,
  Redactor,
  safeLines,
} from '../../src/shared/redact.js';
import { html } from '../../src/dashboard/render/escape.js';
import { main, type CliIO } from '../../src/cli/main.js';
import { marked } from 'marked';
import { markdownCell } from '../../src/shared/markdown.js';
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
    expect(markdownCell(text)).not.toMatch(/[\n\r\u2028\u2029\u0085\u001b]/);
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
    // An echo cut mid-way matches no whole form; each run of MIN_SECRET_RUN characters is masked.
    ['raw, cut mid-way', (s) => s.slice(0, -9)],
    ['url-encoded, cut mid-way', (s) => encodeURIComponent(s).slice(0, -12)],
    ['JSON-escaped, cut mid-way', (s) => JSON.stringify(s).slice(1, -11)],
    ['base64, cut mid-way', (s) => Buffer.from(s).toString('base64').slice(0, -14)],
    [
      'base64 of x:token, cut mid-way',
      () => Buffer.from(`x:${TOKEN}`).toString('base64').slice(0, 30),
    ],
  ];
  /** Every run of MIN_SECRET_RUN characters of every form of the token. */
  const runs = [
    ...new Set(
      encodedForms(TOKEN).flatMap((form) =>
        Array.from({ length: Math.max(0, form.length - MIN_SECRET_RUN + 1) }, (_, i) =>
          form.slice(i, i + MIN_SECRET_RUN),
        ),
      ),
    ),
  ];
  const leaks = (text: string) => runs.filter((run) => text.includes(run));

  test.each(encodings)('%s: masked by the redactor', (_name, encode) => {
    const redactor = new Redactor();
    redactor.add(TOKEN);
    const text = `the proxy said: ${encode(`Authorization: Bearer ${TOKEN}`)} (end)`;
    const out = redactor.redact(text);
    for (const form of encodedForms(TOKEN)) expect(out).not.toContain(form);
    expect(leaks(out)).toEqual([]);
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
      expect(leaks(text)).toEqual([]);
      expect(text).not.toContain(TOKEN);
    },
  );

  test('runs shorter than MIN_SECRET_RUN stay, so ordinary words are not masked', () => {
    const redactor = new Redactor();
    redactor.add(TOKEN);
    const short = TOKEN.slice(0, MIN_SECRET_RUN - 1);
    expect(redactor.redact(`id ${short} end`)).toBe(`id ${short} end`);
    expect(redactor.redact(`id ${TOKEN.slice(3, 3 + MIN_SECRET_RUN)} end`)).toBe('id *** end');
    expect(redactor.redact(`${TOKEN} and ${TOKEN.slice(5, 20)}`)).toBe('*** and ***');
  });

  test("the run's secret variables are registered from the environment, no others", () => {
    const redactor = new Redactor();
    redactor.addFromEnv({
      INPUT_TOKEN: 'svc-token-aaaaaaaaaaaa',
      'INPUT_GITHUB-TOKEN': 'ghs_bbbbbbbbbbbbbbbb',
      ACTIONS_RUNTIME_TOKEN: 'eyJruntimecccccccccc',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'eyJidtokendddddddddd',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://pipelines.example/idtoken',
      STAGE: 'staging-environment',
    });
    expect(
      redactor.redact(
        'svc-token-aaaaaaaaaaaa ghs_bbbbbbbbbbbbbbbb eyJruntimecccccccccc eyJidtokendddddddddd',
      ),
    ).toBe('*** *** *** ***');
    expect(redactor.redact('https://pipelines.example/idtoken staging-environment')).toBe(
      'https://pipelines.example/idtoken staging-environment',
    );
  });
});

describe('text that people read on GitHub', () => {
  const BIDI = [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
  ];

  test.each(BIDI.map((c) => [c.codePointAt(0)!.toString(16), c]))(
    'bidi control U+%s is removed from every output: line, text, log line, Markdown, HTML',
    (_hex, c) => {
      const spoof = `admin${c}nimda.test`;
      for (const out of [
        oneLine(spoof),
        plainText(spoof),
        safeLines(spoof),
        markdownCell(spoof),
        html(spoof),
      ])
        expect(out).toBe('adminnimda.test');
    },
  );

  test('bare URLs and www. names from data stay text in GitHub-flavoured Markdown', () => {
    const name =
      'see https://evil.example/x, HTTP://a.test, www.phish.example, _http://e.example/x_, ' +
      'x _www.e.example_, (https://p.example), ftp://f.example and mailto:a@b.io';
    const cell = markdownCell(name);
    expect(cell.replace(/\u200b/g, '')).toBe(name);
    const table = `| test |\n| --- |\n| ${cell} |\n\n${cell}\n`;
    const html = marked.parse(table, { async: false, gfm: true });
    expect(html).not.toContain('<a');
    // The same text unescaped is linked: the check above can fail.
    const linked = marked.parse(name, { async: false, gfm: true });
    for (const href of ['https://evil', 'http://e.example', 'http://www.e.example', 'ftp://f'])
      expect(linked).toContain(`<a href="${href}`);
  });

  test('mentions and issue references from data neither notify nor link, and read the same', () => {
    const name =
      'login by @octocat for @acme/reviewers fixes acme/app#12, #34 and GH-56 (mail a@b.io)';
    const cell = markdownCell(name);
    expect(cell).not.toMatch(/@[A-Za-z0-9]/);
    expect(cell).not.toMatch(/#\d/);
    expect(cell).not.toMatch(/GH-\d/i);
    expect(cell.replace(/\u200b/g, '')).toBe(name);
    // Markdown escaping is unchanged around it: the cell still cannot open a link or a table cell.
    expect(markdownCell('[@x](http://e) | #1 `y`')).toBe(
      '\\[@\u200bx\\](http\u200b://e) \\| #\u200b1 \\`y\\`',
    );
    expect(neutralise('plain text, issue 7, C# and #hash')).toBe(
      'plain text, issue 7, C# and #hash',
    );
  });
});
