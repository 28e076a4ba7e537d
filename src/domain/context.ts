/**
 * Where a pipeline runs: commit, branch, PR and run ids from the CI's environment variables
 * (GitHub Actions, GitLab CI, Jenkins, Azure Pipelines, CircleCI), for cycle name templates, and
 * the checkout root that paths in keys are relative to. Reads only the env object it is given;
 * knows nothing of any CI's API.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { ConfigError } from '../shared/errors.js';
import { Redactor } from '../shared/redact.js';

/**
 * What a run knows of its CI (commit, branch, pull request, run): the placeholders of a cycle name
 * (`{sha}`, `{branch}`, `{pr}`, `{run_id}` ...).
 */
export interface CiContext {
  /** The commit (`{sha}`, `{sha7}`). */
  sha?: string;
  /** The branch (`{branch}`); a pull request's head branch. */
  branch?: string;
  /** The pull request's number (`{pr}`). */
  pr?: string;
  /** A pull (merge) request's target branch: the branch whose series a PR compares with. */
  baseBranch?: string;
  /** The CI run's id (`{run_id}`). */
  runId?: string;
  /** The CI run's number (`{run_number}`). */
  runNumber?: string;
  /** The environment, for `{env:VAR}`. */
  env: Record<string, string | undefined>;
  /** The time {date} and {datetime} show: when the CI run started (runStartedAt), else now. */
  now: Date;
  /** The run's secrets (the token, github-token, the runner's tokens): never part of a name. */
  secrets: Redactor;
}

const first = (env: Record<string, string | undefined>, ...names: string[]) =>
  names.map((n) => env[n]).find((v) => v !== undefined && v !== '');

/**
 * `secrets`: the adapter's Redactor, which knows the tokens given as flags or inputs; the run's
 * secret variables in `env` (RUN_SECRET_ENV in src/shared/redact.ts) are added to it.
 */
export function ciContext(
  env: Record<string, string | undefined>,
  now = new Date(),
  secrets = new Redactor(),
): CiContext {
  secrets.addFromEnv(env);
  const ref = env.GITHUB_REF ?? '';
  const prFromRef = /^refs\/pull\/(\d+)\//.exec(ref)?.[1];
  // Read only for a name that shows it: a run's stamp is a file.
  let started: Date | undefined;
  return {
    get now() {
      return (started ??= runStartedAt(env, now));
    },
    sha: first(
      env,
      OVERRIDES.sha,
      'GITHUB_SHA',
      'CI_COMMIT_SHA',
      'GIT_COMMIT',
      'BUILD_SOURCEVERSION',
      'CIRCLE_SHA1',
    ),
    branch: branchOf(env),
    baseBranch: first(
      env,
      BASE_BRANCH_OVERRIDE,
      'GITHUB_BASE_REF',
      'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
      'CHANGE_TARGET',
      'SYSTEM_PULLREQUEST_TARGETBRANCH',
      'BITBUCKET_PR_DESTINATION_BRANCH',
    )?.replace(/^refs\/heads\//, ''),
    pr:
      first(
        env,
        OVERRIDES.pr,
        'CI_MERGE_REQUEST_IID',
        'CHANGE_ID',
        'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER',
      ) ??
      prFromRef ??
      env.CIRCLE_PULL_REQUEST?.split('/').pop(),
    runId: first(
      env,
      OVERRIDES.run_id,
      'GITHUB_RUN_ID',
      'CI_PIPELINE_ID',
      'BUILD_ID',
      'BUILD_BUILDID',
      'CIRCLE_WORKFLOW_ID',
    ),
    runNumber: first(
      env,
      OVERRIDES.run_number,
      'GITHUB_RUN_NUMBER',
      'CI_PIPELINE_IID',
      'BUILD_NUMBER',
      'BUILD_BUILDNUMBER',
      'CIRCLE_BUILD_NUM',
    ),
    env,
    secrets,
  };
}

/**
 * When this CI run started, so that every step of one run that names its cycle `Nightly {date}`
 * names the same cycle, even when the run goes on past midnight (docs/design.md "CLI contract"):
 * the CI's own time of the run where it gives one (GitLab, Azure Pipelines); else the time the
 * run's first testcycle step asked, kept in a small file in the runner's temporary directory
 * (RUNNER_TEMP, which the steps of a GitHub job share, else the system's) named by a hash of the
 * run's identity; else, outside a CI run, `now`.
 */
export function runStartedAt(
  env: Record<string, string | undefined>,
  now = new Date(),
  dir = env.RUNNER_TEMP || tmpdir(),
): Date {
  for (const variable of ['CI_PIPELINE_CREATED_AT', 'SYSTEM_PIPELINESTARTTIME']) {
    // Azure writes `2026-11-27 23:58:01+00:00`.
    const at = Date.parse(env[variable]?.replace(' ', 'T') ?? '');
    if (Number.isFinite(at)) return new Date(at);
  }
  const run = first(env, ...RUN_IDS);
  if (!run) return now;
  const scope = [run, ...RUN_SCOPE.map((name) => env[name] ?? '')].join('\n');
  const file = join(
    dir,
    `testcycle-run-${createHash('sha256').update(scope).digest('hex').slice(0, 32)}.json`,
  );
  try {
    // The first step of the run writes its time; `wx` fails when another step already did.
    writeFileSync(file, JSON.stringify({ startedAt: now.toISOString() }), { flag: 'wx' });
    return now;
  } catch {
    try {
      const at = Date.parse(
        (JSON.parse(readFileSync(file, 'utf8')) as { startedAt: string }).startedAt,
      );
      return Number.isFinite(at) ? new Date(at) : now;
    } catch {
      // No writable temporary directory, or a file half written: this step's own time.
      return now;
    }
  }
}

/** A run's id (as `{run_id}` reads it), and what tells runs of other projects and attempts apart. */
const RUN_IDS = [
  'TESTCYCLE_RUN_ID',
  'GITHUB_RUN_ID',
  'CI_PIPELINE_ID',
  'BUILD_TAG',
  'BUILD_ID',
  'BUILD_BUILDID',
  'CIRCLE_WORKFLOW_ID',
];
const RUN_SCOPE = [
  'GITHUB_RUN_ATTEMPT',
  'GITHUB_REPOSITORY',
  'CI_PROJECT_ID',
  'JOB_NAME',
  'SYSTEM_TEAMPROJECTID',
  'CIRCLE_PROJECT_REPONAME',
];

/**
 * Names that say their variable holds a secret. A cycle name goes where nothing masks it: the
 * service stores it, and PR comments, check runs, job summaries and outputs show it.
 */
const SECRET_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|(PRIVATE|API|ACCESS|SIGNING|SSH|DEPLOY|ENCRYPTION|MASTER)[_-]?KEY/i;

const SECRET_HINT =
  'a cycle name is stored by the service and shown in PR comments, check runs and job summaries, where nothing masks it';

/** The value of `{env:NAME}`, refused when the variable holds a secret of the run. */
function envValue(ctx: CiContext, whole: string, name: string, parameter: string): string {
  const secretName = SECRET_NAME.exec(name)?.[0];
  if (secretName)
    throw new ConfigError(
      parameter,
      `${whole}: ${name} holds a secret (its name says ${secretName.toUpperCase()}); ${SECRET_HINT}. Use a variable without secrets.`,
    );
  const value = ctx.env[name];
  if (value === undefined)
    throw new ConfigError(parameter, `${whole}: the environment variable ${name} is not set.`);
  if (ctx.secrets.holdsSecret(value))
    throw new ConfigError(
      parameter,
      `${whole}: the value of ${name} is a secret of this run (the token, github-token or a runner token); ${SECRET_HINT}. Use a variable without secrets.`,
    );
  return value;
}

/** The variable that gives a placeholder its value anywhere (the first each ciContext field reads). */
export const OVERRIDES = {
  sha: 'TESTCYCLE_SHA',
  sha7: 'TESTCYCLE_SHA',
  branch: 'TESTCYCLE_BRANCH',
  pr: 'TESTCYCLE_PR',
  run_id: 'TESTCYCLE_RUN_ID',
  run_number: 'TESTCYCLE_RUN_NUMBER',
} as const;

/** The variable that names a PR's target branch where the CI does not (CircleCI, a laptop). */
export const BASE_BRANCH_OVERRIDE = 'TESTCYCLE_BASE_BRANCH';

/** Where a run is, as triage compares like with like (docs/design.md "Triage"). */
export type CiIdentity = Pick<CiContext, 'branch' | 'baseBranch' | 'pr' | 'sha'>;

/** The identity of the run in `env`. */
export function ciIdentity(env: Record<string, string | undefined>): CiIdentity {
  const { branch, baseBranch, pr, sha } = ciContext(env);
  return Object.fromEntries(
    Object.entries({ branch, baseBranch, pr, sha }).filter(([, v]) => v !== undefined),
  );
}

/** A pull (merge) request's run: the CI names its number or its target branch. */
export const isPullRequest = (ci: CiIdentity | undefined): boolean =>
  ci?.pr !== undefined || ci?.baseBranch !== undefined;

/**
 * A PR's source branch before the CI's own name for the build (Jenkins PR-12, Azure "merge").
 * Jenkins' GIT_BRANCH names the remote (origin/main); Azure's BUILD_SOURCEBRANCHNAME is only the
 * last segment (x of feature/x), so its full ref BUILD_SOURCEBRANCH is read instead.
 */
function branchOf(env: Record<string, string | undefined>): string | undefined {
  const jenkinsGit = env.GIT_BRANCH?.replace(/^origin\//, '');
  const branch =
    first(
      env,
      OVERRIDES.branch,
      'GITHUB_HEAD_REF',
      'GITHUB_REF_NAME',
      'CI_COMMIT_REF_NAME',
      'CHANGE_BRANCH',
      'BRANCH_NAME',
    ) ??
    (jenkinsGit || undefined) ??
    first(env, 'SYSTEM_PULLREQUEST_SOURCEBRANCH', 'BUILD_SOURCEBRANCH', 'CIRCLE_BRANCH');
  return branch?.replace(/^refs\/(heads|tags)\//, '');
}

const PLACEHOLDERS = [
  'date',
  'datetime',
  'sha',
  'sha7',
  'branch',
  'pr',
  'run_id',
  'run_number',
] as const;

/** `Nightly {date}`, `PR {pr} {sha7}`, `{env:STAGE} tests` (docs/design.md `--cycle-name`). */
export function renderCycleName(
  template: string,
  ctx: CiContext,
  parameter = 'cycle-name',
): string {
  const name = template.replace(
    /\{([a-z_0-9]+)(?::([A-Za-z_][A-Za-z0-9_]*))?\}/g,
    (whole, key: string, arg?: string) => {
      let value: string | undefined;
      switch (key) {
        case 'date':
          value = ctx.now.toISOString().slice(0, 10);
          break;
        case 'datetime':
          value = ctx.now.toISOString().slice(0, 16).replace('T', ' ');
          break;
        case 'sha':
          value = ctx.sha;
          break;
        case 'sha7':
          value = ctx.sha?.slice(0, 7);
          break;
        case 'branch':
          value = ctx.branch;
          break;
        case 'pr':
          value = ctx.pr;
          break;
        case 'run_id':
          value = ctx.runId;
          break;
        case 'run_number':
          value = ctx.runNumber;
          break;
        case 'env':
          if (!arg)
            throw new ConfigError(parameter, `${whole}: write {env:NAME} with a variable name.`);
          value = envValue(ctx, whole, arg, parameter);
          break;
        default:
          throw new ConfigError(
            parameter,
            `unknown placeholder ${whole}; use ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')} or {env:NAME}.`,
          );
      }
      if (value === undefined || value === '') {
        throw new ConfigError(
          parameter,
          `${whole} has no value in this environment; set ${OVERRIDES[key as keyof typeof OVERRIDES]} or use another placeholder.`,
        );
      }
      return value;
    },
  );
  if (!name.trim()) throw new ConfigError(parameter, 'renders to an empty name.');
  // A secret written into the template, or reaching it through {branch} or {pr}.
  if (ctx.secrets.holdsSecret(name))
    throw new ConfigError(
      parameter,
      `renders to a name that holds a secret of this run (the token, github-token or a runner token); ${SECRET_HINT}.`,
    );
  return name.trim();
}

/**
 * The CI variables that say how many copies of this job run in parallel, in the order they are
 * read: GitLab's `parallel:`, CircleCI's and Buildkite's `parallelism`. GitHub Actions has none:
 * the action's `legs` input takes the legs of its matrix that run at once from the strategy
 * context as its default (src/settings/table.ts), so the action never falls back to these.
 */
export const PARALLEL_VARIABLES = [
  'CI_NODE_TOTAL',
  'CIRCLE_NODE_TOTAL',
  'BUILDKITE_PARALLEL_JOB_COUNT',
] as const;

/**
 * The `legs` a run takes when not given one: the CI's count of parallel copies of this job, when
 * it is a whole number from 2 to `max` (1 is a job alone; anything else is no count, and ignored).
 */
export function parallelLegs(
  env: Record<string, string | undefined>,
  max: number,
): number | undefined {
  for (const name of PARALLEL_VARIABLES) {
    const text = env[name]?.trim();
    if (!text || !/^\d{1,6}$/.test(text)) continue;
    const n = Number(text);
    if (n >= 2 && n <= max) return n;
  }
  return undefined;
}

/** The CI variables that name the checkout's root, in the order they are read. */
export const WORKSPACE_VARIABLES = [
  'GITHUB_WORKSPACE',
  'CI_PROJECT_DIR',
  'WORKSPACE',
  'BUILD_SOURCESDIRECTORY',
  'CIRCLE_WORKING_DIRECTORY',
  'BITBUCKET_CLONE_DIR',
] as const;

/**
 * The checkout root that paths in keys are relative to (docs/design.md "Keys"): `--workspace` if
 * given, else the CI's variable, else the git top level of the working directory (the nearest
 * folder up with a `.git`), else the working directory. Absolute and `/`-separated.
 */
export function workspaceOf(
  explicit: string | undefined,
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  hasGit: (dir: string) => boolean = (dir) => existsSync(join(dir, '.git')),
): string {
  const home = env.HOME ?? env.USERPROFILE;
  const named = explicit || first(env, ...WORKSPACE_VARIABLES);
  // CircleCI's working_directory is often `~/project`.
  const expanded = named && home && /^~(?=$|[/\\])/.test(named) ? home + named.slice(1) : named;
  // A Windows path stays as it is on any machine (a report from a Windows agent, read elsewhere).
  if (expanded) return slashed(WINDOWS.test(expanded) ? expanded : resolve(cwd, expanded));
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (hasGit(dir)) return slashed(dir);
    if (dirname(dir) === dir) return slashed(resolve(cwd));
  }
}

const WINDOWS = /^[A-Za-z]:[\\/]/;
const slashed = (path: string) => path.replace(/\\/g, '/').replace(/(?<=.)\/+$/, '');

/**
 * Where CI services check out a repository: a report written on one (its absolute paths) and
 * published on another keeps the part after the checkout root.
 */
const CHECKOUT_ROOTS = [
  /^\/home\/runner\/work\/[^/]+\/[^/]+\//, // GitHub-hosted Linux
  /^\/Users\/runner\/work\/[^/]+\/[^/]+\//, // GitHub-hosted macOS
  /^[A-Za-z]:\/a\/[^/]+\/[^/]+\//, // GitHub-hosted Windows (D:\a\repo\repo), Azure (D:\a\1\s)
  /^\/__w\/[^/]+\/[^/]+\//, // GitHub jobs in a container
  /^\/home\/vsts\/work\/\d+\/s\//, // Azure Pipelines Linux
  /^\/builds\/[^/]+\/[^/]+\//, // GitLab (group/project)
  /^\/home\/circleci\/project\//, // CircleCI
  /^\/opt\/atlassian\/pipelines\/agent\/build\//, // Bitbucket Pipelines
  /^\/var\/(?:lib\/jenkins|jenkins_home)\/workspace\/[^/]+\//, // Jenkins
];

const ABSOLUTE = /^(?:[A-Za-z]:)?\//;

/**
 * A test's file as keys hold it (docs/design.md "Keys"): relative to the workspace and `/`-separated,
 * never a machine's absolute path. A relative path is taken as written (reporters write them
 * relative to the runner's root). An absolute path outside the workspace loses the checkout root
 * of a known CI layout (a report written on GitHub, published on GitLab); any other is made
 * relative to the workspace with `../` (`outside` is then true, and publish and sync stop before
 * any request: such a key depends on where the tests ran, which --workspace fixes).
 */
export function workspacePath(file: string, workspace: string): { path: string; outside: boolean } {
  const path = file.replace(/\\/g, '/').replace(/^file:\/\//, '');
  if (!ABSOLUTE.test(path))
    return { path: posix.normalize(path).replace(/^(\.\/)+/, ''), outside: false };
  const root = `${workspace.replace(/\/$/, '')}/`;
  const windows = /^[A-Za-z]:/.test(path);
  if ((windows ? path.toLowerCase() : path).startsWith(windows ? root.toLowerCase() : root))
    return { path: posix.normalize(path.slice(root.length)), outside: false };
  for (const known of CHECKOUT_ROOTS) {
    const match = known.exec(path);
    if (match) return { path: posix.normalize(path.slice(match[0].length)), outside: false };
  }
  const relativePath = windows ? path.replace(/^[A-Za-z]:/, '') : path;
  return { path: posix.relative(workspace.replace(/^[A-Za-z]:/, ''), relativePath), outside: true };
}
