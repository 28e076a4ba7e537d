/**
 * The Space and the reports the action's tests share (in this process, __tests__/action; and
 * through the bundle, __tests__/e2e/action.test.ts): five login tests with their automated cases.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RW, testSeed } from './emulator.js';

/** Where the reports (and any file a test writes beside them) go. */
export const dir = mkdtempSync(join(tmpdir(), 'testcycle-e2e-'));

/** A JUnit report of app.LoginTest with these tests and results, written to a temporary file. */
export function junitFile(name: string, cases: [string, 'pass' | 'fail' | 'skip'][]): string {
  const body = cases
    .map(
      ([n, r]) =>
        `<testcase classname="app.LoginTest" name="${n}" file="src/login.test.ts" line="${n.length}">${r === 'fail' ? `<failure message="${n} broke">trace</failure>` : r === 'skip' ? '<skipped/>' : ''}</testcase>`,
    )
    .join('\n');
  const file = join(dir, name);
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<testsuites><testsuite name="LoginTest">\n${body}\n</testsuite></testsuites>\n`,
  );
  return file;
}

export const CASES = ['opens', 'logs_in', 'logs_out', 'resets', 'locks'];

/** The Space: an automated case per test, the first two CRITICAL. */
export function seed() {
  return testSeed({
    testCases: CASES.map((n, i) => ({
      name: n,
      automationKey: `src/login.test.ts › app.LoginTest.${n}`,
      status: 'ACTIVE',
      automationStatus: 'AUTOMATED',
      priority: i < 2 ? 'CRITICAL' : 'LOW',
    })),
  });
}

/** The inputs every run gives: the emulator's address, a token, a pace the tests do not wait on. */
export const base = (url: string, token = RW) => ({
  'base-url': url,
  token,
  'rate-limit': '1000/1m',
});
