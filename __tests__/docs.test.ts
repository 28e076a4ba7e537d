/**
 * The README, action.yml and the example workflows against the contract: action.yml's inputs and
 * the README's reference are generated from the settings table (src/settings/table.ts), every workflow
 * snippet parses and uses only inputs action.yml defines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
// @ts-expect-error: a plain .mjs script, no types
import { actionInput, withInputs, withReference } from '../scripts/readme-reference.mjs';
import * as settings from '../src/settings/table.js';
import { ACTION_OUTPUTS } from '../src/action/outputs.js';

const readme = readFileSync('README.md', 'utf8');
const actionYml = readFileSync('action.yml', 'utf8');
const action = yaml.load(actionYml) as {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
};

type Step = { uses?: string; with?: Record<string, unknown> };
function actionSteps(doc: unknown): Step[] {
  const out: Step[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const step = node as Step;
      if (typeof step.uses === 'string' && (step.uses.includes('testcycle') || step.uses === './'))
        out.push(step);
      Object.values(node).forEach(walk);
    }
  };
  walk(doc);
  return out;
}

describe('the settings table is the one source (npm run build && node scripts/readme-reference.mjs)', () => {
  const table = settings.actionInputs();

  test("action.yml's inputs are the table's: names in order, descriptions, defaults, required", () => {
    const declared = action.inputs as Record<string, Record<string, unknown>>;
    expect(Object.keys(declared)).toEqual(table.map(([key]) => key));
    for (const [key, setting] of table)
      expect({ [key]: declared[key] }).toEqual({ [key]: actionInput(setting, settings.MODES) });
  });

  test('action.yml is exactly as generated', async () => {
    expect(await withInputs(actionYml, settings)).toBe(actionYml);
  });

  test("the README's reference is generated from the table", async () => {
    expect(await withReference(readme, actionYml, settings)).toBe(readme);
  });

  test('a drift fails: an input description changed in action.yml alone', async () => {
    const drifted = actionYml.replace('Requests in flight at once.', 'Requests at once.');
    expect(drifted).not.toBe(actionYml);
    expect(await withInputs(drifted, settings)).toBe(actionYml);
  });
});

describe('README', () => {
  const snippets = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  test.each(snippets.map((s, i) => [i, s] as const))(
    'yaml snippet %i parses and uses only defined inputs',
    (_i, snippet) => {
      const doc = yaml.load(snippet);
      for (const step of actionSteps(doc)) {
        for (const input of Object.keys(step.with ?? {}))
          expect(Object.keys(action.inputs)).toContain(input);
      }
    },
  );

  test('every recipe pins the package version (the release tarball, a git tag) or its major tag (action)', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const npmPins = [
      ...readme.matchAll(/testcycle@(\d[\w.-]*)/g),
      ...readme.matchAll(/\/releases\/download\/v(\d[\w.-]*)\//g),
      ...readme.matchAll(/testcycle-(\d[\w.-]*?)\.tgz/g),
      ...readme.matchAll(/testcycle#v(\d[\w.-]*)/g),
    ].map((m) => m[1]);
    const actionPins = [...readme.matchAll(/testcycle@(v[\w.-]+)/g)].map((m) => m[1]);
    expect(npmPins.length).toBeGreaterThan(10);
    expect(new Set(npmPins)).toEqual(new Set([version]));
    expect(new Set(actionPins)).toEqual(new Set([`v${version.split('.')[0]}`, `v${version}`]));
    // In CI recipes npx runs the release's tarball, never whatever the registry calls testcycle.
    expect(readme).not.toMatch(/^\s*(- |sh '|command: |script: )npx testcycle /m);
    expect(readme).not.toMatch(/npx --yes testcycle\b/);
  });

  test('the quick start is exactly the two commands', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('workflows', () => {
  const files = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => `${dir}/${f}`),
  );
  test.each(files)('%s parses and uses only defined inputs', (file) => {
    const doc = yaml.load(readFileSync(file, 'utf8'));
    for (const step of actionSteps(doc)) {
      for (const input of Object.keys(step.with ?? {}))
        expect(Object.keys(action.inputs)).toContain(input);
    }
  });

  test('action.yml declares exactly the outputs the action sets (ACTION_OUTPUTS), in order', () => {
    // setOutput takes only these names (its type), and every end-to-end run through the bundle
    // checks the outputs it wrote against them (__tests__/helpers/action.ts).
    expect(Object.keys(action.outputs)).toEqual([...ACTION_OUTPUTS]);
  });
});

describe('the README and BENCHMARKS as a new user reads them', () => {
  const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
  }));

  test('the CLI synopsis names every command testcycle --help lists', async () => {
    const { runCli } = await import('./helpers/cli.js');
    const help = (await runCli(['--help'], {})).out;
    const commands = [
      ...help
        .split('commands:\n')[1]!
        .split('\n\n')[0]!
        .matchAll(/^ {2}(\S+(?: (?:create|close))?)/gm),
    ].map((m) => m[1]!);
    expect(commands).toContain('report');
    const synopsis = blocks.find((b) => b.body.startsWith('testcycle publish'))!.body;
    for (const command of commands)
      expect(synopsis).toMatch(new RegExp(`^testcycle ${command} `, 'm'));
  });

  test('library snippets are fenced as TypeScript', () => {
    const library = blocks.filter((b) => /from 'testcycle'/.test(b.body));
    expect(library.length).toBeGreaterThan(0);
    for (const b of library) expect(b.lang).toBe('ts');
  });

  test('the EBADENGINE warnings of npm ci on an older Node are explained', () => {
    expect(readme).toMatch(/EBADENGINE[\s\S]{0,400}harmless/);
  });

  test("BENCHMARKS' cold start gives both the first byte and the whole process, as measured", () => {
    const bench = readFileSync('BENCHMARKS.md', 'utf8');
    const results = JSON.parse(readFileSync('bench/results.json', 'utf8'));
    const row = bench.split('\n').find((l) => l.includes('action cold start'))!;
    expect(row).toContain(`**${results.action.coldStartMs} ms**`);
    expect(row).toContain(`whole process ${results.action.processMs} ms`);
  });
});
