/**
 * The emulator's own dashboard at `/` (outside /api/v1): its latest cycles drawn by the same page
 * `testcycle report` writes, refreshed while you watch, and the latest requests it answered, so a
 * user sees what a publish cost. Counts and histories are read from the store directly (the
 * emulator never calls its own API for this, so the page costs no request and no rate budget);
 * only the rendering is shared with the report.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  analyze,
  CONTENT_SECURITY_POLICY,
  renderHtml,
  type LiveRequest,
  type SeriesData,
  type TestInfo,
} from '../../dashboard/render/index.js';
import { countsFrom } from '../../schema/counts.js';
import { type Coverage, requirementCoverage, totalsOf } from '../../schema/coverage.js';
import { linkTableOf } from '../../schema/resources.js';
import { DEFAULT_LAST } from '../../shared/defaults.js';
import type { ExecutionResult } from '../../schema/resources.js';
import type { Store } from '../data/store.js';

export type { LiveRequest } from '../../dashboard/render/index.js';

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

/**
 * Headers of every page the emulator serves: the page's own policy (which its <meta> states too)
 * as a header, where `frame-ancestors` works, and no framing, so another site cannot overlay it.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
} as const;

/** Query parameters whose values are not shown: credentials sent in a URL (`?access_token=`). */
const SECRET_PARAMETER = /token|secret|key|pass|sig|auth/i;

/**
 * A request target (path and query, as sent) as the log shows it: decoded for people to read,
 * with the values of secret-looking parameters as `***` (judged before decoding, so that an
 * encoded `&` in a value cannot carry part of it out).
 */
export function shownTarget(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return decoded(target);
  const query = target
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SECRET_PARAMETER.test(name) ? `${name}=***` : decoded(pair);
    });
  return `${decoded(target.slice(0, at))}?${query.join('&')}`;
}

/** A URL component as a person reads it (%22 as "); left encoded where it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A browser's request from another site (Sec-Fetch-Site, or an Origin that is not the Host it
 * was sent to). Refused, it is no entry of the log: a page the user visits cannot write there.
 */
export function isCrossSite(headers: IncomingHttpHeaders): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== (headers.host ?? '').toLowerCase();
  } catch {
    return true; // `Origin: null` (a sandboxed or file page) and anything unreadable
  }
}

/** The latest requests, newest first, at most `size` of them. */
export class RequestLog {
  private readonly entries: LiveRequest[] = [];
  constructor(private readonly size = 50) {}

  /** An entry by the request's target as sent (`path`), shown by shownTarget. */
  add(entry: LiveRequest): void {
    this.entries.unshift({ ...entry, path: shownTarget(entry.path) });
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
export function storeSeries(store: Store, last = DEFAULT_LAST): SeriesData {
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

/**
 * The traceability matrix of a cycle from the store (the rule of src/schema/coverage.ts): every
 * live requirement not ARCHIVED, its live linked cases, their results in the cycle.
 */
export function storeCoverage(store: Store, cycleId: string): Coverage {
  const results = new Map<string, ExecutionResult>();
  for (const e of store.byForeignKey('test_case_executions', 'testCycleId', cycleId))
    results.set(String(e.attributes.testCaseId), e.attributes.result as ExecutionResult);
  const { table, forward } = linkTableOf('requirements', 'testCases');
  const requirements = [...store.all('requirements')]
    .filter((r) => r.attributes.deletedAt == null && r.attributes.status !== 'ARCHIVED')
    .sort((a, b) => a.seq - b.seq)
    .map((r) =>
      requirementCoverage(
        String(r.attributes.requirementKey ?? r.id),
        String(r.attributes.name ?? ''),
        store
          .linked(table, r.id, forward)
          .map((l) => store.get('test_cases', l.id))
          .filter((c) => c !== undefined && c.attributes.deletedAt == null)
          .map((c) => ({
            key: String(c!.attributes.testCaseKey ?? c!.id),
            result: results.get(c!.id) ?? null,
          })),
      ),
    );
  return { requirements, totals: totalsOf(requirements) };
}

export function livePage(
  store: Store,
  requests: LiveRequest[],
  options: { title: string; refreshSeconds?: number; now?: Date },
): string {
  const series = storeSeries(store);
  const model = analyze(series, {
    title: options.title,
    generatedAt: (options.now ?? new Date()).toISOString(),
  });
  const latest = series.cycles.at(-1)?.cycle.id;
  // The matrix once the Space holds requirements (the emulator's page of a Space without any is unchanged).
  const coverage =
    latest && [...store.all('requirements')].length ? storeCoverage(store, latest) : undefined;
  return renderHtml(model, {
    live: { refreshSeconds: options.refreshSeconds ?? 5, requests },
    ...(coverage ? { coverage } : {}),
  });
}
