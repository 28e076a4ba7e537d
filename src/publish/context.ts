/**
 * Where a pipeline runs: commit, branch, PR and run ids from the CI's environment variables
 * (GitHub Actions, GitLab CI, Jenkins, Azure Pipelines, CircleCI), for cycle name templates.
 * Reads only the env object it is given; knows nothing of any CI's API.
 */
import { ConfigError } from '../api/errors.js';

export interface CiContext {
  sha?: string;
  branch?: string;
  pr?: string;
  runId?: string;
  runNumber?: string;
  env: Record<string, string | undefined>;
  now: Date;
}

const first = (env: Record<string, string | undefined>, ...names: string[]) =>
  names.map((n) => env[n]).find((v) => v !== undefined && v !== '');

export function ciContext(env: Record<string, string | undefined>, now = new Date()): CiContext {
  const ref = env.GITHUB_REF ?? '';
  const prFromRef = /^refs\/pull\/(\d+)\//.exec(ref)?.[1];
  return {
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
    now,
  };
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

/** `Nightly {date}`, `PR {pr} {sha7}`, `{env:STAGE} tests` (DESIGN.md `--cycle-name`). */
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
          value = ctx.env[arg];
          if (value === undefined)
            throw new ConfigError(
              parameter,
              `${whole}: the environment variable ${arg} is not set.`,
            );
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
  return name.trim();
}
