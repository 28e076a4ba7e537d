/**
 * A rate limit as the service states it and users write it (docs/service-api.md section 8;
 * docs/design.md `--rate-limit`): `COUNT/WINDOW`. The client's scheduler paces by it and the
 * emulator enforces it; both read the text here so the two cannot drift apart.
 */
import { ConfigError } from './errors.js';

/** A rate limit: COUNT requests in any WINDOW (`100/1m`). */
export interface RateLimit {
  /** Requests allowed in one window. */
  count: number;
  /** The window, in milliseconds. */
  windowMs: number;
}

/**
 * How a limit counts requests: over the last WINDOW before each one (sliding), or in windows
 * aligned to the clock (fixed). The service does not say (docs/service-api.md 8); the emulator
 * offers both (docs/design.md "Emulator contract") and the client must hold under either.
 */
export type RateWindowMode = 'sliding' | 'fixed';
export const RATE_WINDOW_MODES: readonly RateWindowMode[] = ['sliding', 'fixed'];

/** The service's limit per token (docs/service-api.md section 8). */
export const DEFAULT_RATE_LIMIT: RateLimit = { count: 100, windowMs: 60_000 };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A rate limit as users write it: `100/1m` (the largest unit that divides the window). */
export function formatRateLimit({ count, windowMs }: RateLimit): string {
  const [unit, ms] = Object.entries(UNIT_MS)
    .reverse()
    .find(([, ms]) => windowMs % ms === 0)!;
  return `${count}/${windowMs / ms}${unit}`;
}

/** `COUNT/WINDOW`, WINDOW like 1m, 30s, 500ms (docs/design.md `--rate-limit`). */
export function parseRateLimit(text: string, parameter = 'rate-limit'): RateLimit {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/.exec(text);
  const count = match ? Number(match[1]) : NaN;
  const windowMs = match ? Number(match[2] ?? '1') * UNIT_MS[match[3]!]! : NaN;
  if (!match || !(count >= 1) || !(windowMs >= 1)) {
    throw new ConfigError(
      parameter,
      `"${text}" is not COUNT/WINDOW; write e.g. 100/1m, 50/30s or 10/500ms (COUNT and WINDOW above 0).`,
    );
  }
  return { count, windowMs };
}
