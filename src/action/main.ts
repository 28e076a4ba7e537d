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
  gateOnlySettings,
  publish,
  publishSettings,
  readReportSet,
  renderSummary,
  reportSettings,
  text,
  type PublishResult,
} from '../publish/index.js';
import type { ParsedReport } from '../reports/index.js';
import type { CommentMode, Mode } from '../settings.js';
import { commentOnPullRequest } from './comment.js';
import { ACTION_WORDS, checkInputNames, inputSource } from './inputs.js';
import {
  annotate,
  createCheckRun,
  MAX_GITHUB_TEXT_BYTES,
  setCycleOutputs,
  setOutputs,
} from './outputs.js';

/** What a mode's step produced: a result to report (publish, gate) or outputs already set. */
type Step = (
  client: ServiceClient,
) => Promise<{ result: PublishResult; reports: ParsedReport[] } | void>;

/** Each mode reads and checks its inputs (and reads its reports) before any request is sent. */
const PREPARE: Record<Mode, (logger: Logger) => Promise<Step>> = {
  publish: async (logger) => {
    const settings = publishSettings(inputSource, process.env);
    const reports = await readReportSet(reportSettings(inputSource), logger);
    return async (client) => ({
      result: await publish(client, {
        ...settings,
        reports,
        logger,
        progress: (line) => core.info(line),
        signal: cancellation(logger),
      }),
      reports,
    });
  },
  gate: async () => {
    const target = cycleSettings(inputSource, process.env);
    const gate = gateOnlySettings(inputSource);
    return async (client) => ({ result: await gateCycle(client, target, gate), reports: [] });
  },
  'create-cycle': async (logger) => {
    const settings = createCycleSettings(inputSource, process.env);
    return async (client) => {
      const made = await createCycle(client, { ...settings, logger });
      setCycleOutputs(cycleInfo(made.cycle));
      if (made.populated) {
        core.setOutput('populated', String(made.populated.created));
        core.info(
          `${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`,
        );
      }
    };
  },
  report: async (logger) => {
    const settings = reportCommandSettings(inputSource);
    return async (client) => {
      const report = await buildReport(client, settings, {
        onPlan: (plan) => logger.info(describePlan(plan)),
      });
      await writeFile(settings.htmlFile, report.html);
      core.setOutput('html-file', settings.htmlFile);
      core.setOutput('cycles', String(report.model.cycles.length));
      // The latest cycle's, as the summary's "Latest" line shows it (empty when it has none).
      const latest = report.model.latest?.cycle.passRate ?? null;
      core.setOutput('pass-rate', latest === null ? '' : String(latest));
      for (const line of report.model.omitted) core.notice(`report: left out ${line}`);
      await writeJobSummary(report.markdown);
    };
  },
  'close-cycle': async () => {
    const target = cycleSettings(inputSource, process.env);
    return async (client) => {
      const cycle = cycleInfo(await closeCycle(client, target));
      setCycleOutputs(cycle);
      core.info(`cycle ${cycle.key} "${cycle.name}" is DONE`);
    };
  },
};

export async function run(): Promise<void> {
  const redactor = new Redactor();
  try {
    // Masked first, so that no later line (an error included) can show them.
    redactor.add(core.getInput('token'));
    // The runner masks exact strings only: each encoded form a server might echo is masked too.
    for (const form of redactor.maskedForms()) core.setSecret(form);
    const githubToken = core.getInput('github-token');
    if (githubToken) core.setSecret(githubToken);
    for (const line of checkInputNames(process.env)) core.warning(line);
    const mode = choice<Mode>(inputSource, 'mode');
    const options = clientSettings(inputSource, process.env);
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
    const step = await PREPARE[mode](logger);
    const client = new ServiceClient({
      ...options,
      redactor,
      logger,
      userAgent: 'testcycle-action',
      // The steps of one job pace together (issue 13): RUNNER_TEMP is per job.
      sharedPaceDir: process.env.RUNNER_TEMP || tmpdir(),
    });
    try {
      const outcome = await step(client);
      // Every mode says what it cost, once (publish and gate with the rest of their result).
      if (!outcome) {
        core.setOutput('requests', String(client.stats.total));
        core.setOutput('requests-retried', String(client.stats.retried));
        core.setOutput('rate-limited', String(client.stats.rateLimited));
      }
      if (outcome) await report(outcome.result, outcome.reports, githubToken);
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
): Promise<void> {
  setOutputs(result);
  const summaryOf = (maxBytes?: number) =>
    renderSummary(result, reports, { linkTemplate: text(inputSource, 'link-template'), maxBytes });
  await writeJobSummary(summaryOf());
  if (flag(inputSource, 'annotations')) annotate(reports);
  const checkName = text(inputSource, 'check-name');
  const comment = choice<CommentMode>(inputSource, 'comment');
  if (!checkName && comment === 'off') return;
  // Check runs and comments take far less than a job summary: cut by whole rows to fit.
  const compact = summaryOf(MAX_GITHUB_TEXT_BYTES);
  if (checkName) {
    if (!githubToken)
      core.notice('check-name is set but github-token is empty: no check run was created.');
    else await createCheckRun(githubToken, checkName, result, compact, reports);
  }
  if (comment === 'off') return;
  await commentOnPullRequest({
    token: githubToken,
    mode: comment,
    // The series, not this cycle: `PR {pr} {sha7}` makes a cycle per push, and one comment.
    series: text(inputSource, 'cycle-name') ?? result.cycle.key ?? result.cycle.id ?? '',
    markdown: compact,
    gateFailed: result.gate.evaluated && !result.gate.passed,
    notice: (line) => core.notice(line),
    info: (line) => core.info(line),
    warning: (line) => core.warning(line),
  });
}

/** The job summary, when the input asks for it (publish, gate and report modes). */
async function writeJobSummary(markdown: string): Promise<void> {
  if (!flag(inputSource, 'job-summary')) return;
  // Older GHES runners and local runners such as act have no job summary file.
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write();
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
