/**
 * What differs by type, as a table: starting values, and the server's own changes and checks on
 * create and update (docs/service-api.md 2.4-2.8 and section 3). Everything else is generic.
 */
import type { ResourceType } from '../../schema/resources.js';
import { ApiError, MESSAGES } from '../model/errors.js';
import { own } from '../model/own.js';
import type { Store, StoredRecord } from './store.js';

export interface RuleContext {
  store: Store;
  /** ISO time of the request. */
  now: string;
}

interface TypeRules {
  /** Values a new record starts with, before the client's attributes. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Checks of a create's input, before anything is stored. */
  checkCreate?(input: Record<string, unknown>): void;
  /** Server-set attributes of a record just stored. */
  created?(record: StoredRecord, ctx: RuleContext): void;
  /** Checks of an update and the server-set changes it brings (written with `changes`). */
  updating?(record: StoredRecord, changes: Record<string, unknown>, ctx: RuleContext): void;
}

/** Significance from complexity and impact (docs/service-api.md 2.8; the formula is the emulator's choice). */
const LEVEL = { LOW: 1, MEDIUM: 2, HIGH: 3 } as Record<string, number>;
function significance(complexity: unknown, impact: unknown): string | null {
  const c = own(LEVEL, String(complexity));
  const i = own(LEVEL, String(impact));
  if (!c || !i) return null;
  const score = c * i;
  return score >= 9 ? 'CRITICAL' : score >= 6 ? 'HIGH' : score >= 3 ? 'MEDIUM' : 'LOW';
}

export const TYPE_RULES: Partial<Record<ResourceType, TypeRules>> = {
  test_cases: {
    defaults: {
      status: 'DRAFT',
      priority: 'MEDIUM',
      automationStatus: 'MANUAL',
      customFields: {},
      version: 1,
    },
    updating(record, changes) {
      if (Object.keys(changes).length) changes.version = Number(record.attributes.version ?? 1) + 1;
    },
  },
  test_cycles: { defaults: { status: 'DRAFT', customFields: {} } },
  requirements: {
    defaults: { status: 'DRAFT', customFields: {} },
    created(record) {
      record.attributes.significance = significance(
        record.attributes.complexity,
        record.attributes.impact,
      );
    },
    updating(record, changes) {
      const merged = { ...record.attributes, ...changes };
      changes.significance = significance(merged.complexity, merged.impact);
    },
  },
  test_collections: { defaults: { customFields: {} } },
  test_campaigns: { defaults: { customFields: {} } },
  notifications: { defaults: { isRead: false } },
  notification_preferences: { defaults: { inAppEnabled: true } },
  test_case_executions: {
    checkCreate(input) {
      // docs/service-api.md 3, rule 2: a new execution is created without a client-sent result.
      if (Object.hasOwn(input, 'result'))
        throw new ApiError(
          422,
          'RESULT_ON_CREATE',
          'A new execution is created without a result; PATCH the result afterwards.',
          { pointer: '/data/attributes/result' },
        );
    },
    created(record, { store }) {
      const testCase = store.get('test_cases', String(record.attributes.testCaseId));
      record.attributes.testCaseVersion = testCase?.attributes.version ?? 1;
      record.attributes.result = 'NOT_EXECUTED';
      record.attributes.executedAt = null;
    },
    updating(record, changes, { store, now }) {
      if (!Object.hasOwn(changes, 'result')) return;
      const cycle = store.get('test_cycles', String(record.attributes.testCycleId));
      const status = String(cycle?.attributes.status ?? 'DRAFT');
      // docs/service-api.md 3, rule 1: results are recorded on ACTIVE cycles only.
      if (status !== 'ACTIVE')
        throw new ApiError(422, 'CYCLE_NOT_ACTIVE', MESSAGES.cycleNotActive(status), {
          pointer: '/data/attributes/result',
        });
      if (record.attributes.executedAt == null && changes.result !== 'NOT_EXECUTED')
        changes.executedAt = now;
    },
  },
};
