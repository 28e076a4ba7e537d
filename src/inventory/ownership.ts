/**
 * What sync owns on a test case, and the evidence that a value is still sync's (docs/design.md
 * "Sync: what sync owns"), as server-side apply keeps field managers: a field a person changed
 * since sync last wrote it is kept, never overwritten, and listed with the reason. Pure: the
 * rules see a case as read and say what to write and what to keep.
 */
import type { Words } from '../shared/errors.js';
import type { AttributesOf, WritableAttributesOf } from '../schema/resources.js';
import type { CaseNames, CaseRef } from './model.js';
import { caseNameOf } from '../domain/index.js';

/**
 * - `written-by-person`: sync did not write it (a name that is not its key's, the steps of a case
 *   that is not AUTOMATED);
 * - `edited`: changed since sync wrote it (the ownership record, or a step between read and write);
 * - `not-recorded`: not empty, not the report's, and sync holds no record of writing it.
 */
export type KeptWhy = 'written-by-person' | 'edited' | 'not-recorded';

/** A field sync would have written and did not, because it is a person's. */
export interface Kept extends CaseRef {
  /** `name`, `steps`, `step N`, `automationStatus`, `priority`, `owner` or a custom field's name. */
  field: string;
  /** What sync would have written. */
  ours: string;
  /** What the case holds, kept. */
  theirs: string;
  why: KeptWhy;
}

/** A kept field before the case it belongs to is named. */
export type KeptField = Omit<Kept, keyof CaseRef>;

type CaseAttrs = AttributesOf<'test_cases'>;
type CaseChange = WritableAttributesOf<'test_cases'>;

/**
 * The name to write, if any. `key`: a name is sync's while it is the name of the case's automation
 * key (or of its old key, under --migrate-keys): sync created the case so, or named it so; any
 * other name a person wrote, and it stays. `replace`: the key's name, always. `keep`: never.
 */
export function judgeName(
  current: CaseAttrs,
  desired: string,
  mode: CaseNames,
  oldKey?: string,
): { name?: string; kept?: KeptField } {
  const name = String(current.name ?? '');
  if (mode === 'keep' || name === desired) return {};
  if (mode === 'replace') return { name: desired };
  const ours = [current.automationKey, oldKey]
    .filter((k): k is string => typeof k === 'string' && k !== '')
    .map(caseNameOf);
  if (ours.includes(name)) return { name: desired };
  return { kept: { field: 'name', ours: desired, theirs: name, why: 'written-by-person' } };
}

/** The values sync last wrote, as the ownership field holds them: by the mapping's FIELD names. */
type OwnershipRecord = Record<string, unknown>;

function recordIn(
  customFields: Record<string, unknown>,
  field: string,
): OwnershipRecord | undefined {
  const text = customFields[field];
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as OwnershipRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

const customFieldsOf = (current: CaseAttrs): Record<string, unknown> =>
  current.customFields && typeof current.customFields === 'object'
    ? (current.customFields as Record<string, unknown>)
    : {};

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The mapped fields of a change, by the mapping's FIELD names, with the attribute each writes. */
function mappedFields(
  desired: CaseChange,
): { field: string; value: unknown; read: (c: CaseAttrs) => unknown }[] {
  const out: { field: string; value: unknown; read: (c: CaseAttrs) => unknown }[] = [];
  if (desired.priority !== undefined)
    out.push({ field: 'priority', value: desired.priority, read: (c) => c.priority });
  if (desired.ownerId !== undefined)
    out.push({ field: 'owner', value: desired.ownerId, read: (c) => c.ownerId });
  for (const [field, value] of Object.entries(desired.customFields ?? {}))
    out.push({ field, value, read: (c) => customFieldsOf(c)[field] });
  return out;
}

/**
 * The mapped fields (priority, owner, custom fields of --case-fields) to write on a case as read.
 * A field is sync's when it is empty, or, with an ownership field, still holds what sync recorded
 * writing there; a field that already holds the report's value is recorded as sync's. Any other
 * value is a person's: kept. With an ownership field, the record is written with the fields.
 */
export function judgeFields(
  current: CaseAttrs,
  desired: CaseChange,
  ownershipField: string | undefined,
): { change: CaseChange; kept: KeptField[] } {
  const have = customFieldsOf(current);
  const record = ownershipField ? recordIn(have, ownershipField) : undefined;
  const next: OwnershipRecord = { ...record };
  const change: CaseChange = {};
  const custom: Record<string, unknown> = {};
  const kept: KeptField[] = [];
  for (const { field, value, read } of mappedFields(desired)) {
    const now = read(current);
    const recorded = record && Object.hasOwn(record, field);
    if (now === value) next[field] = value;
    else if (isEmpty(now) || (recorded && record[field] === now)) {
      next[field] = value;
      if (field === 'priority') change.priority = desired.priority;
      else if (field === 'owner') change.ownerId = desired.ownerId;
      else custom[field] = value;
    } else
      kept.push({
        field,
        ours: String(value),
        theirs: String(now),
        why: recorded ? 'edited' : 'not-recorded',
      });
  }
  // Written only when what it says changes: a test with no mapped value writes no record.
  const text = JSON.stringify(next);
  const recordChanged = ownershipField !== undefined && JSON.stringify(record ?? {}) !== text;
  if (Object.keys(custom).length || recordChanged)
    change.customFields = {
      ...have,
      ...custom,
      ...(recordChanged ? { [ownershipField]: text } : {}),
    };
  return { change, kept };
}

/** A new case's mapped fields, with the record of them when there is an ownership field. */
export function createdFields(desired: CaseChange, ownershipField: string | undefined): CaseChange {
  const fields = mappedFields(desired);
  if (!ownershipField || fields.length === 0) return desired;
  const record = Object.fromEntries(fields.map(({ field, value }) => [field, value]));
  return {
    ...desired,
    customFields: { ...desired.customFields, [ownershipField]: JSON.stringify(record) },
  };
}

/** Why a field was kept, in a few words, its data through `cell`. */
export function keptDetail(k: KeptField, cell: (text: string) => string): string {
  if (k.field === 'name') return `its key would name it ${cell(k.ours)}`;
  if (k.field === 'steps') return `${cell(k.theirs)} kept; the report gives ${cell(k.ours)}`;
  if (k.field === 'automationStatus')
    return `${cell(k.theirs)} kept, not made ${cell(k.ours)}: its report records no steps, and the written ones stay a person's`;
  if (k.field.startsWith('step '))
    return `${cell(k.field)} changed since sync read it; kept, not ${cell(k.ours)}`;
  const why =
    k.why === 'edited' ? 'changed since sync wrote it' : 'sync holds no record of writing it';
  return `${cell(k.field)} ${cell(k.theirs)} kept, the report gives ${cell(k.ours)}: ${why}`;
}

/** The group a kept field is listed under: name, steps, or the mapped field. */
export const keptGroup = (k: KeptField): string =>
  k.field.startsWith('step') || k.field === 'automationStatus' ? 'steps' : k.field;

/** What a user can do about what was kept: one line per reason, naming the setting. */
export function keptHints(kept: readonly Kept[]): Words[] {
  const count = (test: (k: Kept) => boolean) => kept.filter(test).length;
  const hints: Words[] = [];
  const names = count((k) => k.field === 'name');
  if (names)
    hints.push(
      (w) =>
        `${names} test case name(s) a person wrote kept; ${w.value('case-names', 'replace')} names every matched case after its key`,
    );
  const steps = count((k) => k.field === 'steps' || k.field === 'automationStatus');
  if (steps)
    hints.push(
      (w) =>
        `the written steps of ${steps} test case(s) that are not AUTOMATED kept; ${w.name('replace-steps')} replaces them with the report's, or set a case AUTOMATED to hand its steps to sync`,
    );
  const unrecorded = count((k) => k.why === 'not-recorded');
  if (unrecorded)
    hints.push(
      (w) =>
        `${unrecorded} mapped field value(s) that differ from the report's and that sync holds no record of writing kept; with ${w.name('ownership-field')} (a string custom field of test cases) sync records what it writes, follows the report's changes of it and keeps only a person's edits; clear a value in the service to hand it to sync`,
    );
  const edited = count((k) => k.why === 'edited');
  if (edited)
    hints.push(
      () =>
        `${edited} value(s) or step(s) a person changed since sync wrote or read them kept; clear a value in the service to hand it back to sync`,
    );
  return hints;
}
