/** TestNG testng-results.xml (configuration methods are not tests). */
import type { ReportFormat } from '../format.js';
import {
  testIdentity,
  withRetries,
  type Attempt,
  type Outcome,
  type TestResult,
} from '../model.js';
import { attr, list, seconds, text, type XmlNode } from '../xml.js';

const STATUS: Record<string, Outcome> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };

export const testng: ReportFormat = {
  id: 'testng',
  label: 'TestNG testng-results.xml',
  kind: 'xml',
  detect: (s) => s.xmlRoot === 'testng-results',
  parse(doc) {
    const tests: TestResult[] = [];
    // TestNG's retry analyzer writes each retried run as retried="true" (status SKIP, or the
    // failure it had), before the run that counts: they become that run's earlier attempts.
    const retried = new Map<string, Attempt[]>();
    for (const suite of list((doc['testng-results'] as XmlNode).suite)) {
      for (const test of list(suite.test)) {
        for (const cls of list(test.class)) {
          for (const m of list(cls['test-method'])) {
            if (attr(m, 'is-config') === 'true') continue;
            const outcome = STATUS[attr(m, 'status') ?? ''] ?? 'error';
            const exception = list(m.exception)[0];
            const message = text(exception?.message)?.trim();
            const durationMs = seconds(String(Number(attr(m, 'duration-ms') ?? NaN) / 1000));
            const result: TestResult = {
              suite: [attr(suite, 'name'), attr(test, 'name')].filter((s): s is string => !!s),
              classname: attr(cls, 'name'),
              name: attr(m, 'name') ?? '',
              params: params(m),
              durationMs,
              outcome,
              message,
              details: text(exception?.['full-stacktrace']),
              properties: attr(m, 'description') ? { description: attr(m, 'description')! } : {},
            };
            const identity = testIdentity(result);
            const earlier = retried.get(identity) ?? [];
            if (attr(m, 'retried') === 'true') {
              // A retried run failed (TestNG reports it as SKIP): a failure, not a skip.
              const failed = outcome === 'skipped' ? 'failed' : outcome;
              retried.set(identity, [...earlier, { outcome: failed, durationMs, message }]);
              continue;
            }
            retried.delete(identity);
            tests.push(withRetries(result, earlier));
          }
        }
      }
    }
    // Invocations (data providers, invocationCount) are tests of their own, as TestNG counts them.
    return tests;
  },
};

/** A data-provider invocation's parameters, `[1, "a"]`-like (TestNG writes each as text). */
function params(m: XmlNode): string | undefined {
  const values = list(m.params).flatMap((p) => list(p.param).map((one) => text(one.value) ?? ''));
  return values.length ? `[${values.map((v) => v.trim()).join(', ')}]` : undefined;
}
