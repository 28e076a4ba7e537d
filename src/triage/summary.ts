/**
 * The triage sections of the Markdown summary (job summary, PR comment, check run, --summary-file):
 * new failures first, then still failing, fixed, and the quarantined tests marked with their
 * reason and until. Every piece of data passes the summary's `cell` (escaped, one line, cut).
 */
import type { QuarantineView, TriagedTest } from './quarantine.js';
import type { Notified } from './notify.js';
import { oneLine } from '../shared/redact.js';
import { MAX_NAMED, nameTests, type Triage } from './model.js';
import { quarantineTerms } from './quarantine.js';

export function triageSections(
  triage: Triage | undefined,
  cell: (text: string) => string,
  notified?: Notified,
): string[] {
  const told = notified?.recipients.length
    ? [
        `### Told through the service (${notified.type})\n\n| Who | New failures | Notification |\n|---|---:|---|\n` +
          notified.recipients
            .map(
              (r) =>
                `| ${cell(r.who)} | ${r.tests.length} | ${cell(r.reason ? `${r.outcome}: ${r.reason}` : r.outcome)} |`,
            )
            .join('\n') +
          '\n',
      ]
    : [];
  if (!triage) return told;
  const test = (t: TriagedTest) => `${cell(t.key)} ${cell(t.name)}`;
  const table = (title: string, tests: TriagedTest[]) =>
    tests.length
      ? [
          `### ${title} (${tests.length})\n\n| Test | Result |\n|---|---|\n` +
            tests.map((t) => `| ${test(t)} | ${cell(t.result)} |`).join('\n') +
            '\n',
        ]
      : [];
  const against = triage.baseline
    ? ` against ${cell(triage.baseline.key)} ${cell(triage.baseline.name)}`
    : '';
  const sections = [
    ...table(`New failures${against}`, triage.newFailures),
    ...table('Still failing', triage.stillFailing),
    ...table('Fixed', triage.fixed),
  ];
  if (triage.quarantined.length) {
    const failed = triage.quarantined.filter(
      (t) => t.result === 'FAILED' || t.result === 'BLOCKED',
    );
    const days = triage.quarantineExpiryDays;
    const expiry = days
      ? ` A quarantine without until ends ${days} day${days === 1 ? '' : 's'} after it was set (default expiry, quarantine-expiry-days).`
      : '';
    const age = (q: QuarantineView | undefined) =>
      q?.ageDays === undefined ? 'unknown' : `${q.ageDays} day${q.ageDays === 1 ? '' : 's'}`;
    const until = (q: QuarantineView | undefined) =>
      q?.ends ? `${q.ends.slice(0, 10)}${q.endsByDefault ? ' (default expiry)' : ''}` : 'never';
    sections.push(
      `### 🧊 Quarantined (${triage.quarantined.length}): not counted\n\n` +
        `${failed.length} quarantined test${failed.length === 1 ? '' : 's'} failed; not counted.${expiry}\n\n` +
        '| Test | Result | Reason | Age | Until | By |\n|---|---|---|---|---|---|\n' +
        triage.quarantined
          .map(
            (t) =>
              `| 🧊 ${test(t)} | ${cell(t.result)} | ${cell(t.quarantine?.reason ?? '')} | ${cell(age(t.quarantine))} | ${cell(until(t.quarantine))} | ${cell(t.quarantine?.by ?? '')} |`,
          )
          .join('\n') +
        '\n',
    );
  }
  return [...sections, ...told];
}

/** The triage in the CLI's human output: one line per list, each bounded; who was told. */
export function triageLines(triage: Triage | undefined, notified?: Notified): string[] {
  const told = notified?.recipients.length
    ? [
        `notified: ${notified.recipients.map((r) => `${oneLine(r.who)} (${r.outcome}${r.reason ? `: ${r.reason}` : ''})`).join(', ')}`,
        ...(notified.problem ? [`notifications: ${notified.problem}`] : []),
        ...(notified.unknownUsers.length
          ? [`notify-users: no user has ${notified.unknownUsers.join(', ')}`]
          : []),
      ]
    : [];
  if (!triage) return told;
  const line = (label: string, tests: TriagedTest[]) =>
    tests.length ? [`${label} (${tests.length}): ${nameTests(tests)}`] : [];
  const quarantined = triage.quarantined.length
    ? [
        `quarantined, not counted (${triage.quarantined.length}): ${nameTests(triage.quarantined)}`,
        ...triage.quarantined
          .slice(0, MAX_NAMED)
          .map(
            (t) => `  ${t.key}: ${t.quarantine ? quarantineTerms(t.quarantine).join(', ') : ''}`,
          ),
      ]
    : [];
  return [
    ...line(
      `new failures${triage.baseline ? ` against ${triage.baseline.key}` : ''}`,
      triage.newFailures,
    ),
    ...line('still failing', triage.stillFailing),
    ...line('fixed', triage.fixed),
    ...quarantined,
    ...told,
  ];
}
