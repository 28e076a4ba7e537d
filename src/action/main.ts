/**
 * The GitHub adapter: inputs, outputs, job summary, annotations, check run. Only this folder
 * imports @actions/*; the work lives in src/publish, src/api and src/reports.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { ServiceClient } from '../api/client.js';
import { buildReport, describePlan, reportCommandSettings } from '../dashboard/index.js';
import { type ErrorKind, messageOf, TestcycleError } from '../api/errors.js';
import { createLogger, type Logger, Redactor } from '../api/redact.js';
import {
  choice,
  clientSettings,
  closeCycle,
  createCycle,
  createCycleSettings,
  cycleInfo,
  cycleSettings,
  flag,
  GateFailedError,
  gateCycle,
  numeric,
  gateSettings,
  publish,
  publishSettings,
  quarantineSettings,
  readReportSet,
  runQuarantine,
  type QuarantineSettings,
  renderSummary,
  reportSettings,
  text,
  type PublishResult,
} from '../publish/index.js';
import type { ParsedReport } from '../reports/index.js';
import type { CommentMode, Mode } from '../settings.js';
import { commentOnPullRequest } from './comment.js';
import { ACTION_WORDS, inputSource } from './inputs.js';
import {
  annotate,
  createCheckRun,
  MAX_GITHUB_TEXT_BYTES,
  setCycleOutputs,
  setOutput,
  setOutputs,
} from './outputs.js';

/** What a mode's step produced: a result to report (publish, gate) or outputs already set. */
type Step = (
  client: ServiceClient,
) => Promise<{ result: PublishResult; reports: ParsedReport[] } | void>;

/** Each mode reads and checks its inputs (and reads its reports) before any request is sent. */
const PREPARE: Record<Mode, (logger: Logger, secrets: Redactor) => Promise<Step>> = {
  publish: async (logger, secrets) => {
    const settings = publishSettings(inputSource, process.env, secrets);
    const reports = await readReportSet(reportSettings(inputSource), logger);
    return async (client) => ({
      result: await publish(client, {
        ...settings,
        reports,
        logger,
        progress: (line) => core.info(secrets.redact(line)),
        signal: cancellation(logger),
      }),
      reports,
    });
  },
  gate: async (_logger, secrets) => {
    const target = cycleSettings(inputSource, process.env, secrets);
    const gate = gateSettings(inputSource);
    return async (client) => ({ result: await gateCycle(client, target, gate), reports: [] });
  },
  'create-cycle': async (logger, secrets) => {
    const settings = createCycleSettings(inputSource, process.env, secrets);
    return async (client) => {
      const made = await createCycle(client, { ...settings, logger });
      setCycleOutputs(cycleInfo(made.cycle), secrets);
      if (made.populated) {
        setOutput('populated', made.populated.created, secrets);
        core.info(
          `${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`,
        );
      }
    };
  },
  report: async (logger, secrets) => {
    const settings = reportCommandSettings(inputSource);
    return async (client) => {
      const report = await buildReport(client, settings, {
        onPlan: (plan) => logger.info(describePlan(plan)),
      });
      await writeFile(settings.htmlFile, secrets.redact(report.html));
      setOutput('html-file', settings.htmlFile, secrets);
      setOutput('cycles', report.model.cycles.length, secrets);
      setOutput('pass-rate', report.model.trend.last, secrets);
      for (const line of report.model.omitted)
        core.notice(secrets.redact(`report: left out ${line}`));
      await writeJobSummary(report.markdown, secrets);
    };
  },
  quarantine: async (_logger, secrets) => {
    const now = new Date();
    const settings = quarantineSettings(
      inputSource,
      choice<QuarantineSettings['action']>(inputSource, 'quarantine-action'),
      now,
    );
    return async (client) => {
      const out = await runQuarantine(client, settings, () => now);
      core.info(secrets.redact(out.text));
      setOutput('quarantined', out.quarantined.length, secrets);
    };
  },
  'close-cycle': async (_logger, secrets) => {
    const target = cycleSettings(inputSource, process.env, secrets);
    return async (client) => setCycleOutputs(cycleInfo(await closeCycle(client, target)), secrets);
  },
};

export async function run(): Promise<void> {
  const redactor = new Redactor();
  try {
    // Masked first, so that no later line (an error included) can show them: the token, the
    // github-token and the runner's own tokens, in every text this step writes or posts.
    redactor.add(core.getInput('token'));
    const githubToken = core.getInput('github-token');
    redactor.add(githubToken);
    redactor.addFromEnv(process.env);
    // The runner masks exact strings only: each encoded form a server might echo is masked too.
    for (const form of redactor.maskedForms()) core.setSecret(form);
    const mode = choice<Mode>(inputSource, 'mode');
    const options = clientSettings(inputSource);
    const logger = createLogger(
      // verbose: each request is an ordinary log line (debug lines hide unless step debug is on).
      (level, message) =>
        ({ debug: core.info, info: core.info, warn: core.warning, error: core.error })[level](
          message,
        ),
      redactor,
      options.verbose ? 'debug' : 'info',
      ACTION_WORDS,
    );
    const step = await PREPARE[mode](logger, redactor);
    const client = new ServiceClient({
      ...options,
      redactor,
      logger,
      userAgent: 'testcycle-action',
      // The steps of one job pace together (src/api/pace.ts): RUNNER_TEMP is per job.
      sharedPaceDir: process.env.RUNNER_TEMP || tmpdir(),
    });
    try {
      const outcome = await step(client);
      // Every mode says what it cost (publish and gate set these again from their result).
      setOutput('requests', client.stats.total, redactor);
      setOutput('requests-retried', client.stats.retried, redactor);
      setOutput('rate-limited', client.stats.rateLimited, redactor);
      for (const note of outcome?.result.gate.notes ?? []) logger.info(`gate: ${note}`);
      if (outcome) await report(outcome.result, outcome.reports, githubToken, redactor, logger);
      if (outcome && !outcome.result.gate.passed)
        throw new GateFailedError(outcome.result.gate.reasons);
    } finally {
      await client.close();
    }
  } catch (error) {
    core.setFailed(redactor.redact(failureLine(error)));
  }
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

async function report(
  result: PublishResult,
  reports: ParsedReport[],
  githubToken: string,
  secrets: Redactor,
  logger: Logger,
): Promise<void> {
  setOutputs(result, secrets);
  const summaryOf = (maxBytes?: number) =>
    renderSummary(result, reports, { linkTemplate: text(inputSource, 'link-template'), maxBytes });
  await writeJobSummary(summaryOf(), secrets);
  if (flag(inputSource, 'annotations')) annotate(reports, secrets);
  const checkName = text(inputSource, 'check-name');
  const comment = choice<CommentMode>(inputSource, 'comment');
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
        maxAnnotations: numeric(inputSource, 'max-annotations')!,
        secrets,
      });
  }
  if (comment === 'off') return;
  await commentOnPullRequest({
    token: githubToken,
    mode: comment,
    // The series, not this cycle: `PR {pr} {sha7}` makes a cycle per push, and one comment.
    series: text(inputSource, 'cycle-name') ?? result.cycle.key ?? result.cycle.id ?? '',
    markdown: compact,
    gateFailed: result.gate.evaluated && !result.gate.passed,
    notice: (line) => core.notice(secrets.redact(line)),
    info: (line) => logger.info(line),
  });
}

/** The job summary, when the input asks for it (publish, gate and report modes). */
async function writeJobSummary(markdown: string, secrets: Redactor): Promise<void> {
  if (!flag(inputSource, 'job-summary')) return;
  // Older GHES runners and local runners such as act have no job summary file.
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(secrets.redact(markdown)).write();
  else core.info('no job summary written: this runner sets no GITHUB_STEP_SUMMARY');
}

/**
 * A cancelled job: the runner sends SIGINT, then SIGTERM. The first stops the publish between
 * writes; the second ends the process at once.
 */
function cancellation(logger: Logger): AbortSignal {
  const stop = new AbortController();
  let signals = 0;
  const onSignal = () => {
    if (++signals > 1) process.exit(1);
    logger.warn('cancelled: finishing the writes under way, then stopping');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return stop.signal;
}
