/** The commands that talk to the service: publish, gate, cycle create, cycle close. */
import { writeFile } from 'node:fs/promises';
import { ServiceClient } from '../api/client.js';
import { ConfigError } from '../api/errors.js';
import {
  cycleCounts,
  cycleSettings,
  findCycle,
  gateSettings,
  hasThresholds,
  passRate,
  populateCycle,
  publish,
  publishSettings,
  renderSummary,
  resolveCycle,
  setCycleStatus,
  verdict,
  type PublishResult,
  type SettingSource,
} from '../publish/index.js';
import { DEFAULT_MAX_BYTES, FORMAT_IDS, readReports } from '../reports/index.js';
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
  return {
    string: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
    bool: (name) => (typeof values[name] === 'boolean' ? (values[name] as boolean) : undefined),
    label: (name) => `--${name}`,
  };
}

function clientFor(ctx: CommandContext): ServiceClient {
  const options = commonOptions(ctx.values, ctx.io.env);
  return new ServiceClient({
    ...options,
    redactor: ctx.redactor,
    logger: ctx.logger,
    userAgent: 'testcycle-cli',
  });
}

export async function runPublishCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const settings = publishSettings(source(values), io.env);
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
  const client = clientFor(ctx);
  try {
    const result = await publish(client, {
      ...settings,
      reports,
      logger: ctx.logger,
      progress: (line) => ctx.logger.info(line),
    });
    return await finish(
      ctx,
      result,
      renderSummary(result, reports, {
        linkTemplate: ctx.values['link-template'] as string | undefined,
      }),
    );
  } finally {
    await client.close();
  }
}

export async function runGateCommand(ctx: CommandContext): Promise<number> {
  const src = source(ctx.values);
  const target = cycleSettings(src, ctx.io.env);
  const gate = gateSettings(src);
  const client = clientFor(ctx);
  try {
    const cycle = await findCycle(client, target);
    if (!cycle)
      throw new ConfigError(
        target.key ? '--cycle-key' : '--cycle-name',
        `no test cycle ${target.key ?? `"${target.name}"`} in this Space.`,
      );
    const counts = await cycleCounts(client, cycle.id, gate.filter);
    const v = hasThresholds(gate) ? verdict(counts, gate) : { passed: true, reasons: [] };
    const result: PublishResult = {
      cycle: {
        id: cycle.id,
        key: (cycle.attributes.testCycleKey as string) ?? null,
        name: String(cycle.attributes.name ?? ''),
        status: String(cycle.attributes.status ?? ''),
      },
      counts,
      passRate: passRate(counts, gate.basis),
      gate: { ...v, evaluated: true },
      writes: { created: 0, updated: 0, unchanged: 0, casesCreated: 0 },
      unmatched: [],
      requests: {
        total: client.stats.total,
        byMethod: { ...client.stats.byMethod },
        retried: client.stats.retried,
        rateLimited: client.stats.rateLimited,
      },
      warnings: [],
    };
    return await finish(
      ctx,
      result,
      renderSummary(result, [], {
        linkTemplate: ctx.values['link-template'] as string | undefined,
      }),
    );
  } finally {
    await client.close();
  }
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
    ctx.io.stdout(humanResult(result));
  }
  return result.gate.passed ? 0 : 1;
}

function humanResult(r: PublishResult): string {
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
        ? 'gate: passed'
        : `gate: FAILED\n${r.gate.reasons.map((x) => `  - ${x}`).join('\n')}`,
    );
  lines.push(
    `requests: ${r.requests.total}${r.requests.retried ? ` (${r.requests.retried} retried)` : ''}${r.requests.rateLimited ? `, ${r.requests.rateLimited} rate-limited` : ''}`,
  );
  return lines.join('\n');
}

export async function runCycleCreateCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const src = source(values);
  const name = src.string('name');
  if (!name) throw new ConfigError('--name', 'is required, e.g. --name "Nightly {date}".');
  const { name: rendered } = cycleSettings(
    {
      ...src,
      string: (n) => (n === 'cycle-name' ? name : undefined),
      label: (n) => (n === 'cycle-name' ? '--name' : `--${n}`),
    },
    io.env,
  );
  const status = src.string('status') ?? 'ACTIVE';
  if (status !== 'ACTIVE' && status !== 'DRAFT')
    throw new ConfigError('--status', `"${status}" is not one of ACTIVE, DRAFT.`);
  let customFields: Record<string, unknown> | undefined;
  if (src.string('custom-fields')) {
    try {
      customFields = JSON.parse(src.string('custom-fields')!) as Record<string, unknown>;
    } catch {
      throw new ConfigError('--custom-fields', 'must be a JSON object, e.g. {"build":"1.2.3"}.');
    }
  }
  const client = clientFor(ctx);
  try {
    const project = await client.project();
    const cycle = await resolveCycle(client, project.id, {
      name: rendered,
      create: true,
      reopenDone: false,
      customFields,
      createStatus: status,
      dryRun: false,
      logger: ctx.logger,
      needActive: false,
    });
    const populate = src.string('populate');
    const populated = populate
      ? await populateCycle(client, project.id, cycle!, populate, client.scheduler.concurrency)
      : undefined;
    const out = {
      cycle: {
        id: cycle!.resource.id,
        key: cycle!.resource.attributes.testCycleKey ?? null,
        name: cycle!.resource.attributes.name,
        status: cycle!.resource.attributes.status,
      },
      created: cycle!.created,
      ...(populated ? { populated } : {}),
      requests: {
        total: client.stats.total,
        byMethod: { ...client.stats.byMethod },
        retried: client.stats.retried,
        rateLimited: client.stats.rateLimited,
      },
    };
    if (values.json) io.stdout(JSON.stringify(out));
    else {
      io.stdout(
        `${out.created ? 'created' : 'found'} cycle ${out.cycle.key} "${out.cycle.name}" (${out.cycle.status})` +
          (populated
            ? `; ${populated.created} NOT_EXECUTED executions added for ${populated.matched} matching test cases`
            : ''),
      );
    }
    return 0;
  } finally {
    await client.close();
  }
}

export async function runCycleCloseCommand(ctx: CommandContext): Promise<number> {
  const target = cycleSettings(source(ctx.values), ctx.io.env);
  const client = clientFor(ctx);
  try {
    const cycle = await findCycle(client, target);
    if (!cycle)
      throw new ConfigError(
        target.key ? '--cycle-key' : '--cycle-name',
        `no test cycle ${target.key ?? `"${target.name}"`} in this Space.`,
      );
    const closed = await setCycleStatus(client, cycle, 'DONE');
    const out = {
      cycle: {
        id: closed.id,
        key: closed.attributes.testCycleKey ?? null,
        name: closed.attributes.name,
        status: closed.attributes.status,
      },
      requests: { total: client.stats.total },
    };
    ctx.io.stdout(
      ctx.values.json ? JSON.stringify(out) : `cycle ${out.cycle.key} "${out.cycle.name}" is DONE`,
    );
    return 0;
  } finally {
    await client.close();
  }
}
