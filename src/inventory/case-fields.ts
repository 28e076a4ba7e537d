/**
 * `--case-fields`: which report metadata sync writes to which case field (docs/design.md "Sync").
 * The mapping is `FIELD=SOURCE:NAME`, comma-separated:
 *
 * - FIELD: `priority`, `owner`, or a custom field the Space defines for test cases;
 * - SOURCE `property:NAME`: a JUnit `<property>` (and any format's properties);
 * - SOURCE `tag:NAME`: a tag `@NAME:VALUE` or `NAME=VALUE` (Cucumber, Playwright and CTRF tags);
 * - SOURCE `label:NAME`: an Allure label (owner, severity) or a Playwright annotation's type.
 *
 * E.g. `priority=tag:priority,owner=label:owner,component=property:component`. The syntax is
 * checked with the other settings; the custom fields (one read of `/service_custom_field`) and
 * the users (one listing) before any write, so an unknown field is a config error that costs no
 * write.
 */
import type { ServiceClient } from '../client/index.js';
import { ConfigError, type Words } from '../shared/errors.js';
import { oneLine } from '../shared/redact.js';
import { tagsOf, type TestResult } from '../parsers/index.js';
import { PRIORITIES, type WritableAttributesOf } from '../schema/resources.js';

export const CASE_FIELD_SOURCES = ['property', 'tag', 'label'] as const;
type Source = (typeof CASE_FIELD_SOURCES)[number];

export interface CaseFieldRule {
  field: string;
  source: Source;
  name: string;
}

export type CaseFieldMapping = CaseFieldRule[];

const SYNTAX =
  'write FIELD=SOURCE:NAME, comma-separated, e.g. priority=tag:priority,owner=label:owner,component=property:component';

/** The mapping as a user wrote it, checked for syntax only (no request). */
export function parseCaseFields(text: string, parameter = 'case-fields'): CaseFieldMapping {
  const rules: CaseFieldMapping = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([^=\s]+)\s*=\s*([a-z]+):(.+)$/.exec(part);
    if (!match) throw new ConfigError(parameter, `"${oneLine(part)}" is not a mapping: ${SYNTAX}.`);
    const [, field, source, name] = match as unknown as [string, string, string, string];
    if (!(CASE_FIELD_SOURCES as readonly string[]).includes(source))
      throw new ConfigError(
        parameter,
        `"${oneLine(part)}": unknown source ${source}; use ${CASE_FIELD_SOURCES.map((s) => `${s}:NAME`).join(', ')}.`,
      );
    if (rules.some((r) => r.field === field))
      throw new ConfigError(parameter, `${field} is mapped twice; map each field once.`);
    rules.push({ field, source: source as Source, name: name.trim() });
  }
  if (rules.length === 0) throw new ConfigError(parameter, `is empty: ${SYNTAX}.`);
  return rules;
}

export interface ResolvedCaseFields {
  rules: CaseFieldMapping;
  /** Users by lower-case email and by name (the owner mapping). */
  users: Map<string, string>;
  /** The value type of each mapped custom field (the definition's fieldType). */
  customTypes: Map<string, string>;
}

/**
 * Reads what the mapping needs from the Space: custom fields once (also for the ownership field,
 * where sync records what it wrote: docs/design.md "Sync: what sync owns"), users once.
 */
export async function resolveCaseFields(
  client: ServiceClient,
  rules: CaseFieldMapping,
  ownershipField?: string,
): Promise<ResolvedCaseFields> {
  const custom = rules.filter((r) => r.field !== 'priority' && r.field !== 'owner');
  const customTypes = new Map<string, string>();
  if (custom.length || ownershipField) {
    const defined = new Map<string, string>();
    for await (const d of client.iterate<'service_custom_field'>('/service_custom_field')) {
      const entity = String(d.attributes.entity ?? '');
      if (entity && entity !== 'test_cases') continue;
      defined.set(String(d.attributes.name), String(d.attributes.fieldType ?? 'string'));
    }
    for (const r of custom) {
      if (!defined.has(r.field))
        throw new ConfigError(
          'case-fields',
          `${oneLine(r.field)} is no custom field of test cases in this Space (it defines ${[...defined.keys()].map((k) => oneLine(k)).join(', ') || 'none'}); map priority, owner or one of those.`,
          'UNKNOWN_CASE_FIELD',
        );
      customTypes.set(r.field, defined.get(r.field)!);
    }
    if (ownershipField && defined.get(ownershipField) !== 'string')
      throw new ConfigError(
        'ownership-field',
        `${oneLine(ownershipField)} is no ${defined.has(ownershipField) ? 'string ' : ''}custom field of test cases in this Space (it defines ${[...defined].map(([k, t]) => `${oneLine(k)} (${oneLine(t)})`).join(', ') || 'none'}); define a string custom field of test cases for sync's record, or leave ownership-field out.`,
        'UNKNOWN_CASE_FIELD',
      );
  }
  const users = new Map<string, string>();
  if (rules.some((r) => r.field === 'owner')) {
    for await (const u of client.iterate<'users'>('/users', {
      fields: { users: ['name', 'email'] },
    })) {
      if (typeof u.attributes.email === 'string') users.set(u.attributes.email.toLowerCase(), u.id);
      if (typeof u.attributes.name === 'string' && !users.has(u.attributes.name))
        users.set(u.attributes.name, u.id);
    }
  }
  return { rules, users, customTypes };
}

/** Allure severities and common words, to the service's priorities. */
const PRIORITY_WORDS: Record<string, (typeof PRIORITIES)[number]> = {
  blocker: 'CRITICAL',
  critical: 'CRITICAL',
  high: 'HIGH',
  major: 'HIGH',
  normal: 'MEDIUM',
  medium: 'MEDIUM',
  minor: 'LOW',
  low: 'LOW',
  trivial: 'LOW',
};

/** The value a rule reads from a test, if the test has it. */
export function valueOf(test: TestResult, rule: CaseFieldRule): string | undefined {
  switch (rule.source) {
    case 'property':
      return Object.hasOwn(test.properties, rule.name) ? test.properties[rule.name] : undefined;
    case 'label':
      return test.labels && Object.hasOwn(test.labels, rule.name)
        ? test.labels[rule.name]
        : undefined;
    case 'tag': {
      const wanted = rule.name.replace(/^@/, '').toLowerCase();
      for (const tag of tagsOf(test)) {
        const match = /^@?([^:=]+)[:=](.*)$/.exec(tag.trim());
        if (match && match[1]!.toLowerCase() === wanted) return match[2];
      }
      return undefined;
    }
  }
}

/** The case attributes the mapping gives this test; a value that fits nothing is said and skipped. */
export function caseFieldsOf(
  test: TestResult,
  resolved: ResolvedCaseFields,
  warn: (text: string | Words) => void,
): WritableAttributesOf<'test_cases'> {
  const out: WritableAttributesOf<'test_cases'> = {};
  const custom: Record<string, unknown> = {};
  for (const rule of resolved.rules) {
    const value = valueOf(test, rule)?.trim();
    if (!value) continue;
    const where = `${rule.source}:${rule.name} of ${oneLine(test.name)}`;
    if (rule.field === 'priority') {
      const priority =
        (PRIORITIES as readonly string[]).find((p) => p === value.toUpperCase()) ??
        PRIORITY_WORDS[value.toLowerCase()];
      if (priority) out.priority = priority as (typeof PRIORITIES)[number];
      else
        warn(
          `${where}: "${oneLine(value)}" is no priority (${PRIORITIES.join(', ')}, or an Allure severity); left as it is`,
        );
    } else if (rule.field === 'owner') {
      const id = resolved.users.get(value.toLowerCase()) ?? resolved.users.get(value);
      if (id) out.ownerId = id;
      else
        warn(
          `${where}: no user of the Space has the email or name "${oneLine(value)}"; owner left as it is`,
        );
    } else {
      const type = resolved.customTypes.get(rule.field);
      const n = Number(value);
      custom[rule.field] = type === 'number' && Number.isFinite(n) ? n : value;
    }
  }
  if (Object.keys(custom).length) out.customFields = custom;
  return out;
}
