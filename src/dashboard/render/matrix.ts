/**
 * The traceability matrix (requirement, its status, its cases and their results) for people: in
 * Markdown (the job summary, the report's Markdown, `coverage --format markdown`) and CSV for
 * auditors (docs/design.md "Traceability: coverage"). Every value is data from the Space: a cell
 * of src/shared/markdown.ts in Markdown, a quoted field in CSV.
 */
import type { Coverage } from '../../schema/coverage.js';
import { cell } from '../../shared/markdown.js';
import { oneLine } from '../../shared/redact.js';

/** Rows shown in a summary: a job summary stays far inside its size limit (the rest counted). */
export const MAX_MATRIX_ROWS = 200;

const casesText = (cases: Coverage['requirements'][number]['cases']) =>
  cases.map((c) => `${c.key} ${c.result ?? 'no result'}`).join(', ');

export function coverageMarkdown(c: Coverage, maxRows = MAX_MATRIX_ROWS): string {
  const t = c.totals;
  const head = `### Requirement coverage\n\n${t.passed} of ${t.requirements} requirement(s) PASSED${t.coverage === null ? '' : ` (${t.coverage}%)`}: ${t.failed} FAILED, ${t.notRun} NOT_RUN, ${t.uncovered} UNCOVERED.\n`;
  if (c.requirements.length === 0) return head;
  const rows = c.requirements
    .slice(0, maxRows)
    .map(
      (r) =>
        `| ${cell(r.key)} | ${cell(r.name)} | ${r.status} | ${r.cases.length ? cell(casesText(r.cases)) : '-'} |`,
    );
  const more =
    c.requirements.length > maxRows
      ? `\n${c.requirements.length - maxRows} more requirement(s) not shown (coverage --json lists them all).\n`
      : '';
  return `${head}\n| Requirement | Name | Status | Test cases |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n${more}`;
}

/** RFC 4180: every field quoted, quotes doubled; a field starting with = + - @ is kept as text. */
function csvField(value: string): string {
  const text = oneLine(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One row per requirement and linked case (a requirement without cases: one row, no case). */
export function coverageCsv(c: Coverage): string {
  const lines = [['requirement', 'name', 'status', 'test_case', 'result']];
  for (const r of c.requirements)
    if (r.cases.length === 0) lines.push([r.key, r.name, r.status, '', '']);
    else for (const k of r.cases) lines.push([r.key, r.name, r.status, k.key, k.result ?? '']);
  return `${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}
