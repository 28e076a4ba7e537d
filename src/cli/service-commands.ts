/** The commands that talk to the service: publish, gate, cycle create, cycle close. */
import { writeFile } from 'node:fs/promises';
import { ServiceClient } from '../api/client.js';
import { ConfigError } from '../api/errors.js';
import {
  choice,
  ciContext,
  closeCycle,
  createCycle,
  cycleSettings,
  gateCycle,
  gateSettings,
  userFilterSetting,
  jsonSetting,
  publish,
  publishSettings,
  renderCycleName,
  renderSummary,
  requestsOf,
  settingsFrom,
  type PublishResult,
  type SettingSource,
} from '../publish/index.js';
import { DEFAULT_MAX_BYTES, describeSkipped, FORMAT_IDS, readReports } from '../reports/index.js';
import { COMMON_FLAGS, commonOptions, integerFlag } from './args.js';
import type { CommandContext } from './main.js';

const GATE_FLAGS = {
  'min-pass-rate': { type: 'string' },
  'max-failed': { type: 'string' },
  'max-blocked': { type: 'string' },
  'fail-on-not-executed': { type: 'boolean' },
  'pass-rate-basis': { type: 'string' },
  'gate-filter': { type: 'string' },
} as const;

const CYCLE_FLAGS = { 'cycle-key': { type: 'string' }, 'cycle-name': { type: 'string' } } as const;

export const PUBLISH_FLAGS = {
  ...COMMON_FLAGS,
  ...CYCLE_FLAGS,
  ...GATE_FLAGS,
  report: { type: 'string', multiple: true },
  format: { type: 'string' },
  'max-report-bytes': { type: 'string' },
  'no-create-cycle': { type: 'boolean' },
  'reopen-done-cycle': { type: 'boolean' },
  'close-cycle': { type: 'boolean' },
  'cycle-custom-fields': { type: 'string' },
  'key-pattern': { type: 'string' },
  'automation-key': { type: 'string' },
  'create-missing-cases': { type: 'boolean' },
  'on-unmatched': { type: 'string' },
  'on-key-collision': { type: 'string' },
  merge: { type: 'string' },
  flaky: { type: 'string' },
  'error-as': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  'summary-file': { type: 'string' },
} as const;

export const GATE_COMMAND_FLAGS = {
  ...COMMON_FLAGS,
  ...CYCLE_FLAGS,
  ...GATE_FLAGS,
  json: { type: 'boolean' },
  'summary-file': { type: 'string' },
} as const;
export const CYCLE_CREATE_FLAGS = {
  ...COMMON_FLAGS,
  name: { type: 'string' },
  status: { type: 'string' },
  populate: { type: 'string' },
  'custom-fields': { type: 'string' },
  json: { type: 'boolean' },
} as const;
export const CYCLE_CLOSE_FLAGS = {
  ...COMMON_FLAGS,
  ...CYCLE_FLAGS,
  json: { type: 'boolean' },
} as const;

function source(values: CommandContext['values']): SettingSource {
  return settingsFrom(values, (name) => `--${name}`);
}

/** A client for one command, closed when the command ends. */
async function withClient<T>(
  ctx: CommandContext,
  work: (client: ServiceClient) => Promise<T>,
  options = commonOptions(ctx.values, ctx.io.env),
): Promise<T> {
  const client = new ServiceClient({
    ...options,
    redactor: ctx.redactor,
    logger: ctx.logger,
    userAgent: 'testcycle-cli',
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

export async function runPublishCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const settings = publishSettings(source(values), io.env);
  // Every flag is checked before a report is read: a usage error is the first thing to fix.
  const common = commonOptions(values, io.env);
  const patterns = (values.report as string[] | undefined) ?? [];
  if (patterns.length === 0)
    throw new ConfigError(
      '--report',
      'is required: a glob of report files, e.g. --report "build/test-results/**/*.xml".',
    );
  if (settings.format !== 'auto' && !FORMAT_IDS.includes(settings.format))
    throw new ConfigError(
      '--format',
      `"${settings.format}" is not one of auto, ${FORMAT_IDS.join(', ')}.`,
    );
  const maxBytes = integerFlag(
    values['max-report-bytes'] as string | undefined,
    'max-report-bytes',
    DEFAULT_MAX_BYTES,
  );
  // Reports first: a missing or broken report fails before any request.
  const reports = await readReports(patterns, { format: settings.format, maxBytes });
  const skipped = describeSkipped(reports.skipped);
  if (skipped) ctx.logger.info(skipped);
  // An interrupt (Ctrl-C, a cancelled CI job) stops between writes; a second one stops at once.
  const stop = new AbortController();
  void io.interrupted?.().then(() => {
    ctx.logger.warn('interrupted: finishing the writes under way, then stopping');
    stop.abort();
  });
  return withClient(
    ctx,
    async (client) => {
      const result = await publish(client, {
        ...settings,
        reports,
        logger: ctx.logger,
        progress: (line) => ctx.logger.info(line),
        signal: stop.signal,
      });
      return await finish(
        ctx,
        result,
        renderSummary(result, reports, {
          linkTemplate: ctx.values['link-template'] as string | undefined,
        }),
      );
    },
    common,
  );
}

/** `testcycle check`: one request that proves the base URL, the region and the token. */
export async function runCheckCommand(ctx: CommandContext): Promise<number> {
  return withClient(ctx, async (client) => {
    const project = await client.project();
    const out = {
      project: {
        id: project.id,
        name: project.attributes.name ?? null,
        key: project.attributes.key ?? null,
      },
      baseUrl: client.baseUrl.href,
      requests: client.stats,
    };
    if (ctx.values.json) ctx.io.stdout(JSON.stringify(out));
    else
      ctx.io.stdout(
        `ok: ${client.baseUrl.href} reaches Space ${out.project.name ?? out.project.id} (${project.id})`,
      );
    return 0;
  });
}

export async function runGateCommand(ctx: CommandContext): Promise<number> {
  const src = source(ctx.values);
  return withClient(ctx, async (client) => {
    const result = await gateCycle(
      client,
      cycleSettings(src, ctx.io.env),
      gateSettings(src),
      src.label,
    );
    return await finish(
      ctx,
      result,
      renderSummary(result, [], {
        linkTemplate: ctx.values['link-template'] as string | undefined,
      }),
    );
  });
}

async function finish(
  ctx: CommandContext,
  result: PublishResult,
  summary: string,
): Promise<number> {
  const file = ctx.values['summary-file'];
  if (typeof file === 'string') await writeFile(file, summary);
  if (ctx.values.json) {
    const { warnings: _warnings, ...out } = result;
    ctx.io.stdout(
      JSON.stringify({
        ...out,
        gate: { passed: result.gate.passed, reasons: result.gate.reasons },
      }),
    );
  } else {
    ctx.io.stdout(humanResult(result, ctx.io.color === true));
  }
  return result.gate.passed ? 0 : 1;
}

function humanResult(r: PublishResult, color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const c = r.counts;
  const lines = [
    `cycle ${r.cycle.key ?? '(new)'} "${r.cycle.name}" (${r.cycle.status})`,
    `results: ${c.passed} passed, ${c.failed} failed, ${c.blocked} blocked, ${c.skipped} skipped, ${c.notExecuted} not executed${c.inProgress ? `, ${c.inProgress} in progress` : ''} (${c.total} total)${r.passRate === null ? '' : `, pass rate ${r.passRate}%`}`,
  ];
  if (
    r.writes.created + r.writes.updated + r.writes.unchanged + r.writes.casesCreated > 0 ||
    r.dryRun
  ) {
    lines.push(
      `writes: ${r.writes.created} created, ${r.writes.updated} updated, ${r.writes.unchanged} unchanged${r.writes.casesCreated ? `, ${r.writes.casesCreated} test cases created` : ''}`,
    );
  }
  if (r.dryRun)
    lines.push(`dry run: nothing written; about ${r.dryRun.plannedRequests} more requests planned`);
  if (r.unmatched.length) lines.push(`unmatched: ${r.unmatched.length} test(s)`);
  if (r.gate.evaluated)
    lines.push(
      r.gate.passed
        ? paint(32, 'gate: passed')
        : `${paint(31, 'gate: FAILED')}\n${r.gate.reasons.map((x) => `  - ${x}`).join('\n')}`,
    );
  lines.push(
    `requests: ${r.requests.total}${r.requests.retried ? ` (${r.requests.retried} retried)` : ''}${r.requests.rateLimited ? `, ${r.requests.rateLimited} rate-limited` : ''}`,
  );
  return lines.join('\n');
}

export async function runCycleCreateCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const src = source(values);
  const template = src.string('name');
  if (!template) throw new ConfigError('--name', 'is required, e.g. --name "Nightly {date}".');
  const name = renderCycleName(template, ciContext(io.env), '--name');
  const status = choice(src, 'status', ['ACTIVE', 'DRAFT'] as const, 'ACTIVE');
  const customFields = jsonSetting(src, 'custom-fields');
  return withClient(ctx, async (client) => {
    const made = await createCycle(client, {
      name,
      status,
      customFields,
      populate: userFilterSetting(src, 'populate'),
      logger: ctx.logger,
    });
    const a = made.cycle.attributes;
    const out = {
      cycle: { id: made.cycle.id, key: a.testCycleKey ?? null, name: a.name, status: a.status },
      created: made.created,
      ...(made.populated ? { populated: made.populated } : {}),
      requests: requestsOf(client),
    };
    if (values.json) io.stdout(JSON.stringify(out));
    else {
      io.stdout(
        `${made.created ? 'created' : 'found'} cycle ${a.testCycleKey} "${a.name}" (${a.status})` +
          (made.populated
            ? `; ${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`
            : ''),
      );
    }
    return 0;
  });
}

export async function runCycleCloseCommand(ctx: CommandContext): Promise<number> {
  const src = source(ctx.values);
  return withClient(ctx, async (client) => {
    const closed = await closeCycle(client, cycleSettings(src, ctx.io.env), src.label);
    const a = closed.attributes;
    const out = {
      cycle: { id: closed.id, key: a.testCycleKey ?? null, name: a.name, status: a.status },
      requests: requestsOf(client),
    };
    ctx.io.stdout(
      ctx.values.json ? JSON.stringify(out) : `cycle ${a.testCycleKey} "${a.name}" is DONE`,
    );
    return 0;
  });
}
