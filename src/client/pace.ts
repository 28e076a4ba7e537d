/**
 * The pace shared by the processes of one job (docs/architecture.md "The request pipeline"): the steps of a workflow job are separate
 * processes on one token, and the service counts their requests together (docs/service-api.md: 100 a
 * minute per token). Each process keeps the answer times of its recent requests in a small file in
 * a temporary directory, named by a hash of base URL and token (never the token itself); the
 * Scheduler, still the one owner of pacing, counts the other processes' times in its window.
 *
 * The file maps a process's id to its answer times (epoch ms) within the window. A process
 * rewrites only its own entry and keeps the others' it read; the write goes to a temporary file
 * renamed over the old one, so a reader never sees half a file, and a crash loses at most the
 * last FLUSH_MS of times. Two processes writing at once may drop each other's newest times for
 * one flush: the next flush restores them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the Scheduler needs from a shared pace. */
export interface SharedPace {
  /** Answer times (epoch ms) of other processes' requests within the last `windowMs`. */
  recent(windowMs: number): number[];
  /** An answer this process received (epoch ms). */
  record(at: number): void;
  /** Writes what is not written yet (at the end of a run). */
  flush(): void;
}

const FLUSH_MS = 100;

export class PaceFile implements SharedPace {
  readonly path: string;
  private readonly id = randomUUID();
  private mine: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    dir: string,
    baseUrl: string,
    token: string,
    private readonly windowMs: number,
    private readonly wallNow: () => number = Date.now,
  ) {
    const key = createHash('sha256').update(`${baseUrl}\n${token}`).digest('hex').slice(0, 32);
    this.path = join(dir, `testcycle-pace-${key}.json`);
  }

  recent(windowMs: number): number[] {
    const others = Object.entries(this.read())
      .filter(([id]) => id !== this.id)
      .flatMap(([, times]) => times);
    return this.inWindow(others, windowMs);
  }

  record(at: number): void {
    this.mine.push(at);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const entries = this.read();
    for (const [id, times] of Object.entries(entries)) {
      entries[id] = this.inWindow(times, this.windowMs);
      if (entries[id].length === 0) delete entries[id];
    }
    this.mine = this.inWindow(this.mine, this.windowMs);
    if (this.mine.length) entries[this.id] = this.mine;
    else delete entries[this.id];
    const temporary = `${this.path}.${this.id}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(entries));
      renameSync(temporary, this.path);
    } catch {
      // Pacing together is best effort: without a writable directory each process paces alone.
      rmSync(temporary, { force: true });
    }
  }

  /** Times within the window, oldest first; times from the future (a clock step) are dropped. */
  private inWindow(times: number[], windowMs: number): number[] {
    const now = this.wallNow();
    return times.filter((t) => t > now - windowMs && t <= now).sort((a, b) => a - b);
  }

  /** The file's entries; a missing, broken or foreign file reads as none. */
  private read(): Record<string, number[]> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return {};
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, number[]> = {};
    for (const [id, times] of Object.entries(parsed))
      if (Array.isArray(times)) out[id] = times.filter((t): t is number => Number.isFinite(t));
    return out;
  }
}
