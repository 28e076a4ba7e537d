/**
 * Every job of docs/design.md that talks to the service, once, for both adapters: what settings it
 * reads, which reports, and what it runs. The CLI's commands and the action's modes name one of
 * these; each returns its result for the adapter to render (text or JSON, outputs and summaries).
 */
import { writeFile } from 'node:fs/promises';
import {
  requestsOf,
  tokenStanding,
  type Resource,
  type ServiceClient,
  type TokenStanding,
} from '../client/index.js';
import {
  buildReport,
  dashboardSettings,
  describePlan,
  type BuiltReport,
} from '../dashboard/index.js';
import { declarationEvidence, syncSettings, sync, type SyncResult } from '../inventory/index.js';
import type { ParsedReport } from '../parsers/index.js';
import {
  closeCycle,
  createCycle,
  createCycleSettings,
  cycleSettings,
  gateCycle,
  gateOnlySettings,
  publish,
  publishSettings,
  type CreateCycleResult,
  type PublishOptions,
  type PublishResult,
} from '../publish/index.js';
import { choice } from '../settings/index.js';
import {
  quarantineSettings,
  runQuarantine,
  type QuarantinedCase,
  type QuarantineSettings,
} from '../triage/index.js';
import {
  coverageOfCycle,
  coverageReasons,
  coverageSettings,
  describeCoverage,
  hasCoverageThresholds,
  readCoverage,
  type Coverage,
  type CoverageResult,
  type CoverageSettings,
  describeTrace,
  traceLinks,
  traceSettings,
  type TraceResult,
  type TraceSettings,
} from '../traceability/index.js';
import type { Job, JobIO } from './job.js';
import { readReportSet, reportSettings } from './reports.js';

/** What --trace did (or, in a dry run, would do), and the coverage a threshold asked for. */
export interface Traced {
  trace?: TraceResult;
  coverage?: Coverage;
}

/**
 * The coverage thresholds of the gate (publish, gate): the cycle's coverage read after the job's
 * writes and links, its misses added to the verdict's reasons; the runner's floor stays.
 */
async function coverageGate(
  client: ServiceClient,
  settings: CoverageSettings,
  result: PublishResult & Traced,
  io: RunIO,
): Promise<void> {
  if (!hasCoverageThresholds(settings) || result.dryRun || !result.cycle.id) return;
  const coverage = await readCoverage(client, result.cycle.id, settings);
  io.logger.info(`coverage: ${describeCoverage(coverage)}`);
  const reasons = coverageReasons(coverage, settings);
  result.coverage = coverage;
  result.gate = {
    ...result.gate,
    passed: result.gate.passed && reasons.length === 0,
    reasons: [...result.gate.reasons, ...reasons],
    evaluated: true,
  };
  result.requests = requestsOf(client);
}

/** A publish or a gate: its result, and the reports it read (none for a gate). */
export interface PublishOutcome {
  result: PublishResult & Traced;
  reports: ParsedReport[];
}

/**
 * --trace after the job's own writes, so that the cases it created are linked too
 * (src/traceability/links.ts); its warnings join the job's, its requests the dry run's plan.
 */
async function traceStep(
  client: ServiceClient,
  trace: TraceSettings,
  io: RunIO,
  options: Omit<Parameters<typeof traceLinks>[1], 'trace' | 'logger' | 'signal'>,
): Promise<TraceResult> {
  const result = await traceLinks(client, {
    ...options,
    trace: trace.options,
    logger: io.logger,
    signal: io.signal,
  });
  io.logger.info(describeTrace(result));
  return result;
}

/** publish: reports into a cycle, then the gate (docs/design.md "CLI contract"). */
export const publishJob: Job<PublishOutcome> = async (io) => {
  const settings = publishSettings(io.settings, io.env, io.redactor);
  const trace = traceSettings(io.settings);
  const coverage = coverageSettings(io.settings);
  io.adapterSettings?.();
  // Reports next: a missing or broken report fails before any request.
  const reports = await readReportSet(reportSettings(io.settings), io.logger);
  return async (client) => ({
    result: await publishTraced(
      client,
      { ...settings, reports, logger: io.logger, progress: io.progress, signal: io.signal },
      { trace, coverage },
      io,
    ),
    reports,
  });
};

/** What a job's steps log to and stop on. */
type RunIO = Pick<JobIO, 'logger' | 'signal'>;

/**
 * publish once its settings are read: the pipeline, then --trace (after the writes, so the cases
 * it created are linked), then the coverage thresholds (which count those links).
 */
export async function publishTraced(
  client: ServiceClient,
  options: PublishOptions,
  { trace, coverage }: { trace: TraceSettings; coverage: CoverageSettings },
  io: RunIO,
): Promise<PublishResult & Traced> {
  const result: PublishResult & Traced = await publish(client, options);
  if (trace.trace) await publishTrace(client, trace, io, result, options);
  await coverageGate(client, coverage, result, io);
  return result;
}

/** publish --trace: the links of the run's tests, after the results (so new cases are linked). */
async function publishTrace(
  client: ServiceClient,
  trace: TraceSettings,
  io: RunIO,
  result: PublishResult & Traced,
  settings: PublishOptions,
): Promise<void> {
  const before = client.stats.total;
  result.trace = await traceStep(client, trace, io, {
    reports: settings.reports,
    match: settings.match,
    remove: false,
    dryRun: settings.dryRun,
    // A dry run: the cases this publish would create (create-missing-cases, sync) get links too.
    creates: () => settings.match.createMissingCases || !!settings.sync,
  });
  result.warnings.push(...result.trace.warnings);
  if (result.dryRun) {
    // The trace's reads the run sends too; its writes follow the run's.
    result.dryRun.plannedRequests += result.trace.plannedRequests;
    result.dryRun.totalRequests += client.stats.total - before + result.trace.plannedRequests;
  }
  result.requests = requestsOf(client);
}

/** gate: one aggregate over a cycle, then thresholds (docs/design.md "CLI contract"). */
export const gateJob: Job<PublishOutcome> = async (io) => {
  const target = cycleSettings(io.settings, io.env, io.redactor);
  const gate = gateOnlySettings(io.settings, io.env);
  const coverage = coverageSettings(io.settings);
  io.adapterSettings?.();
  return async (client) => {
    const result: PublishResult & Traced = await gateCycle(client, target, gate, io.logger);
    await coverageGate(client, coverage, result, io);
    return { result, reports: [] };
  };
};

/** cycle create, mode create-cycle: find or create a cycle by name, optionally populated. */
export const createCycleJob: Job<CreateCycleResult> = async (io) => {
  const settings = createCycleSettings(io.settings, io.env, io.redactor);
  io.adapterSettings?.();
  return (client) => createCycle(client, { ...settings, logger: io.logger });
};

/** cycle close, mode close-cycle: a cycle set to DONE. */
export const closeCycleJob: Job<Resource<'test_cycles'>> = async (io) => {
  const target = cycleSettings(io.settings, io.env, io.redactor);
  io.adapterSettings?.();
  return (client) => closeCycle(client, target);
};

/** report: a series of cycles, its page written (and its Markdown, where a file is named). */
export interface ReportOutcome extends BuiltReport {
  htmlFile: string;
  markdownFile?: string;
}

export const reportJob: Job<ReportOutcome> = async (io) => {
  const settings = dashboardSettings(io.settings);
  const trace = traceSettings(io.settings);
  io.adapterSettings?.();
  return async (client) => {
    const report = await buildReport(client, settings, {
      onPlan: (plan) => io.logger.info(describePlan(plan)),
      // report --trace: the matrix of the latest cycle (src/traceability/coverage.ts).
      ...(trace.trace ? { coverageOf: (id: string) => readCoverage(client, id) } : {}),
    });
    // Data from the service, written where people open it: the token in none of its forms.
    await writeFile(settings.htmlFile, io.redactor.redact(report.html));
    if (settings.markdownFile)
      await writeFile(settings.markdownFile, io.redactor.redact(report.markdown));
    return { ...report, htmlFile: settings.htmlFile, markdownFile: settings.markdownFile };
  };
};

/** sync: the Space's automated test cases kept in step with the reports (docs/design.md "Sync"). */
export const syncJob: Job<SyncResult & Traced> = async (io) => {
  const settings = syncSettings(io.settings, io.env);
  const trace = traceSettings(io.settings);
  io.adapterSettings?.();
  const reports = await readReportSet(reportSettings(io.settings), io.logger);
  return async (client) => {
    const result: SyncResult & Traced = await sync(client, {
      ...settings,
      reports,
      logger: io.logger,
      signal: io.signal,
    });
    if (!trace.trace) return result;
    result.trace = await traceStep(client, trace, io, {
      reports,
      match: settings.match,
      remove: true,
      dryRun: settings.dryRun,
      // The evidence retirement asks before an archive (src/inventory/retire.ts).
      evidence: declarationEvidence(
        reports,
        settings.match.automationKey,
        settings.match.workspace,
      ),
      creates: () => true,
    });
    result.warnings.push(...result.trace.warnings);
    if (result.dryRun) result.plannedRequests += result.trace.plannedRequests;
    result.requests = requestsOf(client);
    return result;
  };
};

/** What a quarantine command did: the cases it shows, and one text for people. */
export interface QuarantineOutcome {
  action: string;
  quarantined: QuarantinedCase[];
  text: string;
}

/**
 * quarantine add|remove|list: `action` as the CLI's command names it; absent, as the setting
 * `quarantine-action` says (the action's mode quarantine).
 */
export function quarantineJob(action?: QuarantineSettings['action']): Job<QuarantineOutcome> {
  return async (io) => {
    const now = new Date();
    const settings = quarantineSettings(
      io.settings,
      action ?? choice<QuarantineSettings['action']>(io.settings, 'quarantine-action'),
      now,
    );
    io.adapterSettings?.();
    return (client) => runQuarantine(client, settings, () => now);
  };
}

/** What `check` found: the Space the base URL reaches, and what the token may do. */
export interface CheckOutcome {
  project: { id: string; name: string | null; key: string | null };
  baseUrl: string;
  token: TokenStanding;
}

/**
 * check: the Space proves the base URL, the region and the token; the tokens resource tells
 * whether the token may write (a 403 on writes), and until when.
 */
export const checkJob: Job<CheckOutcome> = async (io) => {
  io.adapterSettings?.();
  return async (client, { token }) => {
    const project = await client.project();
    return {
      project: {
        id: project.id,
        name: (project.attributes.name as string | undefined) ?? null,
        key: (project.attributes.key as string | undefined) ?? null,
      },
      baseUrl: client.baseUrl.href,
      token: await tokenStanding(client, token),
    };
  };
};

/** coverage: the requirements in scope, their linked cases' results in a cycle, the thresholds. */
export const coverageJob: Job<CoverageResult> = async (io) => {
  const target = cycleSettings(io.settings, io.env, io.redactor);
  const settings = coverageSettings(io.settings);
  io.adapterSettings?.();
  return (client) => coverageOfCycle(client, target, settings);
};
