/**
 * Text from the service (cycle and test names are anyone's to write) as data in the page and the
 * summary: one line, no control codes, cut to a readable length, then escaped for where it goes.
 */
import { oneLine } from '../../shared/redact.js';

/** Longer names are cut: a page of top-N lists stays small whatever the names hold. */
export const MAX_NAME_CHARS = 200;

export function shorten(text: string, max = MAX_NAME_CHARS): string {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** For HTML text and attribute values (always double-quoted): every markup character escaped. */
export function html(text: string | number): string {
  return shorten(String(text)).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "▼ 2.5 points", "▲ 1 points", "unchanged": the change of a pass rate that fell by `drop`. */
export function dropText(drop: number): string {
  return drop === 0 ? 'unchanged' : `${drop > 0 ? '▼' : '▲'} ${Math.abs(drop)} points`;
}
