import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ServiceClient } from '../src/client/client.js';
import { VERSION } from '../src/shared/version.js';
import { closeAll, startServer } from './helpers/http-server.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

describe('package contract', () => {
  test('ESM package named testcycle with a bin and a library export', () => {
    expect(pkg).toMatchObject({
      name: 'testcycle',
      type: 'module',
      bin: { testcycle: 'lib/cli/bin.js' },
    });
    expect(pkg.exports['.'].import).toBe('./lib/lib.js');
    expect(pkg.exports['./dashboard'].import).toBe('./lib/lib-dashboard.js');
    expect(pkg.exports['./emulator'].import).toBe('./lib/lib-emulator.js');
  });

  test('src/shared/version.ts follows package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });

  test('CHANGELOG.md has a section for the package version, which the release notes come from', () => {
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    const heading = new RegExp(
      `^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`,
      'm',
    );
    expect(changelog).toMatch(heading);
  });

  test('--version of the built CLI prints the package version', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['lib/cli/bin.js', '--version'], (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout),
      ),
    );
    expect(out.trim()).toBe(pkg.version);
  });

  test.each([
    [undefined, `testcycle/${pkg.version}`],
    ['testcycle-cli', `testcycle-cli/${pkg.version}`],
    ['testcycle-action', `testcycle-action/${pkg.version}`],
    ['my-dashboard/2.0', 'my-dashboard/2.0'],
  ])('a client made with userAgent %p sends User-Agent %p', async (product, expected) => {
    const server = await startServer(() => ({
      status: 200,
      body: { data: [{ type: 'projects', id: 'p1', attributes: { name: 'Demo' } }] },
      headers: { 'content-type': 'application/vnd.api+json' },
    }));
    const client = new ServiceClient({ baseUrl: server.url, token: 'tok', userAgent: product });
    await client.project();
    await client.close();
    expect(server.log[0]!.headers['user-agent']).toBe(expected);
    await closeAll();
  });

  test('the action runs on node24 from the committed bundle', () => {
    const action = readFileSync('action.yml', 'utf8');
    expect(action).toMatch(/^runs:\n {2}using: node24\n {2}main: dist\/index\.js$/m);
  });

  test("the package entry serves the README's library example: import by name, an emulator, a client", async () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Library'));
    const names = /import \{([^}]+)\} from 'testcycle'/
      .exec(section)![1]!
      .split(',')
      .map((n) => n.trim());
    expect(names).toEqual(
      expect.arrayContaining(['ServiceClient', 'f', 'publish', 'readReports', 'settingsFrom']),
    );
    // A separate Node resolves 'testcycle' through package.json "exports", as users' code does.
    const script = `
      import { readFileSync } from 'node:fs';
      import { ${names.join(', ')} } from 'testcycle';
      import { startEmulator } from 'testcycle/emulator';
      const seed = JSON.parse(readFileSync('examples/seed.json', 'utf8'));
      const emu = await startEmulator({ seed });
      const token = emu.seed.tokens.find((t) => t.role === 'read-write').token;
      const client = new ServiceClient({ baseUrl: emu.url, token });
      const keys = [];
      for await (const c of client.iterate('/test_cases', { filter: f.isNotNull('automationKey') }))
        keys.push(c.attributes.testCaseKey);
      const settings = publishSettings(
        settingsFrom({ 'cycle-name': 'Nightly {date}', 'min-pass-rate': 95 }),
        {},
      );
      const reports = await readReports(['examples/reports/junit/*.xml']);
      const result = await publish(client, { ...settings, reports });
      console.log(JSON.stringify({ types: [${names.join(', ')}].map((x) => typeof x), keys: keys.length > 0, total: result.counts.total, gate: result.gate }));
      await client.close();
      await emu.close();`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout),
      ),
    );
    expect(JSON.parse(out)).toEqual({
      types: names.map((n) => (n === 'f' ? 'object' : 'function')),
      keys: true,
      // 13 JUnit tests, one without a test case: 12 published, 9 passed of 11 executed
      total: 12,
      gate: {
        passed: false,
        evaluated: true,
        reasons: ['pass rate 81.82% is below 95% (basis: executed)'],
      },
    });
  });
});

describe('the library API chosen for its users (etc/*.api.md, kept current by npm run api:check)', () => {
  const reports = ['testcycle', 'testcycle-dashboard', 'testcycle-emulator'].map((name) => ({
    name,
    text: readFileSync(`etc/${name}.api.md`, 'utf8'),
  }));

  test('every exported name and member of every entry is documented', () => {
    for (const { name, text } of reports)
      expect({ name, undocumented: text.split('(undocumented)').length - 1 }).toEqual({
        name,
        undocumented: 0,
      });
  });

  test('the main entry offers at most 60 runtime names (values, functions, classes)', () => {
    const main = reports[0]!.text;
    const runtime =
      main.match(
        /^export (declare )?(abstract )?(function|class|const|let|var|enum|namespace) /gm,
      ) ?? [];
    expect(runtime.length).toBeGreaterThan(30);
    expect(runtime.length).toBeLessThanOrEqual(60);
  });
});
