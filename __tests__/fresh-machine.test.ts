/**
 * `npm ci && npm test` on a machine with nothing installed by hand: the browser is a pinned npm
 * devDependency (no apt anywhere), and the tests run a bundle rebuilt from src, never a stale one.
 */
import { readdirSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const ciRun = readFileSync('.ci/run', 'utf8');
const workflows = readdirSync('.github/workflows').filter((f) => /\.ya?ml$/.test(f));

test('the browser is the @sparticuz/chromium devDependency, pinned like the others', () => {
  expect(pkg.devDependencies['@sparticuz/chromium']).toMatch(/^\d+\.\d+\.\d+$/);
  expect(pkg.devDependencies['playwright-core']).toMatch(/^\d+\.\d+\.\d+$/);
  expect(readFileSync('scripts/chromium.mjs', 'utf8')).toMatch(/from '@sparticuz\/chromium'/);
});

test.each(['.ci/run', ...workflows.map((f) => `.github/workflows/${f}`)])(
  '%s installs nothing with apt',
  (file) => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/\bapt(-get)?\s+install\b/);
  },
);

test('npm test and the reliability suite rebuild lib/ and dist/ before they run', () => {
  expect(pkg.scripts.pretest).toBe('npm run build --silent && npm run bundle --silent');
  expect(pkg.scripts['test:reliability']).toMatch(/^npm run pretest --silent && .*\bjest\b/);
});

test('.ci/run compares the committed dist/ with a fresh build before npm test rewrites it', () => {
  const check = ciRun.indexOf('git status --porcelain -- dist');
  const test = ciRun.indexOf('npm test');
  expect(ciRun.indexOf('npm run bundle')).toBeGreaterThan(-1);
  expect(check).toBeGreaterThan(ciRun.indexOf('npm run bundle'));
  expect(test).toBeGreaterThan(check);
});
