/** Building blocks for traceability tests: a JUnit report whose tests name requirements. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A test of Suite, its outcome and what it names (the JUnit `requirements` property). */
export interface TracedTest {
  name: string;
  requirements?: string;
  outcome?: 'passed' | 'failed';
}

/** A JUnit report of these tests, written where the CLI reads it. */
export function junit(tests: TracedTest[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-trace-'));
  const file = join(dir, 'junit.xml');
  const cases = tests.map(
    (t) =>
      `<testcase classname="Suite" name="${t.name}">${
        t.requirements
          ? `<properties><property name="requirements" value="${t.requirements}"/></properties>`
          : ''
      }${t.outcome === 'failed' ? '<failure message="boom"/>' : ''}</testcase>`,
  );
  writeFileSync(
    file,
    `<testsuite name="Suite" tests="${tests.length}">${cases.join('')}</testsuite>`,
  );
  return file;
}
