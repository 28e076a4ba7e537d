/**
 * The job summary's sections on retirement and renames (docs/design.md "Sync: what retire-missing
 * archives"): why nothing could be archived, each case kept and why, the likely renames and the
 * setting that follows them. Names, keys, files and reasons are data: Markdown cells, never
 * structure.
 */
import type { SettingWords } from '../shared/errors.js';
import { markdownCell } from '../shared/markdown.js';
import type { LikelyRename, RetireReport } from './retire.js';

/** Rows shown per table; the rest counted. */
const SHOWN = 50;

export function retireSections(
  r: { retire: RetireReport; renames: LikelyRename[]; dryRun: boolean },
  words: SettingWords,
): string[] {
  const lines: string[] = [];
  const table = <T>(head: string[], items: T[], row: (item: T) => string[]) => {
    lines.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
    for (const item of items.slice(0, SHOWN))
      lines.push(`| ${row(item).map(markdownCell).join(' | ')} |`);
    if (items.length > SHOWN) lines.push('', `… and ${items.length - SHOWN} more.`);
  };
  const { retire } = r;
  if (retire.enabled) {
    if (retire.blocked.length) {
      lines.push('', '### Retirement blocked', '', 'This run cannot prove a test gone:', '');
      for (const b of retire.blocked.slice(0, SHOWN)) lines.push(`- ${markdownCell(b)}`);
    }
    const kept = retire.candidates.filter((c) => c.verdict === 'kept');
    if (kept.length) {
      lines.push('', '### Kept: not proven gone', '');
      table(['Case', 'Name', 'Why'], kept, (c) => [c.key ?? '', c.name, c.reason]);
    }
    lines.push(
      '',
      `Retire scope: ${retire.inScope} automated case(s) in this pipeline's scope, ${retire.outOfScope} outside it (never touched); at most ${retire.max} archived in one run.`,
    );
  }
  if (r.renames.length) {
    const followed = r.renames.some((x) => x.followed);
    lines.push(
      '',
      `### ${followed ? (r.dryRun ? 'Renames to follow' : 'Renames followed') : 'Likely renames'}`,
      '',
    );
    if (!followed)
      lines.push(
        `Each became a new case (and, with retire-missing, an archive of the old one); with ${words.value('follow-renames', true)} the case follows its test and keeps its history (or put the case key in the test's name).`,
        '',
      );
    table(['Case', 'From', 'To', 'Alike'], r.renames, (x) => [
      x.key ?? '',
      x.from,
      x.to,
      `${Math.round(x.similarity * 100)}%`,
    ]);
  }
  return lines;
}
