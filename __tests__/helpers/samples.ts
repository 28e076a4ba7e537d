/**
 * Where a sample's runner ran. Real reports name test files by absolute paths of the machine that
 * ran them (samples/*\/regenerate.sh); a publish keys them relative to its workspace and refuses
 * files outside it (docs/design.md "Keys"), so a test publishing a sample runs in that folder.
 */
import { readFileSync } from 'node:fs';

/** The folder a sample's report was written from (`/…/samples/<runner>`), or '/nowhere'. */
export function sampleRoot(report: string): string {
  // googletest's JSON escapes every slash.
  const text = readFileSync(report, 'utf8').replaceAll('\\/', '/');
  return /["'=](\/[^"'<>\s]*?\/samples\/[\w-]+)\//.exec(text)?.[1] ?? '/nowhere';
}
