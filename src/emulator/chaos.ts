/**
 * `--chaos "429=0.1,5xx=0.05,reset=0.02,latency=5-50,etag-bump=0.1,seed=42"` (DESIGN.md): injected
 * faults, deterministic for a seed (one PRNG draw sequence per server).
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

export class Chaos {
  private readonly random: () => number;
  constructor(readonly options: ChaosOptions) {
    this.random = prng(options.seed);
  }

  get active(): boolean {
    const o = this.options;
    return o.rate429 + o.rate5xx + o.rateReset + o.rateEtagBump > 0 || o.latencyMs[1] > 0;
  }

  latency(): number {
    const [min, max] = this.options.latencyMs;
    return max <= 0 ? 0 : min + Math.floor(this.random() * (max - min + 1));
  }

  /** One draw per request, so a seed gives the same fault sequence for the same request sequence. */
  fault(): ChaosFault {
    const o = this.options;
    const r = this.random();
    if (r < o.rate429) return '429';
    if (r < o.rate429 + o.rate5xx) return '5xx';
    if (r < o.rate429 + o.rate5xx + o.rateReset)
      return this.random() < 0.5 ? 'reset-before' : 'reset-after';
    return 'none';
  }

  etagBump(): boolean {
    return this.options.rateEtagBump > 0 && this.random() < this.options.rateEtagBump;
  }
}
