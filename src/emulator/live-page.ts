/**
 * The emulator's own dashboard at `/` (outside /api/v1): its latest cycles drawn by the same page
 * `testcycle report` writes, refreshed while you watch, and the latest requests it answered, so a
 * user sees what a publish cost. Counts and histories are read from the store directly (the
 * emulator never calls its own API for this, so the page costs no request and no rate budget);
 * only the rendering is shared with the report.
 */
import { analyze } from '../dashboard/analyze.js';
import { renderHtml, type LiveRequest } from '../dashboard/html.js';
import type { SeriesData, TestInfo } from '../dashboard/series.js';
import { countsFrom } from '../publish/gate.js';
import type { ExecutionResult } from '../schema/resources.js';
import type { Store } from './store.js';

export type { LiveRequest } from '../dashboard/html.js';

/**
 * On loopback the page is the user's own; beyond it the page shows a Space's data, so it asks for
 * a token of the Space, as the API does.
 */
export function livePageAllowed(
  loopback: boolean,
  bearer: string | undefined,
  tokens: ReadonlyMap<string, unknown>,
): boolean {
  return loopback || (bearer !== undefined && tokens.has(bearer));
}

/** The latest requests, newest first, at most `size` of them. */
export class RequestLog {
  private readonly entries: LiveRequest[] = [];
  constructor(private readonly size = 50) {}

  add(entry: LiveRequest): void {
    this.entries.unshift(entry);
    if (this.entries.length > this.size) this.entries.pop();
  }

  latest(): LiveRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries.length = 0;
  }
}

/** The last `last` cycles by rank (creation order), each with its counts and per-test results. */
export function storeSeries(store: Store, last = 20): SeriesData {
  const cycles = [...store.all('test_cycles')]
    .sort((a, b) => Number(a.attributes.rank ?? 0) - Number(b.attributes.rank ?? 0))
    .slice(-last);
  const tests = new Map<string, TestInfo>();
  const data = cycles.map((record) => {
    const byResult: Partial<Record<ExecutionResult, number>> = {};
    const testIds: string[] = [];
    const results: ExecutionResult[] = [];
    for (const execution of store.byForeignKey('test_case_executions', 'testCycleId', record.id)) {
      const result = execution.attributes.result as ExecutionResult;
      const caseId = String(execution.attributes.testCaseId);
      byResult[result] = (byResult[result] ?? 0) + 1;
      testIds.push(caseId);
      results.push(result);
      if (!tests.has(caseId)) {
        const testCase = store.get('test_cases', caseId)?.attributes;
        tests.set(caseId, {
          name: String(testCase?.name ?? caseId),
          ...(testCase?.testCaseKey ? { key: String(testCase.testCaseKey) } : {}),
        });
      }
    }
    const a = record.attributes;
    return {
      cycle: {
        id: record.id,
        key: String(a.testCycleKey ?? ''),
        name: String(a.name ?? ''),
        status: String(a.status ?? ''),
        ...(typeof a.rank === 'number' ? { rank: a.rank } : {}),
        ...(typeof a.createdAt === 'string' ? { createdAt: a.createdAt } : {}),
      },
      counts: countsFrom(byResult),
      history: { testIds, results },
    };
  });
  return {
    description: `the last ${last} cycles of the Space`,
    cycles: data,
    tests,
    requests: { plan: { listPages: 0, aggregates: 0, historyPages: [], total: 0 }, sent: 0 },
    omitted: [],
  };
}

export function livePage(
  store: Store,
  requests: LiveRequest[],
  options: { title: string; refreshSeconds?: number; now?: Date },
): string {
  const model = analyze(storeSeries(store), {
    title: options.title,
    generatedAt: (options.now ?? new Date()).toISOString(),
  });
  return renderHtml(model, { live: { refreshSeconds: options.refreshSeconds ?? 5, requests } });
}
