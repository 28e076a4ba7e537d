/**
 * Key collisions (docs/design.md "Results and merging"): two distinct tests whose keys (explicit key
 * or automationKey) coincide would silently share one execution. Found from the reports alone,
 * before any request. Invocations of one parameterized test are not distinct tests (they differ
 * only in their parameters) unless the key template holds {params}; the same test in two report
 * files (matrix legs, a re-run) is one test run twice.
 */
import { KEY_WORDS, type SettingWords } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import { testIdentity, type TestResult } from '../parsers/index.js';
import {
  automationKeyOf,
  explicitKeyOf,
  keyBuilder,
  runnerNameOf,
  type MatchOptions,
} from './match.js';

export type KeyCollisionMode = 'warn' | 'fail' | 'merge';

export interface KeyCollision {
  key: string;
  tests: { test: TestResult; file: string }[];
  /** The placeholder whose value tells these tests apart, when the template lacks it. */
  separatedBy?: string;
}

/**
 * What can tell two tests apart, in the order a user would reach for it: the label people read,
 * the key placeholder that holds it (none for the line and the report file), and its value.
 */
const DIFFERENCES: [
  string,
  string | undefined,
  (e: { test: TestResult; file: string }) => string,
][] = [
  ['file', '{file}', (e) => e.test.file ?? ''],
  ['suite', '{suite}', (e) => e.test.suite.join(' › ')],
  ['classname', '{classname}', (e) => e.test.classname ?? ''],
  ['name', '{name}', (e) => e.test.name],
  ['test', '{test}', (e) => runnerNameOf(e.test)],
  ['params', '{params}', (e) => e.test.params ?? ''],
  ['line', undefined, (e) => String(e.test.line ?? '')],
  ['report', undefined, (e) => e.file],
  // Two testsuites of one name in one report (jest-junit: one per test file, no file written).
  [
    'testsuite',
    undefined,
    (e) => (e.test.container === undefined ? '' : `#${e.test.container + 1}`),
  ],
];

type Match = Pick<MatchOptions, 'keyPattern' | 'automationKey' | 'workspace'>;

/** The key a test is matched by: an explicit test case key, else its automationKey. */
export function testKeyOf(test: TestResult, match: Match): string {
  return (
    explicitKeyOf(test, match.keyPattern) ??
    automationKeyOf(test, match.automationKey, match.workspace)
  );
}

/** testKeyOf of many tests, with one key builder. */
export function testKeysOf(tests: readonly { test: TestResult }[], match: Match): string[] {
  const automationKey = keyBuilder(match.automationKey, match.workspace);
  return tests.map(({ test }) => explicitKeyOf(test, match.keyPattern) ?? automationKey(test));
}

/** `keys[i]` is testKeyOf(tests[i].test): computed once by the caller, which filters by it. */
export function findKeyCollisions(
  tests: { test: TestResult; file: string }[],
  keys: readonly string[],
  automationKey: string,
): KeyCollision[] {
  const usesParams = automationKey.includes('{params}');
  const byKey = new Map<string, Map<string, { test: TestResult; file: string }>>();
  tests.forEach((entry, i) => {
    const key = keys[i]!;
    if (!key) return;
    // One identity in two elements of one report is two tests (TestResult.container); in two
    // reports (matrix legs, a re-run), one test run twice.
    const element =
      entry.test.container === undefined ? '' : JSON.stringify([entry.file, entry.test.container]);
    const identity =
      testIdentity(usesParams ? entry.test : { ...entry.test, params: undefined }) + element;
    let identities = byKey.get(key);
    if (!identities) byKey.set(key, (identities = new Map()));
    if (!identities.has(identity)) identities.set(identity, entry);
  });
  const collisions: KeyCollision[] = [];
  for (const [key, identities] of byKey) {
    if (identities.size < 2) continue;
    const group = [...identities.values()];
    const separatedBy = DIFFERENCES.find(
      ([, placeholder, value]) =>
        placeholder !== undefined &&
        placeholder !== '{test}' &&
        !automationKey.includes(placeholder) &&
        new Set(group.map(value)).size > 1,
    )?.[1];
    collisions.push({ key, tests: group, ...(separatedBy ? { separatedBy } : {}) });
  }
  return collisions;
}

/**
 * The warning or error text: each group (first 10, then a count) with what tells its tests apart
 * (the file, suite, params or line that differs), so that no two lines read the same.
 */
export function describeCollisions(
  collisions: KeyCollision[],
  setting: string,
  words: SettingWords = KEY_WORDS,
): string {
  const shown = collisions.slice(0, 10).map((c) => {
    const differing = DIFFERENCES.filter(([, , value]) => new Set(c.tests.map(value)).size > 1);
    const tests = c.tests
      .slice(0, 5)
      .map((entry) => {
        const name = oneLine(
          entry.test.classname ? `${entry.test.classname} › ${entry.test.name}` : entry.test.name,
        );
        const parts = differing.map(([label, , value]) => `${label} ${quoted(value(entry))}`);
        return `${name} (${parts.join(', ')})`;
      })
      .join('; ');
    const more = c.tests.length > 5 ? `; and ${c.tests.length - 5} more` : '';
    const hint = c.separatedBy
      ? ` [${c.separatedBy} in ${words.name('automation-key')} tells them apart]`
      : differing.every(([label]) => label === 'testsuite')
        ? " [their report writes nothing else that tells them apart: have the reporter write each test's file (jest-junit: addFileAttribute), or give each an explicit test case key]"
        : differing.every(([, placeholder]) => placeholder === undefined)
          ? ' [only their line differs: give each an explicit test case key or its own name]'
          : ' [give each an explicit test case key]';
    return `  "${oneLine(c.key)}": ${c.tests.length} distinct tests: ${tests}${more}${hint}`;
  });
  const rest = collisions.length > 10 ? `\n  ... and ${collisions.length - 10} more keys` : '';
  return `${collisions.length} test case key(s) are shared by distinct tests, which would share one execution (${setting}):\n${shown.join('\n')}${rest}`;
}

/** A value in a collision line: quoted, on one line; `(none)` where the test has none. */
function quoted(value: string): string {
  return value ? `"${oneLine(value)}"` : '(none)';
}
