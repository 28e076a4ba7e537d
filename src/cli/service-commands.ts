/** The commands that talk to the service: publish, gate, cycle create, cycle close, check. */
import { writeFile } from 'node:fs/promises';
import {
  checkJob,
  closeCycleJob,
  createCycleJob,
  cycleInfo,
  describeRuleChanges,
  describeRunError,
  failedTests,
  gateJob,
  gateOutcome,
  headline,
  publishJob,
  quarantineNote,
  renderSummary,
  runJob,
  triageLines,
  type Job,
  type JobIO,
  type JobOutcome,
  type ParsedReport,
  type PublishResult,
  type TokenStanding,
} from '../job/index.js';
import { oneLine } from '../shared/redact.js';
import { plural } from '../shared/words.js';
import { outputFile } from '../settings/index.js';
import type { CommandContext } from './context.js';
import { EXIT_CODES } from './exit-codes.js';

/** A job of src/job run for one command: its settings, reports and client the job layer's. */
export function runCommandJob<R>(
  ctx: CommandContext,
  job: Job<R>,
  extra: Partial<Pick<JobIO, 'adapterSettings' | 'signal' | 'progress'>> = {},
): Promise<JobOutcome<R>> {
  return runJob(job, {
    settings: ctx.settings,
    given: ctx.given,
    place: { command: ctx.command },
    env: ctx.io.env,
    redactor: ctx.redactor,
    logger: ctx.logger,
    userAgent: 'testcycle-cli',
    ...extra,
  });
}

/** An interrupt (Ctrl-C, a cancelled CI job) stops between writes; a second one stops at once. */
export function interruption(ctx: CommandContext): AbortSignal {
  const stop = new AbortController();
  void ctx.io.interrupted?.().then(() => {
    ctx.logger.warn('interrupted: finishing the writes under way, then stopping');
    stop.abort();
  });
  return stop.signal;
}

export async function runPublishCommand(ctx: CommandContext): Promise<number> {
  const { result } = await runCommandJob(ctx, publishJob, {
    adapterSettings: () => outputFile(ctx.settings, 'summary-file'),
    progress: (line) => ctx.logger.info(line),
    signal: interruption(ctx),
  });
  return finish(ctx, result.result, result.reports);
}

function summaryOptions(ctx: CommandContext): { linkTemplate?: string } {
  return { linkTemplate: ctx.settings.string('link-template') };
}

/**
 * `testcycle check`: the Space proves the base URL, the region and the token; the tokens
 * resource tells whether the token may write (a 403 on writes), and until when.
 */
export async function runCheckCommand(ctx: CommandContext): Promise<number> {
  const { result, stats } = await runCommandJob(ctx, checkJob);
  const out = { ...result, requests: stats };
  if (ctx.values.json) ctx.io.stdout(JSON.stringify(out));
  else
    ctx.io.stdout(
      `ok: ${out.baseUrl} reaches Space ${out.project.name ?? out.project.id} (${out.project.id})\n${tokenLine(out.token)}`,
    );
  return 0;
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
  const { result } = await runCommandJob(ctx, gateJob, {
    adapterSettings: () => outputFile(ctx.settings, 'summary-file'),
  });
  return finish(ctx, result.result, []);
}

async function finish(
  ctx: CommandContext,
  result: PublishResult,
  reports: ParsedReport[],
): Promise<number> {
  const file = ctx.values['summary-file'];
  // The summary holds what the reports and the Space say (failure messages, run errors): data that
  // may quote the token, masked as in every other output.
  if (typeof file === 'string')
    await writeFile(file, ctx.redactor.redact(renderSummary(result, reports, summaryOptions(ctx))));
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
  const { result: made, requests } = await runCommandJob(ctx, createCycleJob);
  const cycle = cycleInfo(made.cycle);
  const out = {
    cycle,
    created: made.created,
    ...(made.populated ? { populated: made.populated } : {}),
    requests,
  };
  if (ctx.values.json) ctx.io.stdout(JSON.stringify(out));
  else
    ctx.io.stdout(
      `${made.created ? 'created' : 'found'} cycle ${cycle.key} "${cycle.name}" (${cycle.status})` +
        (made.populated
          ? `; ${made.populated.created} NOT_EXECUTED executions added for ${made.populated.matched} matching test cases`
          : ''),
    );
  return 0;
}

export async function runCycleCloseCommand(ctx: CommandContext): Promise<number> {
  const { result, requests } = await runCommandJob(ctx, closeCycleJob);
  const cycle = cycleInfo(result);
  ctx.io.stdout(
    ctx.values.json
      ? JSON.stringify({ cycle, requests })
      : `cycle ${cycle.key} "${cycle.name}" is DONE`,
  );
  return 0;
}
