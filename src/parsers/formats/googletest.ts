/** googletest's JSON output (`--gtest_output=json`): test suites, their tests in `testsuite`. */
import type { ReportFormat } from '../base/format.js';
import { foldRepeats, NO_PROPERTIES, type Outcome, type TestResult } from '../base/model.js';
import { arr, num, obj, str } from './json-util.js';

/** The fields googletest writes on a test; any other string is a RecordProperty. */
const FIELDS = new Set([
  'name',
  'file',
  'line',
  'status',
  'result',
  'timestamp',
  'time',
  'classname',
  'failures',
  'value_param',
  'type_param',
]);

export const googletest: ReportFormat = {
  id: 'googletest',
  label: 'googletest JSON (--gtest_output=json)',
  kind: 'json',
  extensions: ['json'],
  detect: (s) => /"testsuites"\s*:\s*\[/.test(s.head) && /"disabled"\s*:/.test(s.head),
  parse(doc) {
    const tests: TestResult[] = [];
    for (const suiteValue of arr(obj(doc).testsuites)) {
      const suite = obj(suiteValue);
      const suiteName = text(str(suite.name));
      for (const value of arr(suite.testsuite)) {
        const t = obj(value);
        const failures = arr(t.failures)
          .map((f) => text(str(obj(f).failure)))
          .filter((f): f is string => f !== undefined);
        const result = str(t.result)?.toUpperCase();
        // Disabled tests are status NOTRUN (result SUPPRESSED), GTEST_SKIP() result SKIPPED.
        const outcome: Outcome = failures.length
          ? 'failed'
          : result === 'SKIPPED' || result === 'SUPPRESSED' || str(t.status) === 'NOTRUN'
            ? 'skipped'
            : 'passed';
        const seconds = /^(\d+(?:\.\d+)?)s$/.exec(str(t.time) ?? '');
        let properties = NO_PROPERTIES;
        for (const [key, v] of Object.entries(t)) {
          if (FIELDS.has(key) || typeof v !== 'string') continue;
          if (properties === NO_PROPERTIES) properties = {};
          properties[key] = text(v)!;
        }
        tests.push({
          suite: suiteName ? [suiteName] : [],
          // googletest's name of a test, Suite.Test, as its XML output writes it (junit).
          classname: text(str(t.classname)) ?? suiteName,
          name: text(str(t.name)) ?? '',
          file: text(str(t.file)),
          line: num(t.line),
          durationMs: seconds ? Math.round(Number(seconds[1]) * 1000) : undefined,
          outcome,
          message: failures[0],
          details: failures.join('\n\n') || undefined,
          properties,
        });
      }
    }
    // No retries in googletest (--gtest_repeat runs everything again): repeats by the sequence rule.
    return foldRepeats(tests);
  },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * googletest up to 1.12 writes each byte of a UTF-8 name as its own `\u00XX` escape, so the
 * decoded JSON holds mojibake (`Unicode_Ã©` for `Unicode_é`) where its XML output holds the text:
 * a string of such characters that is valid UTF-8 as bytes is read as those bytes. Text a later
 * googletest escapes right (one `\u00e9` for é) is not valid UTF-8 as bytes and stays as it is.
 */
function text(value: string | undefined): string | undefined {
  if (value === undefined || !/[\u0080-\u00ff]/.test(value) || /[\u0100-\uffff]/.test(value))
    return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
