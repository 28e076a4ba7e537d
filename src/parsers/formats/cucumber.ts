/** Cucumber JSON (cucumber-js, Cucumber-JVM, behave --format json): one test per scenario. */
import type { ReportFormat } from '../base/format.js';
import {
  foldRepeats,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { arr, type Json, num, obj, str } from './json-util.js';

export const cucumber: ReportFormat = {
  id: 'cucumber',
  label: 'Cucumber JSON',
  kind: 'json',
  extensions: ['json'],
  detect: (s) =>
    s.head.trimStart().startsWith('[') &&
    /"elements"\s*:/.test(s.head) &&
    /"keyword"\s*:/.test(s.head),
  parse(doc) {
    const tests: TestResult[] = [];
    const runErrors: RunError[] = [];
    for (const featureValue of arr(doc)) {
      const feature = obj(featureValue);
      const featureName = str(feature.name) ?? '';
      const behave = isBehaveFeature(feature);
      const featureFile = behave ? behaveLocation(feature.location).file : str(feature.uri);
      const featureTags = behave ? tagNames(feature.tags) : [];
      for (const elementValue of arr(feature.elements)) {
        const scenario = obj(elementValue);
        if (str(scenario.type) === 'background') continue;
        // Hooks count: a failed Before hook fails the scenario while its steps are skipped.
        const steps = [...arr(scenario.before), ...arr(scenario.steps), ...arr(scenario.after)].map(
          (s) => obj(obj(s).result),
        );
        const statuses = steps.map((r) => str(r.status)?.toLowerCase() ?? 'skipped');
        const failedStep = steps.find((r) => str(r.status) === 'failed');
        const details = textOf(failedStep?.error_message);
        const exception = behave ? pythonException(details) : undefined;
        // behave's JUnit tells an exception other than an assertion as an error: so does this.
        const outcome =
          exception && !/^AssertionError\b/.test(exception) ? 'error' : scenarioOutcome(statuses);
        // Step durations are nanoseconds; behave's are seconds.
        const duration = steps.reduce<number>((sum, r) => sum + (num(r.duration) ?? 0), 0);
        const durationMs = Math.round(behave ? duration * 1e3 : duration / 1e6);
        for (const step of arr(scenario.steps).map(obj)) {
          const status = str(obj(step.result).status)?.toLowerCase();
          if (status !== 'undefined' && status !== 'ambiguous') continue;
          const line = behave ? behaveLocation(step.location).line : num(step.line);
          runErrors.push(
            stepError(status, `${(str(step.keyword) ?? '').trim()} ${str(step.name) ?? ''}`, {
              file: featureFile,
              suite: featureName,
              line,
            }),
          );
        }
        const tags = [...new Set([...featureTags, ...tagNames(scenario.tags)])];
        tests.push({
          suite: [featureName],
          classname: featureName,
          name: str(scenario.name) ?? '',
          file: featureFile,
          line: behave ? behaveLocation(scenario.location).line : num(scenario.line),
          durationMs,
          outcome,
          message: exception ?? details?.split('\n')[0] ?? notPassedStep(statuses),
          details,
          properties: tags.length ? { tags: tags.join(',') } : {},
          // Background steps are listed with each scenario's; hooks are not steps of the case.
          steps: arr(scenario.steps)
            .map(obj)
            .filter((st) => st.hidden !== true)
            .map((st) => ({
              action: gherkinStep(
                `${(str(st.keyword) ?? '').trim()} ${str(st.name) ?? ''}`.trim(),
                jsonArgument(st),
              ),
            })),
        });
      }
    }
    return withRunErrors(foldRepeats(tests), runErrors);
  },
};

/**
 * A step no step definition matches (undefined) or two match (ambiguous): the suite's code, not
 * the scenario, is wrong (docs/design.md "Run errors"). The scenario still fails, as Cucumber's
 * strict mode counts it; the step is named once more as a run error, so that it fails the gate
 * even when the scenario's result is quarantined or left out. One per step and place.
 */
export function stepError(
  status: 'undefined' | 'ambiguous',
  step: string,
  where: { file?: string; suite?: string; line?: number },
): RunError {
  const at = where.file ? ` (${where.file}${where.line ? `:${where.line}` : ''})` : '';
  return {
    ...(where.file ? { file: where.file } : {}),
    ...(where.suite ? { suite: where.suite } : {}),
    message: `${status} step: ${step.trim()}${at}`,
  };
}

/**
 * behave's JSON (behave/formatter/json.py, 1.2.6) has Cucumber's shape with its own fields: a
 * `location` ("features/x.feature:5", relative to where behave ran) on features and scenarios
 * instead of `uri` and `line`, tags as plain strings (a feature's only on the feature), step
 * durations in seconds, and an `error_message` (and a step's doc string, `text`) split into a
 * list of lines when it has several. Recognised by the feature's `location` where Cucumber writes
 * `uri`.
 */
function isBehaveFeature(feature: Json): boolean {
  return feature.uri === undefined && str(feature.location) !== undefined;
}

/** behave's `location`: the file, then `:line` where behave knows the line. */
function behaveLocation(value: unknown): { file?: string; line?: number } {
  const location = str(value);
  if (!location) return {};
  const colon = location.lastIndexOf(':');
  const digits = location.slice(colon + 1);
  if (colon <= 0 || !/^[1-9]\d*$/.test(digits)) return { file: location };
  return { file: location.slice(0, colon), line: Number(digits) };
}

/** Tags as Cucumber writes them (`{name: "@tag"}`), and behave's (`"tag"`) as the feature writes them. */
function tagNames(value: unknown): string[] {
  return arr(value)
    .map((t) => (typeof t === 'string' ? t && `@${t}` : str(obj(t).name)))
    .filter((t): t is string => !!t);
}

/**
 * The exception a behave step's error_message names where it is a Python traceback (behave writes
 * one for an exception other than an assertion with a message, which it writes as "Assertion
 * Failed: ..."; behave/model.py, Step.run): the line after the last traceback's frames, which are
 * indented; what behave captured may follow it.
 */
function pythonException(details: string | undefined): string | undefined {
  const header = 'Traceback (most recent call last):\n';
  const at = details?.lastIndexOf(header) ?? -1;
  if (at < 0 || (at > 0 && details![at - 1] !== '\n')) return undefined;
  return details!
    .slice(at + header.length)
    .split('\n')
    .find((line) => line !== '' && !line.startsWith(' '));
}

/** A text as Cucumber writes it, or as behave writes one of several lines: the list of its lines. */
function textOf(value: unknown): string | undefined {
  if (!Array.isArray(value)) return str(value);
  const lines = value.map((line) => str(line) ?? '');
  return lines.length ? lines.join('\n') : undefined;
}

/**
 * A step's data table or doc string (docs/design.md "Sync": steps), as Gherkin passes it to the
 * step: the rows' cells, or the doc string's content (its media type is left out: cucumber-js's
 * JSON formatter does not write it, and both Cucumber formats must give one step).
 */
export type StepArgument = { rows: string[][] } | { docString: string };

/**
 * The argument of a Cucumber JSON step: cucumber-js writes `arguments` (`{rows: [{cells}]}` or
 * `{content}`); Cucumber-JVM and Ruby write `rows` and `doc_string.value` on the step itself;
 * behave writes `table` (`{headings, rows}`, each row a list of cells) and `text` on the step,
 * split into a list of its lines where it has several (behave/formatter/json.py).
 */
function jsonArgument(step: Json): StepArgument | undefined {
  const rowsOf = (value: unknown) =>
    arr(value).map((row) => arr(obj(row).cells).map((cell) => str(cell) ?? ''));
  for (const argument of arr(step.arguments).map(obj)) {
    if (Array.isArray(argument.rows)) return { rows: rowsOf(argument.rows) };
    const content = str(argument.content);
    if (content !== undefined) return { docString: content };
  }
  if (Array.isArray(step.rows)) return { rows: rowsOf(step.rows) };
  const table = obj(step.table);
  if (Array.isArray(table.rows)) {
    const cells = (row: unknown) => arr(row).map((cell) => str(cell) ?? '');
    return { rows: [cells(table.headings), ...arr(table.rows).map(cells)] };
  }
  const text = textOf(step.text);
  if (text !== undefined) return { docString: text };
  const doc = obj(step.doc_string);
  const value = str(doc.value) ?? str(doc.content);
  return value === undefined ? undefined : { docString: value };
}

/**
 * A Gherkin step as one plain text (the test step's `action`): its keyword and text, then its
 * argument on the lines below as the feature file writes it: a data table as `| a | b |` rows,
 * columns padded, `|` and `\` in a cell escaped as Gherkin escapes them; a doc string between
 * `"""` lines, a `"""` inside it escaped (`\"\"\"`) as Gherkin writes it. Plain text, never
 * Markdown: no header separator row, no code fence.
 */
export function gherkinStep(text: string, argument: StepArgument | undefined): string {
  if (!argument) return text;
  if ('docString' in argument)
    // Inside, `"""` is written as Gherkin escapes it, so the closing line stays the only one.
    return `${text}\n"""\n${argument.docString.replaceAll('"""', '\\"\\"\\"')}\n"""`;
  const rows = argument.rows.map((row) =>
    row.map((cell) => cell.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')),
  );
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length)).join(' | ')} |`;
  return [text, ...rows.map(line)].join('\n');
}

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
