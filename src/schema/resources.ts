/**
 * The resource table of docs/service-api.md, as data. The client's types and the emulator's generic
 * handlers both read it; they share nothing else, so a bug in one is not mirrored in the other.
 *
 * Where docs/service-api.md is silent (section 2.11 "Gaps"), an entry says so in a comment and keeps the
 * choice small: the client must not depend on it.
 */

export type AttrKind =
  | 'string'
  | 'uuid'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date-time'
  | 'object'
  | 'string[]'
  | 'any';

export interface AttrSpec {
  readonly kind: AttrKind;
  readonly enum?: readonly string[];
  readonly nullable?: boolean;
  /** Must be sent on create (section 2 tables, section 4.4 "needs ..."). */
  readonly required?: boolean;
  /** Set by the server: sending it on a write gives 422 naming the attribute (section 2). */
  readonly serverSet?: boolean;
  /** Computed by the server from other attributes (requirements.significance, section 2.8). */
  readonly computed?: boolean;
  /** Unique among live records of the project (section 2.4, 2.6). */
  readonly unique?: boolean;
  /** A uuid that names a record of this type (a missing one gives 409, section 7). */
  readonly references?: ResourceType;
}

export interface ToOneSpec {
  readonly type: ResourceType;
  /** The attribute holding the related id. */
  readonly via: string;
}

/**
 * A to-many relation: the records of `type` whose `foreignKey` points back at this record
 * (testSteps of a case), or, with `inverse`, a many-to-many relation kept as links between records
 * (a case's requirements): `inverse` names the relation of `type` that holds the same links seen
 * from the other side, and the `writable` side takes POST and DELETE on its relationship route
 * (JSON:API 1.1 "Updating To-Many Relationships"; docs/service-api.md 2.12).
 */
export type ToManySpec =
  | { readonly type: ResourceType; readonly foreignKey: string }
  | { readonly type: ResourceType; readonly inverse: string; readonly writable?: boolean };

/** The relation kept as links (not by a foreign key), narrowed. */
export type LinkedSpec = Extract<ToManySpec, { inverse: string }>;

export function isLinked(spec: ToManySpec): spec is LinkedSpec {
  return 'inverse' in spec;
}

export interface ResourceSpec {
  readonly attributes: Readonly<Record<string, AttrSpec>>;
  /** Which of list, get, create, update, delete, aggregate the API offers (section 4.4). */
  readonly operations: readonly Operation[];
  /** Human-readable key attribute and the emulator's key prefix (docs/design.md: DEMO-T1, DEMO-R1 ...). */
  readonly key?: { readonly attribute: string; readonly prefix: string };
  readonly toOne?: Readonly<Record<string, ToOneSpec>>;
  readonly toMany?: Readonly<Record<string, ToManySpec>>;
  /** PATCH and DELETE need If-Match (section 8, docs/design.md "Locked types"). */
  readonly versionLocked?: boolean;
  /** DELETE sets deletedAt; POST /{type}/{id}/actions/restore clears it (section 3, rule 3). */
  readonly softDelete?: boolean;
  /** Attribute sets that are unique together among live records (docs/design.md: one execution per case and cycle). */
  readonly uniqueTogether?: readonly (readonly string[])[];
}

/** Every type of the table; RESOURCES below must define exactly these. */
export const RESOURCE_TYPES = [
  'tokens',
  'notifications',
  'notification_preferences',
  'users',
  'projects',
  'organizations',
  'test_cases',
  'test_case_folders',
  'test_steps',
  'test_cycles',
  'test_case_executions',
  'requirements',
  'test_collections',
  'test_campaigns',
  'service_custom_field',
  'links',
] as const;

/** One of RESOURCE_TYPES: a kind of record of the service (`test_cases`). */
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete' | 'aggregate' | 'schema';

const READ = ['list', 'get', 'aggregate'] as const;
const CRUD = ['list', 'get', 'create', 'update', 'delete', 'aggregate'] as const;

/** docs/service-api.md 2.2: the `type` of a notification (and of a preference). */
export const NOTIFICATION_TYPES = [
  'REVIEW_REQUESTED',
  'REVIEW_COMPLETED',
  'TEST_CYCLE_ASSIGNED',
  'EXECUTION_ASSIGNED',
  'EXECUTION_COMPLETED',
  'TEST_CASE_STATUS_CHANGED',
  'MENTION',
  'SYSTEM',
] as const;

/** Section 3: value sets. */
export const EXECUTION_RESULTS = [
  'NOT_EXECUTED',
  'IN_PROGRESS',
  'PASSED',
  'FAILED',
  'BLOCKED',
  'SKIPPED',
] as const;
/** A test cycle's statuses (docs/service-api.md). */
export const CYCLE_STATUSES = ['DRAFT', 'ACTIVE', 'IN_PROGRESS', 'DONE'] as const;
/** A test case's statuses (docs/service-api.md). */
export const CASE_STATUSES = ['DRAFT', 'IN_REVIEW', 'CHANGE_NEEDED', 'ACTIVE', 'ARCHIVED'] as const;
export const REQUIREMENT_STATUSES = [
  'DRAFT',
  'READY',
  'COVERED',
  'ARCHIVED',
  'IN_REVIEW',
  'CHANGES_REQUESTED',
  'APPROVED',
] as const;
/** A test case's priorities (docs/service-api.md), highest first. */
export const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
/** A test case's automation statuses (docs/service-api.md). */
export const AUTOMATION_STATUSES = [
  'MANUAL',
  'AUTOMATED',
  'TO_BE_AUTOMATED',
  'NOT_AUTOMATABLE',
] as const;
export const LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export const SIGNIFICANCES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

/** One of EXECUTION_RESULTS: the result of a test execution in the service. */
export type ExecutionResult = (typeof EXECUTION_RESULTS)[number];
/** One of CYCLE_STATUSES. */
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

const id = { kind: 'uuid', serverSet: true } as const;
const stamps = {
  createdAt: { kind: 'date-time', serverSet: true },
  updatedAt: { kind: 'date-time', serverSet: true },
} as const;
const projectId = { kind: 'uuid', required: true, references: 'projects' } as const;
const rank = { kind: 'integer', required: true } as const;
const customFields = { kind: 'object' } as const;
const deletedAt = { kind: 'date-time', nullable: true, serverSet: true } as const;
const userRef = { kind: 'uuid', nullable: true, references: 'users' } as const;
const project = { type: 'projects', via: 'projectId' } as const;

export const RESOURCES = {
  // 2.1: read only; created, rotated and revoked in the app.
  tokens: {
    operations: [...READ, 'schema'],
    attributes: {
      id,
      name: { kind: 'string' },
      jti: { kind: 'string' },
      createdAt: { kind: 'date-time' },
      expiresAt: { kind: 'date-time' },
      lastUsedAt: { kind: 'date-time', nullable: true },
      revokedAt: { kind: 'date-time', nullable: true },
      organizationId: { kind: 'uuid' },
      ownerId: { kind: 'string', nullable: true },
      ownerType: { kind: 'string' },
      role: { kind: 'string' },
      scopes: { kind: 'string[]', nullable: true },
      mintedBy: { kind: 'string', nullable: true },
      minterRole: { kind: 'string', nullable: true },
      mintScopeBasis: { kind: 'any' },
      confinedClaimBasis: { kind: 'any' },
      customClaims: { kind: 'any' },
      delegationChain: { kind: 'any' },
      delegationDepth: { kind: 'integer' },
    },
  },
  // 2.2: every attribute may be sent, even id and the stamps (the table marks them optional).
  notifications: {
    operations: CRUD,
    attributes: {
      organizationId: { kind: 'uuid', required: true },
      projectId,
      recipientUserId: { kind: 'uuid', required: true, references: 'users' },
      title: { kind: 'string', required: true },
      // docs/service-api.md 2.2 names this attribute `type`, which JSON:API reserves; kept as the spec has it.
      type: { kind: 'string', enum: NOTIFICATION_TYPES, required: true },
      id: { kind: 'uuid' },
      actorUserId: userRef,
      createdAt: { kind: 'date-time' },
      createdBy: userRef,
      isRead: { kind: 'boolean' },
      message: { kind: 'string', nullable: true },
      projectExternalId: { kind: 'string', nullable: true },
      readAt: { kind: 'date-time', nullable: true },
      relatedEntityId: { kind: 'uuid', nullable: true },
      relatedEntityKey: { kind: 'string', nullable: true },
      relatedEntityName: { kind: 'string', nullable: true },
      relatedEntityType: {
        kind: 'string',
        nullable: true,
        enum: [
          'TEST_CASE',
          'TEST_CYCLE',
          'TEST_CASE_EXECUTION',
          'REQUIREMENT',
          'TEST_COLLECTION',
          'TEST_CAMPAIGN',
          'TEST_CASE_REVIEW',
        ],
      },
      updatedAt: { kind: 'date-time' },
      updatedBy: userRef,
    },
    toOne: {
      fkNotificationsActorUser: { type: 'users', via: 'actorUserId' },
      fkNotificationsCreatedByUser: { type: 'users', via: 'createdBy' },
      fkNotificationsRecipientUser: { type: 'users', via: 'recipientUserId' },
      fkNotificationsUpdatedByUser: { type: 'users', via: 'updatedBy' },
      organization: { type: 'organizations', via: 'organizationId' },
      project,
    },
  },
  // 2.3
  notification_preferences: {
    operations: CRUD,
    attributes: {
      notificationType: { kind: 'string', enum: NOTIFICATION_TYPES, required: true },
      organizationId: { kind: 'uuid', required: true },
      userId: { kind: 'uuid', required: true, references: 'users' },
      id: { kind: 'uuid' },
      inAppEnabled: { kind: 'boolean' },
      projectId: { kind: 'uuid', nullable: true, references: 'projects' },
      createdAt: { kind: 'date-time' },
      createdBy: userRef,
      updatedAt: { kind: 'date-time' },
      updatedBy: userRef,
    },
    toOne: {
      fkNotificationPrefsCreatedByUser: { type: 'users', via: 'createdBy' },
      fkNotificationPrefsUpdatedByUser: { type: 'users', via: 'updatedBy' },
      fkNotificationPrefsUserUser: { type: 'users', via: 'userId' },
      organization: { type: 'organizations', via: 'organizationId' },
      project,
    },
  },
  // Gap (2.11): only "list, filterable" is stated; name and email come from the seed format.
  users: {
    operations: READ,
    attributes: { id, name: { kind: 'string' }, email: { kind: 'string' } },
  },
  // 2.9: one record, the Space of the token.
  projects: {
    operations: ['list', 'get'],
    attributes: { id, name: { kind: 'string' }, key: { kind: 'string' } },
  },
  // Gap (2.9): organizations are only the target of `organization` relations.
  organizations: {
    operations: [],
    attributes: { id, name: { kind: 'string' } },
  },
  // 2.4
  test_cases: {
    operations: CRUD,
    versionLocked: true,
    softDelete: true,
    key: { attribute: 'testCaseKey', prefix: 'T' },
    attributes: {
      id,
      name: { kind: 'string', required: true, unique: true },
      priority: { kind: 'string', enum: PRIORITIES },
      projectId,
      rank,
      status: { kind: 'string', enum: CASE_STATUSES },
      automationStatus: { kind: 'string', enum: AUTOMATION_STATUSES },
      automationKey: { kind: 'string', nullable: true },
      testCaseKey: { kind: 'string', serverSet: true },
      ownerId: userRef,
      testCaseFolderId: { kind: 'uuid', nullable: true },
      version: { kind: 'integer', serverSet: true },
      customFields,
      deletedAt,
      ...stamps,
    },
    toOne: {
      ownerUser: { type: 'users', via: 'ownerId' },
      testCaseFolder: { type: 'test_case_folders', via: 'testCaseFolderId' },
      project,
    },
    toMany: {
      testSteps: { type: 'test_steps', foreignKey: 'testCaseId' },
      testCaseExecutions: { type: 'test_case_executions', foreignKey: 'testCaseId' },
      // docs/service-api.md 2.12: the emulator's reading of the service's
      // "traceability links" (2.11 gap), kept as JSON:API relationship linkage.
      requirements: { type: 'requirements', inverse: 'testCases', writable: true },
      // JSON:API reserves the member name `links`: the relation to the links resource is named apart.
      workItemLinks: { type: 'links', foreignKey: 'testCaseId' },
    },
  },
  // Gap (2.4): folders are only the target of testCaseFolder.
  test_case_folders: {
    operations: [],
    attributes: { id, name: { kind: 'string' } },
  },
  // 2.5
  test_steps: {
    operations: CRUD,
    versionLocked: true,
    softDelete: true,
    attributes: {
      id,
      action: { kind: 'string' },
      expectedResult: { kind: 'string' },
      projectId,
      sequenceNumber: { kind: 'integer', required: true },
      testCaseId: { kind: 'uuid', required: true, references: 'test_cases' },
      deletedAt,
      ...stamps,
    },
    toOne: { testCase: { type: 'test_cases', via: 'testCaseId' }, project },
  },
  // 2.6 and section 3 rule 4: cycles are never deleted, their status changes instead.
  test_cycles: {
    operations: ['list', 'get', 'create', 'update', 'aggregate'],
    versionLocked: true,
    key: { attribute: 'testCycleKey', prefix: 'R' },
    attributes: {
      id,
      name: { kind: 'string', required: true, unique: true },
      projectId,
      rank,
      status: { kind: 'string', enum: CYCLE_STATUSES },
      testCycleKey: { kind: 'string', serverSet: true },
      customFields,
      ...stamps,
    },
    toOne: { project },
    toMany: {
      testCaseExecutions: { type: 'test_case_executions', foreignKey: 'testCycleId' },
    },
  },
  // 2.7 and section 3 rules 1-2.
  test_case_executions: {
    operations: ['list', 'get', 'create', 'update', 'aggregate'],
    versionLocked: true,
    key: { attribute: 'testCaseExecutionKey', prefix: 'E' },
    uniqueTogether: [['testCaseId', 'testCycleId']],
    attributes: {
      id,
      projectId,
      testCaseId: { kind: 'uuid', required: true, references: 'test_cases' },
      testCycleId: { kind: 'uuid', required: true, references: 'test_cycles' },
      result: { kind: 'string', enum: EXECUTION_RESULTS },
      executedAt: { kind: 'date-time', nullable: true, serverSet: true },
      testCaseExecutionKey: { kind: 'string', serverSet: true },
      testCaseVersion: { kind: 'integer', serverSet: true },
      ...stamps,
    },
    toOne: {
      testCycle: { type: 'test_cycles', via: 'testCycleId' },
      testCase: { type: 'test_cases', via: 'testCaseId' },
      project,
    },
  },
  // 2.8
  requirements: {
    operations: CRUD,
    versionLocked: true,
    softDelete: true,
    key: { attribute: 'requirementKey', prefix: 'REQ' },
    attributes: {
      id,
      name: { kind: 'string', required: true },
      projectId,
      rank,
      status: { kind: 'string', enum: REQUIREMENT_STATUSES },
      complexity: { kind: 'string', enum: LEVELS },
      impact: { kind: 'string', enum: LEVELS },
      significance: { kind: 'string', enum: SIGNIFICANCES, serverSet: true, computed: true },
      requirementKey: { kind: 'string', serverSet: true },
      customFields,
      deletedAt,
      ...stamps,
    },
    toOne: { project },
    toMany: { testCases: { type: 'test_cases', inverse: 'requirements' } },
  },
  test_collections: {
    operations: CRUD,
    versionLocked: true,
    softDelete: true,
    attributes: {
      id,
      name: { kind: 'string', required: true },
      projectId,
      rank,
      customFields,
      deletedAt,
      ...stamps,
    },
    toOne: { project },
  },
  test_campaigns: {
    operations: CRUD,
    versionLocked: true,
    softDelete: true,
    attributes: {
      id,
      name: { kind: 'string', required: true },
      projectId,
      rank,
      customFields,
      deletedAt,
      ...stamps,
    },
    toOne: { project },
  },
  // 2.10: GET /service_custom_field; gap (2.11): its fields are not shown (name, entity and the
  // seed's `type`). JSON:API forbids an attribute named `type`, so the value type is `fieldType`.
  service_custom_field: {
    operations: ['list'],
    attributes: {
      id,
      name: { kind: 'string' },
      entity: { kind: 'string' },
      fieldType: { kind: 'string' },
    },
  },
  // Gap (2.11): "links between these and issue-tracker work items" are named, not shown. The
  // emulator's assumption (docs/service-api.md 2.12, its work-item links): a link of a test case to a work
  // item (a tracker's key or a URL), made once per pair and deleted, never edited; `origin` says
  // which tool made it (a person's link has none).
  links: {
    operations: ['list', 'get', 'create', 'delete', 'aggregate'],
    uniqueTogether: [['testCaseId', 'workItem']],
    attributes: {
      id,
      projectId,
      testCaseId: { kind: 'uuid', required: true, references: 'test_cases' },
      workItem: { kind: 'string', required: true },
      origin: { kind: 'string', nullable: true },
      createdBy: { kind: 'uuid', nullable: true, serverSet: true },
      ...stamps,
    },
    toOne: { testCase: { type: 'test_cases', via: 'testCaseId' }, project },
  },
} as const satisfies Record<ResourceType, ResourceSpec>;

export function resourceSpec(type: ResourceType): ResourceSpec {
  return RESOURCES[type];
}

export function isResourceType(value: string): value is ResourceType {
  return (RESOURCE_TYPES as readonly string[]).includes(value);
}

/**
 * The links a linked to-many relation reads, named by its writable side (`test_cases.requirements`):
 * the same links serve both sides, `forward` from the writable side, backward from the other.
 */
export function linkTableOf(
  type: ResourceType,
  relation: string,
): { table: string; forward: boolean } {
  const rel = resourceSpec(type).toMany?.[relation];
  if (!rel || !isLinked(rel)) throw new Error(`${type}.${relation} is no linked relation`);
  return rel.writable
    ? { table: `${type}.${relation}`, forward: true }
    : { table: `${rel.type}.${rel.inverse}`, forward: false };
}

/** Types whose PATCH and DELETE need If-Match. */
export function isVersionLocked(type: ResourceType): boolean {
  return resourceSpec(type).versionLocked === true;
}

// ---- TypeScript types derived from the table (so the client is typed by the same data) ----

type KindType<K extends AttrKind> = K extends 'integer' | 'number'
  ? number
  : K extends 'boolean'
    ? boolean
    : K extends 'object'
      ? Record<string, unknown>
      : K extends 'string[]'
        ? string[]
        : K extends 'any'
          ? unknown
          : string;

type AttrType<S> = S extends { kind: infer K extends AttrKind }
  ? | (S extends { enum: readonly (infer E)[] } ? E : KindType<K>)
    | (S extends { nullable: true } ? null : never)
  : never;

/** The attributes of a resource type as the server returns them (unknown ones are kept). */
export type AttributesOf<T extends ResourceType> = {
  -readonly [A in keyof (typeof RESOURCES)[T]['attributes']]?: AttrType<
    (typeof RESOURCES)[T]['attributes'][A]
  >;
} & Record<string, unknown>;

/** The attributes a client may send on a write of this type (server-set ones excluded). */
export type WritableAttributesOf<T extends ResourceType> = {
  -readonly [
    A in keyof (typeof RESOURCES)[T]['attributes'] as (typeof RESOURCES)[T]['attributes'][A] extends {
      serverSet: true;
    }
      ? never
      : A
  ]?: AttrType<(typeof RESOURCES)[T]['attributes'][A]>;
};
