/** TestNG testng-results.xml (configuration methods are not tests). */
import type { ReportFormat } from '../format.js';
import { mergeRetries, type Outcome, type TestResult } from '../model.js';
import { attr, list, seconds, text, type XmlNode } from '../xml.js';

const STATUS: Record<string, Outcome> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };

export const testng: ReportFormat = {
  id: 'testng',
  label: 'TestNG testng-results.xml',
  kind: 'xml',
  detect: (s) => s.xmlRoot === 'testng-results',
  parse(doc) {
    const tests: TestResult[] = [];
    for (const suite of list((doc['testng-results'] as XmlNode).suite)) {
      for (const test of list(suite.test)) {
        for (const cls of list(test.class)) {
          for (const m of list(cls['test-method'])) {
            if (attr(m, 'is-config') === 'true') continue;
            const outcome = STATUS[attr(m, 'status') ?? ''] ?? 'error';
            const exception = list(m.exception)[0];
            const message = text(exception?.message)?.trim();
            const durationMs = seconds(String(Number(attr(m, 'duration-ms') ?? NaN) / 1000));
            tests.push({
              suite: [attr(suite, 'name'), attr(test, 'name')].filter((s): s is string => !!s),
              classname: attr(cls, 'name'),
              name: attr(m, 'name') ?? '',
              durationMs,
              outcome,
              message,
              details: text(exception?.['full-stacktrace']),
              attempts: [{ outcome, durationMs, message }],
              properties: attr(m, 'description') ? { description: attr(m, 'description')! } : {},
            });
          }
        }
      }
    }
    return mergeRetries(tests);
  },
};
