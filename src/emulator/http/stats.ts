/** Request counts for GET /__emulator/stats (docs/design.md): total, by method, route and status. */

export interface EmulatorStats {
  /** Every request answered. */
  total: number;
  /** By HTTP method. */
  byMethod: Record<string, number>;
  /** By route, as `GET /test_cases/{id}`. */
  byRoute: Record<string, number>;
  /** By the status answered. */
  byStatus: Record<string, number>;
  /** How many were answered 429. */
  rateLimited: number;
}

function emptyStats(): EmulatorStats {
  return { total: 0, byMethod: {}, byRoute: {}, byStatus: {}, rateLimited: 0 };
}

export class StatsCounter {
  private stats = emptyStats();

  /** One answered (or dropped: status 'reset') request. */
  count(method: string, route: string, status: number | string): void {
    const { stats } = this;
    stats.total++;
    stats.byMethod[method] = (stats.byMethod[method] ?? 0) + 1;
    stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1;
    stats.byStatus[String(status)] = (stats.byStatus[String(status)] ?? 0) + 1;
    if (status === 429) stats.rateLimited++;
  }

  /** The live object (for the stats route) ... */
  current(): EmulatorStats {
    return this.stats;
  }

  /** ... and a copy (for callers in the same process). */
  snapshot(): EmulatorStats {
    return structuredClone(this.stats);
  }

  reset(): void {
    this.stats = emptyStats();
  }
}
