/**
 * Terminal escape sequences and control codes, for the two places that clean text: the report
 * reader (jest, vitest and Playwright colour their messages) and the output sanitizer
 * (src/shared/redact.ts). A leaf module: it imports nothing, so both may use it.
 */
/* eslint-disable no-control-regex -- matching control codes is the point of these patterns */

/**
 * CSI (ESC [ params final), OSC (ESC ] ... BEL or ST), other ESC sequences, each also when cut
 * short. Linear: no nested quantifiers.
 */
export const ANSI_SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;

/** C0 and C1 control codes but tab, LF, VT, FF and CR (line breaks are handled where they matter). */
export const CONTROL_CODES = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;

/** The same, ESC left in place for a caller that keeps some sequences (colours). */
export const CONTROL_CODES_BUT_ESC = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f-\u009f]/g;

/**
 * Bidirectional controls (embeddings, overrides, isolates, the marks LRM, RLM and ALM): in data
 * they reorder what a reader sees, so a test or cycle name can pose as another (Trojan Source).
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text without escape sequences; cheap when there are none (the common case). */
export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI_SEQUENCES, '') : text;
}
