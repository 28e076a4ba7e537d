/**
 * The client's settings (address, token, pace, retries) and a user's FiltrQL filter, read by their
 * keys in the settings table (src/settings/table.ts) with the readers bound to it, all checked
 * before anything is read or sent.
 */
import type { RateLimit } from '../shared/rate.js';
import type { SettingSource } from '../shared/setting-readers.js';
import {
  flag,
  numeric,
  numericWithDefault,
  rateSetting,
  required,
  settingValue as raw,
} from '../settings/index.js';
import { normalizeBaseUrl } from './base-url.js';
import type { ClientOptions } from './client.js';
import { f } from './filter.js';
import type { RetryPolicy } from './retry-policy.js';

/** A FiltrQL filter the user wrote, checked before any request (it is combined as parsed, see f.user). */
export function userFilterSetting(src: SettingSource, key: string): string | undefined {
  const v = raw(src, key);
  if (v !== undefined) f.user(v, key);
  return v;
}

/** The client of a run: address, token and pace, checked before anything is read or sent. */
export type ClientSettings = Required<
  Pick<ClientOptions, 'token' | 'concurrency' | 'timeoutMs'>
> & {
  baseUrl: URL;
  rateLimit: RateLimit;
  /** Jobs publishing at once on this token (the `legs` hint, src/client/share.ts). */
  legs?: number;
  verbose: boolean;
  retry: Pick<RetryPolicy, 'retryBaseMs' | 'rateLimitBaseMs' | 'maxWaitMs'>;
};

/**
 * The client's settings read and checked (base-url, token, rate-limit, concurrency, timeout-ms,
 * retries), before any request.
 */
export function clientSettings(src: SettingSource): ClientSettings {
  const baseUrl = required(src, 'base-url', 'the address of your region.');
  const token = required(src, 'token', 'the API token, from your CI secret store.');
  const retryBaseMs = numericWithDefault(src, 'retry-base-ms');
  return {
    baseUrl: normalizeBaseUrl(baseUrl, 'base-url'),
    token,
    concurrency: numericWithDefault(src, 'concurrency'),
    timeoutMs: numericWithDefault(src, 'timeout-ms'),
    rateLimit: rateSetting(src, 'rate-limit'),
    legs: numeric(src, 'legs'),
    verbose: flag(src, 'verbose'),
    // The 429 backoff keeps its ratio to the fault backoff (src/client/retry-policy.ts).
    retry: {
      retryBaseMs,
      rateLimitBaseMs: 2 * retryBaseMs,
      maxWaitMs: numericWithDefault(src, 'max-wait-ms'),
    },
  };
}
