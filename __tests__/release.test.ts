/**
 * The release process as data: every workflow parses and pins each action it uses to a commit,
 * and release.yml does, in order, what CONTRIBUTING.md promises for a tag vX.Y.Z.
 */
import { readdirSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
// @ts-expect-error: a plain .mjs script, no types
import { releaseNotes } from '../.github/scripts/release-notes.mjs';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; permissions?: Record<string, string> }>;
}

const load = (file: string) =>
  yaml.load(readFileSync(`.github/workflows/${file}`, 'utf8')) as Workflow;
const workflows = readdirSync('.github/workflows').filter((f) => /\.ya?ml$/.test(f));
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

test.each(workflows)('%s pins every action it uses to a full commit SHA', (file) => {
  const text = readFileSync(`.github/workflows/${file}`, 'utf8');
  const uses = [...text.matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)].map((m) => [m[1]!, m[2]!]);
  for (const [ref, comment] of uses) {
    if (ref === './') continue;
    expect(ref).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
    // The version the SHA stands for, for people and for Dependabot.
    expect(comment).toMatch(/^\s+# v\d+/);
  }
  const doc = load(file);
  // Least privilege by default: the repository read-only; a job asks for more where it needs it.
  expect(doc.permissions?.contents).toBe('read');
});

describe('release.yml', () => {
  const doc = load('release.yml');
  const steps = doc.jobs.release!.steps;
  const index = (pattern: RegExp) =>
    steps.findIndex((s) => pattern.test(`${s.name ?? ''}\n${s.run ?? ''}\n${s.uses ?? ''}`));

  test('runs on version tags only', () => {
    expect(doc.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
  });

  test('checks, tests, then releases, moves the major tag and publishes, in that order', () => {
    const order = [
      /tag is the package's version/,
      /^npm ci$/m,
      /npm run bundle[\s\S]*git status --porcelain -- dist/,
      /npm test/,
      /npm run test:reliability/,
      /release-notes\.mjs/,
      /gh release create/,
      /git tag -f "\$major"/,
      /npm publish --provenance/,
    ].map(index);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('asks for write access and an OIDC token only in the release job', () => {
    expect(doc.jobs.release!.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
  });

  test('publishes to npm only with NPM_TOKEN, and says so when it is absent', () => {
    const publish = steps[index(/npm publish/)]!;
    expect(publish.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
    expect(publish.run).toMatch(/if \[ -z "\$NODE_AUTH_TOKEN" \][\s\S]*::notice::[\s\S]*exit 0/);
  });
});

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
