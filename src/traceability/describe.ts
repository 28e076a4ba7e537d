/** A trace step in words, for the log of either adapter. */
import { cell } from '../shared/markdown.js';
import { oneLine } from '../shared/redact.js';
import { plural } from '../shared/words.js';
import type { LinkChange, TraceResult } from './links.js';

const shown = (c: LinkChange) =>
  `${oneLine(c.case)} → ${oneLine(c.requirement ?? c.workItem ?? '')}`;

/** `trace: 3 links added (T1 → DEMO-REQ1, ...), 1 removed; 2 unknown requirement keys`. */
export function describeTrace(r: TraceResult): string {
  const verb = (done: string, would: string) => (r.dryRun ? would : done);
  const list = (items: LinkChange[]) =>
    items.length
      ? ` (${items.slice(0, 5).map(shown).join(', ')}${items.length > 5 ? ', ...' : ''})`
      : '';
  const parts = [
    `${plural(r.added.length, 'link')} ${verb('added', 'to add')}${list(r.added)}`,
    `${r.removed.length} ${verb('removed', 'to remove')}${list(r.removed)}`,
  ];
  if (r.held.length)
    parts.push(`${r.held.length} kept for want of evidence (${oneLine(r.held[0]!.reason)})`);
  if (r.unknown.length) parts.push(plural(r.unknown.length, 'unknown requirement key'));
  if (r.unavailable.length) parts.push(`not offered by the server: ${r.unavailable.join(', ')}`);
  return `trace: ${parts.join('; ')}${r.dryRun ? `; about ${plural(r.plannedRequests, 'more request')}` : ''}`;
}

/** The links of a --trace run for a job summary (every value a cell: data from reports and the Space). */
export function traceMarkdown(r: TraceResult): string {
  const verb = (done: string, would: string) => (r.dryRun ? would : done);
  const list = (items: { case: string; requirement?: string; workItem?: string }[]) =>
    `${items
      .slice(0, 10)
      .map((c) => `${cell(c.case)} → ${cell(c.requirement ?? c.workItem ?? '')}`)
      .join('; ')}${items.length > 10 ? `; … and ${items.length - 10} more` : ''}`;
  const lines = [
    `### Links (trace)`,
    '',
    `${r.added.length} ${verb('added', 'to add')}, ${r.removed.length} ${verb('removed', 'to remove')}, ${r.held.length} kept for want of evidence, ${plural(r.unknown.length, 'unknown requirement key')}.`,
    '',
  ];
  if (r.added.length) lines.push(`- ${verb('added', 'to add')}: ${list(r.added)}`);
  if (r.removed.length) lines.push(`- ${verb('removed', 'to remove')}: ${list(r.removed)}`);
  if (r.held.length) lines.push(`- kept (${cell(r.held[0]!.reason)}): ${list(r.held)}`);
  for (const u of r.unknown.slice(0, 10))
    lines.push(`- unknown: ${cell(u.file)}: ${cell(u.test)} names ${cell(u.key)}`);
  if (r.unavailable.length)
    lines.push(`- not offered by the server: ${r.unavailable.map(cell).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
