/**
 * A virtual clock for the Scheduler (src/client/scheduler.ts `Clock`): time moves only when a test
 * calls `advance`, which fires due timers in order and lets promises settle between them. Tests of
 * waits and pacing run in microseconds and cannot flake on a busy machine.
 */
import type { Clock } from '../../src/client/scheduler.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(private readonly wallStart = Date.UTC(2026, 10, 25, 4, 0, 0)) {}

  now(): number {
    return this.t;
  }

  wall(): number {
    return this.wallStart + this.t;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }

  /** Timers still to fire. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time on by `ms`, firing every timer due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const next = this.timers
        .filter((x) => x.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = next.at;
      next.fn();
    }
    this.t = end;
    await settle();
  }

  /** Advances until `done` settles (at most `limitMs` of virtual time); returns its value. */
  async run<T>(done: Promise<T>, limitMs = 24 * 3_600_000, stepMs = 100): Promise<T> {
    let settled = false;
    const watched = done.finally(() => (settled = true));
    watched.catch(() => undefined);
    for (let spent = 0; !settled && spent < limitMs; spent += stepMs) await this.advance(stepMs);
    return watched;
  }
}

/** Lets every pending promise callback run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
