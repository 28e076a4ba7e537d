/**
 * Owners told, through the service (`--notify owners`, `--notify-users EMAIL,...`): after the
 * writes, in-app notifications (docs/service-api.md 2.2), titled with the count and the cycle,
 * listing a recipient's new failures, related to the cycle. The type is EXECUTION_COMPLETED
 * (docs/design.md "Triage" says why). A recipient whose preference for that type is off
 * (`inAppEnabled: false`, docs/service-api.md 2.3) gets none. Each test is told once per recipient
 * and cycle, whichever run finds it: a re-run sends nothing twice, and the second matrix leg's new
 * failure is told although the first leg told of its own. Quarantined tests are never new failures
 * (src/triage/triage.ts), so they notify no one.
 *
 * Best effort: telling people never changes the run's verdict. A recipient who cannot be told (an
 * owner who left the Space, a 409 or 403 to the POST, a read that failed) is `not sent` with the
 * reason, and the run warns; the results and the gate stand.
 */
import type { Resource, ServiceClient } from '../client/index.js';
import { TestcycleError } from '../shared/errors.js';
import { chunkIn, f, type Filter } from '../client/index.js';
import { oneLine } from '../shared/redact.js';
import { createOrFind } from '../domain/index.js';
import { MAX_FILTER_CHARS } from '../domain/index.js';
import type { TriagedTest } from './quarantine.js';
import type { CycleRef } from '../domain/index.js';
import { cell } from '../shared/markdown.js';
import { MAX_NAMED, type Triage } from './model.js';

/** The notification type of docs/service-api.md 2.2 these notifications carry. */
export const NOTIFICATION_TYPE = 'EXECUTION_COMPLETED';

export interface NotifyOptions {
  /** Each new failure's case owner (`ownerId`) is told of the new failures they own. */
  owners: boolean;
  /** These users (by email, in any case) are told of every new failure. */
  users: string[];
}

export type NotifyOutcome = 'sent' | 'already sent' | 'turned off' | 'would be told' | 'not sent';

export interface Recipient {
  /** The user's id; '' for a notify-users email whose user could not be read. */
  userId: string;
  /** Their email, else name, else id: how summaries name them. */
  who: string;
  /** The new failures this notification tells of (already told ones left out). */
  tests: TriagedTest[];
  outcome: NotifyOutcome;
  /** Why a recipient was `not sent`. */
  reason?: string;
}

export interface Notified {
  type: typeof NOTIFICATION_TYPE;
  recipients: Recipient[];
  /** Emails of notify-users that match no user of the Space. */
  unknownUsers: string[];
  /** No record read carried the organization id: the first POST reads a token for it (one request). */
  readsOrganization?: boolean;
  /** Why none could be sent (a read failed, no organization id): the results stay written. */
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

/** The title: the count and the cycle, the cycle's data neutralised as in summaries. */
export function notificationTitle(count: number, cycle: CycleRef): string {
  return `${count} new failure${count === 1 ? '' : 's'} in ${cell(cycle.key)} "${cell(cycle.name)}"`;
}

/** `and N more: ` before the keys of the tests a message does not name. */
const MORE = /^and \d+ more: /;

/**
 * The message: the recipient's new failures, the first MAX_NAMED by key and name, the rest by key
 * (so a later run knows each test told). Every piece of data passes the summaries' neutraliser
 * (src/publish/summary.ts `cell`): a test or branch name's mention, HTML or link stays text.
 */
export function notificationMessage(tests: TriagedTest[], baseline: CycleRef | undefined): string {
  const lines = tests.slice(0, MAX_NAMED).map((t) => `- ${cell(t.key)} "${cell(t.name)}"`);
  if (tests.length > MAX_NAMED)
    lines.push(
      `and ${tests.length - MAX_NAMED} more: ${tests
        .slice(MAX_NAMED)
        .map((t) => cell(t.key))
        .join(', ')}`,
    );
  const against = baseline ? ` against ${cell(baseline.key)} "${cell(baseline.name)}"` : '';
  return `New failures${against}:\n${lines.join('\n')}`;
}

/** The tests (their keys as a message holds them) that a posted message already told of. */
export function toldIn(message: string): Set<string> {
  const told = new Set<string>();
  for (const line of message.split('\n')) {
    const named = /^- (.+?) "/.exec(line);
    if (named) told.add(named[1]!);
    else if (MORE.test(line)) for (const key of line.replace(MORE, '').split(', ')) told.add(key);
  }
  return told;
}

/** A failure to notify that the run survives: the service's and the network's (not a bug). */
const survivable = (error: unknown): error is TestcycleError =>
  error instanceof TestcycleError && error.kind === 'service';

/**
 * Who is told of the cycle's new failures, and the notifications sent (none in a dry run).
 * Requests: one users read (owners' names and notify-users' emails), one preferences read, one
 * read of the notifications already posted for this cycle, then one POST per recipient with a
 * test not yet told (and, when neither read carried one, one read of a token for the
 * organization id).
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
  // Emails are compared in any case (Ada@Example.com is ada@example.com).
  const emails = [...new Set(options.users.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (owned.size === 0 && emails.length === 0) return out;
  try {
    await tell(client, options, { out, failures, owned, emails });
  } catch (error) {
    if (!survivable(error)) throw error;
    // A read failed: nobody was told; say who would have been.
    const told = new Set(out.recipients.map((r) => r.userId));
    out.problem = oneLine(error.message);
    for (const [userId, tests] of owned)
      if (!told.has(userId))
        out.recipients.push({
          userId,
          who: userId,
          tests,
          outcome: 'not sent',
          reason: out.problem,
        });
    for (const email of emails)
      if (!out.recipients.some((r) => r.who.toLowerCase() === email))
        out.recipients.push({
          userId: '',
          who: email,
          tests: failures,
          outcome: 'not sent',
          reason: out.problem,
        });
  }
  return out;
}

async function tell(
  client: ServiceClient,
  options: NotifyOptions & { projectId: string; cycle: CycleRef; triage: Triage; dryRun?: boolean },
  state: {
    out: Notified;
    failures: TriagedTest[];
    owned: Map<string, TriagedTest[]>;
    emails: string[];
  },
): Promise<void> {
  const { out, failures, owned, emails } = state;
  const users = await readUsers(client, [...owned.keys()], emails);
  const byEmail = new Map(users.map((u) => [String(u.attributes.email ?? '').toLowerCase(), u.id]));
  const whoOf = new Map(
    users.map((u) => [u.id, String(u.attributes.email ?? u.attributes.name ?? u.id)]),
  );
  const tests = new Map<string, TriagedTest[]>();
  const gone: string[] = [];
  for (const [userId, own] of owned)
    if (whoOf.has(userId)) tests.set(userId, own);
    else gone.push(userId);
  for (const email of emails) {
    const id = byEmail.get(email);
    if (!id) out.unknownUsers.push(email);
    // A named user hears of every new failure, once, even if they own some of them.
    else tests.set(id, failures);
  }
  // An owner no user of the Space has (they left it): the POST would be refused (409).
  for (const userId of gone)
    out.recipients.push({
      userId,
      who: userId,
      tests: owned.get(userId)!,
      outcome: 'not sent',
      reason: 'no user of the Space has this id (the owner may have left the Space)',
    });
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
    ['recipientUserId', 'organizationId', 'message'],
  );
  // What each recipient was told of this cycle already, by this run's other legs or earlier runs.
  const told = new Map<string, Set<string>>();
  for (const n of posted) {
    const id = String(n.attributes.recipientUserId);
    const keys = told.get(id) ?? new Set<string>();
    for (const key of toldIn(String(n.attributes.message ?? ''))) keys.add(key);
    told.set(id, keys);
  }
  let organizationId = [...prefs, ...posted]
    .map((r) => r.attributes.organizationId)
    .find((o): o is string => typeof o === 'string');
  if (organizationId === undefined) out.readsOrganization = true;
  for (const [userId, own] of tests) {
    const known = told.get(userId);
    const untold = known ? own.filter((t) => !known.has(cell(t.key))) : own;
    const recipient: Recipient = {
      userId,
      who: whoOf.get(userId) ?? userId,
      tests: untold.length ? untold : own,
      outcome: off.has(userId)
        ? 'turned off'
        : untold.length === 0
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
        if (!survivable(error)) throw error;
        out.problem = `the organization id that notifications need could not be read (GET /tokens: ${oneLine(error.message)})`;
        organizationId = '';
      }
    }
    if (!organizationId) {
      recipient.outcome = 'not sent';
      out.problem ??=
        'no record the token can read carries the organization id that notifications need';
      recipient.reason = out.problem;
      continue;
    }
    try {
      await post(client, options, { userId, tests: untold, organizationId });
    } catch (error) {
      if (!survivable(error)) throw error;
      recipient.outcome = 'not sent';
      recipient.reason = `POST /notifications: ${oneLine(error.message)}`;
    }
  }
}

/**
 * The owners by id and the named users by email, in one read when it fits: an email is asked for
 * with `~` (contains, in any case: docs/service-api.md 4.2) and compared exactly, in any case, by
 * the caller; ten emails a request.
 */
async function readUsers(
  client: ServiceClient,
  owners: string[],
  emails: string[],
): Promise<Resource<'users'>[]> {
  const groups: Filter[] = [];
  for (let i = 0; i < emails.length; i += 10)
    groups.push(f.or(...emails.slice(i, i + 10).map((e) => f.cmp('email', '~', e))));
  const fields = ['name', 'email'];
  const users = await readIn(
    client,
    '/users',
    'id',
    owners,
    (chunk) => f.or(chunk, groups[0]),
    fields,
  );
  for (const filter of owners.length ? groups.slice(1) : groups)
    for await (const u of client.iterate<'users'>('/users', { filter, fields: { users: fields } }))
      users.push(u);
  return users;
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
  const message = notificationMessage(to.tests, options.triage.baseline);
  // A POST is never repeated blindly (docs/architecture.md "Writes after reads"): look first, for
  // this very message (another leg's notification to the same person is not this one).
  await createOrFind(
    () =>
      client.create('notifications', {
        organizationId: to.organizationId,
        projectId: options.projectId,
        recipientUserId: to.userId,
        type: NOTIFICATION_TYPE,
        title: notificationTitle(to.tests.length, cycle),
        message,
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
        if (n.attributes.message === message) return n;
      return undefined;
    },
    client.scheduler.policy.createAttempts,
  );
}

/** The run's warnings of a notification step: who was not told and why; unknown emails. */
export function notifyWarnings(notified: Notified | undefined): string[] {
  if (!notified) return [];
  const unsent = notified.recipients.filter((r) => r.outcome === 'not sent');
  return [
    ...(unsent.length
      ? [
          `notifications: ${unsent.length} not told (the results and the gate stand): ${unsent
            .slice(0, MAX_NAMED)
            .map((r) => `${oneLine(r.who)} (${r.reason ?? 'not sent'})`)
            .join(
              '; ',
            )}${unsent.length > MAX_NAMED ? `; and ${unsent.length - MAX_NAMED} more` : ''}`,
        ]
      : notified.problem
        ? [`notifications not sent: ${notified.problem}`]
        : []),
    ...(notified.unknownUsers.length
      ? [`notify-users: no user of the Space has ${notified.unknownUsers.join(', ')}`]
      : []),
  ];
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
