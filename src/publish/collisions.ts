/**
 * Key collisions (DESIGN.md "Results and merging"): two distinct tests whose keys (explicit key
 * or automationKey) coincide would silently share one execution. Found from the reports alone,
 * before any request. Invocations of one parameterized test are not distinct tests (they differ
 * only in their parameters) unless the key template holds {params}; the same test in two report
 * files (matrix legs, a re-run) is one test run twice.
 */
import { KEY_WORDS, type SettingWords } from '../api/errors.js';
import { oneLine } from '../api/redact.js';
import { testIdentity, type TestResult } from '../reports/model.js';
import { automationKeyOf, explicitKeyOf, type MatchOptions } from './match.js';

export type KeyCollisionMode = 'warn' | 'fail' | 'merge';

export interface KeyCollision {
  key: string;
  tests: { test: TestResult; file: string }[];
  /** The placeholder whose value tells these tests apart, when the template lacks it. */
  separatedBy?: string;
}

/** The parts a key template can use, in the order a user would reach for them. */
const SEPARATORS: [string, (t: TestResult) => string][] = [
  ['{file}', (t) => t.file ?? ''],
  ['{suite}', (t) => t.suite.join('.')],
  ['{classname}', (t) => t.classname ?? ''],
  ['{name}', (t) => t.name],
  ['{params}', (t) => t.params ?? ''],
];

/** The key a test is matched by: an explicit test case key, else its automationKey. */
export function testKeyOf(
  test: TestResult,
  match: Pick<MatchOptions, 'keyPattern' | 'automationKey'>,
): string {
  return explicitKeyOf(test, match.keyPattern) ?? automationKeyOf(test, match.automationKey);
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
    const identity = testIdentity(usesParams ? entry.test : { ...entry.test, params: undefined });
    let identities = byKey.get(key);
    if (!identities) byKey.set(key, (identities = new Map()));
    if (!identities.has(identity)) identities.set(identity, entry);
  });
  const collisions: KeyCollision[] = [];
  for (const [key, identities] of byKey) {
    if (identities.size < 2) continue;
    const group = [...identities.values()];
    const separatedBy = SEPARATORS.find(
      ([placeholder, value]) =>
        !automationKey.includes(placeholder) && new Set(group.map((g) => value(g.test))).size > 1,
    )?.[0];
    collisions.push({ key, tests: group, ...(separatedBy ? { separatedBy } : {}) });
  }
  return collisions;
}

/** The warning or error text: each group (first 10, then a count) with its tests' files. */
export function describeCollisions(
  collisions: KeyCollision[],
  setting: string,
  words: SettingWords = KEY_WORDS,
): string {
  const shown = collisions.slice(0, 10).map((c) => {
    const tests = c.tests
      .slice(0, 5)
      .map(({ test, file }) => {
        const name = oneLine(test.classname ? `${test.classname} › ${test.name}` : test.name);
        return `${name} (${oneLine(test.file ?? file)})`;
      })
      .join('; ');
    const more = c.tests.length > 5 ? `; and ${c.tests.length - 5} more` : '';
    const hint = c.separatedBy
      ? ` [${c.separatedBy} in ${words.name('automation-key')} tells them apart]`
      : ' [give each an explicit test case key]';
    return `  "${oneLine(c.key)}": ${c.tests.length} distinct tests: ${tests}${more}${hint}`;
  });
  const rest = collisions.length > 10 ? `\n  ... and ${collisions.length - 10} more keys` : '';
  return `${collisions.length} test case key(s) are shared by distinct tests, which would share one execution (${setting}):\n${shown.join('\n')}${rest}`;
}
