import { ConfigError } from '../shared/errors.js';

const API_PATH = '/api/v1';

/** Loopback hosts may use plain http (the emulator, a local proxy); everything else needs https. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * The region's address with or without /api/v1 -> the API base URL ending in /api/v1 (no slash).
 * docs/service-api.md section 5.6: the base URL is per region; the token is sent only to this origin.
 */
export function normalizeBaseUrl(input: string | undefined, parameter = 'base-url'): URL {
  const raw = (input ?? '').trim();
  if (!raw) {
    throw new ConfigError(parameter, 'is required: the address of your region.');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      parameter,
      `"${raw}" is not a URL; give e.g. https://eu.example.com/api/v1.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(parameter, `must use https (got ${url.protocol}).`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      parameter,
      `must use https: plain http would send the token in clear text (only loopback hosts such as 127.0.0.1 may use http).`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError(
      parameter,
      (w) => `must not hold credentials; pass the token in ${w.name('token')}.`,
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(parameter, 'must not have a query or fragment.');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PATH)) path += API_PATH;
  url.pathname = path;
  return url;
}
