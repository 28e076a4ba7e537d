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
});
