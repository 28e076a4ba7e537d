/**
 * Hostile report files: each is parsed or refused with a ReportError within
 * 10 s and 1 GB peak. Each file is read by lib/ in its own process with a 1 GB heap, so a parser
 * that backtracks or grows without bound fails by time or memory instead of slowing the suite.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'testcycle-hostile-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECONDS = 10;
const MEGABYTES = 1024;
const MB = 1024 * 1024;

/** Reads one file with readReport in a child process; its outcome, time and peak RSS. */
const READER = `
const [file, format] = process.argv.slice(1);
const { readReport } = await import(${JSON.stringify(join(process.cwd(), 'lib/parsers/index.js'))});
const started = performance.now();
let result;
try {
  const report = await readReport(file, { format });
  result = { tests: report.tests.length };
} catch (error) {
  result = { error: error.constructor.name, message: String(error.message).slice(0, 300) };
}
result.ms = Math.round(performance.now() - started);
result.rssMB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(result));
`;

interface Outcome {
  tests?: number;
  error?: string;
  message?: string;
  ms: number;
  rssMB: number;
}

function read(file: string, format = 'auto'): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${MEGABYTES}`, '--input-type=module', '-e', READER, file, format],
      { timeout: SECONDS * 1000, killSignal: 'SIGKILL', maxBuffer: MB },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file}: ${error.message} ${stderr.slice(0, 500)}`));
        else resolve(JSON.parse(stdout) as Outcome);
      },
    );
  });
}

const write = (name: string, content: string) => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};

/** name, --format, what is expected (a test count or the error), content (built lazily: some are near the 100 MB size limit). */
const CASES: [string, string, RegExp | number, () => string][] = [
  // A regex sniffer backtracked exponentially on these: 150 s of CPU for 250 bytes.
  ['empty-comments.xml', 'auto', /no known test report format/, () => `${'<!---->'.repeat(34)}x`],
  ['empty-comments-junit.xml', 'junit', /not well-formed XML/, () => `${'<!---->'.repeat(34)}x`],
  ['comments-4k.xml', 'auto', /no known test report format/, () => `${'<!-- -->'.repeat(600)}<x`],
  ['unclosed-comment.xml', 'auto', /no known test report format/, () => `<!--${'-'.repeat(4000)}`],
  [
    'comments-before-root.xml',
    'junit',
    1,
    () =>
      `${'<!-- c -->\n'.repeat(20_000)}<testsuite name="s"><testcase name="a"/></testsuite>${'<!---->'.repeat(5_000)}`,
  ],
  // One <testcase> with 10 million attributes (98 MB) grew past 4.5 GB.
  [
    'ten-million-attributes.xml',
    'auto',
    /more than 1000 attributes/,
    () =>
      `<testsuite name="s"><testcase name="a" ${Array.from({ length: 10_000_000 }, (_, i) => `a${i.toString(36)}=""`).join(' ')}/></testsuite>`,
  ],
  [
    'many-elements.xml',
    'junit',
    /more than 2000000 elements and attributes/,
    () => `<testsuite name="s">${'<x/>'.repeat(24 * MB)}</testsuite>`,
  ],
  // Just under the node limit: read, in time.
  [
    'near-node-limit.xml',
    'auto',
    990_000,
    () => `<testsuite name="s">${'<testcase name="a"/>'.repeat(990_000)}</testsuite>`,
  ],
  [
    'deep-elements.xml',
    'auto',
    /nested more than 256 deep/,
    () => `<testsuite>${'<a>'.repeat(2 * MB)}${'</a>'.repeat(2 * MB)}</testsuite>`,
  ],
  [
    'unterminated-attribute.xml',
    'auto',
    /not well-formed|truncated/,
    () => `<testsuite name="${'a'.repeat(90 * MB)}`,
  ],
  [
    'ndjson-long-output.jsonl',
    'auto',
    1,
    () =>
      `{"Action":"run","Test":"T","Package":"p"}\n${`{"Action":"output","Test":"T","Package":"p","Output":"${'x'.repeat(1000)}\\n"}\n`.repeat(80_000)}{"Action":"fail","Test":"T","Package":"p"}\n`,
  ],
];

describe('hostile report files: parsed or refused within 10 s and 1 GB', () => {
  test.each(CASES)('%s (--format %s)', async (name, format, expected, content) => {
    const outcome = await read(write(name, content()), format);
    rmSync(join(dir, name));
    expect(outcome.ms).toBeLessThan(SECONDS * 1000);
    expect(outcome.rssMB).toBeLessThan(MEGABYTES);
    if (typeof expected === 'number') {
      expect(outcome).toMatchObject({ tests: expected });
    } else {
      expect(outcome.error).toMatch(/ReportError$/);
      expect(outcome.message).toContain(name);
      expect(outcome.message).toMatch(expected);
    }
  });
});
