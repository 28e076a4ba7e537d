/** TestNG testng-results.xml (configuration methods are not tests). */
import type { ReportFormat } from '../base/format.js';
import {
  addNamed,
  testIdentity,
  withRetries,
  type Attempt,
  type Outcome,
  type TestResult,
} from '../base/model.js';
import { attr, list, seconds, text, type XmlNode } from '../base/xml.js';

const STATUS: Record<string, Outcome> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };

export const testng: ReportFormat = {
  id: 'testng',
  label: 'TestNG testng-results.xml',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) => s.xmlRoot === 'testng-results',
  parse(doc) {
    const runs: { result: TestResult; identity: string; retried: boolean }[] = [];
    for (const suite of list((doc['testng-results'] as XmlNode).suite)) {
      const groups = groupsOf(suite);
      for (const test of list(suite.test)) {
        for (const cls of list(test.class)) {
          for (const m of list(cls['test-method'])) {
            if (attr(m, 'is-config') === 'true') continue;
            const outcome = STATUS[attr(m, 'status') ?? ''] ?? 'error';
            const exception = list(m.exception)[0];
            const result: TestResult = {
              suite: [attr(suite, 'name'), attr(test, 'name')].filter((s): s is string => !!s),
              classname: attr(cls, 'name'),
              name: attr(m, 'name') ?? '',
              params: params(m),
              durationMs: seconds(String(Number(attr(m, 'duration-ms') ?? NaN) / 1000)),
              outcome,
              message: text(exception?.message)?.trim(),
              details: text(exception?.['full-stacktrace']),
              properties: propertiesOf(m, groups.get(`${attr(cls, 'name')}#${attr(m, 'name')}`)),
            };
            // The retry analyzer's mark: retried="true" (TestNG 7), or, before it (6.x), a SKIP
            // that carries the failure's exception; only a later run of the same test makes it one.
            const retried =
              attr(m, 'retried') === 'true' || (outcome === 'skipped' && exception !== undefined);
            runs.push({ result, identity: testIdentity(result), retried });
          }
        }
      }
    }
    const later = new Map<string, number>();
    for (const run of runs) later.set(run.identity, (later.get(run.identity) ?? 0) + 1);
    const tests: TestResult[] = [];
    const earlier = new Map<string, Attempt[]>();
    for (const { result, identity, retried } of runs) {
      const remaining = later.get(identity)! - 1;
      later.set(identity, remaining);
      const before = earlier.get(identity) ?? [];
      if (retried && remaining > 0) {
        // A retried run failed; TestNG reports it as SKIP so that it does not count.
        const { durationMs, message } = result;
        const outcome = result.outcome === 'skipped' ? 'failed' : result.outcome;
        earlier.set(identity, [...before, { outcome, durationMs, message }]);
        continue;
      }
      earlier.delete(identity);
      tests.push(withRetries(result, before));
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

/**
 * A test method's description, its attributes (`ITestResult.setAttribute`, as Xray's TestNG
 * extension writes `requirement` and `test`) and its groups, as `tags`.
 */
function propertiesOf(m: XmlNode, groups: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const description = attr(m, 'description');
  if (description) out.description = description;
  for (const group of list(m.attributes))
    for (const a of list(group.attribute)) {
      const name = attr(a, 'name');
      if (name) addNamed(out, name, text(a)?.trim() ?? '');
    }
  if (groups) out.tags = groups;
  return out;
}

/** The suite's `<groups>`: each method (`class#name`) with its groups, comma-separated. */
function groupsOf(suite: XmlNode): Map<string, string> {
  const out: Record<string, string> = {};
  for (const all of list(suite.groups))
    for (const group of list(all.group)) {
      const name = attr(group, 'name');
      if (name)
        for (const method of list(group.method))
          addNamed(out, `${attr(method, 'class')}#${attr(method, 'name')}`, name);
    }
  return new Map(Object.entries(out));
}
