/**
 * A small fake of the GitHub REST endpoints the action's PR comment and check run use, shaped by
 * GitHub's documented requests and answers (docs.github.com/rest/issues/comments, /rest/users,
 * /rest/commits/commits, /rest/checks/runs):
 *   GET   /repos/{owner}/{repo}/issues/{issue_number}/comments?per_page&page  (Link: rel="next")
 *   POST  /repos/{owner}/{repo}/issues/{issue_number}/comments  {body} -> 201
 *   PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}    {body} -> 200
 *   GET   /user: `viewer` (a personal token's user), else 403 as for an installation token
 *   GET   /repos/{owner}/{repo}/commits/{sha}/pulls: `pullsByCommit`
 *   POST  /repos/{owner}/{repo}/check-runs, PATCH .../check-runs/{id}: kept in `checkRuns`
 * Comments are written as `viewer`, or as github-actions[bot] (a workflow's GITHUB_TOKEN).
 * `forbid` answers 403 as GitHub does for a read-only token (fork PRs).
 */
import { startServer, type LoggedRequest, type Reply, type TestServer } from './http-server.js';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  html_url: string;
}

export interface FakePull {
  number: number;
  state: 'open' | 'closed';
  base: { repo: { full_name: string } };
}

export interface FakeGitHub {
  server: TestServer;
  comments: Map<number, FakeComment[]>;
  forbid: boolean;
  viewer?: FakeComment['user'];
  pullsByCommit: Map<string, FakePull[]>;
  /** Each check run's requests in order (the create, then each update). */
  checkRuns: Map<number, Record<string, unknown>[]>;
}

export const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };

export async function fakeGitHub(owner = 'acme', repo = 'app'): Promise<FakeGitHub> {
  const state: FakeGitHub = {
    server: undefined!,
    comments: new Map(),
    forbid: false,
    pullsByCommit: new Map(),
    checkRuns: new Map(),
  };
  let nextId = 1000;
  const base = `/repos/${owner}/${repo}/issues`;
  const handle = (req: LoggedRequest): Reply => {
    if (state.forbid)
      return {
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        },
      };
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/user' && req.method === 'GET')
      return state.viewer
        ? { status: 200, body: state.viewer }
        : { status: 403, body: { message: 'Resource not accessible by integration' } };
    const pulls = new RegExp(`^/repos/${owner}/${repo}/commits/(\\w+)/pulls$`).exec(url.pathname);
    if (pulls && req.method === 'GET')
      return { status: 200, body: state.pullsByCommit.get(pulls[1]!) ?? [] };
    const check = new RegExp(`^/repos/${owner}/${repo}/check-runs(?:/(\\d+))?$`).exec(url.pathname);
    if (check && (req.method === 'POST' || (req.method === 'PATCH' && check[1]))) {
      const id = check[1] ? Number(check[1]) : nextId++;
      const requests = state.checkRuns.get(id);
      if (check[1] && !requests) return { status: 404, body: { message: 'Not Found' } };
      state.checkRuns.set(id, [
        ...(requests ?? []),
        JSON.parse(req.body) as Record<string, unknown>,
      ]);
      return { status: check[1] ? 200 : 201, body: { id } };
    }
    const list = new RegExp(`^${base}/(\\d+)/comments$`).exec(url.pathname);
    const one = new RegExp(`^${base}/comments/(\\d+)$`).exec(url.pathname);
    if (list && req.method === 'GET') {
      const all = state.comments.get(Number(list[1])) ?? [];
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length)
        headers.link = `<${state.server.url}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return { status: 200, body: all.slice((page - 1) * perPage, page * perPage), headers };
    }
    if (list && req.method === 'POST') {
      const issue = Number(list[1]);
      const comment: FakeComment = {
        id: nextId++,
        body: (JSON.parse(req.body) as { body: string }).body,
        user: state.viewer ?? BOT,
        html_url: `https://github.com/${owner}/${repo}/pull/${issue}#issuecomment-${nextId}`,
      };
      state.comments.set(issue, [...(state.comments.get(issue) ?? []), comment]);
      return { status: 201, body: comment };
    }
    if (one && req.method === 'PATCH') {
      for (const comments of state.comments.values()) {
        const comment = comments.find((c) => c.id === Number(one[1]));
        if (!comment) continue;
        comment.body = (JSON.parse(req.body) as { body: string }).body;
        return { status: 200, body: comment };
      }
    }
    return { status: 404, body: { message: 'Not Found' } };
  };
  // GitHub answers application/json (Octokit parses nothing else as JSON).
  state.server = await startServer((req) => {
    const reply = handle(req);
    return {
      ...reply,
      headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
    };
  });
  return state;
}

/** Comments already on a PR: `n` by people, for pagination and for comments that are not ours. */
export function peopleComments(n: number, body = 'LGTM'): FakeComment[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    body,
    user: { login: `dev${i}`, type: 'User' as const },
    html_url: `https://github.com/acme/app/pull/1#issuecomment-${i + 1}`,
  }));
}
