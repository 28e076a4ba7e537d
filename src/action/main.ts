/**
 * The GitHub adapter: inputs, outputs, job summary, annotations, check run. Only this folder
 * imports @actions/*; the work lives in src/publish, src/client and src/parsers.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { ServiceClient } from '../client/client.js';
import { buildReport, describePlan, dashboardSettings } from '../dashboard/index.js';
import { type ErrorKind, messageOf, TestcycleError } from '../shared/errors.js';
import { createLogger, type Logger, Redactor } from '../shared/redact.js';
import {
  clientSettings,
  closeCycle,
  createCycle,
  createCycleSettings,
  cycleInfo,
  cycleSettings,
  GateFailedError,
  gateCycle,
  gateOnlySettings,
  publish,
  publishSettings,
  quarantineSettings,
  readReportSet,
  runQuarantine,
  type QuarantineSettings,
  renderSummary,
  reportSettings,
  type PublishResult,
} from '../publish/index.js';
import { describeSyncResult, sync } from '../inventory/index.js';
import { syncSettings } from '../inventory/index.js';
import { renderSyncSummary } from '../inventory/index.js';
import type { ParsedReport } from '../parsers/index.js';
import { choice, flag, idleSettings, type Mode } from '../settings/index.js';
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

/** What a publish or gate step produced, and how to show it on GitHub. */
interface Outcome {
  result: PublishResult;
  reports: ParsedReport[];
  github: GitHubReporting;
}

/** What a mode's step produced: a result to report (publish, gate) or outputs already set. */
type Step = (client: ServiceClient) => Promise<Outcome | void>;

/**
 * Each mode reads and checks all its inputs (those that say how the result is shown on GitHub
 * included) and reads its reports before any request is sent.
 */
const PREPARE: Record<Mode, (logger: Logger, secrets: Redactor) => Promise<Step>> = {
  publish: async (logger, secrets) => {
    const settings = publishSettings(inputSource, process.env, secrets);
    const github = githubReporting(inputSource);
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
      github,
    });
  },
  gate: async (logger, secrets) => {
    const target = cycleSettings(inputSource, process.env, secrets);
    const gate = gateOnlySettings(inputSource, process.env);
    const github = githubReporting(inputSource);
    return async (client) => ({
      result: await gateCycle(client, target, gate, logger),
      reports: [],
      github,
    });
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
    const settings = dashboardSettings(inputSource);
    const jobSummary = flag(inputSource, 'job-summary');
    return async (client) => {
      const report = await buildReport(client, settings, {
        onPlan: (plan) => logger.info(describePlan(plan)),
      });
      await writeFile(settings.htmlFile, secrets.redact(report.html));
      setOutput('html-file', settings.htmlFile, secrets);
      setOutput('cycles', report.model.cycles.length, secrets);
      // The latest cycle's, as the summary's "Latest" line shows it (empty when it has none).
      setOutput('pass-rate', report.model.latest?.cycle.passRate ?? null, secrets);
      for (const line of report.model.omitted)
        core.notice(secrets.redact(`report: left out ${line}`));
      if (jobSummary) await writeJobSummary(report.markdown, secrets);
    };
  },
  sync: async (logger, secrets) => {
    const settings = syncSettings(inputSource, process.env);
    const reports = await readReportSet(reportSettings(inputSource), logger);
    return async (client) => {
      const result = await sync(client, {
        ...settings,
        reports,
        logger,
        signal: cancellation(logger),
      });
      core.info(secrets.redact(describeSyncResult(result, ACTION_WORDS)));
      setSyncOutputs(result, secrets);
      await writeJobSummary(renderSyncSummary(result, ACTION_WORDS), secrets);
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
    return async (client) => {
      const cycle = cycleInfo(await closeCycle(client, target));
      setCycleOutputs(cycle, secrets);
      core.info(secrets.redact(`cycle ${cycle.key} "${cycle.name}" is DONE`));
    };
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
    for (const line of checkInputNames(process.env)) core.warning(redactor.redact(line));
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
    // Every input read and checked; before the first request, those that do nothing are said.
    for (const warning of idleSettings(inputSource, inputSource, { mode })) logger.warn(warning);
    const client = new ServiceClient({
      ...options,
      redactor,
      logger,
      userAgent: 'testcycle-action',
      // The steps of one job pace together (src/client/pace.ts): RUNNER_TEMP is per job.
      sharedPaceDir: process.env.RUNNER_TEMP || tmpdir(),
    });
    try {
      const outcome = await step(client);
      // Every mode says what it cost, once (publish and gate with the rest of their result).
      if (!outcome) {
        setOutput('requests', client.stats.total, redactor);
        setOutput('requests-retried', client.stats.retried, redactor);
        setOutput('rate-limited', client.stats.rateLimited, redactor);
      }
      for (const note of outcome?.result.gate.notes ?? []) logger.info(`gate: ${note}`);
      if (outcome) await report(outcome, githubToken, redactor, logger);
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
  { result, reports, github }: Outcome,
  githubToken: string,
  secrets: Redactor,
  logger: Logger,
): Promise<void> {
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
