/** A trace step in words, for the log of either adapter. */
import { oneLine } from '../shared/redact.js';
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
    `${r.added.length} link(s) ${verb('added', 'to add')}${list(r.added)}`,
    `${r.removed.length} ${verb('removed', 'to remove')}${list(r.removed)}`,
  ];
  if (r.held.length)
    parts.push(`${r.held.length} kept for want of evidence (${oneLine(r.held[0]!.reason)})`);
  if (r.unknown.length) parts.push(`${r.unknown.length} unknown requirement key(s)`);
  if (r.unavailable.length) parts.push(`not offered by the server: ${r.unavailable.join(', ')}`);
  return `trace: ${parts.join('; ')}${r.dryRun ? `; about ${r.plannedRequests} more requests` : ''}`;
}
