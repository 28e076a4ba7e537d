/**
 * The GitHub adapter: inputs, outputs, job summary, annotations, check run. Only this folder
 * imports @actions/*; the work is the job layer's (src/job), the same as the CLI's.
 */
import * as core from '@actions/core';
import {
  closeCycleJob,
  createCycleJob,
  cycleInfo,
  describeSyncResult,
  GateFailedError,
  gateJob,
  maskToken,
  publishJob,
  quarantineJob,
  renderSummary,
  renderSyncSummary,
  reportJob,
  runJob,
  syncJob,
  type Job,
  type JobIO,
  type PublishOutcome,
  type RequestFigures,
} from '../job/index.js';
import { type ErrorKind, messageOf, TestcycleError } from '../shared/errors.js';
import { createLogger, type Logger, Redactor } from '../shared/redact.js';
import { choice, flag, type Mode } from '../settings/index.js';
import { commentOnPullRequest } from './comment.js';
import {
  ACTION_WORDS,
  checkInputNames,
  type GitHubReporting,
  githubReporting,
  inputSource,
} from './inputs.js';
import {
  annotate,
  createCheckRun,
  MAX_GITHUB_TEXT_BYTES,
  setCycleOutputs,
  setOutput,
  setOutputs,
  setSyncOutputs,
} from './outputs.js';

/**
 * A mode: the job it runs, the inputs of its own (how it shows the result on GitHub), read and
 * checked after the job's settings and before any report, and what it shows of the result.
 */
interface ModeOf<R, S> {
  job: Job<R>;
  inputs: () => S;
  show: (result: R, inputs: S, secrets: Redactor, logger: Logger) => Promise<void> | void;
  /** A cancelled job stops it between writes (publish, sync); other modes end at once. */
  stoppable?: true;
  /** Its result sets the request outputs with the rest (publish, gate). */
  costInResult?: true;
}

const mode = <R, S = void>(m: ModeOf<R, S>) => m as unknown as ModeOf<unknown, unknown>;
const none = () => undefined;

/** Each mode's job (src/job) and what the action shows of it. */
const MODES: Record<Mode, ModeOf<unknown, unknown>> = {
  publish: mode({
    job: publishJob,
    inputs: () => githubReporting(inputSource),
    show: report,
    stoppable: true,
    costInResult: true,
  }),
  gate: mode({
    job: gateJob,
    inputs: () => githubReporting(inputSource),
    show: report,
    costInResult: true,
  }),
  'create-cycle': mode({
    job: createCycleJob,
    inputs: none,
    show: (made, _, secrets) => {
      setCycleOutputs(cycleInfo(made.cycle), secrets);
      if (made.populated) {
        setOutput('populated', made.populated.created, secrets);
        core.info(
          `${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`,
        );
      }
    },
  }),
  report: mode({
    job: reportJob,
    inputs: () => ({ jobSummary: flag(inputSource, 'job-summary') }),
    show: async (report, { jobSummary }, secrets) => {
      setOutput('html-file', report.htmlFile, secrets);
      setOutput('cycles', report.model.cycles.length, secrets);
      // The latest cycle's, as the summary's "Latest" line shows it (empty when it has none).
      setOutput('pass-rate', report.model.latest?.cycle.passRate ?? null, secrets);
      for (const line of report.model.omitted)
        core.notice(secrets.redact(`report: left out ${line}`));
      if (jobSummary) await writeJobSummary(report.markdown, secrets);
    },
  }),
  sync: mode({
    job: syncJob,
    inputs: none,
    stoppable: true,
    show: async (result, _, secrets) => {
      core.info(secrets.redact(describeSyncResult(result, ACTION_WORDS)));
      setSyncOutputs(result, secrets);
      await writeJobSummary(renderSyncSummary(result, ACTION_WORDS), secrets);
    },
  }),
  quarantine: mode({
    job: quarantineJob(),
    inputs: none,
    show: (out, _, secrets) => {
      core.info(secrets.redact(out.text));
      setOutput('quarantined', out.quarantined.length, secrets);
    },
  }),
  'close-cycle': mode({
    job: closeCycleJob,
    inputs: none,
    show: (closed, _, secrets) => {
      const cycle = cycleInfo(closed);
      setCycleOutputs(cycle, secrets);
      core.info(secrets.redact(`cycle ${cycle.key} "${cycle.name}" is DONE`));
    },
  }),
};

/** The action's run: one job of src/job for the step's mode, its result shown on GitHub. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const redactor = new Redactor();
  const stopListening: (() => void)[] = [];
  try {
    // Masked first, so that no later line (an error included) can show them: the token, the
    // github-token and the runner's own tokens, in every text this step writes or posts.
    maskToken(redactor, inputSource, env);
    const githubToken = core.getInput('github-token');
    redactor.add(githubToken);
    redactor.addFromEnv(env);
    // The runner masks exact strings only: each encoded form a server might echo is masked too.
    for (const form of redactor.maskedForms()) core.setSecret(form);
    for (const line of checkInputNames(env)) core.warning(redactor.redact(line));
    const name = choice<Mode>(inputSource, 'mode');
    const logger = createLogger(
      // verbose: each request is an ordinary log line (debug lines hide unless step debug is on).
      (level, message) =>
        ({ debug: core.info, info: core.info, warn: core.warning, error: core.error })[level](
          message,
        ),
      redactor,
      flag(inputSource, 'verbose') ? 'debug' : 'info',
      ACTION_WORDS,
    );
    const { job, inputs, show, stoppable, costInResult } = MODES[name];
    let own: unknown;
    const io: JobIO = {
      settings: inputSource,
      given: inputSource,
      place: { mode: name },
      env,
      redactor,
      logger,
      userAgent: 'testcycle-action',
      // The steps of one job pace together (src/client/pace.ts): RUNNER_TEMP is per job.
      sharedPaceDir: env.RUNNER_TEMP || undefined,
      adapterSettings: () => {
        own = inputs();
      },
      progress: (line) => core.info(redactor.redact(line)),
      signal: stoppable ? cancellation(logger, stopListening) : undefined,
    };
    const { result, requests } = await runJob(job, io);
    await show(result, own, redactor, logger);
    // Every mode says what it cost, once (publish and gate with the rest of their result).
    if (!costInResult) setRequestOutputs(requests, redactor);
  } catch (error) {
    core.setFailed(redactor.redact(failureLine(error)));
  } finally {
    for (const stop of stopListening) stop();
  }
}

function setRequestOutputs(requests: RequestFigures, secrets: Redactor): void {
  setOutput('requests', requests.total, secrets);
  setOutput('requests-retried', requests.retried, secrets);
  setOutput('rate-limited', requests.rateLimited, secrets);
}

/** How each kind of failure begins the step's one ::error:: line (the message says the rest). */
const FAILURE_PREFIX: Record<ErrorKind, string> = {
  usage: '',
  config: '',
  report: '',
  service: '',
  gate: 'testcycle gate failed: ',
  interrupted: 'cancelled: ',
};

/** The action's only mapping of failures: one ::error:: line, inputs named as in a workflow. */
export function failureLine(error: unknown): string {
  if (error instanceof TestcycleError)
    return FAILURE_PREFIX[error.kind] + error.describe(ACTION_WORDS);
  return `unexpected error (a bug in testcycle; please report it): ${messageOf(error)}`;
}

/** A publish or gate on GitHub: outputs, summaries, annotations, check run, comment; then the verdict. */
async function report(
  { result, reports }: PublishOutcome,
  github: GitHubReporting,
  secrets: Redactor,
  logger: Logger,
): Promise<void> {
  for (const note of result.gate.notes ?? []) logger.info(`gate: ${note}`);
  await showOnGitHub(result, reports, github, secrets, logger);
  if (!result.gate.passed) throw new GateFailedError(result.gate.reasons);
}

async function showOnGitHub(
  result: PublishOutcome['result'],
  reports: PublishOutcome['reports'],
  github: GitHubReporting,
  secrets: Redactor,
  logger: Logger,
): Promise<void> {
  const githubToken = core.getInput('github-token');
  setOutputs(result, secrets);
  const summaryOf = (maxBytes?: number) =>
    renderSummary(result, reports, { linkTemplate: github.linkTemplate, maxBytes });
  if (github.jobSummary) await writeJobSummary(summaryOf(), secrets);
  if (github.annotations) annotate(reports, secrets);
  const { checkName, comment } = github;
  if (!checkName && comment === 'off') return;
  // Check runs and comments take far less than a job summary: cut by whole rows to fit.
  const compact = secrets.redact(summaryOf(MAX_GITHUB_TEXT_BYTES));
  if (checkName) {
    if (!githubToken)
      core.notice('check-name is set but github-token is empty: no check run was created.');
    else
      await createCheckRun({
        token: githubToken,
        name: checkName,
        result,
        summary: compact,
        reports,
        maxAnnotations: github.maxAnnotations,
        secrets,
      });
  }
  if (comment === 'off') return;
  await commentOnPullRequest({
    token: githubToken,
    mode: comment,
    // The series, not this cycle: `PR {pr} {sha7}` makes a cycle per push, and one comment.
    series: github.series ?? result.cycle.key ?? result.cycle.id ?? '',
    markdown: compact,
    gateFailed: result.gate.evaluated && !result.gate.passed,
    notice: (line) => core.notice(secrets.redact(line)),
    info: (line) => logger.info(line),
    warning: (line) => core.warning(secrets.redact(line)),
  });
}

/** The job summary (publish, gate and report modes, when input job-summary asks for it). */
async function writeJobSummary(markdown: string, secrets: Redactor): Promise<void> {
  // Older GHES runners and local runners such as act have no job summary file.
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(secrets.redact(markdown)).write();
  else core.info('no job summary written: this runner sets no GITHUB_STEP_SUMMARY');
}

/**
 * A cancelled job: the runner sends SIGINT, then SIGTERM. The first stops the publish between
 * writes; the second ends the process at once.
 */
function cancellation(logger: Logger, stopListening: (() => void)[]): AbortSignal {
  const stop = new AbortController();
  let signals = 0;
  const onSignal = () => {
    if (++signals > 1) process.exit(1);
    logger.warn('cancelled: finishing the writes under way, then stopping');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  stopListening.push(() => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });
  return stop.signal;
}
