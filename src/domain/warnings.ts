/** The warnings of a run: logged as they come, and kept for its result (publish, sync). */
import { render, type Words } from '../shared/errors.js';
import type { Logger } from '../shared/redact.js';

export function warningList(logger: Logger): {
  warnings: string[];
  warn: (text: string | Words) => void;
} {
  const warnings: string[] = [];
  const warn = (text: string | Words) => {
    warnings.push(render(text));
    logger.warn(text);
  };
  return { warnings, warn };
}
