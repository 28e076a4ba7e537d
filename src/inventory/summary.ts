/**
 * The Markdown of a sync for the job summary: counts, then the cases each kind touched (first 50
 * of each), then what sync kept as a person's and why; and the short section a publish --sync
 * summary carries (src/publish/summary.ts). Case names and values come from reports and the
 * service: escaped as data, never Markdown.
 */
import type { SyncResult } from './sync.js';
import type { CaseRef } from './model.js';
import { type Kept, keptDetail, keptHints } from './ownership.js';
import { render } from '../shared/errors.js';
import { markdownCell } from '../shared/markdown.js';
import { KEY_WORDS, type SettingWords } from '../shared/errors.js';
import { retireSections } from './retire-summary.js';

const SHOWN = 50;

/** How many cases of each kind publish --sync names in the publish summary. */
export const SHOWN_IN_PUBLISH = 5;

type Listed = CaseRef & { from?: string; kept?: Kept };

/** The kinds of change a sync lists, in the order every summary shows them. */
function kindsOf(r: SyncResult): [string, Listed[]][] {
  return [
    ['created', r.created],
    ['renamed', r.renamed],
    ['re-keyed', r.rekeyed],
    ['updated', r.updated],
    ['archived', r.archived],
    ['restored', r.restored],
  ];
}

/**
 * One case as a summary names it: key, name, and the name it had when renamed, or what was kept
 * and why.
 */
function caseText(c: Listed, cell: (text: string) => string): string {
  const after =
    c.from !== undefined
      ? ` (was ${cell(c.from)})`
      : c.kept
        ? ` (${keptDetail(c.kept, cell)})`
        : '';
  return `${c.key ? `${cell(c.key)} ` : ''}${cell(c.name)}${after}`;
}

const keptListed = (r: SyncResult): Listed[] => r.kept.map((k) => ({ ...k, kept: k }));

function stepsLine(r: SyncResult, verb: string): string {
  return `Steps of ${r.steps.cases} case(s): ${r.steps.created} ${verb}created, ${r.steps.updated} ${verb}updated, ${r.steps.deleted} ${verb}deleted.`;
}

/**
 * What sync did, as Markdown for a job summary: every text from reports and the service in cells.
 */
export function renderSyncSummary(r: SyncResult, words: SettingWords = KEY_WORDS): string {
  const verb = r.dryRun ? 'would be ' : '';
  const lines = [
    `## ${r.dryRun ? '📝 Sync plan: nothing written' : '🔄 Test cases synced'}`,
    '',
    '| Test cases | Count |',
    '| --- | ---: |',
    ...kindsOf(r).map(([label, items]) => `| ${verb + label} | ${items.length} |`),
    `| unchanged | ${r.unchanged} |`,
    ...(r.kept.length ? [`| fields kept as a person's | ${r.kept.length} |`] : []),
  ];
  if (r.steps.cases) lines.push('', stepsLine(r, verb));
  const section = (title: string, items: Listed[]) => {
    if (!items.length) return;
    lines.push('', `### ${verb}${title}`, '');
    for (const c of items.slice(0, SHOWN)) lines.push(`- ${caseText(c, markdownCell)}`);
    if (items.length > SHOWN) lines.push(`- ... and ${items.length - SHOWN} more`);
  };
  for (const [title, items] of kindsOf(r)) if (title !== 'updated') section(title, items);
  lines.push(...retireSections(r, words));
  if (r.failed.length)
    section(
      'not written',
      r.failed.map((f) => ({ key: null, name: `${f.case}: ${f.reason}` })),
    );
  if (r.kept.length) {
    // Not "would be": kept is what sync leaves, in a plan as in a run.
    lines.push('', "### Kept as a person's", '');
    for (const c of keptListed(r).slice(0, SHOWN)) lines.push(`- ${caseText(c, markdownCell)}`);
    if (r.kept.length > SHOWN) lines.push(`- ... and ${r.kept.length - SHOWN} more`);
    lines.push('');
    for (const hint of keptHints(r.kept)) lines.push(`${markdownCell(render(hint))}  `);
  }
  lines.push(
    '',
    r.dryRun
      ? `Requests: ${r.requests.total} read; about ${r.plannedRequests} more to write the plan.`
      : `Requests: ${r.requests.total}.`,
  );
  return lines.join('\n') + '\n';
}

/**
 * publish --sync: what sync did to the run's test cases before the results (a publish never
 * archives), the counts and the first few cases of each kind, each piece of data through `cell`.
 */
export function renderSyncSection(r: SyncResult, cell: (text: string) => string): string {
  const verb = r.dryRun ? 'would be ' : '';
  const kinds = kindsOf(r).filter(([label]) => label !== 'archived');
  const lines = [
    `### Test cases ${r.dryRun ? 'sync plan (publish --sync, nothing written)' : 'synced (publish --sync)'}`,
    '',
    `${kinds.map(([label, items]) => `${items.length} ${verb}${label}`).join(', ')}, ${r.unchanged} unchanged${r.kept.length ? `, ${r.kept.length} kept as a person's` : ''}.${r.steps.cases ? ` ${stepsLine(r, verb)}` : ''}`,
  ];
  const named = [...kinds, ['kept', keptListed(r)] as [string, Listed[]]].filter(
    ([, items]) => items.length,
  );
  if (named.length) lines.push('');
  for (const [label, items] of named) {
    const more = items.length - SHOWN_IN_PUBLISH;
    lines.push(
      `- ${label === 'kept' ? '' : verb}${label}: ${items
        .slice(0, SHOWN_IN_PUBLISH)
        .map((c) => caseText(c, cell))
        .join('; ')}${more > 0 ? `; … and ${more} more` : ''}`,
    );
  }
  if (r.failed.length)
    lines.push('', `Not written: ${r.failed.length} test case(s) (see the warnings).`);
  return lines.join('\n') + '\n';
}
