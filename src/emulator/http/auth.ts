/**
 * Tokens and who may do what (docs/service-api.md 5): a bearer token of the seed, unexpired, not
 * revoked, of this region; a read-only token may not write.
 */
import type http from 'node:http';
import { ApiError, MESSAGES } from '../model/errors.js';
import type { Route } from '../model/routes.js';
import type { Region, Role, Seed } from '../model/seed.js';
import type { EmulatorService } from '../data/service.js';

export interface TokenInfo {
  id: string;
  role: Role;
  ownerId: string | null;
  expiresAt: number;
  revokedAt: number | null;
  region: Region;
}

/** The seed's tokens by their secret, with the ids of their `tokens` records. */
export function tokenTable(seed: Seed, service: EmulatorService): Map<string, TokenInfo> {
  const region: Region = seed.region ?? 'eu';
  const tokens = new Map<string, TokenInfo>();
  const records = [...service.store.all('tokens')];
  (seed.tokens ?? []).forEach((t, i) => {
    tokens.set(t.token, {
      id: records[i]!.id,
      role: t.role,
      ownerId: t.ownerId ?? null,
      expiresAt: Date.parse(String(records[i]!.attributes.expiresAt)),
      revokedAt: t.revokedAt ? Date.parse(t.revokedAt) : null,
      region: t.region ?? region,
    });
  });
  return tokens;
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerOf(req: http.IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** The caller's token, or the 401/403 docs/service-api.md 5 gives. */
export function authenticate(
  bearer: string | undefined,
  tokens: Map<string, TokenInfo>,
  region: Region,
): TokenInfo {
  if (!bearer) throw new ApiError(403, 'FORBIDDEN', MESSAGES.noToken);
  const token = tokens.get(bearer);
  if (!token) throw new ApiError(403, 'FORBIDDEN', MESSAGES.badToken);
  if (token.revokedAt !== null && token.revokedAt <= Date.now())
    throw new ApiError(401, 'UNAUTHORIZED', MESSAGES.revoked);
  if (token.expiresAt <= Date.now()) throw new ApiError(403, 'FORBIDDEN', MESSAGES.expired);
  if (token.region !== region)
    throw new ApiError(403, 'FORBIDDEN', MESSAGES.otherRegion(token.region, region));
  return token;
}

/** docs/service-api.md 5.4: a read-only token gets 403 on every write. */
export function authorize(token: TokenInfo, route: Route): void {
  if (route.write && token.role === 'read-only')
    throw new ApiError(403, 'FORBIDDEN', MESSAGES.readOnly);
}
