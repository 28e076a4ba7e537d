/**
 * A small fake of the GitHub REST endpoints the action's PR comment uses, shaped by GitHub's
 * documented requests and answers (docs.github.com/rest/issues/comments):
 *   GET   /repos/{owner}/{repo}/issues/{issue_number}/comments?per_page&page  (Link: rel="next")
 *   POST  /repos/{owner}/{repo}/issues/{issue_number}/comments  {body} -> 201
 *   PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}    {body} -> 200
 * `forbid` answers 403 as GitHub does for a read-only token (fork PRs).
 */
import { startServer, type LoggedRequest, type Reply, type TestServer } from './http-server.js';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  html_url: string;
}

export interface FakeGitHub {
  server: TestServer;
  comments: Map<number, FakeComment[]>;
  forbid: boolean;
}

const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };

export async function fakeGitHub(owner = 'acme', repo = 'app'): Promise<FakeGitHub> {
  const state: FakeGitHub = { server: undefined!, comments: new Map(), forbid: false };
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
        user: BOT,
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
