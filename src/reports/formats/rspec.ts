/** `rspec --format json`. */
import type { ReportFormat } from '../format.js';
import { foldRepeats, type Outcome, type TestResult } from '../model.js';
import { arr, num, obj, str } from './json-util.js';

const STATUS: Record<string, Outcome> = { passed: 'passed', failed: 'failed', pending: 'skipped' };

export const rspec: ReportFormat = {
  id: 'rspec',
  label: 'RSpec JSON (rspec --format json)',
  kind: 'json',
  detect: (s) =>
    /"examples"\s*:/.test(s.head) ||
    (/"summary_line"\s*:/.test(s.head) && /"version"\s*:/.test(s.head)),
  parse(doc) {
    const tests = arr(obj(doc).examples).map((value): TestResult => {
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
    return foldRepeats(tests);
  },
};
