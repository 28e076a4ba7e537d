/** `rspec --format json`. */
import type { ReportFormat } from '../base/format.js';
import {
  foldRepeats,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str } from './json-util.js';

const STATUS: Record<string, Outcome> = { passed: 'passed', failed: 'failed', pending: 'skipped' };

export const rspec: ReportFormat = {
  id: 'rspec',
  label: 'RSpec JSON (rspec --format json)',
  kind: 'json',
  extensions: ['json'],
  detect: (s) =>
    /"examples"\s*:/.test(s.head) ||
    (/"summary_line"\s*:/.test(s.head) && /"version"\s*:/.test(s.head)),
  parse(doc) {
    const root = obj(doc);
    const tests = arr(root.examples).map((value): TestResult => {
      const e = obj(value);
      const outcome = STATUS[str(e.status) ?? ''] ?? 'error';
      const exception = obj(e.exception);
      const full = str(e.full_description) ?? '';
      const description = str(e.description) ?? full;
      const group = full.endsWith(description)
        ? full.slice(0, full.length - description.length).trim()
        : '';
      const durationMs =
        num(e.run_time) === undefined ? undefined : Math.round(num(e.run_time)! * 1000);
      const message = str(exception.message) ?? str(e.pending_message);
      return {
        suite: group ? [group] : [],
        classname: group || undefined,
        name: description,
        file: str(e.file_path)?.replace(/^\.\//, ''),
        // RSpec's name of the example, which rspec_junit_formatter writes as name too.
        fullName: full,
        line: num(e.line_number),
        durationMs,
        outcome,
        message,
        details:
          arr(exception.backtrace)
            .filter((l) => typeof l === 'string')
            .join('\n') || undefined,
        attempts: [{ outcome, durationMs, message }],
        properties: {},
      };
    });
    return withRunErrors(foldRepeats(tests), errorsOutsideExamples(root));
  },
};

/**
 * RSpec's errors outside of examples (docs/design.md "Run errors"): a spec file that failed to
 * load (RSpec then runs no example at all) or a hook outside the examples, such as
 * `after(:context)`, that raised. `summary.errors_outside_of_examples_count` counts them and
 * `messages` holds each ("An error occurred while loading ./spec/x_spec.rb.", then the
 * exception): samples/rspec/reports/run-errors.
 */
function errorsOutsideExamples(root: Record<string, unknown>): RunError[] {
  const counted = num(obj(root.summary).errors_outside_of_examples_count) ?? 0;
  if (counted === 0) return [];
  const errors = arr(root.messages)
    .filter((m): m is string => typeof m === 'string' && /^\s*An error occurred/.test(m))
    .map((m): RunError => {
      const lines = m.split('\n').map((l) => l.trim());
      const heading = lines.find(Boolean)!;
      // The exception's class line (`LoadError:`), then its message.
      const at = lines.findIndex((l) => /^[A-Z][\w:]*:$/.test(l));
      const reason = at >= 0 ? `${lines[at]} ${lines[at + 1] ?? ''}`.trim() : undefined;
      const file =
        /while loading (\S+?)\.?$/.exec(heading)?.[1] ?? /^# (\S+?):\d+:in /m.exec(m)?.[1];
      return {
        ...(file ? { file: file.replace(/^\.\//, '') } : {}),
        message: reason ? `${heading} ${reason}` : heading,
      };
    });
  if (counted > errors.length)
    errors.push({
      message: `RSpec counts ${counted} error(s) outside of examples (errors_outside_of_examples_count), the report names ${errors.length}`,
    });
  return errors;
}
