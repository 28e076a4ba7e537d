/** `mocha --reporter json`. */
import type { ReportFormat } from '../base/format.js';
import {
  firstLine,
  withRetries,
  type Outcome,
  type ParsedTests,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str } from './json-util.js';

export const mocha: ReportFormat = {
  id: 'mocha',
  label: 'Mocha JSON (mocha --reporter json)',
  kind: 'json',
  extensions: ['json'],
  detect: (s) =>
    /"stats"\s*:/.test(s.head) &&
    /"(passes|pending|failures|suites)"\s*:/.test(s.head) &&
    !/"examples"\s*:/.test(s.head),
  parse(doc) {
    const root = obj(doc);
    const key = (t: Record<string, unknown>) =>
      `${str(t.file) ?? ''}\u0000${str(t.fullTitle) ?? ''}`;
    const pending = new Set(arr(root.pending).map((t) => key(obj(t))));
    // A hook that threw ("after all" hook for "reads") is listed among the failures, never among
    // the tests: a run error of its suite, or a red run (mocha exits non-zero) reads green.
    const runErrors: RunError[] = arr(root.failures)
      .map(obj)
      .filter((t) => HOOK.test(str(t.title) ?? ''))
      .map((t) => {
        const title = str(t.title)!;
        const suite = (str(t.fullTitle) ?? '').slice(0, -title.length).trim();
        return {
          ...(str(t.file) ? { file: str(t.file) } : {}),
          ...(suite ? { suite } : {}),
          message: `${title}: ${firstLine(str(obj(t.err).message)) ?? 'failed'}`,
        };
      });
    const all = Array.isArray(root.tests)
      ? arr(root.tests)
      : [...arr(root.passes), ...arr(root.failures), ...arr(root.pending)].filter(
          (t) => !HOOK.test(str(obj(t).title) ?? ''),
        );
    const tests = all.map((value): TestResult => {
      const t = obj(value);
      const err = obj(t.err);
      const outcome: Outcome =
        pending.has(key(t)) || t.pending === true
          ? 'skipped'
          : Object.keys(err).length
            ? isRuntimeError(err)
              ? 'error'
              : 'failed'
            : 'passed';
      const fullTitle = str(t.fullTitle) ?? str(t.title) ?? '';
      const title = str(t.title) ?? fullTitle;
      const prefix = fullTitle.endsWith(title)
        ? fullTitle.slice(0, fullTitle.length - title.length).trim()
        : '';
      const message = str(err.message);
      const durationMs = num(t.duration);
      // mocha lists a retried test once, its final run, with the number of retries it took.
      const retries = Math.min(num(t.currentRetry) ?? 0, 1000);
      const earlier = Array.from({ length: retries }, () => ({ outcome: 'failed' as const }));
      return withRetries(
        {
          suite: prefix ? [prefix] : [],
          classname: prefix || undefined,
          name: title,
          file: str(t.file),
          // mocha's name of the test, which all its reporters write (src/parsers/formats/junit.ts).
          fullName: fullTitle,
          durationMs,
          outcome,
          message,
          details: str(err.stack),
          properties: {},
        },
        earlier,
      );
    });
    // Retries are marked (currentRetry): entries that repeat an identity are invocations.
    const parsed: ParsedTests = Object.assign(tests, runErrors.length ? { runErrors } : {});
    return parsed;
  },
};

/** Mocha's title of a hook: `"before all" hook`, `"after each" hook for "adds"`, `... in "math"`. */
const HOOK = /^"(?:before|after) (?:all|each)" hook\b/;

/** An exception the test did not expect (JUnit's error), as opposed to a failed assertion. */
function isRuntimeError(err: Record<string, unknown>): boolean {
  const name = str(err.name) ?? /^(\w+)(?::|\n|$)/.exec(str(err.stack) ?? '')?.[1];
  return (
    name === 'Error' ||
    name === 'TypeError' ||
    name === 'ReferenceError' ||
    name === 'RangeError' ||
    name === 'SyntaxError'
  );
}
