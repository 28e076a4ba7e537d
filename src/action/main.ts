/**
 * The GitHub adapter: inputs, outputs, job summary, annotations, check run. Only this folder
 * imports @actions/*; the work lives in src/publish, src/api and src/reports.
 */
import * as core from '@actions/core';
import { normalizeBaseUrl } from '../api/base-url.js';
import { type Resource, ServiceClient } from '../api/client.js';
import { ConfigError, messageOf, TestcycleError } from '../api/errors.js';
import { createLogger, type Logger, Redactor } from '../api/redact.js';
import { parseRateLimit } from '../api/scheduler.js';
import {
  choice,
  closeCycle,
  createCycle,
  cycleSettings,
  gateCycle,
  gateSettings,
  userFilterSetting,
  jsonSetting,
  publish,
  publishSettings,
  renderSummary,
  type PublishResult,
} from '../publish/index.js';
import {
  DEFAULT_MAX_BYTES,
  describeSkipped,
  readReports,
  type ParsedReport,
} from '../reports/index.js';
import { boolInput, inputSource, integerInput, reportPatterns } from './inputs.js';
import { annotate, createCheckRun, setOutputs } from './outputs.js';

const MODES = ['publish', 'gate', 'create-cycle', 'close-cycle'] as const;
type Mode = (typeof MODES)[number];

export async function run(): Promise<void> {
  const redactor = new Redactor();
  try {
    const token = core.getInput('token', { required: true });
    redactor.add(token);
    // The runner masks exact strings only: each encoded form a server might echo is masked too.
    for (const form of redactor.maskedForms()) core.setSecret(form);
    const githubToken = core.getInput('github-token');
    if (githubToken) core.setSecret(githubToken);
    const mode = (core.getInput('mode') || 'publish') as Mode;
    if (!MODES.includes(mode))
      throw new ConfigError('input mode', `"${mode}" is not one of ${MODES.join(', ')}.`);
    const logger = createLogger(
      (level, message) =>
        ({ debug: core.debug, info: core.info, warn: core.warning, error: core.error })[level](
          message,
        ),
      redactor,
      boolInput('verbose') ? 'debug' : 'info',
    );
    const client = new ServiceClient({
      baseUrl: normalizeBaseUrl(core.getInput('base-url', { required: true }), 'input base-url'),
      token,
      rateLimit: parseRateLimit(core.getInput('rate-limit') || '100/1m', 'input rate-limit'),
      concurrency: integerInput('concurrency', 4),
      timeoutMs: integerInput('timeout-ms', 30_000, 100),
      redactor,
      logger,
      userAgent: 'testcycle-action',
    });
    try {
      // Inputs first, then reports: a bad input or a broken report fails before any request.
      let reports: ParsedReport[] = [];
      let settings;
      if (mode === 'publish') {
        settings = publishSettings(inputSource, process.env);
        const patterns = reportPatterns();
        if (patterns.length === 0)
          throw new ConfigError(
            'input reports',
            'is required in mode publish: globs of report files, one per line.',
          );
        const read = await readReports(patterns, {
          format: settings.format,
          maxBytes: integerInput('max-report-bytes', DEFAULT_MAX_BYTES),
        });
        const skipped = describeSkipped(read.skipped);
        if (skipped) logger.info(skipped);
        reports = read;
      }
      let result: PublishResult | undefined;
      if (mode === 'publish') {
        result = await publish(client, {
          ...settings!,
          reports,
          logger,
          progress: (line) => core.info(line),
          signal: cancellation(logger),
        });
      } else if (mode === 'gate') {
        result = await gateCycle(
          client,
          cycleSettings(inputSource, process.env),
          gateSettings(inputSource),
          inputSource.label,
        );
      } else if (mode === 'create-cycle') {
        const { name } = cycleSettings(inputSource, process.env);
        if (!name) throw new ConfigError('input cycle-name', 'is required in mode create-cycle.');
        const made = await createCycle(client, {
          name,
          status: choice(inputSource, 'cycle-status', ['ACTIVE', 'DRAFT'] as const, 'ACTIVE'),
          customFields: jsonSetting(inputSource, 'cycle-custom-fields'),
          populate: userFilterSetting(inputSource, 'populate'),
          logger,
        });
        cycleOutputs(made.cycle);
        if (made.populated) {
          core.setOutput('populated', String(made.populated.created));
          core.info(
            `${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`,
          );
        }
      } else {
        cycleOutputs(
          await closeCycle(client, cycleSettings(inputSource, process.env), inputSource.label),
        );
      }
      core.setOutput('requests', String(client.stats.total));
      if (result) await report(result, reports, githubToken);
    } finally {
      await client.close();
    }
  } catch (error) {
    const prefix = error instanceof TestcycleError ? '' : 'unexpected error: ';
    core.setFailed(redactor.redact(prefix + messageOf(error)));
  }
}

async function report(
  result: PublishResult,
  reports: ParsedReport[],
  githubToken: string,
): Promise<void> {
  setOutputs(result);
  const summary = renderSummary(result, reports, {
    linkTemplate: core.getInput('link-template') || undefined,
  });
  if (boolInput('job-summary') ?? true) {
    // Older GHES runners and local runners such as act have no job summary file.
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summary).write();
    else core.info('no job summary written: this runner sets no GITHUB_STEP_SUMMARY');
  }
  if (boolInput('annotations') ?? true) annotate(reports);
  const checkName = core.getInput('check-name');
  if (checkName) {
    if (!githubToken)
      core.notice('check-name is set but github-token is empty: no check run was created.');
    else await createCheckRun(githubToken, checkName, result, summary, reports);
  }
  if (!result.gate.passed)
    core.setFailed(`testcycle gate failed: ${result.gate.reasons.join('; ')}`);
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

function cycleOutputs(cycle: Resource<'test_cycles'>): void {
  core.setOutput('cycle-id', cycle.id);
  core.setOutput('cycle-key', String(cycle.attributes.testCycleKey ?? ''));
  core.setOutput('cycle-name', String(cycle.attributes.name ?? ''));
  core.setOutput('cycle-status', String(cycle.attributes.status ?? ''));
}
