/**
 * Reliability: chaos, kill and resume, concurrent publishers, hostile input, secrets, transport.
 * Bounded and seeded; every final state is checked record by record against the emulator's store.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/client/client.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed, cyclesNamed, executionsOf, FAST_RETRY } from '../helpers/publish.js';
import { seeded } from '../helpers/http-server.js';

afterEach(closeEmulators);

const dir = mkdtempSync(join(tmpdir(), 'testcycle-reliability-'));
const outcomeOf = (i: number, run = 0) =>
  (i * 7 + run) % 10 < 2 ? 'fail' : (i * 3 + run) % 13 === 0 ? 'skip' : 'pass';
const expected = (o: string) => ({ pass: 'PASSED', fail: 'FAILED', skip: 'SKIPPED' })[o]!;

function junit(n: number, outcome: (i: number) => string, name = 'r.xml'): string {
  const cases = Array.from({ length: n }, (_, i) => {
    const o = outcome(i);
    return `<testcase classname="Suite" name="test${i}">${o === 'fail' ? '<failure message="boom"/>' : o === 'skip' ? '<skipped/>' : ''}</testcase>`;
  });
  const file = join(dir, name);
  writeFileSync(
    file,
    `<testsuites><testsuite name="s">${cases.join('')}</testsuite></testsuites>\n`,
  );
  return file;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
const outputs: string[] = [];
/** Run the CLI; `killWhen` is polled every 2 ms and sends `signals` (one a poll) once it holds. */
function cli(
  args: string[],
  env: Record<string, string>,
  killWhen?: () => boolean,
  signals: NodeJS.Signals[] = ['SIGKILL'],
  onStderr?: (text: string) => void,
): Promise<Run> {
  return new Promise((resolve) => {
    // Injected faults are far denser than real ones: a short backoff base keeps the suite bounded.
    const child = spawn(process.execPath, ['lib/cli/bin.js', ...args], {
      env: { PATH: process.env.PATH, TESTCYCLE_RETRY_BASE_MS: '20', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(d.toString());
    });
    const toSend = [...signals];
    const timer =
      killWhen &&
      setInterval(() => {
        if (toSend.length > 0 && killWhen()) child.kill(toSend.shift());
      }, 2);
    const hard = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('close', (code) => {
      clearInterval(timer);
      clearTimeout(hard);
      outputs.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The CLI's environment for one emulator: its URL, the read-write token, a pace. */
const envOf = (emu: { url: string }, rateLimit = '100000/1m') => ({
  TESTCYCLE_BASE_URL: emu.url,
  TESTCYCLE_TOKEN: RW,
  TESTCYCLE_RATE_LIMIT: rateLimit,
});

/** Exit 0; otherwise the failure shows what the CLI said, so a rare failure can be diagnosed. */
function expectSuccess(run: Run) {
  expect({ code: run.code, said: run.code === 0 ? '' : run.stderr.slice(-2000) }).toEqual({
    code: 0,
    said: '',
  });
}

function expectExact(
  emu: Parameters<typeof executionsOf>[0],
  cycle: string,
  n: number,
  outcome: (i: number) => string,
) {
  const state = executionsOf(emu, cycle);
  expect(cyclesNamed(emu, cycle)).toBe(1);
  expect(state.size).toBe(n);
  const wrong: string[] = [];
  for (let i = 0; i < n; i++) {
    const got = state.get(`Suite.test${i}`);
    if (got?.length !== 1 || got[0] !== expected(outcome(i)))
      wrong.push(`test${i}: ${JSON.stringify(got)} != ${expected(outcome(i))}`);
  }
  expect(wrong).toEqual([]);
}

describe('chaos: 10 seeds x 300 results', () => {
  test.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    'seed %i: exact final state, exit 0',
    async (seed) => {
      const n = 300;
      const emu = await emulator({
        seed: caseSeed(n),
        rateLimit: '100000/1m',
        chaos: `429=0.04,5xx=0.04,reset=0.03,latency=0-4,etag-bump=0.08,seed=${seed}`,
      });
      const run = await cli(
        [
          'publish',
          '--report',
          junit(n, (i) => outcomeOf(i, seed), `chaos${seed}.xml`),
          '--cycle-name',
          'Chaos',
          '--json',
        ],
        envOf(emu),
      );
      expectSuccess(run);
      expectExact(emu, 'Chaos', n, (i) => outcomeOf(i, seed));
      const out = JSON.parse(run.stdout);
      expect(out.counts.total).toBe(n);
      expect(out.requests.retried + out.requests.rateLimited).toBeGreaterThan(0);
    },
  );
});

let killedMidway = 0;
let partial = 0;
describe('kill and resume: SIGKILL of the CLI at 10 random points, then a re-run', () => {
  // Kill points in requests the emulator has answered, not in milliseconds, so that they land
  // mid-publish however fast the machine is: 120 results take about 2 x 120 + 6 requests. The
  // emulator shares this process's event loop, so the CLI cannot run ahead of the poll.
  const random = seeded(2026);
  const points = Array.from({ length: 10 }, () => Math.floor(10 + random() * 210));
  test.each(points)(
    'killed after %i requests: the re-run leaves the exact state',
    async (killAt) => {
      const n = 120;
      const emu = await emulator({
        seed: caseSeed(n),
        rateLimit: '100000/1m',
        chaos: 'latency=2-8,seed=3',
      });
      const env = envOf(emu);
      const report = junit(n, (i) => outcomeOf(i), `kill${killAt}.xml`);
      const killed = await cli(
        ['publish', '--report', report, '--cycle-name', 'Killed'],
        env,
        () => emu.stats().total >= killAt,
      );
      const before = executionsOf(emu, 'Killed');
      const finalResults = [...before.values()].filter((r) => r[0] !== 'NOT_EXECUTED').length;
      if (before.size + finalResults > 0 && finalResults < n) partial++;
      if (killed.code === null) killedMidway++;
      const rerun = await cli(
        ['publish', '--report', report, '--cycle-name', 'Killed', '--json'],
        env,
      );
      expectSuccess(rerun);
      expectExact(emu, 'Killed', n, (i) => outcomeOf(i));
    },
  );

  test('SIGINT mid-publish: exit 130, it says what was written, nothing is half done; a second SIGINT stops at once', async () => {
    const n = 120;
    const emu = await emulator({
      seed: caseSeed(n),
      rateLimit: '100000/1m',
      chaos: 'latency=2-8,seed=3',
    });
    const report = junit(n, (i) => outcomeOf(i), 'interrupt.xml');
    const args = ['publish', '--report', report, '--cycle-name', 'Interrupted'];
    const stopped = await cli(args, envOf(emu), () => emu.stats().total >= 60, ['SIGINT']);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('interrupted: finishing the writes under way, then stopping');
    const written = Number(
      /interrupted: stopped between writes, none left half done\. (\d+) of 120 results were written before this; running the same command again writes the rest/.exec(
        stopped.stderr,
      )?.[1],
    );
    const state = executionsOf(emu, 'Interrupted');
    expect(state.size).toBe(written);
    expect([...state.values()].filter((r) => r[0] === 'NOT_EXECUTED')).toEqual([]);
    // Two signals: the second ends the process without waiting for the writes under way.
    const before = emu.stats().total;
    const twice = await cli(
      [...args.slice(0, 4), 'Interrupted twice'],
      envOf(emu),
      () => emu.stats().total >= before + 60,
      ['SIGINT', 'SIGINT'],
    );
    expect(twice.code).toBe(130);
    expect(twice.stderr).toContain('interrupted: finishing the writes under way');
    expect(twice.stderr).not.toContain('stopped between writes');
    expectSuccess(await cli([...args, '--json'], envOf(emu)));
    expectExact(emu, 'Interrupted', n, (i) => outcomeOf(i));
  });

  test('every kill landed mid-publish, and the executions written before it were partial', () => {
    expect(killedMidway).toBe(10);
    // The earliest points may fall before the first execution exists.
    expect(partial).toBeGreaterThanOrEqual(8);
  });
});

describe('waits', () => {
  test('under a slow limit the CLI says what it waits for, and SIGINT during that wait stops it at once', async () => {
    const n = 20;
    const emu = await emulator({ seed: caseSeed(n), rateLimit: '100000/1m' });
    const report = junit(n, (i) => outcomeOf(i), 'slow.xml');
    let said = '';
    const stopped = await cli(
      ['publish', '--report', report, '--cycle-name', 'Slow'],
      // Six requests a minute: the seventh waits about a minute for room.
      envOf(emu, '6/1m'),
      () => said.includes('waiting'),
      ['SIGINT'],
      (text) => (said += text),
    );
    // It did not wait out the minute: the test's own timeout is shorter than that wait.
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(
      /waiting \d+ s \(until \d\d:\d\d:\d\d UTC\): the rate limit \(6\/1m, shared with the other steps on this token\), \d+ request\(s\) queued/,
    );
    expect(stopped.stderr).toContain('interrupted while waiting for the service');
    expect(stopped.stderr).toContain('run the same command again to finish it');
    // And the same command finishes it: every result, nothing twice.
    expectSuccess(await cli(['publish', '--report', report, '--cycle-name', 'Slow'], envOf(emu)));
    expectExact(emu, 'Slow', n, (i) => outcomeOf(i));
  }, 55_000);
});

describe('concurrency', () => {
  test.each([3, 4, 5])(
    '%i publishers into one new cycle name at once (--merge worst): one cycle, one execution per case, the worst result',
    async (k) => {
      const n = 60;
      const emu = await emulator({
        seed: caseSeed(n),
        rateLimit: '100000/1m',
        chaos: 'latency=0-6,seed=11',
      });
      const env = envOf(emu);
      // Publisher p reports every test; it fails test i when i % k === p and i is even.
      const runs = await Promise.all(
        Array.from({ length: k }, (_, p) =>
          cli(
            [
              'publish',
              '--report',
              junit(n, (i) => (i % k === p && i % 2 === 0 ? 'fail' : 'pass'), `c${k}-${p}.xml`),
              '--cycle-name',
              `Conc ${k}`,
              '--merge',
              'worst',
            ],
            env,
          ),
        ),
      );
      expect(runs.map((r) => r.code)).toEqual(Array(k).fill(0));
      expectExact(emu, `Conc ${k}`, n, (i) => (i % 2 === 0 ? 'fail' : 'pass'));
    },
  );

  test('three publishers sharing one token at its limit: nothing lost', async () => {
    const n = 40;
    const emu = await emulator({ seed: caseSeed(n), rateLimit: '60/1s' });
    const env = envOf(emu, '60/1s');
    const runs = await Promise.all(
      [0, 1, 2].map((p) =>
        cli(
          [
            'publish',
            '--report',
            junit(n, (i) => outcomeOf(i), `share${p}.xml`),
            '--cycle-name',
            'Shared',
          ],
          env,
        ),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expectExact(emu, 'Shared', n, (i) => outcomeOf(i));
  });
});

describe('hostile input: clear error, exit 4, nothing written', () => {
  const lol = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
  ).join('');
  const files: [string, string | Buffer][] = [
    ['empty.xml', ''],
    ['spaces.xml', '   \n'],
    ['binary.bin', Buffer.from([0, 1, 2, 3, 255, 254])],
    ['png.xml', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['truncated.xml', '<testsuites><testsuite name="s"><testcase name="a"/>'],
    ['truncated-attr.xml', '<testsuite name="s"><testcase name="a'],
    ['unclosed-cdata.xml', '<testsuite><testcase name="a"><failure><![CDATA[x'],
    ['not-xml.txt', 'PASS all good'],
    ['html.xml', '<!doctype html><html><body>502 Bad Gateway</body></html>'],
    ['unknown-root.xml', '<?xml version="1.0"?><results/>'],
    ['bad-json.json', '{"results": {"tool": '],
    ['json-number.json', '42'],
    ['json-string.json', '"hello"'],
    ['json-null.json', 'null'],
    ['json-array.json', '[1,2]'],
    ['json-object.json', '{"a": 1}'],
    ['ctrf-no-tests.json', '{"reportFormat":"CTRF","results":{"tool":{"name":"x"}}}'],
    ['mocha-garbage.json', '{"stats": {"tests": 1}, "tests": [ {]}'],
    ['gotest-garbage.json', '{"Action":"run","Test":"A"}\n{not json\n'],
    ['dart-garbage.json', '{"protocolVersion":"0.1.1","type":"start"}\n{broken'],
    [
      'deep.xml',
      `<testsuites>${'<testsuite name="d">'.repeat(3000)}${'</testsuite>'.repeat(3000)}</testsuites>`,
    ],
    ['utf16-no-bom.xml', Buffer.from('<testsuite name="s"/>', 'utf16le')],
    [
      'latin1-truncated.xml',
      Buffer.from('<testsuite name="caf\xe9"><testcase name="\xe9', 'latin1'),
    ],
    ['nul-in-text.xml', '<testsuite name="s"><testcase name="a\u0000b"/></testsuite>'],
    ['mismatched-root.xml', '<testsuite name="s"></testsuites>'],
    ['only-declaration.xml', '<?xml version="1.0" encoding="UTF-8"?>'],
    ['only-comment.xml', '<!-- nothing here -->'],
    ['dtd-only.xml', `<?xml version="1.0"?><!DOCTYPE x [${lol}]>`],
    [
      'xxe-truncated.xml',
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite name="&x;">',
    ],
    [
      'trx-truncated.trx',
      '<?xml version="1.0"?><TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>',
    ],
    ['nunit-truncated.xml', '<test-run><test-suite><test-case name="a" result="Passed">'],
  ];
  test(`${files.length} hostile files, one publish each`, async () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    const emu = await emulator({ seed: caseSeed(1), rateLimit: '100000/1m' });
    const env = { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW };
    for (const [name, content] of files) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const run = await cli(['publish', '--report', file, '--cycle-name', 'Hostile'], env);
      expect({ name, code: run.code }).toEqual({ name, code: 4 });
      expect(run.stderr).toContain(name);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(emu.stats().total).toBe(0);
  });

  test('a 200 MB file is refused by size, exit 4, nothing written', async () => {
    const emu = await emulator({ seed: caseSeed(1) });
    const file = join(dir, 'huge.xml');
    const { truncateSync } = await import('node:fs');
    writeFileSync(file, '');
    truncateSync(file, 200 * 1024 * 1024);
    const run = await cli(['publish', '--report', file, '--cycle-name', 'Hostile'], {
      TESTCYCLE_BASE_URL: emu.url,
      TESTCYCLE_TOKEN: RW,
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/huge\.xml: is 209715200 bytes, over the limit/);
    expect(emu.stats().total).toBe(0);
  });
});

describe('transport', () => {
  test('an http:// base URL other than loopback is refused before any request', async () => {
    const run = await cli(['check', '--base-url', 'http://tm.example.com'], {
      TESTCYCLE_TOKEN: RW,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--base-url: must use https/);
  });

  test('TLS verification stays on: a self-signed certificate is refused', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    await new Promise<void>((resolve, reject) =>
      execFile(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        (e) => (e ? reject(e) : resolve()),
      ),
    );
    const { readFileSync } = await import('node:fs');
    let hits = 0;
    const server = https.createServer(
      { key: readFileSync(key), cert: readFileSync(cert) },
      (_req, res) => {
        hits++;
        res.end('{}');
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new ServiceClient({
        baseUrl: `https://127.0.0.1:${port}`,
        token: RW,
        retry: FAST_RETRY,
      });
      await expect(client.project()).rejects.toThrow(
        /GET \/projects failed: .*(self.signed|SELF_SIGNED|certificate)/i,
      );
      await client.close();
      expect(hits).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('secrets', () => {
  test('the token appears in no output of this suite', () => {
    expect(outputs.length).toBeGreaterThan(40);
    const leaked = outputs.filter((o) => o.includes(RW));
    expect(leaked).toEqual([]);
  });
});
