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
