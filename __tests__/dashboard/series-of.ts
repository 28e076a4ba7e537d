/** Synthetic series for the pure tests: one string per test, one letter per cycle. */
import { countsFrom } from '../../src/schema/counts.js';
import type { CycleHistory, SeriesData, TestInfo } from '../../src/dashboard/render/model.js';
import type { ExecutionResult } from '../../src/schema/resources.js';

const LETTERS: Record<string, ExecutionResult> = {
  P: 'PASSED',
  F: 'FAILED',
  B: 'BLOCKED',
  S: 'SKIPPED',
  N: 'NOT_EXECUTED',
  I: 'IN_PROGRESS',
};

/**
 * `seriesOf({ login: 'PFPF', search: 'PP-P' })`: test "login" passed in cycle 1, failed in 2 ...;
 * `-` = not in that cycle. Cycles listed in `withoutHistory` (0-based) have counts but no history.
 */
export function seriesOf(
  rows: Record<string, string>,
  options: { withoutHistory?: number[]; tests?: Record<string, Partial<TestInfo>> } = {},
): SeriesData {
  const width = Math.max(0, ...Object.values(rows).map((r) => r.length));
  const tests = new Map<string, TestInfo>(
    Object.keys(rows).map((name) => [`id-${name}`, { name, ...options.tests?.[name] }]),
  );
  const cycles = Array.from({ length: width }, (_, c) => {
    const history: CycleHistory = { testIds: [], results: [] };
    for (const [name, row] of Object.entries(rows)) {
      const letter = row[c];
      if (!letter || letter === '-') continue;
      history.testIds.push(`id-${name}`);
      history.results.push(LETTERS[letter]!);
    }
    const byResult: Partial<Record<ExecutionResult, number>> = {};
    for (const r of history.results) byResult[r] = (byResult[r] ?? 0) + 1;
    return {
      cycle: {
        id: `c${c + 1}`,
        key: `DEMO-R${c + 1}`,
        name: `Nightly ${c + 1}`,
        status: 'DONE',
        rank: c + 1,
      },
      counts: countsFrom(byResult),
      ...(options.withoutHistory?.includes(c) ? {} : { history }),
    };
  });
  return {
    description: 'name pattern: Nightly *',
    cycles,
    tests,
    requests: {
      plan: { listPages: 1, aggregates: width, historyPages: [], total: 1 + width },
      sent: 1 + width,
    },
    omitted: [],
  };
}
