/**
 * The one claim testcycle reads from a token: `jti`, which tells a token apart among the Space's
 * (docs/service-api.md 2.1). Used by `testcycle check` and by the emulator when it seeds a JWT.
 */

/** The `jti` claim of a JWT (header.payload.signature, base64url), if the token is one. */
export function jtiOf(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    const jti = (claims as { jti?: unknown } | null)?.jti;
    return typeof jti === 'string' && jti ? jti : undefined;
  } catch {
    return undefined;
  }
}
