/** Cucumber JSON (cucumber-js, Cucumber-JVM, behave --format json): one test per scenario. */
import type { ReportFormat } from '../format.js';
import { mergeRetries, type Outcome, type TestResult } from '../model.js';
import { arr, num, obj, str } from './json-util.js';

export const cucumber: ReportFormat = {
  id: 'cucumber',
  label: 'Cucumber JSON',
  kind: 'json',
  detect: (s) =>
    s.head.trimStart().startsWith('[') &&
    /"elements"\s*:/.test(s.head) &&
    /"keyword"\s*:/.test(s.head),
  parse(doc) {
    const tests: TestResult[] = [];
    for (const featureValue of arr(doc)) {
      const feature = obj(featureValue);
      const featureName = str(feature.name) ?? '';
      for (const elementValue of arr(feature.elements)) {
        const scenario = obj(elementValue);
        if (str(scenario.type) === 'background') continue;
        const statuses = arr(scenario.steps).map(
          (s) => str(obj(obj(s).result).status) ?? 'skipped',
        );
        const failedStep = arr(scenario.steps)
          .map(obj)
          .find((s) => str(obj(s.result).status) === 'failed');
        let outcome: Outcome = 'passed';
        if (statuses.some((s) => s === 'failed' || s === 'ambiguous')) outcome = 'failed';
        else if (
          statuses.length === 0 ||
          statuses.some((s) => s === 'undefined' || s === 'pending' || s === 'skipped')
        )
          outcome = 'skipped';
        // Step durations are nanoseconds.
        const durationNs = arr(scenario.steps).reduce<number>(
          (sum, s) => sum + (num(obj(obj(s).result).duration) ?? 0),
          0,
        );
        const durationMs = Math.round(durationNs / 1e6);
        const message = str(obj(failedStep?.result).error_message)?.split('\n')[0];
        const tags = arr(scenario.tags)
          .map((t) => str(obj(t).name))
          .filter((t): t is string => !!t);
        tests.push({
          suite: [featureName],
          classname: featureName,
          name: str(scenario.name) ?? '',
          file: str(feature.uri),
          line: num(scenario.line),
          durationMs,
          outcome,
          message,
          details: str(obj(failedStep?.result).error_message),
          attempts: [{ outcome, durationMs, message }],
          properties: tags.length ? { tags: tags.join(',') } : {},
        });
      }
    }
    return mergeRetries(
      tests,
      (t) => `${t.file ?? ''}\u0000${t.classname}\u0000${t.name}\u0000${t.line ?? ''}`,
    );
  },
};
