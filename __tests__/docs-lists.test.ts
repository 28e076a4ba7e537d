/**
 * Lists the docs write out by hand, held to the code they describe: a new format, threshold or
 * retry budget that the prose forgets fails here (docs/architecture.md "Where to change what").
 */
import { readFileSync } from 'node:fs';
import { REPORT_FORMAT_IDS } from '../src/shared/defaults.js';
import { SETTINGS, THRESHOLD_KEYS } from '../src/settings/table.js';
import { PARALLEL_VARIABLES, WORKSPACE_VARIABLES } from '../src/domain/context.js';
import {
  DEFAULT_RETRY_POLICY,
  worstCaseAttempts,
  worstCaseRequests,
} from '../src/client/retry-policy.js';

const readme = readFileSync('README.md', 'utf8');
const design = readFileSync('docs/design.md', 'utf8');
const architecture = readFileSync('docs/architecture.md', 'utf8');

/** The paragraph of `text` that starts with `opening`, up to the next blank line. */
function paragraph(text: string, opening: string): string {
  const start = text.indexOf(opening);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The code spans of a piece of Markdown (what is between backticks). */
const spans = (markdown: string) => new Set([...markdown.matchAll(/`([^`]+)`/g)].map((m) => m[1]));

test("README's paragraph of report formats names every --format id", () => {
  const named = spans(paragraph(readme, 'Report formats (`--format`'));
  expect(REPORT_FORMAT_IDS.filter((id) => !named.has(id))).toEqual([]);
});

test('docs/design.md names every gate threshold as a flag', () => {
  const flags = [...design.matchAll(/`(--[a-z-]+)[ `]/g)].map((m) => m[1]);
  expect(THRESHOLD_KEYS.filter((key) => !flags.includes(`--${key}`))).toEqual([]);
});

describe('docs/architecture.md "Retry policy" states the policy the code has', () => {
  const section = architecture.slice(
    architecture.indexOf('## Retry policy'),
    architecture.indexOf('## Writes after reads'),
  );
  /** The Default cell of the table row whose first cell starts with `budget`. */
  const defaultOf = (budget: string) => {
    const row = section.split('\n').find((line) => line.startsWith(`| \`${budget}\``));
    expect(row).toBeDefined();
    return row!.split('|')[2]!.trim();
  };
  const p = DEFAULT_RETRY_POLICY;

  test.each([
    ['maxAttempts', `${p.maxAttempts} attempts`],
    ['maxRefusedAttempts', `${p.maxRefusedAttempts} attempts`],
    ['maxRateLimitAttempts', `${p.maxRateLimitAttempts} attempts`],
    ['maxBackoffMs', `${p.maxBackoffMs / 1000} s`],
    ['maxWaitMs', `${p.maxWaitMs / 60_000} min`],
    ['conflictRounds', `${p.conflictRounds} rounds`],
    ['createAttempts', `${p.createAttempts} attempts`],
    ['shareKeep', `${p.shareKeep}`],
    ['shareHoldWindows', `${p.shareHoldWindows} windows`],
    ['shareHoldLegs', `${p.shareHoldLegs} legs`],
    ['sharePhaseWindows', `${p.sharePhaseWindows} windows`],
    ['startSpread', `${p.startSpread}`],
    ['censusWindows', `${p.censusWindows} window`],
    ['censusLateFrom', `${p.censusLateFrom} of the plan`],
    ['censusAgainWindows', `${p.censusAgainWindows} windows`],
    ['censusSoonWindows', `${p.censusSoonWindows} windows`],
    ['censusSureAbove', `${p.censusSureAbove}`],
    ['censusMargin', `${p.censusMargin}`],
    ['censusDeadBand', `${p.censusDeadBand}`],
    ['censusCut', `${p.censusCut}`],
    ['censusCleanWindows', `${p.censusCleanWindows} windows`],
    ['censusRequestsPerResult', `${p.censusRequestsPerResult}`],
    ['censusEven', `${p.censusEven}`],
    ['censusSeenAbove', `${p.censusSeenAbove}`],
    ['censusBlindGrowth', `${p.censusBlindGrowth}`],
    ['censusBlindAbove', `${p.censusBlindAbove}`],
    ['censusFewerBelow', `${p.censusFewerBelow}`],
  ])('%s: %s', (budget, written) => {
    expect(defaultOf(budget)).toBe(written);
  });

  test('the worst case per execution', () => {
    const attempts = worstCaseAttempts(p);
    const requests = worstCaseRequests(p);
    expect(section).toContain(`= ${attempts}\` attempts`);
    expect(section).toContain(`x ${attempts} = ${requests} requests**`);
  });
});

test('the settings that default from CI variables name every variable the code reads', () => {
  expect(PARALLEL_VARIABLES.filter((v) => !SETTINGS.legs.description.includes(v))).toEqual([]);
  expect(WORKSPACE_VARIABLES.filter((v) => !SETTINGS.workspace.description.includes(v))).toEqual(
    [],
  );
});
