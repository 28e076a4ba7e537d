/**
 * Owners told, through the service (`--notify owners`, `--notify-users EMAIL,...`): after the
 * writes, one in-app notification per recipient per cycle (docs/service-api.md 2.2), titled with
 * the count and the cycle, listing that recipient's new failures, related to the cycle. The type
 * is EXECUTION_COMPLETED (docs/design.md "Triage" says why). A recipient whose preference for that
 * type is off (`inAppEnabled: false`, docs/service-api.md 2.3) gets none; one who already has the
 * notification of this cycle gets none again, so a re-run of the same publish sends nothing twice.
 * Quarantined tests are never new failures (src/publish/triage.ts), so they notify no one.
 */
import type { Resource, ServiceClient } from '../api/client.js';
import { ServiceError } from '../shared/errors.js';
import { chunkIn, f, type Filter } from '../api/filter.js';
import { oneLine } from '../shared/redact.js';
import { createOrFind } from './idempotent.js';
import { MAX_FILTER_CHARS } from './match.js';
import type { TriagedTest } from './quarantine.js';
import type { CycleRef } from './series.js';
import { MAX_NAMED, type Triage } from './triage.js';

/** The notification type of docs/service-api.md 2.2 these notifications carry. */
export const NOTIFICATION_TYPE = 'EXECUTION_COMPLETED';

export interface NotifyOptions {
  /** Each new failure's case owner (`ownerId`) is told of the new failures they own. */
  owners: boolean;
  /** These users (by email) are told of every new failure. */
  users: string[];
}

export type NotifyOutcome = 'sent' | 'already sent' | 'turned off' | 'would be told' | 'not sent';

export interface Recipient {
  userId: string;
  /** Their email, else name, else id: how summaries name them. */
  who: string;
  tests: TriagedTest[];
  outcome: NotifyOutcome;
}

export interface Notified {
  type: typeof NOTIFICATION_TYPE;
  recipients: Recipient[];
  /** Emails of notify-users that match no user of the Space. */
  unknownUsers: string[];
  /** No record read carried the organization id: the first POST reads a token for it (one request). */
  readsOrganization?: boolean;
  /** Why some were not sent (the organization id could not be read): the results stay written. */
  problem?: string;
}

/** Reads of `field in (ids)` in chunks that keep URLs short (docs/design.md "Publish: request budget"). */
async function readIn<T extends 'users' | 'notification_preferences' | 'notifications'>(
  client: ServiceClient,
  path: `/${T}`,
  field: string,
  values: string[],
  wrap: (chunk: Filter) => Filter,
  fields: string[],
): Promise<Resource<T>[]> {
  const out: Resource<T>[] = [];
  if (values.length === 0) return out;
  for (const filter of chunkIn(field, values, {
    maxItems: 100,
    maxEncodedLength: MAX_FILTER_CHARS,
    wrapChunk: wrap,
  }))
    for await (const r of client.iterate<T>(path, {
      filter,
      fields: { [path.slice(1)]: fields } as Record<T, string[]>,
    }))
      out.push(r);
  return out;
}

/** The title: the count and the cycle. */
export function notificationTitle(count: number, cycle: CycleRef): string {
  return `${count} new failure${count === 1 ? '' : 's'} in ${cycle.key} "${oneLine(cycle.name)}"`;
}

/** The message: the recipient's new failures, at most MAX_NAMED of them, then "and N more". */
export function notificationMessage(tests: TriagedTest[], baseline: CycleRef | undefined): string {
  const lines = tests.slice(0, MAX_NAMED).map((t) => `- ${t.key} "${oneLine(t.name)}"`);
  if (tests.length > MAX_NAMED) lines.push(`and ${tests.length - MAX_NAMED} more`);
  const against = baseline ? ` against ${baseline.key} "${oneLine(baseline.name)}"` : '';
  return `New failures${against}:\n${lines.join('\n')}`;
}

/**
 * Who is told of the cycle's new failures, and the notifications sent (none in a dry run).
 * Requests: one users read (owners' names and notify-users' emails), one preferences read, one
 * read of the notifications already posted for this cycle, then one POST per recipient left
 * (and, when neither read carried one, one read of a token for the organization id).
 */
export async function notifyNewFailures(
  client: ServiceClient,
  options: NotifyOptions & {
    projectId: string;
    cycle: CycleRef;
    triage: Triage;
    dryRun?: boolean;
  },
): Promise<Notified> {
  const out: Notified = { type: NOTIFICATION_TYPE, recipients: [], unknownUsers: [] };
  const failures = options.triage.newFailures.filter((t) => !t.quarantine);
  if (failures.length === 0) return out;
  const owned = new Map<string, TriagedTest[]>();
  if (options.owners)
    for (const t of failures)
      if (t.ownerId) owned.set(t.ownerId, [...(owned.get(t.ownerId) ?? []), t]);
  const emails = [...new Set(options.users.map((e) => e.trim()).filter(Boolean))];
  if (owned.size === 0 && emails.length === 0) return out;
  const users = await readIn(
    client,
    '/users',
    'id',
    [...owned.keys()],
    (chunk) => (emails.length ? f.or(chunk, f.in('email', emails)) : chunk),
    ['name', 'email'],
  );
  if (owned.size === 0 && emails.length)
    users.push(...(await readIn(client, '/users', 'email', emails, (c) => c, ['name', 'email'])));
  const byEmail = new Map(users.map((u) => [String(u.attributes.email ?? ''), u.id]));
  const whoOf = new Map(
    users.map((u) => [u.id, String(u.attributes.email ?? u.attributes.name ?? u.id)]),
  );
  const tests = new Map(owned);
  for (const email of emails) {
    const id = byEmail.get(email);
    if (!id) out.unknownUsers.push(email);
    // A named user hears of every new failure, once, even if they own some of them.
    else tests.set(id, failures);
  }
  const ids = [...tests.keys()];
  const prefs = await readIn(
    client,
    '/notification_preferences',
    'userId',
    ids,
    (chunk) => f.and(f.eq('notificationType', NOTIFICATION_TYPE), chunk),
    ['userId', 'inAppEnabled', 'projectId', 'organizationId'],
  );
  const off = turnedOff(prefs, options.projectId);
  const posted = await readIn(
    client,
    '/notifications',
    'recipientUserId',
    ids,
    (chunk) =>
      f.and(f.eq('type', NOTIFICATION_TYPE), f.eq('relatedEntityId', options.cycle.id), chunk),
    ['recipientUserId', 'organizationId'],
  );
  const already = new Set(posted.map((n) => String(n.attributes.recipientUserId)));
  let organizationId = [...prefs, ...posted]
    .map((r) => r.attributes.organizationId)
    .find((o): o is string => typeof o === 'string');
  if (organizationId === undefined) out.readsOrganization = true;
  for (const [userId, own] of tests) {
    const recipient: Recipient = {
      userId,
      who: whoOf.get(userId) ?? userId,
      tests: own,
      outcome: off.has(userId)
        ? 'turned off'
        : already.has(userId)
          ? 'already sent'
          : options.dryRun
            ? 'would be told'
            : 'sent',
    };
    out.recipients.push(recipient);
    if (recipient.outcome !== 'sent') continue;
    if (organizationId === undefined) {
      try {
        organizationId = await organizationOf(client);
      } catch (error) {
        // A token that may not list tokens (docs/service-api.md 2.1): say so, do not fail the run.
        if (!(error instanceof ServiceError)) throw error;
        out.problem = `the organization id that notifications need could not be read (GET /tokens: ${oneLine(error.message)})`;
        organizationId = '';
      }
    }
    if (!organizationId) {
      recipient.outcome = 'not sent';
      out.problem ??=
        'no record the token can read carries the organization id that notifications need';
      continue;
    }
    await post(client, options, { userId, tests: own, organizationId });
  }
  return out;
}

/** Users whose preference for the type is off: this project's preference wins over a global one. */
function turnedOff(prefs: Resource<'notification_preferences'>[], projectId: string): Set<string> {
  const decided = new Map<string, { project: boolean; enabled: boolean }>();
  for (const p of prefs) {
    const forProject = p.attributes.projectId === projectId;
    if (!forProject && p.attributes.projectId != null) continue;
    const user = String(p.attributes.userId);
    const seen = decided.get(user);
    if (seen?.project && !forProject) continue;
    decided.set(user, { project: forProject, enabled: p.attributes.inAppEnabled !== false });
  }
  return new Set([...decided].filter(([, d]) => !d.enabled).map(([user]) => user));
}

/** The Space's organization (notifications need it, docs/service-api.md 2.2): from a token's record. */
async function organizationOf(client: ServiceClient): Promise<string> {
  const page = await client.page<'tokens'>('/tokens', {
    pageSize: 1,
    fields: { tokens: ['organizationId'] },
  });
  const id = page.data[0]?.attributes.organizationId;
  return typeof id === 'string' ? id : '';
}

async function post(
  client: ServiceClient,
  options: { projectId: string; cycle: CycleRef; triage: Triage },
  to: { userId: string; tests: TriagedTest[]; organizationId: string },
): Promise<void> {
  const { cycle } = options;
  // A POST is never repeated blindly (docs/architecture.md "Writes after reads"): look first.
  await createOrFind(
    () =>
      client.create('notifications', {
        organizationId: to.organizationId,
        projectId: options.projectId,
        recipientUserId: to.userId,
        type: NOTIFICATION_TYPE,
        title: notificationTitle(to.tests.length, cycle),
        message: notificationMessage(to.tests, options.triage.baseline),
        relatedEntityType: 'TEST_CYCLE',
        relatedEntityId: cycle.id,
        relatedEntityKey: cycle.key,
        relatedEntityName: cycle.name,
      }),
    async () => {
      for await (const n of client.iterate<'notifications'>('/notifications', {
        filter: f.and(
          f.eq('type', NOTIFICATION_TYPE),
          f.eq('relatedEntityId', cycle.id),
          f.eq('recipientUserId', to.userId),
        ),
      }))
        return n;
      return undefined;
    },
    client.scheduler.policy.createAttempts,
  );
}

/** After the gate: tell owners and named users (`gate.notify`), when the gate read a triage. */
export async function tellOwners(
  client: ServiceClient,
  gate: { notify?: NotifyOptions } | undefined,
  cycle: Resource<'test_cycles'>,
  triage: Triage | undefined,
  dryRun = false,
): Promise<Notified | undefined> {
  if (!gate?.notify || !triage) return undefined;
  return notifyNewFailures(client, {
    ...gate.notify,
    projectId: String(cycle.attributes.projectId ?? ''),
    cycle: {
      id: cycle.id,
      key: String(cycle.attributes.testCycleKey ?? cycle.id),
      name: String(cycle.attributes.name ?? ''),
    },
    triage,
    dryRun,
  });
}
