/** The publish result flattened to kebab-case outputs (DESIGN.md), annotations and the check run. */
import * as core from '@actions/core';
import { oneLine, plainText } from '../api/redact.js';
import { failedTests, gateOutcome, type PublishResult } from '../publish/index.js';
import type { ParsedReport, TestResult } from '../reports/model.js';

export function setCycleOutputs(cycle: PublishResult['cycle']): void {
  set({
    'cycle-id': cycle.id,
    'cycle-key': cycle.key,
    'cycle-name': cycle.name,
    'cycle-status': cycle.status,
  });
}

function set(out: Record<string, string | number | null>): void {
  for (const [name, value] of Object.entries(out))
    core.setOutput(name, value === null ? '' : String(value));
}

export function setOutputs(result: PublishResult): void {
  setCycleOutputs(result.cycle);
  set({
    passed: result.counts.passed,
    failed: result.counts.failed,
    blocked: result.counts.blocked,
    skipped: result.counts.skipped,
    'not-executed': result.counts.notExecuted,
    'in-progress': result.counts.inProgress,
    total: result.counts.total,
    'pass-rate': result.passRate,
    gate: gateOutcome(result),
    'gate-reasons': result.gate.reasons.join('\n'),
    // A dry run: what it would create and update (dry-run says so).
    created: result.dryRun?.create ?? result.writes.created,
    updated: result.dryRun?.update ?? result.writes.updated,
    unchanged: result.writes.unchanged,
    'cases-created': result.writes.casesCreated,
    unmatched: result.unmatched.length,
    requests: result.requests.total,
    'requests-retried': result.requests.retried,
    'rate-limited': result.requests.rateLimited,
    'dry-run': String(!!result.dryRun),
    'planned-requests': result.dryRun?.plannedRequests ?? '',
  });
}

const MAX_STEP_ANNOTATIONS = 10;

/** A failed test's annotation title: one line, at most GitHub's 255 characters. */
function titleOf(test: TestResult): string {
  return oneLine(test.classname ? `${test.classname} > ${test.name}` : test.name).slice(0, 255);
}

/** Error annotations for failed tests: at most 10 per step (GitHub's limit), the rest counted. */
export function annotate(reports: ParsedReport[]): void {
  const failed = failedTests(reports);
  for (const { t: test, file } of failed.slice(0, MAX_STEP_ANNOTATIONS)) {
    // The toolkit escapes line breaks in annotations; escape codes and odd breaks go here.
    core.error(plainText(test.message ?? 'failed').slice(0, 4000), {
      title: titleOf(test),
      file: oneLine(test.file ?? file),
      startLine: test.line,
    });
  }
  if (failed.length > MAX_STEP_ANNOTATIONS)
    core.notice(
      `${failed.length - MAX_STEP_ANNOTATIONS} more failed tests are not annotated (GitHub shows at most ${MAX_STEP_ANNOTATIONS} per step); see the job summary.`,
    );
}

/**
 * A check run's output.summary and an issue comment each hold at most 65,535 characters; bytes
 * bound characters, and the room left is for the comment's marker line.
 */
export const MAX_GITHUB_TEXT_BYTES = 65_536 - 512;
const ANNOTATIONS_PER_REQUEST = 50;

/**
 * A check run on the PR head (or the pushed commit); without permission (fork PRs) a notice.
 * `summary` is already cut to MAX_GITHUB_TEXT_BYTES.
 */
export async function createCheckRun(
  token: string,
  name: string,
  result: PublishResult,
  summary: string,
  reports: ParsedReport[],
): Promise<void> {
  // Loaded only when a check run is asked for: it is most of the bundle, and cold start matters.
  const github = await import('@actions/github');
  const ctx = github.context;
  const pr = ctx.payload.pull_request as { head?: { sha?: string } } | undefined;
  const run = ctx.payload.workflow_run as { head_sha?: string } | undefined;
  // The tested commit: the PR head, or the run that a workflow_run publishes for (fork PRs).
  const headSha = process.env.TESTCYCLE_SHA || pr?.head?.sha || run?.head_sha || ctx.sha;
  const octokit = github.getOctokit(token);
  const annotations = failedTests(reports).map(({ t: test, file }) => ({
    path: test.file ?? file,
    start_line: test.line ?? 1,
    end_line: test.line ?? 1,
    annotation_level: 'failure' as const,
    title: titleOf(test),
    message: plainText(test.message ?? 'failed').slice(0, 64_000),
  }));
  const conclusion = result.dryRun ? 'neutral' : result.gate.passed ? 'success' : 'failure';
  const title = result.dryRun
    ? `Dry run: would create ${result.dryRun.create}, update ${result.dryRun.update}`
    : result.gate.evaluated
      ? `${result.gate.passed ? 'Gate passed' : 'Gate failed'}: pass rate ${result.passRate ?? 'n/a'}%`
      : `Published ${result.counts.total} results`;
  try {
    const { data } = await octokit.rest.checks.create({
      ...ctx.repo,
      name,
      head_sha: headSha,
      status: 'completed',
      conclusion,
      output: { title, summary, annotations: annotations.slice(0, ANNOTATIONS_PER_REQUEST) },
    });
    for (let i = ANNOTATIONS_PER_REQUEST; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
      await octokit.rest.checks.update({
        ...ctx.repo,
        check_run_id: data.id,
        output: {
          title,
          summary,
          annotations: annotations.slice(i, i + ANNOTATIONS_PER_REQUEST),
        },
      });
    }
    core.info(
      `check run "${name}" created (${conclusion})${data.html_url ? `: ${data.html_url}` : ''}`,
    );
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 403 || status === 404) {
      core.notice(
        `No check run "${name}": the token may not write checks (fork PRs get a read-only token; see the workflow_run recipe in the README). The job summary has the results.`,
      );
      return;
    }
    core.warning(`Could not create the check run "${name}": ${(error as Error).message}`);
  }
}
