/**
 * The README as a new user follows it, outside the clone: its install recipe, its offline
 * try-out, the `npx` line of a CI image, the command of each CI recipe and the action's nightly
 * and example workflows, run as they are written against the emulator. Only the release's
 * address is replaced, by the tarball `npm pack` makes here (the release attaches that tarball);
 * the git and checkout recipes, which install every development dependency, run in the
 * reliability suite (__tests__/reliability/package.test.ts).
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
// @ts-expect-error: a plain .mjs script, no types
import { pack } from '../../scripts/pack-install.mjs';
import { fakeGitHub } from '../helpers/fake-github.js';
import { readme, readmeBlock, RELEASE, sh, version } from '../helpers/readme.js';
import { runSteps, type WorkflowStep } from '../helpers/workflow-runner.js';

const root = process.cwd();

let work: string;
let tarball: string;
let project: string;
const pids: number[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'testcycle-readme-'));
  tarball = join(work, (pack(work) as { filename: string }).filename);
  project = join(work, 'your-project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'your-project', private: true, type: 'module' }),
  );
}, 240_000);

afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid);
    } catch {
      // stopped already
    }
  }
  rmSync(work, { recursive: true, force: true });
});

/** An emulator in the background, for the recipes below (stopped in afterAll). */
async function detachedEmulator(): Promise<{ url: string; token: string }> {
  const r = await sh(
    'eval "$(node lib/cli/bin.js emulator --seed examples/seed.json --rate-limit 6000/1m --detach)"; echo "$TESTCYCLE_BASE_URL $TESTCYCLE_TOKEN $TESTCYCLE_EMULATOR_PID"',
    root,
  );
  const [url, token, pid] = r.out.trim().split(' ');
  pids.push(Number(pid));
  return { url: url!, token: token! };
}

describe('Install and the offline try-out, in a project of its own', () => {
  test('the tarball recipe installs testcycle, and npx runs it', async () => {
    const block = readmeBlock('tarball');
    expect(block).toContain(RELEASE);
    const r = await sh(block.replaceAll(RELEASE, tarball), project);
    expect(r.err).not.toMatch(/npm (warn|error)/);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe(version);
  }, 120_000);

  test('the offline try-out runs as written: emulator in the background, check, parse, publish, kill', async () => {
    const r = await sh(readmeBlock('offline'), project);
    expect(r.err.replace(/^info: .*\n/gm, '')).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ok: http:\/\/127\.0\.0\.1:\d+\/api\/v1 reaches Space Acme Shop /m);
    expect(r.out).toMatch(/^token: read-write \(writes allowed\), expires /m);
    expect(r.out).toMatch(/^\d+ runs of \d+ tests/m);
    expect(r.out).toMatch(/^cycle SHOP-R\d+ "Local \d{4}-\d\d-\d\d" \(ACTIVE\)$/m);
    expect(r.out).toMatch(/^writes: \d+ created, 0 updated, 0 unchanged, 1 test case created$/m);
    // Nothing the user must copy, and nothing left running: the kill line stopped it.
    expect(r.err).not.toContain('waiting');
  }, 120_000);

  test('the traceability try-out runs as written: links made, one requirement of each status', async () => {
    const r = await sh(readmeBlock('trace'), project);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /^info: trace: 2 links added \(SHOP-T\d+ → SHOP-REQ1, SHOP-T\d+ → SHOP-REQ2\); 0 removed$/m,
    );
    expect(r.out).toMatch(/^coverage of cycle SHOP-R\d+ "Trace \d{4}-\d\d-\d\d": 3 requirements?/m);
    expect(r.out).toMatch(/^ {2}SHOP-REQ1 PASSED {2}Pay by card {2}\(SHOP-T\d+ PASSED\)$/m);
    expect(r.out).toMatch(
      /^ {2}SHOP-REQ2 FAILED {2}Vouchers take their discount {2}\(SHOP-T\d+ FAILED\)$/m,
    );
    expect(r.out).toMatch(/^ {2}SHOP-REQ3 UNCOVERED {2}Tax by the customer's region$/m);
    expect(r.err).not.toContain('waiting');
  }, 120_000);

  test("a CI image's npx line fetches the tarball for the one command", async () => {
    const empty = mkdtempSync(join(work, 'ci-image-'));
    const block = readmeBlock('npx');
    expect(block).toContain(`--package=${RELEASE}`);
    const r = await sh(block.replaceAll(RELEASE, tarball), empty);
    expect(r).toMatchObject({ code: 0, out: `${version}\n` });
  }, 120_000);
});

describe('the CLI recipes of each CI, against the emulator', () => {
  /** Every `npx --yes --package=<release> testcycle ...` command of the README. */
  const commands = [...readme.matchAll(/npx --yes --package=(\S+) testcycle (.+?)'?$/gm)]
    .filter((m) => m[1] === RELEASE && m[2] !== '--version')
    .map((m) => m[2]!.trim());

  /** Each CI's variables for the placeholders its recipe uses. */
  const CI: Record<string, Record<string, string>> = {
    'MR {pr} {sha7}': { CI_MERGE_REQUEST_IID: '7', CI_COMMIT_SHA: 'abcdef0123456789' },
    'Build {run_number}': { BUILD_NUMBER: '31', BUILD_BUILDNUMBER: '31' },
    '{branch} {sha7}': { CIRCLE_BRANCH: 'main', CIRCLE_SHA1: 'abcdef0123456789' },
  };

  test.each(commands.map((c) => [c]))(
    'testcycle %s',
    async (command) => {
      const { url, token } = await detachedEmulator();
      // The reports where each recipe's runner writes them.
      const dir = mkdtempSync(join(work, 'ci-'));
      for (const at of ['.', 'target/surefire-reports', 'test-results/junit', 'build/TEST']) {
        mkdirSync(join(dir, at), { recursive: true });
        for (const f of readdirSync('examples/reports/junit'))
          copyFileSync(join(root, 'examples/reports/junit', f), join(dir, at, f));
      }
      copyFileSync(
        join(root, 'examples/reports/junit', readdirSync('examples/reports/junit')[0]!),
        join(dir, 'junit.xml'),
      );
      const template = /--cycle-name "([^"]+)"/.exec(command)?.[1];
      const r = await sh(`npx --yes --package=${tarball} testcycle ${command}`, dir, {
        TESTCYCLE_BASE_URL: url,
        TESTCYCLE_TOKEN: token,
        ...(template ? CI[template] : {}),
      });
      // The examples hold failures: a gate may fail (1); no usage, service or report error.
      expect({ code: r.code, err: r.err.replace(/^(info|warn): .*\n( {2}.*\n)*/gm, '') }).toEqual({
        code: expect.any(Number),
        err: '',
      });
      expect([0, 1]).toContain(r.code);
      if (template)
        expect(r.out).toMatch(
          /^cycle SHOP-R\d+ "(MR 7 abcdef0|Build 31|main abcdef0)" \(ACTIVE\)$/m,
        );
    },
    120_000,
  );

  test('they are the five recipes of the README', () => {
    expect(commands).toHaveLength(5);
  });
});

describe("the action's nightly recipe and the example workflows, as written", () => {
  /** A checkout for the action's steps: action.yml and dist/ of this repository, and the reports. */
  function workspace(): string {
    const dir = mkdtempSync(join(work, 'checkout-'));
    symlinkSync(join(root, 'action.yml'), join(dir, 'action.yml'));
    symlinkSync(join(root, 'dist'), join(dir, 'dist'));
    // What ./run-regression-tests.sh and `npm test` leave: the example reports.
    writeFileSync(
      join(dir, 'run-regression-tests.sh'),
      `#!/bin/sh\nmkdir -p build/test-results && cp ${join(root, 'examples/reports/junit')}/*.xml build/test-results/\n`,
      { mode: 0o755 },
    );
    copyFileSync(
      join(root, 'examples/reports/junit', readdirSync('examples/reports/junit')[0]!),
      join(dir, 'junit.xml'),
    );
    return dir;
  }

  /** The steps of the recipe the runner here can run: testcycle's (as `uses: ./`) and `run:` ones. */
  function runnable(steps: WorkflowStep[]): WorkflowStep[] {
    return steps
      .filter((s) => s.uses === undefined || s.uses.startsWith('your-org/testcycle@'))
      .filter((s) => !/npm (ci|test)/.test(s.run ?? ''))
      .map((s, i) => ({ ...s, id: s.id ?? `step${i}`, ...(s.uses ? { uses: './' } : {}) }));
  }

  async function run(steps: WorkflowStep[], env: Record<string, string> = {}) {
    const { url, token } = await detachedEmulator();
    const { results } = await runSteps(runnable(steps), workspace(), env, {
      'vars.TESTCYCLE_BASE_URL': url,
      'secrets.TESTCYCLE_TOKEN': token,
      'github.token': 'ghs_faketoken123',
    });
    return [...results.values()];
  }

  test("README's nightly cycle: create-cycle, the tests, publish and gate, close-cycle name one cycle", async () => {
    const block = /### A nightly cycle\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const results = await run(yaml.load(block) as WorkflowStep[]);
    expect(results.map((r) => r.outcome)).toEqual(['success', 'success', 'failure', 'success']);
    const names = results
      .filter((r) => r.outputs['cycle-name'])
      .map((r) => r.outputs['cycle-name']);
    expect(new Set(names).size).toBe(1);
    // The gate fails on the examples' failures (98%), naming why.
    expect(results[2]!.outputs['gate-reasons']).toMatch(/pass rate/);
  }, 120_000);

  test('examples/workflows/nightly.yml, as it is copied', async () => {
    const doc = yaml.load(readFileSync('examples/workflows/nightly.yml', 'utf8')) as {
      jobs: Record<string, { steps: WorkflowStep[] }>;
    };
    const results = await run(Object.values(doc.jobs)[0]!.steps);
    expect(results.map((r) => r.outcome)).toEqual(['success', 'success', 'failure', 'success']);
  }, 120_000);

  test('examples/workflows/pr-check.yml, as it is copied: publish, gate and the check run', async () => {
    const github = await fakeGitHub();
    try {
      const doc = yaml.load(readFileSync('examples/workflows/pr-check.yml', 'utf8')) as {
        jobs: Record<string, { steps: WorkflowStep[] }>;
      };
      const event = join(work, 'event.json');
      writeFileSync(
        event,
        JSON.stringify({ pull_request: { number: 5, head: { sha: 'abc123' } } }),
      );
      const results = await run(Object.values(doc.jobs)[0]!.steps, {
        GITHUB_API_URL: github.server.url,
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: event,
        GITHUB_REF: 'refs/pull/5/merge',
      });
      expect(results.at(-1)!.outputs['cycle-name']).toMatch(/^PR 5 [0-9a-f]{7}$/);
      expect(github.checkRuns.size).toBe(1);
    } finally {
      await github.server.close();
    }
  }, 120_000);
});
