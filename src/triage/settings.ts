/**
 * Triage's settings (docs/design.md "Triage"): the quarantine field and the quarantine commands,
 * and what the gate adds for triage (new failures, baseline, the automatic rule, notifications),
 * read by their keys in the settings table with the readers bound to it, all checked before a
 * report is read or a request sent.
 */
import { ConfigError } from '../shared/errors.js';
import { listSetting, type SettingSource } from '../shared/setting-readers.js';
import {
  choice,
  declarationOf as spec,
  numeric,
  numericWithDefault,
  required,
  settingValue as raw,
} from '../settings/index.js';
import { type CiIdentity, isPullRequest } from '../domain/index.js';
import { checkPatternPlaceholders } from '../domain/index.js';
import { parseAutoQuarantine } from './auto-quarantine.js';
import type { BaselineMode } from './baseline.js';
import { type QuarantineSettings, untilSetting } from './quarantine.js';
import type { TriageGateOptions } from './options.js';

/** `quarantine-field`: a custom field name, as a filter can name it (`customFields.<name>`). */
export function quarantineFieldSetting(src: SettingSource): string {
  const name = raw(src, 'quarantine-field')!;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new ConfigError(
      'quarantine-field',
      `"${name}" is not a custom field name a filter can name: letters, digits and _, not starting with a digit.`,
    );
  return name;
}

/** The gate's triage settings (src/triage/triage.ts): quarantine field, new failures, baseline. */
export function triageGateSettings(
  src: SettingSource,
  series: string | undefined,
  ci: CiIdentity | undefined,
): TriageGateOptions {
  const maxNewFailures = numeric(src, 'max-new-failures');
  const baselineCycle = raw(src, 'baseline-cycle');
  const baseline = choice<BaselineMode>(src, 'baseline');
  const baselineSeries = raw(src, 'baseline-series')!;
  checkPatternPlaceholders(baselineSeries, 'baseline-series');
  if (baselineCycle) checkPatternPlaceholders(baselineCycle, 'baseline-cycle');
  const users = listSetting(src, 'notify-users').flatMap((u) => u.split(','));
  const notify = { owners: choice(src, 'notify') === 'owners', users: users.map((u) => u.trim()) };
  for (const email of notify.users)
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.includes('{$'))
      throw new ConfigError('notify-users', `"${email}" is not an email address.`);
  const notifying = notify.owners || notify.users.length > 0;
  const source = baselineCycle
    ? 'cycle'
    : baseline === 'auto'
      ? isPullRequest(ci)
        ? 'series'
        : 'previous'
      : baseline;
  if ((maxNewFailures !== undefined || notifying) && source === 'previous' && !series)
    throw new ConfigError(
      maxNewFailures !== undefined ? 'max-new-failures' : 'notify',
      (w) =>
        `needs a baseline: ${w.name('cycle-name')} (its template names the series whose previous cycle is compared), ${w.name('baseline-cycle')}, or ${w.value('baseline', 'series')} (the latest complete cycle of ${w.name('baseline-series')}).`,
    );
  const rule = raw(src, 'auto-quarantine');
  const releaseAfter = numeric(src, 'release-after');
  const autoQuarantine = {
    ...(rule ? { rule: parseAutoQuarantine(rule) } : {}),
    ...(releaseAfter === undefined ? {} : { releaseAfter }),
  };
  const ruling = rule !== undefined || releaseAfter !== undefined;
  if (ruling && !series)
    throw new ConfigError(
      rule !== undefined ? 'auto-quarantine' : 'release-after',
      (w) =>
        `needs ${w.name('cycle-name')}: its template names the series whose cycles are looked at, e.g. "Nightly {date}".`,
    );
  return {
    ...(ruling ? { autoQuarantine } : {}),
    quarantineField: quarantineFieldSetting(src),
    quarantineExpiryDays: numericWithDefault(src, 'quarantine-expiry-days'),
    // The action passes every input's default, so "given" is "names another field than the default".
    ...(quarantineFieldSetting(src) !== spec('quarantine-field').default
      ? { quarantineFieldGiven: true }
      : {}),
    ...(maxNewFailures === undefined ? {} : { maxNewFailures }),
    ...(baselineCycle ? { baselineCycle } : {}),
    baseline,
    baselineSeries,
    ...(ci ? { ci } : {}),
    ...(notifying ? { notify } : {}),
  };
}

/** `quarantine add|remove|list` and mode quarantine (src/triage/quarantine.ts). */
export function quarantineSettings(
  src: SettingSource,
  action: QuarantineSettings['action'],
  now: Date,
): QuarantineSettings {
  const field = quarantineFieldSetting(src);
  const expiryDays = numericWithDefault(src, 'quarantine-expiry-days');
  if (action === 'list') return { action, field, expiryDays };
  const caseKey = required(src, 'case-key', 'the key of the test case, e.g. DEMO-T12.');
  if (action === 'remove') return { action, field, caseKey, expiryDays };
  return {
    action,
    field,
    expiryDays,
    caseKey,
    reason: required(src, 'reason', 'why the test is quarantined, e.g. "flaky: races the cache".'),
    until: untilSetting(raw(src, 'until'), now),
  };
}
