/**
 * `--chaos "429=0.1,5xx=0.05,reset=0.02,latency=5-50,etag-bump=0.1,seed=42"` (docs/design.md): injected
 * faults, deterministic for a seed. What a request meets depends on the seed, on what the request
 * is and on how often that same request came before, not on when it arrived: concurrent clients
 * meet the same faults on every run, so a failing seed can be run again and looked at.
 */

export interface ChaosOptions {
  rate429: number;
  rate5xx: number;
  rateReset: number;
  latencyMs: [number, number];
  rateEtagBump: number;
  seed: number;
}

export const NO_CHAOS: ChaosOptions = {
  rate429: 0,
  rate5xx: 0,
  rateReset: 0,
  latencyMs: [0, 0],
  rateEtagBump: 0,
  seed: 1,
};

export function parseChaos(text: string): ChaosOptions {
  const out: ChaosOptions = { ...NO_CHAOS, latencyMs: [0, 0] };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, value = ''] = part.split('=').map((s) => s.trim()) as [string, string?];
    const rate = () => {
      const n = Number(value);
      if (!(n >= 0 && n <= 1))
        throw new Error(`--chaos: ${key}=${value} must be a probability from 0 to 1`);
      return n;
    };
    switch (key) {
      case '429':
        out.rate429 = rate();
        break;
      case '5xx':
        out.rate5xx = rate();
        break;
      case 'reset':
        out.rateReset = rate();
        break;
      case 'etag-bump':
        out.rateEtagBump = rate();
        break;
      case 'latency': {
        const m = /^(\d+)(?:-(\d+))?$/.exec(value);
        if (!m) throw new Error(`--chaos: latency=${value} must be MS or MIN-MAX in ms`);
        out.latencyMs = [Number(m[1]), Number(m[2] ?? m[1])];
        break;
      }
      case 'seed':
        if (!/^\d+$/.test(value)) throw new Error(`--chaos: seed=${value} must be a whole number`);
        out.seed = Number(value);
        break;
      default:
        throw new Error(
          `--chaos: unknown key "${key}" (use 429, 5xx, reset, latency, etag-bump, seed)`,
        );
    }
  }
  return out;
}

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type ChaosFault = 'none' | '429' | '5xx' | 'reset-before' | 'reset-after';

export interface ChaosDecision {
  latencyMs: number;
  fault: ChaosFault;
  /** A concurrent edit changes the record's ETag before this (If-Match) write is checked. */
  etagBump: boolean;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export class Chaos {
  /** Record id -> a name that is the same on every run (ids themselves are random). */
  private readonly names = new Map<string, string>();
  /** How often each request (by the hash of its identity) has come so far. */
  private readonly seen = new Map<number, number>();

  constructor(readonly options: ChaosOptions) {}

  get active(): boolean {
    const o = this.options;
    return o.rate429 + o.rate5xx + o.rateReset + o.rateEtagBump > 0 || o.latencyMs[1] > 0;
  }

  /** Give a record its stable name: its place in the seed, or the request that created it. */
  name(id: string, name: string): void {
    this.names.set(id, name);
  }

  /** What a request is, the same on every run: method, path, query and body, ids by their names. */
  identify(method: string, pathAndQuery: string, body: string): string {
    return `${method} ${pathAndQuery} ${body}`.replace(UUID, (id) => this.names.get(id) ?? id);
  }

  /** Latency, at most one fault, and an ETag bump, drawn for the n-th arrival of this request. */
  decide(identity: string): ChaosDecision {
    const key = hash53(identity);
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    const random = prng(hash53(`${this.options.seed}:${n}:${key}`) % 4294967296);
    const o = this.options;
    const [min, max] = o.latencyMs;
    const latencyMs = max <= 0 ? 0 : min + Math.floor(random() * (max - min + 1));
    const r = random();
    const fault: ChaosFault =
      r < o.rate429
        ? '429'
        : r < o.rate429 + o.rate5xx
          ? '5xx'
          : r < o.rate429 + o.rate5xx + o.rateReset
            ? random() < 0.5
              ? 'reset-before'
              : 'reset-after'
            : 'none';
    return { latencyMs, fault, etagBump: random() < o.rateEtagBump };
  }
}

/** cyrb53: a 53-bit string hash, so that distinct requests practically never share a counter. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
