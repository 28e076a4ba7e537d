import type { ErrorKind } from '../shared/errors.js';

/** docs/design.md exit codes, one per error kind: the CLI's only mapping of failures. */
export const EXIT_CODES: Record<ErrorKind, number> = {
  gate: 1,
  usage: 2,
  config: 2,
  service: 3,
  report: 4,
  // 128 + SIGINT, as shells report an interrupted command.
  interrupted: 130,
};

/** What each kind's exit code says, in the words of `--help`. */
const MEANINGS: Record<ErrorKind, string> = {
  gate: 'gate failed',
  usage: 'usage',
  config: 'configuration error',
  service: 'service error',
  report: 'report error',
  interrupted: 'interrupted',
};

/** `0 done | 1 gate failed | 2 usage or configuration error | ...`, from EXIT_CODES. */
export function exitCodesHelp(): string {
  const byCode = new Map<number, string[]>([[0, ['done']]]);
  for (const [kind, code] of Object.entries(EXIT_CODES) as [ErrorKind, number][])
    byCode.set(code, [...(byCode.get(code) ?? []), MEANINGS[kind]]);
  return [...byCode]
    .sort(([a], [b]) => a - b)
    .map(([code, meanings]) => `${code} ${meanings.join(' or ')}`)
    .join(' | ');
}
