/**
 * Data inside Markdown that people read (job summaries, PR comments, check runs, the dashboard's
 * Markdown): never structure, never a mention or a link (docs/architecture.md "Untrusted text").
 */
import { clip, neutralise, oneLine } from './redact.js';

/**
 * Report text inside Markdown table cells: one line, mentions and issue references inert, no HTML
 * and no Markdown structure. Backslash escapes (CommonMark: any ASCII punctuation) read as the text
 * itself in raw Markdown (`\<90.00\>`, where entities read `&#60;90.00&#62;`) and render the same:
 * `<` starts no tag, `&` no entity. A bare URL would still become a link (GitHub's extended
 * autolinks: `http://`, `https://` and `www.`, also right after `_`, `*`, `~` or `(`; some
 * renderers link `ftp://` too), so a zero-width space splits every such scheme from its `://` and
 * `www` from its dot, wherever they stand; the text reads the same.
 */
export function markdownCell(text: string): string {
  return neutralise(oneLine(text))
    .replace(/[\\|`[\]*<>&]/g, (c) => `\\${c}`)
    .replace(/(?:https?|ftp)(?=:\/\/)|www(?=\.)/giu, '$&\u200b');
}

/**
 * Data in a summary's head and rows is cut to this many characters first: an 80,000-character
 * cycle name still leaves a head far inside GitHub's 65,535 (check run summary, comment body).
 */
export const MAX_CELL_CHARS = 500;

/**
 * One piece of data, cut and escaped: the one neutraliser of every text people read (summaries,
 * comments, check runs, the service's notifications of src/triage/notify.ts).
 */
export const cell = (text: string) => markdownCell(clip(text, MAX_CELL_CHARS));
