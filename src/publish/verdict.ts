/**
 * The runner's verdict as the floor of the gate (docs/design.md "Run errors"): the run errors the
 * reports name, how the runner ended (runner-outcome, runner-exit-code), and the failed tests the
 * cycle does not hold. What the cycle cannot record, only the publish step can say.
 */
import type { RunnerOutcome } from '../shared/defaults.js';
import {
  describeRunError,
  runErrorsOf,
  type ParsedReport,
  type TestResult,
} from '../parsers/index.js';

export { describeRunError, runErrorsOf, type ReportRunError } from '../parsers/index.js';

export type { RunnerOutcome };

/** `on-run-error`: a run error fails the gate, or is named and warned of. */
export type OnRunError = 'fail' | 'warn';

/** How the runner ended, and the setting that said so, with the value given. */
export interface RunnerStatus {
  /** How the runner ended: success, failure, cancelled, skipped or timed_out. */
  outcome: RunnerOutcome;
  /** The setting that said it. */
  setting: 'runner-outcome' | 'runner-exit-code';
  /** What the setting said. */
  value: string;
}

export function isFailing(test: TestResult): boolean {
  return test.outcome === 'failed' || test.outcome === 'error';
}

/** The most run errors a gate names, one reason each; the rest are counted. */
const NAMED_RUN_ERRORS = 5;

/** What the floor needs: the reports, the run errors' setting and how the runner ended. */
export interface FloorInput {
  reports: readonly ParsedReport[];
  /** Absent: fail. */
  onRunError?: OnRunError;
  runner?: RunnerStatus;
}

/**
 * The reasons the gate fails whatever its thresholds say: the run errors (with `on-run-error`
 * fail), and a runner that failed while its reports show no failed test and no run error. Empty:
 * the floor holds.
 */
export function floorReasons({ reports, onRunError = 'fail', runner }: FloorInput): string[] {
  const errors = runErrorsOf(reports);
  const reasons: string[] = [];
  if (errors.length && onRunError === 'fail') {
    reasons.push(
      ...errors
        .slice(0, NAMED_RUN_ERRORS)
        .map((e) => `run error (on-run-error: fail): ${describeRunError(e)}`),
    );
    if (errors.length > NAMED_RUN_ERRORS)
      reasons.push(`and ${errors.length - NAMED_RUN_ERRORS} more run error(s)`);
  }
  if (runner && runnerFailed(runner) && errors.length === 0 && !anyFailing(reports))
    reasons.push(
      `the runner ${runner.outcome === 'cancelled' ? 'was cancelled' : 'failed'} (${runner.setting}: ${runner.value}), but its reports show no failed test and no run error: it failed for a reason they do not hold (a test file that did not load, an error outside the tests, a crash); see its log`,
    );
  return reasons;
}

/** The most run errors the log names, one line each; the rest are counted. */
const LOGGED_RUN_ERRORS = 20;

/**
 * The floor's lines for the log, before any request: each run error (they are in no cycle, so
 * the log and the summary are where people see them), whether they count, and a runner step that
 * did not run.
 */
export function floorWarnings({ reports, onRunError = 'fail', runner }: FloorInput): string[] {
  const errors = runErrorsOf(reports);
  const warnings = errors
    .slice(0, LOGGED_RUN_ERRORS)
    .map((e) => `run error: ${describeRunError(e)}`);
  if (errors.length > LOGGED_RUN_ERRORS)
    warnings.push(`and ${errors.length - LOGGED_RUN_ERRORS} more run error(s)`);
  if (errors.length)
    warnings.push(
      onRunError === 'fail'
        ? `${errors.length} run error(s) in the reports: the gate fails on them after the results are written (on-run-error: fail; warn lets them pass)`
        : `${errors.length} run error(s) in the reports, not counted against the gate (on-run-error: warn)`,
    );
  if (runner?.outcome === 'skipped')
    warnings.push(
      `${runner.setting}: skipped: the runner's step did not run in this job, so these reports are not its run; they are published as they are`,
    );
  return warnings;
}

function runnerFailed(runner: RunnerStatus): boolean {
  return runner.outcome !== 'success' && runner.outcome !== 'skipped';
}

function anyFailing(reports: readonly ParsedReport[]): boolean {
  return reports.some((r) => r.tests.some(isFailing));
}

/** Failed tests of the reports that the cycle will not hold, by why. */
export interface LeftOut {
  unmatched: number;
  collided: number;
}

/**
 * Failed tests the cycle does not hold are in no count a threshold, or a later gate, reads, so
 * they fail the gate by name, with or without thresholds (docs/design.md "Run errors": a name cut
 * short, a collision or a missing case cannot pass a failure).
 */
export function leftOutReason({ unmatched, collided }: LeftOut): string | undefined {
  const total = unmatched + collided;
  if (total === 0) return undefined;
  const why = [
    unmatched ? `${unmatched} match no test case` : '',
    collided ? `${collided} left out for a key collision` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${total} test(s) failed in the reports but are not in the cycle (${why}), so no threshold counted them`;
}
