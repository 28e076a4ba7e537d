/**
 * The package as users install it: `npm pack`, `npm install` of the tarball into a fresh project,
 * then the installed `testcycle` binary (emulator, parse, publish, gate) and the library entry from
 * a plain Node script. Catches files missing from `files`, undeclared dependencies and a `bin`
 * that does not run, none of which a test from the source tree can see.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
// @ts-expect-error: a plain .mjs script, no types
import { packAndInstall } from '../../scripts/pack-install.mjs';
import { readmeBlock, sh, version } from '../helpers/readme.js';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 180_000, maxBuffer: 32 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let work: string;
let project: string;
let files: string[];
let emulator: ChildProcess | undefined;
let baseUrl: string;
const TOKEN =
  'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJqdGkiOiJkZW1vLXJlYWQtd3JpdGUtMDAwMSIsInN1YiI6ImNpIn0.demo';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'testcycle-pack-'));
  const installed = packAndInstall(work) as {
    packed: { files: { path: string }[] };
    project: string;
  };
  files = installed.packed.files.map((f) => f.path);
  project = installed.project;
}, 240_000);

afterAll(async () => {
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator!.once('exit', resolve));
    emulator.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

const bin = () => join(project, 'node_modules/.bin/testcycle');
const installedExamples = () => join(project, 'node_modules', pkg.name, 'examples');

describe('the tarball', () => {
  test('holds what users run and read, and nothing of the development tree', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'action.yml',
      'lib/lib.js',
      'lib/lib.d.ts',
      'lib/lib-dashboard.js',
      'lib/lib-emulator.js',
      'lib/cli/bin.js',
      'lib/emulator/http/server.js',
      'examples/seed.json',
    ])
      expect(files).toContain(needed);
    const unwanted = files.filter((f) =>
      /^(src|__tests__|bench|samples|scripts|dist|docs|\.github|\.ci|node_modules)\/|^lib\/(action|index)\b|\.test\./.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});

test('the installed package runs no script at install time (npm warns of install scripts)', () => {
  const installed = JSON.parse(
    readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8'),
  ) as { scripts?: Record<string, string> };
  const atInstall = ['preinstall', 'install', 'postinstall', 'prepare'].filter(
    (name) => installed.scripts?.[name] !== undefined,
  );
  expect(atInstall).toEqual([]);
  // Built when packed instead: the tarball holds lib/ (checked above) without a build on install;
  // `prepare`, which builds a git URL's clone, is left out of the packed package.json.
  expect(installed.scripts?.prepack).toBe('npm run build && node scripts/pack-manifest.mjs strip');
  // And the checkout's package.json is as it was before the pack.
  expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.prepare).toBe(
    'npm run build --silent',
  );
});

describe('the installed binary', () => {
  test('--version prints the package version', async () => {
    const out = await run(bin(), ['--version'], project);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe(pkg.version);
  });

  test('starts the emulator from the installed examples', async () => {
    emulator = spawn(
      bin(),
      ['emulator', '--port', '0', '--seed', join(installedExamples(), 'seed.json')],
      { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines = createInterface({ input: emulator.stdout! });
    baseUrl = await new Promise<string>((resolve, reject) => {
      emulator!.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
      lines.on('line', (line) => {
        const m = /emulator listening on (\S+)/.exec(line);
        if (m) resolve(m[1]!);
      });
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  });

  test('parse, publish with a gate, and gate run against it', async () => {
    const env = { TESTCYCLE_BASE_URL: baseUrl, TESTCYCLE_TOKEN: TOKEN };
    const reports = join(installedExamples(), 'reports/junit/*.xml');

    const parsed = await run(bin(), ['parse', '--report', reports, '--json'], project);
    expect(parsed.code).toBe(0);
    const totals = (JSON.parse(parsed.stdout) as { totals: { total: number } }).totals;
    expect(totals.total).toBeGreaterThan(0);

    const published = await run(
      bin(),
      [
        'publish',
        '--report',
        reports,
        '--cycle-name',
        'Installed package',
        '--create-missing-cases',
        '--json',
      ],
      project,
      env,
    );
    expect(published.stderr).not.toContain(TOKEN);
    expect(published.code).toBe(0);
    const result = JSON.parse(published.stdout) as {
      cycle: { key: string; status: string };
      writes: { created: number };
      counts: { total: number };
    };
    expect(result.cycle.status).toBe('ACTIVE');
    expect(result.writes.created).toBe(totals.total);

    const gated = await run(
      bin(),
      ['gate', '--cycle-key', result.cycle.key, '--min-pass-rate', '100'],
      project,
      env,
    );
    // The examples hold a failure: a 100 % gate fails with the gate's exit code.
    expect(gated.code).toBe(1);
    expect(gated.stdout + gated.stderr).toMatch(/pass rate/i);
  });
});

describe('the installed library', () => {
  test('imports from a plain Node script and reads reports and the service', async () => {
    const script = join(project, 'use-library.mjs');
    writeFileSync(
      script,
      `import { readReports, ServiceClient, VERSION } from 'testcycle';
import { analyze, readSeries, renderHtml } from 'testcycle/dashboard';
import { demoSeed } from 'testcycle/emulator';
const reports = await readReports([process.argv[2]]);
const client = new ServiceClient({ baseUrl: process.env.TESTCYCLE_BASE_URL, token: process.env.TESTCYCLE_TOKEN });
const cycles = await client.listAll('/test_cycles');
const page = renderHtml(analyze(await readSeries(client, { namePattern: '*' })));
await client.close();
console.log(JSON.stringify({ version: VERSION, reports: reports.length, cycles: cycles.map((c) => c.attributes.name), page: page.startsWith('<!doctype html>'), seed: Array.isArray(demoSeed().tokens) }));
`,
    );
    const out = await run(
      process.execPath,
      [script, join(installedExamples(), 'reports/junit/*.xml')],
      project,
      { TESTCYCLE_BASE_URL: baseUrl, TESTCYCLE_TOKEN: TOKEN },
    );
    expect(out.stderr).toBe('');
    const seen = JSON.parse(out.stdout) as {
      version: string;
      reports: number;
      cycles: string[];
      page: boolean;
      seed: boolean;
    };
    expect(seen.version).toBe(pkg.version);
    expect(seen.reports).toBe(3);
    // The dashboard, from the library: a report page of the Space's cycles.
    expect(seen.page).toBe(true);
    // The emulator's entry: its own subpath, as the dashboard's.
    expect(seen.seed).toBe(true);
    // The cycle the installed binary's publish created above.
    expect(seen.cycles).toContain('Installed package');
  });
});

/**
 * README "Install" from a git URL and from a checkout, as written: npm clones and builds (the
 * project's own development dependencies, from npm's cache), so these take minutes. The
 * repository's address stands for github.com: a bare clone of this commit on disk.
 */
describe('README "Install" from a git URL and from a checkout', () => {
  const git = (cwd: string, ...args: string[]) =>
    run('git', args, cwd).then((r) => {
      if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
      return r.stdout.trim();
    });
  let origin: string;
  let head: string;

  beforeAll(async () => {
    origin = join(work, 'testcycle.git');
    head = await git(root, 'rev-parse', 'HEAD');
    await git(work, 'clone', '-q', '--bare', root, origin);
  }, 120_000);

  const fresh = (name: string) => {
    const dir = join(work, name, 'your-project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name, private: true, type: 'module' }),
    );
    return dir;
  };

  test('npm install github:your-org/testcycle#vX.Y.Z builds it and npx runs it', async () => {
    const block = readmeBlock('git');
    const url = `github:your-org/testcycle#v${version}`;
    expect(block).toContain(url);
    const r = await sh(block.replaceAll(url, `git+file://${origin}#${head}`), fresh('from-git'));
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe(version);
  }, 600_000);

  test('a checkout: npm ci && npm pack there, the tarball installed in the project', async () => {
    const block = readmeBlock('checkout');
    const url = 'https://github.com/your-org/testcycle.git';
    expect(block).toContain(url);
    const project = fresh('from-checkout');
    const r = await sh(block.replaceAll(url, origin), join(project, '..'));
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe(version);
  }, 600_000);
});
