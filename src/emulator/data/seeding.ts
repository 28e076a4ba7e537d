/**
 * A Space from a seed file (docs/design.md "Emulator contract"): the organization, the project, users,
 * custom field definitions and tokens, then the seeded records through the ordinary create path
 * (so a seed is validated like any client's write, and keys and ranks are given in seed order).
 */
import { randomUUID } from 'node:crypto';
import { jtiOf } from '../../shared/jwt.js';
import { resourceSpec, type ResourceType } from '../../schema/resources.js';
import { ApiError } from '../model/errors.js';
import { type Seed, SEEDED_RECORDS, SeedError } from '../model/seed.js';
import type { Store, StoredRecord } from './store.js';

export interface Space {
  projectId: string;
  organizationId: string;
  /** Custom field names per type (docs/service-api.md 2.10). */
  customFields: Map<ResourceType, string[]>;
  /** Role of each user that has one, for membersOf() in filters. */
  userRoles: Map<string, string>;
}

/** Everything of the seed but its records: the Space the records are created in. */
export function seedSpace(store: Store, seed: Seed): Space {
  const projectId = seed.project?.id ?? randomUUID();
  const organizationId = seed.organization?.id ?? randomUUID();
  const customFields = new Map<ResourceType, string[]>();
  const userRoles = new Map<string, string>();
  const stamp = new Date().toISOString();
  store.insert('organizations', { name: seed.organization?.name ?? 'Demo Org' }, organizationId);
  store.insert(
    'projects',
    { name: seed.project?.name ?? 'Demo', key: seed.project?.key ?? 'DEMO' },
    projectId,
  );
  for (const user of seed.users ?? []) {
    const rec = store.insert(
      'users',
      { name: user.name ?? null, email: user.email ?? null },
      user.id ?? randomUUID(),
    );
    if (user.role) userRoles.set(rec.id, user.role);
  }
  for (const field of seed.customFields ?? []) {
    const type = field.entity as ResourceType;
    customFields.set(type, [...(customFields.get(type) ?? []), field.name]);
    store.insert('service_custom_field', {
      name: field.name,
      entity: field.entity,
      fieldType: field.type ?? 'string',
    });
  }
  for (const t of seed.tokens ?? []) {
    store.insert('tokens', {
      name: t.name ?? 'token',
      // A token that is a JWT keeps its own jti, as the service's tokens do (testcycle check).
      jti: jtiOf(t.token) ?? randomUUID(),
      createdAt: stamp,
      expiresAt: t.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString(),
      lastUsedAt: null,
      revokedAt: t.revokedAt ?? null,
      organizationId,
      ownerId: t.ownerId ?? null,
      ownerType: 'user',
      role: t.role,
      scopes: null,
      mintedBy: null,
      minterRole: null,
      mintScopeBasis: null,
      confinedClaimBasis: null,
      customClaims: null,
      delegationChain: null,
      delegationDepth: 0,
    });
  }
  return { projectId, organizationId, customFields, userRoles };
}

/** What a seeded record may keep of a real Space that a client may not send: its id and key. */
export interface Kept {
  id?: string;
  key?: string;
}

/**
 * The seed's test cases, cycles and requirements, each made by `create` (rank: seed order unless
 * given). A record's `id` and key attribute (testCaseKey ...) are kept, as in an export.
 */
export function seedRecords(
  seed: Seed,
  space: Space,
  nextRank: (type: ResourceType) => number,
  create: (type: ResourceType, attributes: Record<string, unknown>, kept: Kept) => StoredRecord,
  claimKey: (type: ResourceType, key: string) => void,
): void {
  // Kept keys first: a key made for a record without one must not repeat a later record's.
  for (const [list, type] of SEEDED_RECORDS)
    for (const attrs of seed[list] ?? []) {
      const key = attrs[resourceSpec(type).key!.attribute];
      if (typeof key === 'string') claimKey(type, key);
    }
  for (const [list, type] of SEEDED_RECORDS)
    (seed[list] ?? []).forEach(({ id, ...attrs }, i) => {
      const keyAttribute = resourceSpec(type).key!.attribute;
      const { [keyAttribute]: key, ...rest } = attrs;
      const rank = Object.hasOwn(rest, 'rank') ? undefined : nextRank(type);
      if (rank !== undefined && !Number.isSafeInteger(rank))
        throw new SeedError(
          `${list}[${i}].rank is left out, and the one after the largest rank so far (${rank - 1}) is past ${Number.MAX_SAFE_INTEGER}, where ranks cannot be told apart: give it a rank.`,
        );
      try {
        create(
          type,
          { projectId: space.projectId, ...(rank === undefined ? {} : { rank }), ...rest },
          { id: id as string | undefined, key: key as string | undefined },
        );
      } catch (error) {
        if (error instanceof ApiError) throw seedEntryError(`${list}[${i}]`, error);
        throw error;
      }
    });
}

/** The seed's notification preferences, after the users, through the same create path. */
export function seedPreferences(
  seed: Seed,
  space: Space,
  create: (type: ResourceType, attributes: Record<string, unknown>, kept: Kept) => StoredRecord,
): void {
  (seed.notificationPreferences ?? []).forEach((p, i) => {
    try {
      create(
        'notification_preferences',
        {
          organizationId: space.organizationId,
          projectId: p.projectId === undefined ? space.projectId : p.projectId,
          userId: p.userId,
          notificationType: p.notificationType,
          ...(p.inAppEnabled === undefined ? {} : { inAppEnabled: p.inAppEnabled }),
        },
        {},
      );
    } catch (error) {
      if (error instanceof ApiError) throw seedEntryError(`notificationPreferences[${i}]`, error);
      throw error;
    }
  });
}

/** A seeded record the create path refused, named by its entry: `testCases[3].rank must be ...`. */
function seedEntryError(entry: string, error: ApiError): SeedError {
  const attribute = /^\/data\/attributes\/([^/]+)/.exec(error.source?.pointer ?? '')?.[1];
  if (attribute === undefined) return new SeedError(`${entry}: ${error.detail}`);
  const quoted = `'${attribute}' `;
  return new SeedError(
    error.detail.startsWith(quoted)
      ? `${entry}.${attribute} ${error.detail.slice(quoted.length)}`
      : `${entry}.${attribute}: ${error.detail}`,
  );
}
