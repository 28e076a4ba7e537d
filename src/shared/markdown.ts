/**
 * Data inside Markdown that people read (job summaries, PR comments, check runs, the dashboard's
 * Markdown): never structure, never a mention or a link (docs/architecture.md "Untrusted text").
 */
import { neutralise, oneLine } from './redact.js';

/**
 * Report text inside Markdown table cells: one line, mentions and issue references inert,
 * HTML-escaped, Markdown syntax neutralised.
 */
export function markdownCell(text: string): string {
  return neutralise(oneLine(text))
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/[\\|`[\]*]/g, (c) => `\\${c}`);
}
