/**
 * What a token may do, read from the service's tokens resource (docs/service-api.md 2.1): its role
 * (read-write or read-only) and expiry, for `testcycle check`. The tokens listed are every token
 * of the Space; this one is told apart by its `jti` when it is a JWT, else it is the only live one
 * (or every live one has the same role). The token itself is never sent anywhere but its header.
 */
import type { ServiceClient } from './client.js';
import { ServiceError } from '../shared/errors.js';
import { jtiOf } from '../shared/jwt.js';

export interface TokenStanding {
  /** read-write, read-only (as the service names it); null when it cannot be told. */
  role: string | null;
  /** ISO date-time; null when it cannot be told. */
  expiresAt: string | null;
  /** Why role is null, or how the token was found among the Space's. */
  note?: string;
}

export async function tokenStanding(
  client: ServiceClient,
  token: string,
  now = Date.now(),
): Promise<TokenStanding> {
  let records;
  try {
    records = await client.listAll<'tokens'>('/tokens', {
      fields: { tokens: ['name', 'jti', 'role', 'expiresAt', 'revokedAt'] },
    });
  } catch (error) {
    if (error instanceof ServiceError && error.status >= 400 && error.status < 500)
      return {
        role: null,
        expiresAt: null,
        note: `the service does not list this Space's tokens to this token (${error.status})`,
      };
    throw error;
  }
  const live = records.filter(
    (r) => !r.attributes.revokedAt && Date.parse(String(r.attributes.expiresAt)) > now,
  );
  const jti = jtiOf(token);
  const own = (jti && live.find((r) => r.attributes.jti === jti)) || (live.length === 1 && live[0]);
  if (own)
    return { role: String(own.attributes.role), expiresAt: String(own.attributes.expiresAt) };
  if (live.length === 0)
    return { role: null, expiresAt: null, note: 'the tokens resource lists no live token' };
  const roles = new Set(live.map((r) => String(r.attributes.role)));
  const list = live.map((r) => `${r.attributes.name} ${r.attributes.role}`).join(', ');
  if (roles.size === 1)
    return {
      role: [...roles][0]!,
      expiresAt: null,
      note: `every live token of this Space is ${[...roles][0]}`,
    };
  return {
    role: null,
    expiresAt: null,
    note: `${live.length} live tokens reach this Space (${list}) and this one carries no id (jti) to tell which`,
  };
}
