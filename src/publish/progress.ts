/**
 * Progress of the writes, for long publishes under the rate limit: a line every ~10 s or at each
 * 5% step (at most one a second, so small runs stay quiet), with an ETA from the pace so far.
 */

export interface ProgressOptions {
  /** Where lines go; without it nothing is reported. */
  sink?: (line: string) => void;
  intervalMs?: number;
  /** Requests sent so far, shown beside the results written. */
  requests: () => number;
  now?: () => number;
}

export class Progress {
  private done = 0;
  private readonly started: number;
  private lastLine: number;
  /** Twentieths of the total reached at the last line. */
  private lastStep = 0;
  private readonly now: () => number;

  constructor(
    private readonly total: number,
    private readonly options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.lastLine = this.started;
  }

  /** The first line: what is about to be written. */
  begin(creates: number, updates: number, unchanged: number): void {
    if (this.total > 0)
      this.options.sink?.(
        `writing ${this.total} results (${creates} new, ${updates} changed, ${unchanged} unchanged)`,
      );
  }

  /** One more result written (or found already there). */
  step(): void {
    this.done++;
    this.report(false);
  }

  /** The last line, unless the last step already showed 100%. */
  end(): void {
    if (this.total > 0 && this.lastStep < 20) this.report(true);
  }

  private report(force: boolean): void {
    const { sink } = this.options;
    if (!sink || this.total === 0) return;
    const now = this.now();
    const step = Math.floor((this.done / this.total) * 20);
    const interval = this.options.intervalMs ?? 10_000;
    const sinceLast = now - this.lastLine;
    if (
      !force &&
      sinceLast < interval &&
      (step === this.lastStep || sinceLast < Math.min(1000, interval))
    )
      return;
    this.lastLine = now;
    this.lastStep = step;
    const rate = this.done / Math.max(1, now - this.started);
    const eta =
      this.done > 0 && this.done < this.total
        ? ` ETA ${formatDuration((this.total - this.done) / rate)}`
        : '';
    sink(`${this.done}/${this.total} results written, ${this.options.requests()} requests${eta}`);
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
