/**
 * The publish result flattened to kebab-case outputs (docs/design.md), annotations and the check run.
 * Everything here is posted to GitHub, where no runner masks anything: each text passes the run's
 * Redactor, and data that people read is neutralised (src/shared/redact.ts).
 */
import * as core from '@actions/core';
import { clip, neutralise, oneLine, plainText, type Redactor } from '../shared/redact.js';
import {
  failedTests,
  gateOutcome,
  type ParsedReport,
  type PublishResult,
  type SyncResult,
  type TestResult,
} from '../job/index.js';

/**
 * Every output the action sets, in action.yml's order: setOutput takes no other name, and
 * __tests__/docs.test.ts holds action.yml's `outputs:` to this list.
 */
export const ACTION_OUTPUTS = [
  'cycle-id',
  'cycle-key',
  'cycle-name',
  'cycle-status',
  'passed',
  'failed',
  'blocked',
  'skipped',
  'not-executed',
  'in-progress',
  'total',
  'pass-rate',
  'gate',
  'gate-reasons',
  'run-errors',
  'created',
  'updated',
  'unchanged',
  'cases-created',
  'cases-updated',
  'cases-archived',
  'unmatched',
  'populated',
  'requests',
  'requests-retried',
  'html-file',
  'cycles',
  'rate-limited',
  'dry-run',
  'planned-requests',
  'quarantined',
  'new-failures',
  'fixed',
] as const;

export type ActionOutput = (typeof ACTION_OUTPUTS)[number];

/** One step output; null is empty. Outputs feed later steps and logs: the token in none. */
export function setOutput(
  name: ActionOutput,
  value: string | number | null,
  secrets: Redactor,
): void {
  core.setOutput(name, value === null ? '' : secrets.redact(String(value)));
}

function set(out: Partial<Record<ActionOutput, string | number | null>>, secrets: Redactor): void {
  for (const [name, value] of Object.entries(out) as [ActionOutput, string | number | null][])
    setOutput(name, value, secrets);
}

export function setCycleOutputs(cycle: PublishResult['cycle'], secrets: Redactor): void {
  set(
    {
      'cycle-id': cycle.id,
      'cycle-key': cycle.key,
      'cycle-name': cycle.name,
      'cycle-status': cycle.status,
    },
    secrets,
  );
}

export function setOutputs(result: PublishResult, secrets: Redactor): void {
  setCycleOutputs(result.cycle, secrets);
  set(
    {
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
      'run-errors': result.runErrors?.length ?? 0,
      // A dry run: what it would create and update (dry-run says so).
      created: result.dryRun?.create ?? result.writes.created,
      updated: result.dryRun?.update ?? result.writes.updated,
      unchanged: result.writes.unchanged,
      'cases-created': result.dryRun?.casesToCreate ?? result.writes.casesCreated,
      unmatched: result.unmatched.length,
      requests: result.requests.total,
      'requests-retried': result.requests.retried,
      'rate-limited': result.requests.rateLimited,
      'dry-run': String(!!result.dryRun),
      'planned-requests': result.dryRun?.plannedRequests ?? '',
      // Triage (src/triage/triage.ts): keys, one per line, so later steps can list them.
      quarantined: result.triage?.quarantined.length ?? 0,
      'new-failures': (result.triage?.newFailures ?? []).map((t) => t.key).join('\n'),
      fixed: (result.triage?.fixed ?? []).map((t) => t.key).join('\n'),
    },
    secrets,
  );
}

const MAX_STEP_ANNOTATIONS = 10;

/**
 * GitHub's limits (docs.github.com/rest/checks/runs, /rest/issues/comments): a check run's
 * output.summary and output.text and an issue comment's body hold at most 65,535 characters
 * (bytes bound characters; the room left is for the comment's marker line); an annotation's title
 * 255 characters, its message 64 KB; 50 annotations per request.
 */
export const MAX_GITHUB_TEXT_BYTES = 65_536 - 512;
const MAX_TITLE_CHARS = 255;
const MAX_ANNOTATION_CHARS = 16_000; // 4 bytes a character at most: under 64 KB
const ANNOTATIONS_PER_REQUEST = 50;

/** Data that people read on GitHub: one line, inert, without secrets, at most `max` characters. */
function shown(text: string, secrets: Redactor, max: number): string {
  return clip(neutralise(secrets.redact(oneLine(text))), max);
}

/** A failed test's annotation title: one line, at most GitHub's 255 characters. */
function titleOf(test: TestResult, secrets: Redactor): string {
  return shown(
    test.classname ? `${test.classname} > ${test.name}` : test.name,
    secrets,
    MAX_TITLE_CHARS,
  );
}

/** A failed test's message, line breaks kept (the toolkit escapes them in a step annotation). */
function messageOf(test: TestResult, secrets: Redactor, max: number): string {
  return clip(neutralise(secrets.redact(plainText(test.message ?? 'failed'))), max);
}

/** Error annotations for failed tests: at most 10 per step (GitHub's limit), the rest counted. */
export function annotate(reports: ParsedReport[], secrets: Redactor): void {
  const failed = failedTests(reports);
  for (const { t: test, file } of failed.slice(0, MAX_STEP_ANNOTATIONS)) {
    core.error(messageOf(test, secrets, 4000), {
      title: titleOf(test, secrets),
      file: secrets.redact(oneLine(test.file ?? file)),
      startLine: test.line,
    });
  }
  if (failed.length > MAX_STEP_ANNOTATIONS)
    core.notice(
      `${failed.length - MAX_STEP_ANNOTATIONS} more failed tests are not annotated (GitHub shows at most ${MAX_STEP_ANNOTATIONS} per step); see the job summary.`,
    );
}

export interface CheckRunRequest {
  token: string;
  name: string;
  result: PublishResult;
  /** Already cut to MAX_GITHUB_TEXT_BYTES and redacted. */
  summary: string;
  reports: ParsedReport[];
  /** Input max-annotations: failed tests annotated on the check run. */
  maxAnnotations: number;
  secrets: Redactor;
}

/**
 * A check run on the PR head (or the pushed commit); without permission (fork PRs) a notice.
 * At most `maxAnnotations` annotations, 50 a request (annotations append on each update). The
 * summary is sent once: with more than one batch, the run is created in progress with a one-line
 * summary, and the last request completes it with the real one (an update's output replaces the
 * summary, so the full text goes last).
 */
export async function createCheckRun(request: CheckRunRequest): Promise<void> {
  const { name, result, summary, secrets } = request;
  // Loaded only when a check run is asked for: it is most of the bundle, and cold start matters.
  const github = await import('@actions/github');
  const ctx = github.context;
  const pr = ctx.payload.pull_request as { head?: { sha?: string } } | undefined;
  const run = ctx.payload.workflow_run as { head_sha?: string } | undefined;
  // The tested commit: the PR head, or the run that a workflow_run publishes for (fork PRs).
  const headSha = process.env.TESTCYCLE_SHA || pr?.head?.sha || run?.head_sha || ctx.sha;
  const octokit = github.getOctokit(request.token);
  const failed = failedTests(request.reports);
  const annotations = failed.slice(0, request.maxAnnotations).map(({ t: test, file }) => ({
    path: secrets.redact(oneLine(test.file ?? file)),
    start_line: test.line ?? 1,
    end_line: test.line ?? 1,
    annotation_level: 'failure' as const,
    title: titleOf(test, secrets),
    message: messageOf(test, secrets, MAX_ANNOTATION_CHARS),
  }));
  const batches: (typeof annotations)[] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  if (!batches.length) batches.push([]);
  const conclusion: 'neutral' | 'success' | 'failure' = result.dryRun
    ? 'neutral'
    : result.gate.passed
      ? 'success'
      : 'failure';
  const title = clip(
    result.dryRun
      ? `Dry run: would create ${result.dryRun.create}, update ${result.dryRun.update}`
      : result.gate.evaluated
        ? `${result.gate.passed ? 'Gate passed' : 'Gate failed'}: pass rate ${result.passRate ?? 'n/a'}%`
        : `Published ${result.counts.total} results`,
    MAX_TITLE_CHARS,
  );
  const done = { status: 'completed' as const, conclusion };
  const adding = (sent: number) =>
    `Adding annotations: ${sent} of ${annotations.length} so far; the summary follows.`;
  if (failed.length > annotations.length)
    core.info(
      `check run "${secrets.redact(name)}": ${failed.length - annotations.length} more failed tests are not annotated (max-annotations: ${request.maxAnnotations}); the job summary lists them.`,
    );
  let id: number | undefined;
  try {
    const last = batches.length - 1;
    const { data } = await octokit.rest.checks.create({
      ...ctx.repo,
      name: secrets.redact(name),
      head_sha: headSha,
      ...(last === 0 ? done : { status: 'in_progress' as const }),
      output: {
        title,
        summary: last === 0 ? summary : adding(batches[0]!.length),
        annotations: batches[0],
      },
    });
    id = data.id;
    for (let i = 1, sent = batches[0]!.length; i <= last; sent += batches[i]!.length, i++)
      await octokit.rest.checks.update({
        ...ctx.repo,
        check_run_id: id,
        ...(i === last ? done : {}),
        output: {
          title,
          summary: i === last ? summary : adding(sent + batches[i]!.length),
          annotations: batches[i],
        },
      });
    core.info(
      secrets.redact(
        `check run "${name}" created (${conclusion})${data.html_url ? `: ${data.html_url}` : ''}`,
      ),
    );
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 403 || status === 404) {
      core.notice(
        `No check run "${secrets.redact(name)}": the token may not write checks (fork PRs get a read-only token; see the workflow_run recipe in the README). The job summary has the results.`,
      );
      return;
    }
    core.warning(
      secrets.redact(`Could not complete the check run "${name}": ${(error as Error).message}`),
    );
    // A run left in progress would show as pending on the PR: complete it with the summary.
    if (id !== undefined)
      await octokit.rest.checks
        .update({ ...ctx.repo, check_run_id: id, ...done, output: { title, summary } })
        .catch(() => undefined);
  }
}

/** Mode sync: how many cases it created, changed and archived (a dry run: would). */
export function setSyncOutputs(result: SyncResult, secrets: Redactor): void {
  setOutput('cases-created', result.created.length, secrets);
  setOutput(
    'cases-updated',
    new Set(
      [...result.renamed, ...result.rekeyed, ...result.updated, ...result.restored].map(
        (c) => c.key,
      ),
    ).size,
    secrets,
  );
  setOutput('cases-archived', result.archived.length, secrets);
}
