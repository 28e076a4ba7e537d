/**
 * The Markdown of a sync for the job summary: counts, then the cases each kind touched (first 50
 * of each). Case names come from reports and the service: escaped as data, never Markdown.
 */
import type { CaseRef, SyncResult } from './inventory.js';
import { markdownCell } from '../shared/markdown.js';

const SHOWN = 50;

export function renderSyncSummary(r: SyncResult): string {
  const verb = r.dryRun ? 'would be ' : '';
  const rows: [string, number][] = [
    ['created', r.created.length],
    ['renamed', r.renamed.length],
    ['re-keyed', r.rekeyed.length],
    ['updated', r.updated.length],
    ['archived', r.archived.length],
    ['restored', r.restored.length],
    ['unchanged', r.unchanged],
  ];
  const lines = [
    `## ${r.dryRun ? '📝 Sync plan: nothing written' : '🔄 Test cases synced'}`,
    '',
    '| Test cases | Count |',
    '| --- | ---: |',
    ...rows.map(([label, n]) => `| ${label === 'unchanged' ? label : verb + label} | ${n} |`),
  ];
  if (r.steps.cases)
    lines.push(
      '',
      `Steps of ${r.steps.cases} case(s): ${r.steps.created} ${verb}created, ${r.steps.updated} ${verb}updated, ${r.steps.deleted} ${verb}deleted.`,
    );
  const section = (title: string, items: (CaseRef & { from?: string })[]) => {
    if (!items.length) return;
    lines.push('', `### ${verb}${title}`, '');
    for (const c of items.slice(0, SHOWN))
      lines.push(
        `- ${c.key ? `${markdownCell(c.key)} ` : ''}${markdownCell(c.name)}${c.from !== undefined ? ` (was ${markdownCell(c.from)})` : ''}`,
      );
    if (items.length > SHOWN) lines.push(`- ... and ${items.length - SHOWN} more`);
  };
  section('created', r.created);
  section('renamed', r.renamed);
  section('re-keyed', r.rekeyed);
  section('archived', r.archived);
  section('restored', r.restored);
  if (r.failed.length)
    section(
      'not written',
      r.failed.map((f) => ({ key: null, name: `${f.case}: ${f.reason}` })),
    );
  lines.push(
    '',
    r.dryRun
      ? `Requests: ${r.requests.total} read; about ${r.plannedRequests} more to write the plan.`
      : `Requests: ${r.requests.total}.`,
  );
  return lines.join('\n') + '\n';
}
