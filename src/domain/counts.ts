/**
 * A cycle's counts by result, read with one aggregate request (its whole state: every shard, every
 * job): what the gate judges and the dashboard's series shows. The grouped aggregate's shape is not
 * documented (docs/service-api.md 4.6): the emulator's and other reasonable shapes are read, else one
 * ungrouped count per result value is asked for.
 */
import type { JsonApiDocument, ServiceClient } from '../client/index.js';
import { f, type Filter } from '../client/index.js';
import { countsFrom, type CycleCounts } from '../schema/counts.js';
import { EXECUTION_RESULTS, type ExecutionResult } from '../schema/resources.js';

export async function cycleCounts(
  client: ServiceClient,
  cycleId: string,
  extraFilter?: string,
): Promise<CycleCounts> {
  const filter: Filter = f.and(
    f.eq('testCycleId', cycleId),
    extraFilter ? f.user(extraFilter, 'gate-filter') : undefined,
  );
  const doc = await client.aggregate('test_case_executions', {
    filter,
    count: true,
    groupBy: ['result'],
  });
  const grouped = readGrouped(doc);
  if (grouped) return countsFrom(grouped);
  // Fallback: one ungrouped count per result value.
  const byResult: Partial<Record<ExecutionResult, number>> = {};
  for (const result of EXECUTION_RESULTS) {
    const one = await client.aggregate('test_case_executions', {
      filter: f.and(filter, f.eq('result', result)),
      count: true,
    });
    byResult[result] = readCount(one) ?? 0;
  }
  return countsFrom(byResult);
}

type Row = Record<string, unknown>;

/** Shapes accepted: data:[{attributes:{result,count}}], data:{attributes:{groups:[...]}} or meta.groups, and {result: count} maps. */
export function readGrouped(
  doc: JsonApiDocument,
): Partial<Record<ExecutionResult, number>> | undefined {
  const data = doc.data as unknown;
  const attrs = (x: unknown): Row =>
    x && typeof x === 'object' ? (((x as Row).attributes as Row | undefined) ?? (x as Row)) : {};
  const rows: Row[] | undefined = Array.isArray(data)
    ? data.map(attrs)
    : Array.isArray(attrs(data).groups)
      ? (attrs(data).groups as unknown[]).map(attrs)
      : Array.isArray(doc.meta?.groups)
        ? (doc.meta!.groups as unknown[]).map(attrs)
        : undefined;
  const out: Partial<Record<ExecutionResult, number>> = {};
  if (rows) {
    for (const row of rows) {
      const result = row.result ?? (row.group as Row | undefined)?.result ?? row.key ?? row.value;
      const count = row.count ?? (row.aggregations as Row | undefined)?.count;
      if (typeof result !== 'string' || typeof count !== 'number') return undefined;
      out[result as ExecutionResult] = (out[result as ExecutionResult] ?? 0) + count;
    }
    return out;
  }
  // {data:{attributes:{PASSED: 3, FAILED: 1}}} or {data:{attributes:{counts:{...}}}}
  const map = (attrs(data).counts as Row | undefined) ?? attrs(data);
  const keys = Object.keys(map).filter((k) => (EXECUTION_RESULTS as readonly string[]).includes(k));
  if (keys.length && keys.every((k) => typeof map[k] === 'number')) {
    for (const k of keys) out[k as ExecutionResult] = map[k] as number;
    return out;
  }
  return undefined;
}

/** An ungrouped aggregate's count: data.attributes.count, or meta.count. */
export function readCount(doc: JsonApiDocument): number | undefined {
  const data = doc.data as Row | undefined;
  const attrs = (data?.attributes as Row | undefined) ?? {};
  const count = attrs.count ?? doc.meta?.count;
  return typeof count === 'number' ? count : undefined;
}
