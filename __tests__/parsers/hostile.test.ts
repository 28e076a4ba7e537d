/**
 * Hostile and broken files: a clear ReportError naming the file (exit 4 from the CLI), never a
 * crash, a hang, or a resolved external entity. Their speed is a benchmark's business
 * (bench/hostile-bench.mjs); a hang would still fail here, on the test timeout.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { readReport, ReportError } from '../../src/parsers/index.js';
// How long these take is measured by `npm run bench` (bench/hostile-bench.mjs), not timed here.
// @ts-expect-error: a plain .mjs module, no types
import { billionLaughs, deepNesting } from '../../bench/hostile-bench.mjs';

const dir = mkdtempSync(join(tmpdir(), 'testcycle-hostile-'));
const junit = (body: string) =>
  `<?xml version="1.0"?>\n<testsuites><testsuite name="s">${body}</testsuite></testsuites>\n`;

const HOSTILE: [string, string | Buffer, RegExp][] = [
  ['empty.xml', '', /is empty/],
  ['whitespace.xml', '   \n\t\n', /is empty/],
  ['binary.xml', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0xff]), /binary/],
  [
    'truncated.xml',
    junit('<testcase name="a"/><testcase name="b">').slice(0, 80),
    /truncated|not well-formed/,
  ],
  [
    'unclosed-cdata.xml',
    '<testsuite name="s"><testcase name="a"><failure><![CDATA[boom',
    /not well-formed|truncated/,
  ],
  ['not-xml-or-json.txt', 'hello world, this is not a report', /no known test report format/],
  ['other-root.xml', '<?xml version="1.0"?><html><body/></html>', /root <html> in no known/],
  ['bad-json.json', '{"results": {"tool": {"name": "x"}, "tests": [', /not valid JSON/],
  ['json-array-of-numbers.json', '[1, 2, 3]', /no known test report format/],
  // The formats added with the identity model keep the same clear errors.
  [
    'jest-without-results.json',
    '{"numTotalTests": 1, "testResults": "x"}',
    /cannot be read as Jest JSON: testResults is missing/,
  ],
  [
    'broken-messages.ndjson',
    '{"meta":{"protocolVersion":"x"}}\n{"testCaseStarted":5}\n{"broken',
    /cannot be read as Cucumber messages: line 3 is not a JSON object/,
  ],
  ['deep-nesting.xml', deepNesting(), /not well-formed|nest/i],
  [
    'deep-subtests.tap',
    `TAP version 14\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(4 * i)}# Subtest: s${i}`).join('\n')}\n${' '.repeat(1200)}ok 1 - deep\n`,
    /cannot be read as TAP: line 259: subtests are nested more than 256 deep/,
  ],
  // Open Test Reporting's events are flat: their parentId chain nests without the XML's depth.
  [
    'deep-events.xml',
    `<e:events xmlns="https://schemas.opentest4j.org/reporting/core/0.2.0" xmlns:e="https://schemas.opentest4j.org/reporting/events/0.2.0">${Array.from(
      { length: 20_000 },
      (_, i) => `<e:started id="${i}"${i ? ` parentId="${i - 1}"` : ''} name="n${i}"/>`,
    ).join('')}</e:events>`,
    /cannot be read as Open Test Reporting XML: started event "257" is nested more than 256 deep/,
  ],
  ['billion-laughs.xml', billionLaughs(), /__none__/],
];

describe('hostile report files', () => {
  test.each(HOSTILE)('%s', async (name, content, message) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    let error: unknown;
    let tests: { name: string }[] = [];
    try {
      tests = (await readReport(file)).tests;
    } catch (e) {
      error = e;
    }
    if (message.source === '__none__') {
      // Entity bombs are inert: the DTD is never processed, names keep the literal reference.
      expect(error).toBeUndefined();
      expect(tests.map((t) => t.name)).toEqual(['&lol9;']);
      return;
    }
    expect(error).toBeInstanceOf(ReportError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).stack ?? '').not.toMatch(/^\s+at .*\n.*RangeError/);
  });

  test('TAP is read in one pass: lines built to make a parser backtrack or rescan end in time', async () => {
    // Each about 4 MB; a parser that backtracks on a line or rescans nested YAML runs for
    // minutes on them and fails on the test timeout. Their speed is measured by no test.
    const inputs: [string, string, number][] = [
      [
        'escapes.tap',
        `1..1\nok 1 - ${'a\\#'.repeat(1_000_000)} # time=${'9'.repeat(100_000)}\n`,
        1,
      ],
      [
        'nested-yaml.tap',
        `1..1\nnot ok 1 - x\n  ---\n${Array.from({ length: 2_000 }, (_, k) => `${' '.repeat(2 + 2 * k)}a:`).join('\n')}\n`,
        1,
      ],
      [
        'zigzag.tap',
        `TAP version 14\n${`ok 1 - top\n${' '.repeat(4 * 256)}ok 1 - deep\n`.repeat(3_500)}`,
        3_501,
      ],
      ['unclosed-yaml.tap', `1..1\nok 1\n  ---\n${'  key: value\n'.repeat(300_000)}`, 1],
      [
        'blank-run.tap',
        `1..1\nnot ok 1\n  ---\n  error: |\n    a${' '.repeat(1_000_000)}b\n  ...\n`,
        1,
      ],
    ];
    for (const [name, content, tests] of inputs) {
      const file = join(dir, name);
      writeFileSync(file, content);
      expect((await readReport(file)).tests).toHaveLength(tests);
    }
  });

  test('XXE: an external entity is never resolved (no file content, no network)', async () => {
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENT');
    const file = join(dir, 'xxe.xml');
    writeFileSync(
      file,
      `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file://${secret}"><!ENTITY net SYSTEM "https://example.invalid/x">]>\n<testsuite name="s"><testcase name="&xxe;"><failure message="&net;">&xxe;</failure></testcase></testsuite>\n`,
    );
    const report = await readReport(file);
    expect(JSON.stringify(report)).not.toContain('TOP-SECRET-CONTENT');
    expect(report.tests).toHaveLength(1);
    expect(report.tests[0]!.outcome).toBe('failed');
  });

  test('a DOCTYPE keeps line numbers for later errors', async () => {
    const file = join(dir, 'doctype-then-error.xml');
    writeFileSync(
      file,
      '<?xml version="1.0"?>\n<!DOCTYPE r [\n<!ENTITY a "b">\n]>\n<testsuite name="s">\n<testcase name="a"/>\n',
    );
    const error = (await readReport(file).catch((e: unknown) => e)) as ReportError;
    expect(error).toBeInstanceOf(ReportError);
    expect(error.line).toBe(5); // the unclosed <testsuite>, counted with the DOCTYPE lines
  });

  test('UTF-16 with BOM and UTF-8 with BOM are read', async () => {
    const xml = junit('<testcase name="größe ✓"/>');
    const utf16 = join(dir, 'utf16.xml');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
    const utf8 = join(dir, 'utf8bom.xml');
    writeFileSync(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]));
    expect((await readReport(utf16)).tests[0]!.name).toBe('größe ✓');
    expect((await readReport(utf8)).tests[0]!.name).toBe('größe ✓');
  });

  test('names with control characters and huge attributes are kept as data', async () => {
    const file = join(dir, 'control.xml');
    writeFileSync(
      file,
      junit(`<testcase name="a&#9;b\u0007c" classname="${'x'.repeat(200_000)}"/>`),
    );
    const [t] = (await readReport(file)).tests;
    expect(t!.name).toBe('a\tb\u0007c');
    expect(t!.classname).toHaveLength(200_000);
  });

  test('a 200 MB file is refused by size before it is read; --max-report-bytes raises the limit', async () => {
    const file = join(dir, 'huge.xml');
    writeFileSync(file, '');
    truncateSync(file, 200 * 1024 * 1024); // sparse: no disk used
    await expect(readReport(file)).rejects.toThrow(
      /huge\.xml: is 209715200 bytes, over the limit of 104857600 bytes/,
    );
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['parse', '--report', file], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: {},
    });
    expect(code).toBe(4);
    expect(err.join('\n')).toMatch(/--max-report-bytes/);
  });

  test('the CLI exits 4 with one clear line for each hostile file', async () => {
    for (const [name] of HOSTILE.filter(([, , m]) => m.source !== '__none__')) {
      const err: string[] = [];
      const code = await main(['parse', '--report', join(dir, name)], {
        stdout: () => {},
        stderr: (t) => err.push(t),
        env: {},
      });
      expect(code).toBe(4);
      expect(err).toHaveLength(1);
      expect(err[0]).not.toMatch(/\n\s+at /);
    }
  });
});
