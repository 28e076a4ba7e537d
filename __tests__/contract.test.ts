import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { VERSION } from '../src/version.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

describe('package contract', () => {
  test('ESM package named testcycle with a bin and a library export', () => {
    expect(pkg).toMatchObject({
      name: 'testcycle',
      type: 'module',
      bin: { testcycle: 'lib/cli/bin.js' },
    });
    expect(pkg.exports['.'].import).toBe('./lib/lib.js');
  });

  test('src/version.ts follows package.json', () => {
    expect(VERSION).toBe(pkg.version);
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
      import { ${names.join(', ')}, startEmulator } from 'testcycle';
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
