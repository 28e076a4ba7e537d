/**
 * The pull-request comment (input `comment`): one comment per cycle series on the PR, found again
 * by a hidden marker and updated in place on every run, never duplicated. Only a comment that
 * this token's identity wrote is edited: another app can copy the marker, not the author.
 */
import { createHash } from 'node:crypto';

import type { CommentMode } from '../settings/index.js';

export type { CommentMode } from '../settings/index.js';

/**
 * The marker names the series, not the cycle: with `cycle-name: PR {pr} {sha7}` every push makes a
 * new cycle, and the PR should still show one comment. A hash, so no name can end the HTML comment.
 */
export function commentMarker(series: string): string {
  const id = createHash('sha256').update(series).digest('hex').slice(0, 16);
  return `<!-- testcycle-comment ${id} -->`;
}

interface PullRequest {
  number: number;
  state?: string;
  base?: { repo?: RepoRef | null };
}

/** How GitHub names a repository in payloads (workflow_run: id, url, name) and answers. */
interface RepoRef {
  id?: number;
  url?: string;
  full_name?: string;
}

/**
 * The slice of Octokit this needs: issues.listComments, createComment, updateComment;
 * users.getAuthenticated (who writes); repos.listPullRequestsAssociatedWithCommit (fork PRs).
 */
export interface CommentsApi {
  paginate<T>(route: unknown, params: Record<string, unknown>): Promise<T[]>;
  rest: {
    users: { getAuthenticated(): Promise<{ data: { login: string } }> };
    repos: {
      listPullRequestsAssociatedWithCommit(params: {
        owner: string;
        repo: string;
        commit_sha: string;
        per_page?: number;
      }): Promise<{ data: PullRequest[] }>;
    };
    issues: {
      listComments: unknown;
      createComment(params: {
        owner: string;
        repo: string;
        issue_number: number;
        body: string;
      }): Promise<{ data: { id: number; html_url?: string } }>;
      updateComment(params: {
        owner: string;
        repo: string;
        comment_id: number;
        body: string;
      }): Promise<{ data: { id: number; html_url?: string } }>;
    };
  };
}

interface IssueComment {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
}

/** Who comments with a workflow's GITHUB_TOKEN (an installation token of the GitHub Actions app). */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/**
 * The login this token's comments carry. GET /user names the user of a personal or OAuth token;
 * an installation token gets 403 "Resource not accessible by integration" (docs.github.com/rest/
 * users/users#get-the-authenticated-user): that is the workflow's GITHUB_TOKEN, whose comments
 * are github-actions[bot]'s. Another app's installation token then finds no comment of its own
 * and writes a new one: never another author's.
 */
async function postingAs(api: CommentsApi): Promise<string> {
  try {
    return (await api.rest.users.getAuthenticated()).data.login;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 403 || status === 404) return ACTIONS_BOT_LOGIN;
    throw error;
  }
}

export interface CommentRequest {
  api: CommentsApi;
  repo: { owner: string; repo: string };
  pullNumber: number;
  series: string;
  /** The job summary's Markdown, already cut to fit (MAX_GITHUB_TEXT_BYTES in outputs.ts). */
  markdown: string;
  mode: CommentMode;
  gateFailed: boolean;
}

export type CommentOutcome =
  { action: 'created' | 'updated'; id: number; url?: string } | { action: 'skipped'; why: string };

export async function upsertComment(request: CommentRequest): Promise<CommentOutcome> {
  const { api, repo, pullNumber, mode } = request;
  if (mode === 'off') return { action: 'skipped', why: 'comment is off' };
  const marker = commentMarker(request.series);
  const body = `${marker}\n${request.markdown}`;
  const comments = await api.paginate<IssueComment>(api.rest.issues.listComments, {
    ...repo,
    issue_number: pullNumber,
    per_page: 100,
  });
  // Ours: the marker, and written by this token's identity (logins are case-insensitive). A
  // person quoting the marker, or another app copying it, keeps their comment.
  const marked = comments.filter((c) => c.body?.startsWith(marker));
  const me = marked.length ? (await postingAs(api)).toLowerCase() : '';
  const ours = marked.find((c) => c.user?.login?.toLowerCase() === me);
  if (ours) {
    const { data } = await api.rest.issues.updateComment({ ...repo, comment_id: ours.id, body });
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  // on-failure: a new comment only for a failed gate; one that exists is kept up to date above.
  if (mode === 'on-failure' && !request.gateFailed)
    return { action: 'skipped', why: 'the gate passed (comment: on-failure)' };
  const { data } = await api.rest.issues.createComment({ ...repo, issue_number: pullNumber, body });
  return { action: 'created', id: data.id, url: data.html_url };
}

/**
 * The PR a run belongs to: the pull_request event's, or the PR a workflow_run ran for (the fork
 * PR recipe), and only a PR into this repository. GitHub leaves a workflow_run's `pull_requests`
 * empty for fork PRs: the PRs are then found by the run's head commit
 * (GET /repos/{owner}/{repo}/commits/{sha}/pulls), open ones into this repository only.
 */
export async function findPullNumber(
  api: CommentsApi,
  repo: { owner: string; repo: string },
  payload: Record<string, unknown>,
): Promise<number | undefined> {
  const pr = payload.pull_request as { number?: unknown } | undefined;
  if (typeof pr?.number === 'number') return pr.number;
  const run = payload.workflow_run as
    { head_sha?: string; pull_requests?: PullRequest[] | null } | undefined;
  if (!run) return undefined;
  const here = payload.repository as RepoRef | undefined;
  const intoHere = (p: PullRequest) => isRepo(p.base?.repo, repo, here);
  const listed = (run.pull_requests ?? []).find(intoHere);
  if (listed) return listed.number;
  if (!run.head_sha) return undefined;
  const { data } = await api.rest.repos.listPullRequestsAssociatedWithCommit({
    ...repo,
    commit_sha: run.head_sha,
    per_page: 100,
  });
  return data.find((p) => p.state !== 'closed' && intoHere(p))?.number;
}

/** Whether a payload's repository is `repo`: by id when both have one, else by name. */
function isRepo(
  ref: RepoRef | null | undefined,
  repo: { owner: string; repo: string },
  here: RepoRef | undefined,
): boolean {
  if (!ref) return false;
  if (typeof ref.id === 'number' && typeof here?.id === 'number') return ref.id === here.id;
  const name = `${repo.owner}/${repo.repo}`.toLowerCase();
  return (
    ref.full_name?.toLowerCase() === name ||
    (ref.url?.toLowerCase().endsWith(`/repos/${name}`) ?? false)
  );
}

/**
 * The step's comment on its pull request (input `comment`). Outside a PR it says so; without
 * permission (a fork PR's read-only token, or no `pull-requests: write`) it is a notice, as for
 * check runs: the job summary has the same text.
 */
export async function commentOnPullRequest(options: {
  token: string;
  mode: CommentMode;
  series: string;
  markdown: string;
  gateFailed: boolean;
  notice: (text: string) => void;
  info: (text: string) => void;
  warning: (text: string) => void;
}): Promise<void> {
  if (!options.token) {
    options.notice(
      'comment is set but github-token is empty: no pull-request comment was written.',
    );
    return;
  }
  // Loaded only when asked for: it is most of the bundle, and cold start matters.
  const github = await import('@actions/github');
  const api = github.getOctokit(options.token) as unknown as CommentsApi;
  const repo = github.context.repo;
  try {
    const pullNumber = await findPullNumber(api, repo, github.context.payload);
    if (pullNumber === undefined) {
      options.info('no pull request into this repository for this run: no comment written');
      return;
    }
    const outcome = await upsertComment({
      api,
      repo,
      pullNumber,
      series: options.series,
      markdown: options.markdown,
      mode: options.mode,
      gateFailed: options.gateFailed,
    });
    options.info(
      outcome.action === 'skipped'
        ? `no pull-request comment: ${outcome.why}`
        : `pull-request comment ${outcome.action}${outcome.url ? `: ${outcome.url}` : ''}`,
    );
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 403 || status === 404) {
      options.notice(
        'No pull-request comment: the token may not write to pull requests (grant pull-requests: write; fork PRs get a read-only token, see the workflow_run recipe in the README). The job summary has the results.',
      );
      return;
    }
    // As a check run that could not be created: a warning (something failed, not a permission).
    options.warning(`Could not write the pull-request comment: ${(error as Error).message}`);
  }
}
