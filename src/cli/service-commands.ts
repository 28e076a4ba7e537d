/** The commands that talk to the service: publish, gate, cycle create, cycle close, check. */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ServiceClient } from '../client/client.js';
import {
  closeCycle,
  createCycle,
  createCycleSettings,
  cycleInfo,
  cycleSettings,
  gateCycle,
  gateOutcome,
  gateOnlySettings,
  publish,
  publishSettings,
  readReportSet,
  quarantineNote,
  renderSummary,
  reportSettings,
  requestsOf,
  clientSettings,
  failedTests,
  headline,
  type PublishResult,
} from '../publish/index.js';
import { oneLine } from '../shared/redact.js';
import { plural } from '../shared/words.js';
import { outputFile } from '../settings/index.js';
import type { ParsedReport } from '../parsers/index.js';
import { tokenStanding, type TokenStanding } from '../client/token.js';
import { describeRuleChanges } from '../triage/index.js';
import { triageLines } from '../triage/index.js';
import { describeRunError } from '../publish/verdict.js';
import type { CommandContext } from './main.js';
import { EXIT_CODES } from './exit-codes.js';

/** A client for one command, closed when the command ends. */
export async function withClient<T>(
  ctx: CommandContext,
  work: (client: ServiceClient) => Promise<T>,
  options = clientSettings(ctx.settings),
): Promise<T> {
  const client = new ServiceClient({
    ...options,
    redactor: ctx.redactor,
    logger: ctx.logger,
    userAgent: 'testcycle-cli',
    // Commands run one after another in a CI job pace together on the token.
    sharedPaceDir: tmpdir(),
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** An interrupt (Ctrl-C, a cancelled CI job) stops between writes; a second one stops at once. */
export function interruption(ctx: CommandContext): AbortController {
  const stop = new AbortController();
  void ctx.io.interrupted?.().then(() => {
    ctx.logger.warn('interrupted: finishing the writes under way, then stopping');
    stop.abort();
  });
  return stop;
}

export async function runPublishCommand(ctx: CommandContext): Promise<number> {
  const { settings: src, io } = ctx;
  // Every setting is checked before a report is read: a usage error is the first thing to fix.
  const settings = publishSettings(src, io.env, ctx.redactor);
  const client = clientSettings(src);
  outputFile(src, 'summary-file');
  // Reports next: a missing or broken report fails before any request.
  const reports = await readReportSet(reportSettings(src), ctx.logger);
  const stop = interruption(ctx);
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
        renderSummary(result, reports, summaryOptions(ctx)),
        reports,
      );
    },
    client,
  );
}

function summaryOptions(ctx: CommandContext): { linkTemplate?: string } {
  return { linkTemplate: ctx.settings.string('link-template') };
}

/**
 * `testcycle check`: the Space proves the base URL, the region and the token; the tokens
 * resource tells whether the token may write (a 403 on writes), and until when.
 */
export async function runCheckCommand(ctx: CommandContext): Promise<number> {
  const options = clientSettings(ctx.settings);
  return withClient(
    ctx,
    async (client) => {
      const project = await client.project();
      const token = await tokenStanding(client, options.token);
      const out = {
        project: {
          id: project.id,
          name: project.attributes.name ?? null,
          key: project.attributes.key ?? null,
        },
        baseUrl: client.baseUrl.href,
        token,
        requests: client.stats,
      };
      if (ctx.values.json) ctx.io.stdout(JSON.stringify(out));
      else
        ctx.io.stdout(
          `ok: ${client.baseUrl.href} reaches Space ${out.project.name ?? out.project.id} (${project.id})\n${tokenLine(token)}`,
        );
      return 0;
    },
    options,
  );
}

/** `token: read-only (writes get 403: ...), expires 2027-01-31 (in 67 days)`. */
function tokenLine(t: TokenStanding, now = Date.now()): string {
  const role =
    t.role === 'read-only'
      ? 'read-only (writes get 403: publish, cycle create and cycle close need a read-write token)'
      : t.role === 'read-write'
        ? 'read-write (writes allowed)'
        : (t.role ?? 'role not known');
  const days = t.expiresAt ? Math.floor((Date.parse(t.expiresAt) - now) / 86_400_000) : null;
  const expiry =
    t.expiresAt && days !== null
      ? `, expires ${t.expiresAt.slice(0, 10)} (${days < 1 ? 'within a day' : `in ${days} day${days === 1 ? '' : 's'}`})`
      : '';
  return `token: ${role}${expiry}${t.note ? `; ${t.note}` : ''}`;
}

export async function runGateCommand(ctx: CommandContext): Promise<number> {
  const target = cycleSettings(ctx.settings, ctx.io.env, ctx.redactor);
  const gate = gateOnlySettings(ctx.settings, ctx.io.env);
  outputFile(ctx.settings, 'summary-file');
  return withClient(ctx, async (client) => {
    const result = await gateCycle(client, target, gate, ctx.logger);
    return await finish(ctx, result, renderSummary(result, [], summaryOptions(ctx)));
  });
}

async function finish(
  ctx: CommandContext,
  result: PublishResult,
  summary: string,
  reports: ParsedReport[] = [],
): Promise<number> {
  const file = ctx.values['summary-file'];
  if (typeof file === 'string') await writeFile(file, summary);
  if (ctx.values.json) {
    const { warnings: _warnings, ...out } = result;
    ctx.io.stdout(
      JSON.stringify({
        ...out,
        // A dry run has no verdict: passed null, outcome skipped.
        gate: {
          outcome: gateOutcome(result),
          passed: result.dryRun ? null : result.gate.passed,
          reasons: result.gate.reasons,
          ...(result.gate.notes ? { notes: result.gate.notes } : {}),
        },
      }),
    );
  } else {
    ctx.io.stdout(humanResult(result, reports, ctx.io.color === true));
  }
  return result.gate.passed ? 0 : EXIT_CODES.gate;
}

/** The CLI names at most this many failed (and not executed) tests, then counts the rest. */
const LISTED_TESTS = 20;

/** `title`, then the first LISTED_TESTS names indented, then "and N more". */
function listed(title: string, names: string[]): string[] {
  if (names.length === 0) return [];
  const more = names.length - LISTED_TESTS;
  return [
    title,
    ...names.slice(0, LISTED_TESTS).map((n) => `  ${oneLine(n)}`),
    ...(more > 0 ? [`  and ${more} more`] : []),
  ];
}

function humanResult(r: PublishResult, reports: ParsedReport[], color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const c = r.counts;
  const plan = r.dryRun;
  const status = plan?.createCycle
    ? 'would be created'
    : `${r.cycle.status}${plan?.activateCycle ? ', would be made ACTIVE' : ''}`;
  const lines = [
    `cycle ${r.cycle.key ?? '(new)'} "${r.cycle.name}" (${status})`,
    `results: ${c.passed} passed, ${c.failed} failed, ${c.blocked} blocked, ${c.skipped} skipped, ${c.notExecuted} not executed${c.inProgress ? `, ${c.inProgress} in progress` : ''} (${c.total} total)${r.passRate === null ? '' : `, pass rate ${r.passRate}%${quarantineNote(r, ' (', ')')}`}`,
  ];
  const failed = failedTests(reports).map(({ t, file }) => {
    const name = t.classname ? `${t.classname} › ${t.name}` : t.name;
    const message = headline(t.message);
    return `${name} (${t.file ?? file}${t.line ? `:${t.line}` : ''})${message ? `: ${message.slice(0, 200)}` : ''}`;
  });
  lines.push(
    ...listed(`failed in the reports: ${failed.length}`, failed),
    ...listed(
      `run errors in the reports (no tests): ${r.runErrors?.length ?? 0}`,
      (r.runErrors ?? []).map(describeRunError),
    ),
    ...listed(`not executed in the cycle: ${r.notExecuted?.length ?? 0}`, r.notExecuted ?? []),
  );
  if (plan) {
    lines.push(
      `plan: would create ${plan.create}, update ${plan.update}, leave ${r.writes.unchanged} unchanged${plan.casesToCreate ? `; ${plan.casesToCreate} test cases to create` : ''}`,
      `dry run: nothing written; ${plan.plannedRequests} more requests planned (${plan.totalRequests} in all)`,
      'gate: skipped (dry run)',
    );
  } else if (r.writes.created + r.writes.updated + r.writes.unchanged + r.writes.casesCreated > 0) {
    lines.push(
      `writes: ${r.writes.created} created, ${r.writes.updated} updated, ${r.writes.unchanged} unchanged${r.writes.casesCreated ? `, ${plural(r.writes.casesCreated, 'test case')} created` : ''}`,
    );
  }
  if (r.unmatched.length) lines.push(`unmatched: ${r.unmatched.length} test(s)`);
  if (r.collided?.length) lines.push(`left out (key collisions): ${r.collided.length} test(s)`);
  lines.push(
    ...(r.autoQuarantine ? describeRuleChanges(r.autoQuarantine) : []),
    ...triageLines(r.triage, r.notified),
  );
  if (r.gate.evaluated) {
    lines.push(
      r.gate.passed
        ? paint(32, 'gate: passed')
        : `${paint(31, 'gate: FAILED')}\n${r.gate.reasons.map((x) => `  - ${x}`).join('\n')}`,
    );
    for (const note of r.gate.notes ?? []) lines.push(`  note: ${note}`);
  }
  lines.push(
    `requests: ${r.requests.total}${r.requests.retried ? ` (${r.requests.retried} retried)` : ''}${r.requests.rateLimited ? `, ${r.requests.rateLimited} rate-limited` : ''}`,
  );
  return lines.join('\n');
}

export async function runCycleCreateCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const settings = createCycleSettings(ctx.settings, io.env, ctx.redactor);
  return withClient(ctx, async (client) => {
    const made = await createCycle(client, { ...settings, logger: ctx.logger });
    const cycle = cycleInfo(made.cycle);
    const out = {
      cycle,
      created: made.created,
      ...(made.populated ? { populated: made.populated } : {}),
      requests: requestsOf(client),
    };
    if (values.json) io.stdout(JSON.stringify(out));
    else {
      io.stdout(
        `${made.created ? 'created' : 'found'} cycle ${cycle.key} "${cycle.name}" (${cycle.status})` +
          (made.populated
            ? `; ${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`
            : ''),
      );
    }
    return 0;
  });
}

export async function runCycleCloseCommand(ctx: CommandContext): Promise<number> {
  const target = cycleSettings(ctx.settings, ctx.io.env, ctx.redactor);
  return withClient(ctx, async (client) => {
    const cycle = cycleInfo(await closeCycle(client, target));
    const out = { cycle, requests: requestsOf(client) };
    ctx.io.stdout(
      ctx.values.json ? JSON.stringify(out) : `cycle ${cycle.key} "${cycle.name}" is DONE`,
    );
    return 0;
  });
}
