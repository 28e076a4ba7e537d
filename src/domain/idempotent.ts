import { NetworkError, ServiceError } from '../shared/errors.js';

/**
 * A create that may have happened although its answer was lost (NetworkError.maybeProcessed, 5xx), or
 * that raced another creator (409): look for the record first, and create again only when it is
 * not there (bounded). docs/design.md: a POST is never retried blindly.
 */
export async function createOrFind<T>(
  create: () => Promise<T>,
  find: () => Promise<T | undefined>,
  /** The retry policy's createAttempts (src/client/retry-policy.ts). */
  attempts: number,
): Promise<{ value: T; created: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await create(), created: true };
    } catch (error) {
      // A 5xx to a POST may come after the record was written: treat it as a lost answer.
      const lost =
        (error instanceof NetworkError && error.maybeProcessed) ||
        (error instanceof ServiceError && error.status >= 500);
      const conflict = error instanceof ServiceError && error.status === 409;
      if (!lost && !conflict) throw error;
      const found = await find();
      if (found !== undefined) return { value: found, created: false };
      if (conflict || attempt >= attempts) throw error;
    }
  }
}
