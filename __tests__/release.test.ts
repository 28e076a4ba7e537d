/**
 * The release process as data: every workflow and README recipe pins each action it uses to a
 * commit and keeps no token in .git/config, every job states its (least) permissions, and
 * release.yml does, in order, what CONTRIBUTING.md promises for a tag vX.Y.Z: a read-only job
 * builds and tests, and a job behind the release environment publishes only a commit on main.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
// @ts-expect-error: a plain .mjs script, no types
import { releaseNotes } from '../.github/scripts/release-notes.mjs';
import { runSteps, type WorkflowStep } from './helpers/workflow-runner.js';

type Step = WorkflowStep;
interface Job {
  steps: Step[];
  needs?: string | string[];
  environment?: string | { name: string };
  permissions?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const load = (path: string) => yaml.load(readFileSync(path, 'utf8')) as Workflow;
/**
 * This repository's workflows, and the example workflows users copy into theirs as they are
 * (README "GitHub Action"), by path.
 */
const workflows = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${dir}/${f}`),
);
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const readme = readFileSync('README.md', 'utf8');

/** The README's YAML recipes, each as it is written. */
const recipes = [...readme.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** Every `uses:` of a text with the comment beside it. */
const usesOf = (text: string) =>
  [...text.matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)].map((m) => [m[1]!, m[2]!] as const);

function expectPinned(text: string) {
  for (const [ref, comment] of usesOf(text)) {
    if (ref === './') continue;
    // The reader's own copy of this action (a placeholder owner): README's "pin a version"
    // paragraph shows its commit-SHA form.
    if (ref.startsWith('your-org/testcycle@')) continue;
    expect(ref).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
    // The version the SHA stands for, for people and for Dependabot.
    expect(comment).toMatch(/^\s+# v\d+/);
  }
}

test.each(workflows)('%s pins every action it uses to a full commit SHA', (file) => {
  expectPinned(readFileSync(file, 'utf8'));
});

test("the README's recipes pin every action they use to a full commit SHA", () => {
  expect(recipes.length).toBeGreaterThan(5);
  for (const recipe of recipes) expectPinned(recipe);
  // The fork recipe's artifact actions run in a workflow that holds secrets.
  expect(recipes.join('\n')).toMatch(/actions\/upload-artifact@[0-9a-f]{40} # v4/);
  expect(recipes.join('\n')).toMatch(/actions\/download-artifact@[0-9a-f]{40} # v4/);
});

test.each([
  ...workflows.map((file) => [file, readFileSync(file, 'utf8')]),
  ['README.md', recipes.join('\n---\n')],
])('%s: every checkout keeps no token in .git/config', (_file, text) => {
  const checkouts = (yaml.loadAll(text) as unknown[])
    .flatMap(function steps(node: unknown): Step[] {
      if (Array.isArray(node)) return node.flatMap(steps);
      if (!node || typeof node !== 'object') return [];
      const own = 'uses' in node ? [node as Step] : [];
      return [...own, ...Object.values(node).flatMap(steps)];
    })
    .filter((step) => step.uses?.startsWith('actions/checkout@'));
  expect(checkouts.length).toBeGreaterThan(0);
  for (const step of checkouts) expect(step.with?.['persist-credentials']).toBe(false);
});

/** The only write access any job asks for, and why. */
const WRITES: Record<string, Record<string, string>> = {
  '.github/workflows/release.yml/publish': { contents: 'write', 'id-token': 'write' },
  'examples/workflows/pr-check.yml/test': { checks: 'write' },
};

test.each(workflows)('%s: least privilege, stated per job', (file) => {
  const doc = load(file);
  // The repository read-only by default; each job says what it needs.
  expect(doc.permissions).toEqual({ contents: 'read' });
  for (const [id, job] of Object.entries(doc.jobs)) {
    expect([`${file}/${id}`, job.permissions]).toEqual([
      `${file}/${id}`,
      { contents: 'read', ...WRITES[`${file}/${id}`] },
    ]);
  }
});

describe('release.yml', () => {
  const doc = load('.github/workflows/release.yml');
  const build = doc.jobs['build-and-test']!;
  const publish = doc.jobs.publish!;
  const indexIn = (steps: Step[]) => (pattern: RegExp) =>
    steps.findIndex((s) => pattern.test(`${s.name ?? ''}\n${s.run ?? ''}\n${s.uses ?? ''}`));
  const inOrder = (steps: Step[], patterns: RegExp[]) => {
    const order = patterns.map(indexIn(steps));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  };

  test('runs on version tags only, in two jobs', () => {
    expect(doc.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    expect(Object.keys(doc.jobs)).toEqual(['build-and-test', 'publish']);
  });

  test('build-and-test: read-only, checks, tests, then packs what it tested', () => {
    expect(build.permissions).toEqual({ contents: 'read' });
    expect(build.environment).toBeUndefined();
    inOrder(build.steps, [
      /actions\/checkout@/,
      /tag is the package's version/,
      /^npm ci$/m,
      /npm run bundle[\s\S]*git status --porcelain -- dist/,
      /npm test/,
      /npm run test:reliability/,
      /release-notes\.mjs/,
      /npm pack/,
      /actions\/upload-artifact@/,
    ]);
  });

  test('publish: after build-and-test, behind the release environment, with write access', () => {
    expect(publish.needs).toBe('build-and-test');
    expect(publish.environment).toBe('release');
    expect(publish.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
  });

  test('publish: checks the commit is on main before it releases, moves the major tag and publishes', () => {
    inOrder(publish.steps, [
      /actions\/download-artifact@/,
      /git merge-base --is-ancestor "\$GITHUB_SHA" origin\/main/,
      /gh release create "\$TAG" .* "\$RUNNER_TEMP"\/release\/testcycle-\*\.tgz$/m,
      /git tag -f "\$major"/,
      /npm publish "\$RUNNER_TEMP"\/release\/testcycle-\*\.tgz --provenance/,
    ]);
  });

  test('publish: installs nothing and runs no package script (it publishes the tested tarball)', () => {
    for (const step of publish.steps)
      expect(step.run ?? '').not.toMatch(/npm (ci|install|run|test)\b/);
  });

  test('publish: the ancestry check passes for a commit on main and fails for one that is not', async () => {
    const step = publish.steps.find((s) => /merge-base --is-ancestor/.test(s.run ?? ''))!;
    const repo = repositoryWithSideBranch();
    const onMain = await runSteps([step], repo.work, { GITHUB_SHA: repo.onMain });
    expect([...onMain.results.values()].map((r) => r.outcome)).toEqual(['success']);
    const offMain = await runSteps([step], repo.work, { GITHUB_SHA: repo.side });
    const [result] = [...offMain.results.values()];
    expect(result!.outcome).toBe('failure');
    expect(result!.log).toContain(`::error::the tag's commit ${repo.side} is not on main`);
  });

  test('publishes to npm only with NPM_TOKEN, and says so when it is absent', () => {
    const step = publish.steps[indexIn(publish.steps)(/npm publish/)]!;
    expect(step.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    expect(step.run).toMatch(/if \[ -z "\$NODE_AUTH_TOKEN" \][\s\S]*::notice::[\s\S]*exit 0/);
  });
});

/**
 * What the publish job's checkout holds: a clone of a repository whose main has one commit, and a
 * commit on a branch that never reached main (its origin a bare repository on disk).
 */
function repositoryWithSideBranch(): { work: string; onMain: string; side: string } {
  const root = mkdtempSync(join(tmpdir(), 'testcycle-release-'));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.invalid',
  };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();
  const origin = join(root, 'origin.git');
  const work = join(root, 'work');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  git(root, 'init', '-q', '-b', 'main', work);
  git(work, 'remote', 'add', 'origin', origin);
  git(work, 'commit', '-q', '--allow-empty', '-m', 'on main');
  git(work, 'push', '-q', 'origin', 'main');
  const onMain = git(work, 'rev-parse', 'HEAD');
  git(work, 'checkout', '-q', '-b', 'side');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'not on main');
  return { work, onMain, side: git(work, 'rev-parse', 'HEAD') };
}

describe('release notes', () => {
  const changelog = readFileSync('CHANGELOG.md', 'utf8');
  test("come from CHANGELOG.md's section for the package version", () => {
    const notes = releaseNotes(changelog, pkg.version) as string;
    expect(notes).toMatch(/^### Added$/m);
    expect(notes).not.toMatch(/^## /m);
  });

  test('a version without a section has none, so the release step fails', () => {
    expect(releaseNotes(changelog, '99.0.0')).toBeUndefined();
    expect(releaseNotes('## [1.0.0] - 2026-01-01\n\n## [0.9.0]\n- x\n', '1.0.0')).toBeUndefined();
  });
});

describe('issue templates', () => {
  test('a bug report asks for the version, report format, runner and --verbose output, and warns about the token', () => {
    const form = yaml.load(readFileSync('.github/ISSUE_TEMPLATE/bug_report.yml', 'utf8')) as {
      body: { type: string; id?: string; attributes: { value?: string; label?: string } }[];
    };
    const ids = form.body.map((field) => field.id).filter(Boolean);
    expect(ids).toEqual(expect.arrayContaining(['version', 'format', 'runner', 'verbose']));
    expect(form.body[0]!.attributes.value).toMatch(/never paste your token/i);
  });
});
