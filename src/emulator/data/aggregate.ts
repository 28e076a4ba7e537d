/**
 * GET /{type}/aggregate (docs/service-api.md 4.3; the grouped shape is the emulator's, docs/design.md):
 * count, one group per distinct value of the groupBy columns, sum/avg/min/max of numeric columns.
 */
import { resourceSpec, type ResourceType } from '../../schema/resources.js';
import { ApiError } from '../model/errors.js';
import type { FilterEnv } from '../filtrql/evaluator.js';
import { AGGREGATE_FUNCTIONS, AGGREGATE_PARAMS, checkParams, recordFilter } from './query.js';
import { own } from '../model/own.js';
import type { StoredRecord } from './store.js';

export function aggregate(
  type: ResourceType,
  query: URLSearchParams,
  records: Iterable<StoredRecord>,
  env: () => FilterEnv,
): { status: number; body: unknown } {
  const allowed = [...AGGREGATE_PARAMS, ...AGGREGATE_FUNCTIONS.map((f) => `aggregations[${f}]`)];
  checkParams(query, allowed, type);
  const match = recordFilter(type, query, env);
  const spec = resourceSpec(type);
  const groupBy = query.getAll('aggregations[groupBy][]');
  for (const column of groupBy) {
    if (!own(spec.attributes, column) && column !== 'id') {
      throw new ApiError(
        400,
        'UNKNOWN_FIELD',
        `Unknown groupBy column '${column}' on ${type}. Valid names: ${Object.keys(spec.attributes).join(', ')}.`,
        {
          parameter: 'aggregations[groupBy][]',
        },
      );
    }
  }
  const numeric: Partial<Record<(typeof AGGREGATE_FUNCTIONS)[number], string>> = {};
  for (const fn of AGGREGATE_FUNCTIONS) {
    const column = query.get(`aggregations[${fn}]`);
    if (column === null) continue;
    const kind = own(spec.attributes, column)?.kind;
    if (kind !== 'integer' && kind !== 'number') {
      const valid = Object.entries(spec.attributes)
        .filter(([, a]) => a.kind === 'integer' || a.kind === 'number')
        .map(([n]) => n);
      throw new ApiError(
        400,
        'UNKNOWN_FIELD',
        `aggregations[${fn}] needs a numeric column of ${type}; valid: ${valid.join(', ') || 'none'}.`,
        {
          parameter: `aggregations[${fn}]`,
        },
      );
    }
    numeric[fn] = column;
  }
  const groups = new Map<string, { values: Record<string, unknown>; records: StoredRecord[] }>();
  let count = 0;
  for (const r of records) {
    if (!match(r)) continue;
    count++;
    const values = Object.fromEntries(
      groupBy.map((c) => [c, c === 'id' ? r.id : (r.attributes[c] ?? null)]),
    );
    const key = groupBy.map((c) => `${c}=${String(values[c])}`).join('&');
    const group = groups.get(key) ?? { values, records: [] };
    group.records.push(r);
    groups.set(key, group);
  }
  const stats = (records: StoredRecord[]) => {
    const out: Record<string, unknown> = { count: records.length };
    for (const [fn, column] of Object.entries(numeric)) {
      const nums = records
        .map((r) => r.attributes[column])
        .filter((v): v is number => typeof v === 'number');
      const sum = nums.reduce((a, b) => a + b, 0);
      const value =
        fn === 'sum'
          ? sum
          : nums.length === 0
            ? null
            : fn === 'avg'
              ? sum / nums.length
              : fn === 'min'
                ? Math.min(...nums)
                : Math.max(...nums);
      out[fn] = { [column]: value };
    }
    return out;
  };
  const aggregateType = `${type}_aggregate`;
  if (groupBy.length === 0) {
    const all = groups.get('')?.records ?? [];
    return {
      status: 200,
      body: {
        data: { type: aggregateType, id: 'aggregate', attributes: stats(all) },
        meta: { count },
      },
    };
  }
  const data = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, g]) => ({
      type: aggregateType,
      id: key,
      attributes: { ...g.values, ...stats(g.records) },
    }));
  return { status: 200, body: { data, meta: { count } } };
}
