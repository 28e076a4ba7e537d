/**
 * The seed file of docs/design.md ("Emulator contract"), validated with errors that name the field.
 * Without a seed, a demo Space with a read-write and a read-only token is made.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { NOTIFICATION_TYPES, resourceSpec, type ResourceType } from '../../schema/resources.js';

export type Region = 'eu' | 'us' | 'in';
export type Role = 'read-write' | 'read-only';

export interface SeedToken {
  token: string;
  name?: string;
  ownerId?: string;
  role: Role;
  expiresAt?: string;
  revokedAt?: string | null;
  region?: Region;
}

/** A Space to start the emulator with (the seed format: docs/design.md "Emulator contract"). */
export interface Seed {
  /** The region its tokens belong to; a token of another region is refused. */
  region?: Region;
  /** The one project (Space): its id, name and key. */
  project?: { id?: string; name?: string; key?: string };
  /** The organization the project belongs to. */
  organization?: { id?: string; name?: string };
  /** The users, by id, name, email and role. */
  users?: { id?: string; name?: string; email?: string; role?: string }[];
  /** The API tokens it accepts, each with its role. */
  tokens?: SeedToken[];
  /** Custom field definitions, by name and entity (test_case, test_cycle ...). */
  customFields?: { name: string; entity: string; type?: string }[];
  /** Test cases, as their attributes (an export of a real Space keeps its ids and keys). */
  testCases?: Record<string, unknown>[];
  /** Test cycles, as their attributes. */
  testCycles?: Record<string, unknown>[];
  /** Requirements, as their attributes. */
  requirements?: Record<string, unknown>[];
  /** Per-user notification preferences (docs/service-api.md 2.3), e.g. one type turned off. */
  notificationPreferences?: SeedNotificationPreference[];
}

export interface SeedNotificationPreference {
  userId: string;
  notificationType: string;
  inAppEnabled?: boolean;
  /** Left out: the seeded project (a preference for this Space); null: every project. */
  projectId?: string | null;
}

/** A seed that is not valid: the message names the field and what to do. */
export class SeedError extends Error {}

const REGIONS = ['eu', 'us', 'in'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The seed's lists of records and the resource each holds, in the order they are created
 * (src/emulator/data/seeding.ts). Seeded records may keep a real Space's id and key (an export): the
 * key attribute is the resource's (src/schema/resources.ts).
 */
export const SEEDED_RECORDS = [
  ['testCases', 'test_cases'],
  ['testCycles', 'test_cycles'],
  ['requirements', 'requirements'],
] as const satisfies readonly (readonly [keyof Seed, ResourceType])[];
/** The seed's lists, each checked to be an array. */
const SEED_LISTS = [
  'users',
  'tokens',
  'customFields',
  ...SEEDED_RECORDS.map(([list]) => list),
  'notificationPreferences',
] as const;
const ROLES = ['read-write', 'read-only'];
const CUSTOM_FIELD_ENTITIES = [
  'requirements',
  'test_cases',
  'test_cycles',
  'test_collections',
  'test_campaigns',
];

/** A seed read from a JSON file and checked; SeedError names what is wrong. */
export function loadSeedFile(file: string): Seed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedError(
      `${file}: cannot read the seed file (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  let seed: unknown;
  try {
    seed = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`${file}: not valid JSON (${(error as Error).message}).`);
  }
  return validateSeed(seed, file);
}

export function validateSeed(value: unknown, where = 'seed'): Seed {
  const fail = (path: string, what: string): never => {
    throw new SeedError(`${where}: ${path} ${what}`);
  };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    fail('(top level)', 'must be a JSON object.');
  const seed = value as Seed;
  if (seed.region !== undefined && !REGIONS.includes(seed.region))
    fail('region', `must be one of ${REGIONS.join(', ')}.`);
  const isObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
  const optionalUuid = (v: unknown, path: string) => {
    if (v !== undefined && (typeof v !== 'string' || !UUID.test(v)))
      fail(path, 'must be a uuid (or left out: the emulator makes one).');
  };
  const optionalText = (v: unknown, path: string) => {
    if (v !== undefined && v !== null && typeof v !== 'string') fail(path, 'must be a string.');
  };
  for (const key of ['project', 'organization'] as const) {
    const part = seed[key] as Record<string, unknown> | undefined;
    if (part === undefined) continue;
    if (!isObject(part)) fail(key, 'must be an object.');
    optionalUuid(part.id, `${key}.id`);
    optionalText(part.name, `${key}.name`);
  }
  if (seed.project?.key !== undefined && !/^[A-Za-z0-9_]+$/.test(String(seed.project.key)))
    fail('project.key', 'must be letters, digits or _ (the keys of records start with it).');
  for (const key of SEED_LISTS) {
    if (seed[key] !== undefined && !Array.isArray(seed[key])) fail(key, 'must be an array.');
  }
  const userIds = new Map<string, number>();
  seed.users?.forEach((u, i) => {
    if (!isObject(u)) fail(`users[${i}]`, 'must be an object: {id, name, email, role}.');
    optionalUuid(u.id, `users[${i}].id`);
    for (const at of ['name', 'email', 'role'] as const) optionalText(u[at], `users[${i}].${at}`);
    if (u.id === undefined) return;
    if (userIds.has(u.id)) fail(`users[${i}].id`, `repeats users[${userIds.get(u.id)}]'s ${u.id}.`);
    userIds.set(u.id, i);
  });
  seed.tokens?.forEach((t, i) => {
    if (!t || typeof t.token !== 'string' || t.token.length < 8)
      fail(`tokens[${i}].token`, 'must be a string of at least 8 characters.');
    if (!ROLES.includes(t.role)) fail(`tokens[${i}].role`, `must be one of ${ROLES.join(', ')}.`);
    if (t.region !== undefined && !REGIONS.includes(t.region))
      fail(`tokens[${i}].region`, `must be one of ${REGIONS.join(', ')}.`);
    for (const at of ['expiresAt', 'revokedAt'] as const) {
      const v = t[at];
      if (v != null && Number.isNaN(Date.parse(v)))
        fail(`tokens[${i}].${at}`, 'must be an ISO date.');
    }
  });
  seed.customFields?.forEach((c, i) => {
    if (!c || typeof c.name !== 'string' || !c.name)
      fail(`customFields[${i}].name`, 'must be a non-empty string.');
    if (!CUSTOM_FIELD_ENTITIES.includes(c.entity))
      fail(`customFields[${i}].entity`, `must be one of ${CUSTOM_FIELD_ENTITIES.join(', ')}.`);
  });
  seed.notificationPreferences?.forEach((p, i) => {
    const at = `notificationPreferences[${i}]`;
    if (!isObject(p)) fail(at, 'must be an object: {userId, notificationType, inAppEnabled}.');
    if (typeof p.userId !== 'string' || !UUID.test(p.userId))
      fail(`${at}.userId`, 'must be the uuid of a user.');
    if (seed.users && !userIds.has(p.userId))
      fail(`${at}.userId`, `is not the id of a user of the seed (users[].id).`);
    if (!NOTIFICATION_TYPES.includes(p.notificationType as (typeof NOTIFICATION_TYPES)[number]))
      fail(`${at}.notificationType`, `must be one of ${NOTIFICATION_TYPES.join(', ')}.`);
    if (p.inAppEnabled !== undefined && typeof p.inAppEnabled !== 'boolean')
      fail(`${at}.inAppEnabled`, 'must be true or false.');
    if (p.projectId !== undefined && p.projectId !== null)
      optionalUuid(p.projectId, `${at}.projectId`);
  });
  for (const [key, type] of SEEDED_RECORDS) {
    const keyAttribute = resourceSpec(type).key!.attribute;
    const seen = new Map<unknown, number>();
    const ids = new Map<unknown, number>();
    seed[key]?.forEach((r, i) => {
      if (!isObject(r)) fail(`${key}[${i}]`, "must be an object of the record's attributes.");
      if (typeof r.name !== 'string' || !r.name)
        fail(`${key}[${i}].name`, 'must be a non-empty string.');
      optionalUuid(r.id, `${key}[${i}].id`);
      if (ids.has(r.id)) fail(`${key}[${i}].id`, `repeats ${key}[${ids.get(r.id)}]'s ${r.id}.`);
      if (r.id !== undefined) ids.set(r.id, i);
      const own = r[keyAttribute];
      if (own === undefined) return;
      if (typeof own !== 'string' || !/^[A-Za-z0-9_]+-[A-Za-z0-9_-]+$/.test(own))
        fail(`${key}[${i}].${keyAttribute}`, 'must be a key like SHOP-T17 (or left out).');
      if (seen.has(own))
        fail(`${key}[${i}].${keyAttribute}`, `repeats ${key}[${seen.get(own)}]'s ${own}.`);
      seen.set(own, i);
    });
  }
  return seed;
}

/** A demo Space: one user, a read-write and a read-only token. */
export function demoSeed(): Seed {
  const ownerId = randomUUID();
  return {
    region: 'eu',
    project: { name: 'Demo', key: 'DEMO' },
    users: [{ id: ownerId, name: 'Ada', email: 'ada@example.com', role: 'admin' }],
    tokens: [
      { token: demoToken('ci'), name: 'ci', ownerId, role: 'read-write' },
      { token: demoToken('dashboard'), name: 'dashboard', ownerId, role: 'read-only' },
    ],
    customFields: [
      { name: 'component', entity: 'test_cases', type: 'string' },
      // Where `testcycle quarantine` keeps a quarantine (src/triage/quarantine.ts).
      { name: 'quarantine', entity: 'test_cases', type: 'string' },
    ],
  };
}

/**
 * A token shaped as the service's are, a JWT whose `jti` the tokens resource lists
 * (docs/service-api.md 2.1), so that `testcycle check` tells its role and expiry. Unsigned: the
 * emulator knows its tokens by their whole text.
 */
function demoToken(subject: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = { jti: randomUUID(), sub: subject };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.${randomBytes(18).toString('base64url')}`;
}
