/**
 * The pull-request comment (input `comment`): one comment per cycle series on the PR, found again
 * by a hidden marker and updated in place on every run, never duplicated.
 */
import { createHash } from 'node:crypto';

import type { CommentMode } from '../settings.js';

export type { CommentMode } from '../settings.js';

/**
 * The marker names the series, not the cycle: with `cycle-name: PR {pr} {sha7}` every push makes a
 * new cycle, and the PR should still show one comment. A hash, so no name can end the HTML comment.
 */
export function commentMarker(series: string): string {
  const id = createHash('sha256').update(series).digest('hex').slice(0, 16);
  return `<!-- testcycle-comment ${id} -->`;
}

/** The slice of Octokit this needs (issues.listComments, createComment, updateComment). */
export interface CommentsApi {
  paginate<T>(route: unknown, params: Record<string, unknown>): Promise<T[]>;
  rest: {
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
  user?: { type?: string } | null;
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
  // Only a bot's comment is ours to edit: a person quoting the marker keeps their comment.
  const ours = comments.find((c) => c.user?.type === 'Bot' && c.body?.startsWith(marker));
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

/** The PR a run belongs to: the pull_request event, or the PR a workflow_run ran for (fork PRs). */
export function pullNumberOf(payload: Record<string, unknown>): number | undefined {
  const pr = payload.pull_request as { number?: unknown } | undefined;
  if (typeof pr?.number === 'number') return pr.number;
  const run = payload.workflow_run as { pull_requests?: { number?: unknown }[] } | undefined;
  const first = run?.pull_requests?.[0]?.number;
  return typeof first === 'number' ? first : undefined;
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
  const pullNumber = pullNumberOf(github.context.payload);
  if (pullNumber === undefined) {
    options.info('no pull request for this run: no comment written');
    return;
  }
  try {
    const outcome = await upsertComment({
      api: github.getOctokit(options.token) as unknown as CommentsApi,
      repo: github.context.repo,
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
