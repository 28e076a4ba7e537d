/**
 * The Markdown summary shared by the action's job summary and the CLI's --summary-file: verdict,
 * pass rate, counts, what publish --sync did to the test cases, failed tests with file:line,
 * unmatched tests, cycle, requests. Text from reports is HTML-escaped; the whole stays under a
 * size limit, cut with a note.
 */
import { plural } from '../shared/words.js';
import { cell, MAX_CELL_CHARS } from '../shared/markdown.js';
import { clip } from '../shared/redact.js';
import type { ParsedReport, TestResult } from '../parsers/index.js';
import type { Unmatched } from '../domain/index.js';
import type { PublishResult } from './publish.js';
import { describeRuleChanges } from '../triage/index.js';
import { renderSyncSection } from '../inventory/index.js';
import { triageSections } from '../triage/index.js';
import type { ReportRunError } from './verdict.js';

export interface SummaryOptions {
  /** e.g. https://app.example/cycles/{key} (the API has no UI URLs). */
  linkTemplate?: string;
  maxBytes?: number;
  title?: string;
}

export const MAX_SUMMARY_BYTES = 1024 * 1024 - 1024;

/** The failed and errored tests of the reports, each with its report file. */
export function failedTests(reports: ParsedReport[]): { t: TestResult; file: string }[] {
  return reports.flatMap((r) =>
    r.tests
      .filter((t) => t.outcome === 'failed' || t.outcome === 'error')
      .map((t) => ({ t, file: r.file })),
  );
}

/**
 * The line of a failure message that says what failed: gtest's first line is only where
 * (`foo_test.cc:42`, `unknown file`), so such lines are passed over.
 */
export function headline(message: string | undefined): string {
  const lines = (message ?? '').split('\n').map((l) => l.trim());
  const where = /^(unknown file|[^\s:]+:\d+(:\d+)?:?)$/;
  return lines.find((l) => l && !where.test(l)) ?? lines.find(Boolean) ?? '';
}

/**
 * A publish's result as the Markdown of a job summary or a comment: every text from reports and the
 * service in cells.
 */
export function renderSummary(
  result: PublishResult,
  reports: ParsedReport[],
  options: SummaryOptions = {},
): string {
  const max = options.maxBytes ?? MAX_SUMMARY_BYTES;
  const c = result.counts;
  const plan = result.dryRun;
  const verdict = plan
    ? '📝 Dry run: the plan, nothing written'
    : !result.gate.evaluated
      ? '📤 Published'
      : result.gate.passed
        ? '✅ Gate passed'
        : '❌ Gate failed';
  const cycleName = cell(result.cycle.name);
  const key = result.cycle.key ? cell(result.cycle.key) : '';
  const link =
    options.linkTemplate && result.cycle.key
      ? options.linkTemplate
          .replace('{key}', encodeURIComponent(clip(result.cycle.key, MAX_CELL_CHARS)))
          .replace('{id}', encodeURIComponent(result.cycle.id ?? ''))
      : undefined;
  const cycle = link ? `[${key} ${cycleName}](${link})` : `${key} ${cycleName}`.trim();
  const status = plan?.createCycle
    ? 'would be created'
    : `${cell(result.cycle.status)}${plan?.activateCycle ? ', would be made ACTIVE' : ''}`;
  const lines: string[] = [
    `## ${options.title ?? 'testcycle'}: ${verdict}`,
    '',
    `**Cycle** ${cycle} (${status})${result.passRate === null ? '' : ` · **Pass rate** ${result.passRate}%${plan ? ' (as planned)' : ''}${quarantineNote(result, ' (', ')')}`}`,
    '',
    '| Passed | Failed | Blocked | Skipped | Not executed | In progress | Total |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${c.passed} | ${c.failed} | ${c.blocked} | ${c.skipped} | ${c.notExecuted} | ${c.inProgress} | ${c.total} |`,
    '',
  ];
  const notes = result.gate.notes ?? [];
  if (result.gate.evaluated && (!result.gate.passed || notes.length)) {
    lines.push(
      '**Gate**',
      '',
      ...result.gate.reasons.map((r) => `- ${cell(r)}`),
      ...notes.map((n) => `- Note: ${cell(n)}`),
      '',
    );
  }
  const w = result.writes;
  const requests = `Requests: ${result.requests.total}${result.requests.rateLimited ? ` (${result.requests.rateLimited} rate-limited)` : ''}`;
  lines.push(
    plan
      ? `**Plan** would create ${plan.create}, update ${plan.update}, leave ${w.unchanged} unchanged${plan.casesToCreate ? `, and create ${plural(plan.casesToCreate, 'test case')}` : ''} · ${plan.plannedRequests} more requests (${plan.totalRequests} in all) · ${requests} (reads) · Gate: not evaluated (dry run)`
      : `Writes: ${w.created} created, ${w.updated} updated, ${w.unchanged} unchanged${w.casesCreated ? `, ${plural(w.casesCreated, 'test case')} created` : ''} · ${requests}`,
    '',
  );
  const head = lines.join('\n');
  const sections: string[] = triageSections(result.triage, cell, result.notified);
  if (result.sync) sections.unshift(renderSyncSection(result.sync, cell));
  const ruled = result.autoQuarantine ? describeRuleChanges(result.autoQuarantine) : [];
  if (ruled.length) sections.unshift(`${ruled.map((line) => `- ${cell(line)}`).join('\n')}\n`);
  if (result.runErrors?.length) sections.push(runErrorTable(result.runErrors));
  const failed = failedTests(reports);
  if (failed.length) {
    // A dry run's table holds the cycle as planned; these are the reports' failures.
    sections.push(
      `### Failed tests${plan ? ' in the reports' : ''} (${failed.length})\n\n| Test | Where | Message |\n|---|---|---|\n` +
        failed
          .map(({ t, file }) => {
            const where = `${cell(t.file ?? file)}${t.line ? `:${t.line}` : ''}`;
            const message = cell(headline(t.message).slice(0, 300));
            return `| ${cell(t.classname ? `${t.classname} › ${t.name}` : t.name)} | ${where} | ${message} |`;
          })
          .join('\n') +
        '\n',
    );
  }
  if (result.unmatched.length) sections.push(unmatchedTable('Unmatched tests', result.unmatched));
  if (result.collided?.length)
    sections.push(unmatchedTable('Left out: key collisions', result.collided));
  return cut(head, sections, max);
}

/** The run errors: no tests, in no cycle, so named here (docs/design.md "Run errors"). */
function runErrorTable(rows: ReportRunError[]): string {
  return (
    `### Run errors (${rows.length})\n\nFailures of the run that are no test's result: the tests they stopped are not in the reports.\n\n| Where | Report | What the runner said |\n|---|---|---|\n` +
    rows
      .map(
        (e) =>
          `| ${cell(e.file ?? e.suite ?? '')} | ${cell(e.report)} | ${cell(e.message.slice(0, 300))} |`,
      )
      .join('\n') +
    '\n'
  );
}

function unmatchedTable(title: string, rows: Unmatched[]): string {
  return (
    `### ${title} (${rows.length})\n\n| Test | Report | Why |\n|---|---|---|\n` +
    rows.map((u) => `| ${cell(u.test)} | ${cell(u.file ?? '')} | ${cell(u.reason)} |`).join('\n') +
    '\n'
  );
}

/** Keep whole rows until the limit, then say how much was left out (linear in the rows). */
function cut(head: string, sections: string[], max: number): string {
  const budget = max - 200; // room for the note
  const parts = [head];
  let size = Buffer.byteLength(head);
  for (const section of sections) {
    const sectionSize = Buffer.byteLength(section) + 1;
    if (size + sectionSize <= budget) {
      parts.push(`\n${section}`);
      size += sectionSize;
      continue;
    }
    const rows = section.split('\n');
    let kept = 0;
    parts.push('\n');
    size += 1;
    for (; kept < rows.length; kept++) {
      const rowSize = Buffer.byteLength(rows[kept]!) + 1;
      if (size + rowSize > budget) break;
      parts.push(`${rows[kept]}\n`);
      size += rowSize;
    }
    parts.push(
      `\n_… ${rows.length - kept} more rows left out to stay under the summary size limit._\n`,
    );
    break;
  }
  return parts.join('');
}

/**
 * ` (1 quarantined test left out; 33.33% counting it, as testcycle report does)`: why the gate's
 * pass rate is not the one the report page and the service show for the same cycle
 * (docs/design.md "Triage"); empty when the gate left nothing out.
 */
export function quarantineNote(result: PublishResult, open: string, close: string): string {
  const all = result.passRateWithQuarantined;
  const left = result.triage?.quarantined.length ?? 0;
  if (all === undefined || left === 0) return '';
  const counting =
    all === null ? 'nothing counts with them' : `${all}% counting ${left === 1 ? 'it' : 'them'}`;
  return `${open}${plural(left, 'quarantined test')} left out; ${counting}, as testcycle report does${close}`;
}
