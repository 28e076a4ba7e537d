/** Cucumber JSON (cucumber-js, Cucumber-JVM, behave --format json): one test per scenario. */
import type { ReportFormat } from '../format.js';
import { foldRepeats, type Outcome, type TestResult } from '../model.js';
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
        // Hooks count: a failed Before hook fails the scenario while its steps are skipped.
        const steps = [...arr(scenario.before), ...arr(scenario.steps), ...arr(scenario.after)].map(
          (s) => obj(obj(s).result),
        );
        const statuses = steps.map((r) => str(r.status)?.toLowerCase() ?? 'skipped');
        const failedStep = steps.find((r) => str(r.status) === 'failed');
        const outcome = scenarioOutcome(statuses);
        // Step durations are nanoseconds.
        const durationNs = steps.reduce<number>((sum, r) => sum + (num(r.duration) ?? 0), 0);
        const durationMs = Math.round(durationNs / 1e6);
        const details = str(failedStep?.error_message);
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
          message: details?.split('\n')[0] ?? notPassedStep(statuses),
          details,
          properties: tags.length ? { tags: tags.join(',') } : {},
          // Background steps are listed with each scenario's; hooks are not steps of the case.
          steps: arr(scenario.steps)
            .map(obj)
            .filter((st) => st.hidden !== true)
            .map((st) => ({
              action: `${(str(st.keyword) ?? '').trim()} ${str(st.name) ?? ''}`.trim(),
            })),
        });
      }
    }
    return foldRepeats(tests);
  },
};

/**
 * A scenario's outcome from its step statuses (lower case), as Cucumber counts it in its default
 * strict mode: an undefined, pending or ambiguous step fails the scenario; a scenario whose steps
 * were all skipped (or that has none) is skipped.
 */
export function scenarioOutcome(statuses: readonly string[]): Outcome {
  if (statuses.some((s) => s === 'failed' || STRICT_FAILURES.has(s))) return 'failed';
  if (statuses.length === 0 || statuses.some((s) => s === 'skipped' || s === 'unknown'))
    return 'skipped';
  return 'passed';
}

const STRICT_FAILURES = new Set(['undefined', 'pending', 'ambiguous']);

/** The message for a scenario failed by strict mode: which kind of step failed it. */
export function notPassedStep(statuses: readonly string[]): string | undefined {
  const status = statuses.find((s) => STRICT_FAILURES.has(s));
  return status && `a step is ${status} (Cucumber's strict mode fails the scenario)`;
}
