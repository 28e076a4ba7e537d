/** The PR comment against a fake of GitHub's issue-comment endpoints, through the real Octokit. */
import { getOctokit } from '@actions/github';
import {
  commentMarker,
  findPullNumber,
  upsertComment,
  type CommentMode,
  type CommentsApi,
} from '../../src/action/comment.js';
import { BOT, fakeGitHub, peopleComments, type FakeGitHub } from '../helpers/fake-github.js';
import { closeAll } from '../helpers/http-server.js';

let github: FakeGitHub;
let api: CommentsApi;
beforeEach(async () => {
  github = await fakeGitHub();
  api = getOctokit('ghs_fake', { baseUrl: github.server.url }) as unknown as CommentsApi;
});
afterEach(closeAll);

const post = (markdown: string, mode: CommentMode = 'always', gateFailed = false) =>
  upsertComment({
    api,
    repo: { owner: 'acme', repo: 'app' },
    pullNumber: 7,
    series: 'PR {pr} {sha7}',
    markdown,
    mode,
    gateFailed,
  });
const writes = () => github.server.log.filter((r) => r.method !== 'GET').map((r) => r.method);

test('always: the first run creates one comment, the next runs update it in place', async () => {
  expect(await post('## run 1')).toMatchObject({ action: 'created' });
  expect(await post('## run 2')).toMatchObject({ action: 'updated' });
  expect(await post('## run 3')).toMatchObject({ action: 'updated' });
  const comments = github.comments.get(7)!;
  expect(comments).toHaveLength(1);
  expect(comments[0]!.body).toBe(`${commentMarker('PR {pr} {sha7}')}\n## run 3`);
  expect(writes()).toEqual(['POST', 'PATCH', 'PATCH']);
});

test('finds its comment on a later page of a busy PR', async () => {
  github.comments.set(7, peopleComments(150));
  await post('## run 1');
  github.comments.get(7)!.unshift(...peopleComments(3));
  expect(await post('## run 2')).toMatchObject({ action: 'updated' });
  expect(github.comments.get(7)!.filter((c) => c.user.type === 'Bot')).toHaveLength(1);
  expect(github.server.log.filter((r) => r.method === 'GET').length).toBeGreaterThan(2);
});

test("a person's comment that quotes the marker is never edited", async () => {
  github.comments.set(7, peopleComments(1, `${commentMarker('PR {pr} {sha7}')}\nquoted`));
  expect(await post('## run 1')).toMatchObject({ action: 'created' });
  expect(github.comments.get(7)![0]!.body).toContain('quoted');
});

test('series are separate comments: two matrix legs publishing to two cycles', async () => {
  await post('## leg A');
  await upsertComment({
    api,
    repo: { owner: 'acme', repo: 'app' },
    pullNumber: 7,
    series: 'PR {pr} windows',
    markdown: '## leg B',
    mode: 'always',
    gateFailed: false,
  });
  expect(github.comments.get(7)!.map((c) => c.body.split('\n')[1])).toEqual([
    '## leg A',
    '## leg B',
  ]);
});

test('on-failure: no new comment for a passing gate, but an existing one is kept current', async () => {
  expect(await post('## pass', 'on-failure', false)).toMatchObject({ action: 'skipped' });
  expect(writes()).toEqual([]);
  expect(await post('## fail', 'on-failure', true)).toMatchObject({ action: 'created' });
  expect(await post('## fixed', 'on-failure', false)).toMatchObject({ action: 'updated' });
  expect(github.comments.get(7)![0]!.body).toContain('## fixed');
});

test('off sends nothing', async () => {
  expect(await post('## x', 'off', true)).toEqual({ action: 'skipped', why: 'comment is off' });
  expect(github.server.log).toEqual([]);
});

test("a 403 (a fork PR's read-only token) reaches the caller with its status", async () => {
  github.forbid = true;
  await expect(post('## x')).rejects.toMatchObject({ status: 403 });
});

test('the marker is a hash: no series text can close the HTML comment or inject Markdown', () => {
  const marker = commentMarker('evil --> <script>x</script> [link](http://e)');
  expect(marker).toMatch(/^<!-- testcycle-comment [0-9a-f]{16} -->$/);
  expect(commentMarker('a')).not.toBe(commentMarker('b'));
});

describe("only a comment written by this token's identity is edited", () => {
  const marked = (login: string, type: 'Bot' | 'User', id = 500) => ({
    id,
    body: `${commentMarker('PR {pr} {sha7}')}\n## theirs`,
    user: { login, type },
    html_url: `https://github.com/acme/app/pull/7#issuecomment-${id}`,
  });

  test("another app's Bot comment that starts with the marker is not PATCHed: a new one is posted", async () => {
    github.comments.set(7, [marked('other-app[bot]', 'Bot')]);
    expect(await post('## run 1')).toMatchObject({ action: 'created' });
    expect(github.comments.get(7)![0]!.body).toContain('## theirs');
    expect(writes()).toEqual(['POST']);
    // The next run finds its own comment (github-actions[bot], as GET /user is refused).
    expect(await post('## run 2')).toMatchObject({ action: 'updated' });
    expect(github.comments.get(7)!.map((c) => c.body.split('\n')[1])).toEqual([
      '## theirs',
      '## run 2',
    ]);
    expect(writes()).toEqual(['POST', 'PATCH']);
  });

  test("a personal token (GET /user answers) edits its own comment, not github-actions[bot]'s", async () => {
    github.viewer = { login: 'Dev-Lead', type: 'User' };
    github.comments.set(7, [marked(BOT.login, 'Bot')]);
    expect(await post('## run 1')).toMatchObject({ action: 'created' });
    expect(await post('## run 2')).toMatchObject({ action: 'updated' });
    const comments = github.comments.get(7)!;
    expect(comments.map((c) => [c.user.login, c.body.split('\n')[1]])).toEqual([
      [BOT.login, '## theirs'],
      ['Dev-Lead', '## run 2'],
    ]);
  });

  test('no request for the identity while no comment carries the marker', async () => {
    await post('## run 1');
    expect(github.server.log.some((r) => r.url === '/user')).toBe(false);
  });
});

describe('the PR a run belongs to', () => {
  const repo = { owner: 'acme', repo: 'app' };
  const here = { id: 1, full_name: 'acme/app' };
  const baseRepo = (id: number, name: string) => ({
    id,
    url: `https://api.github.com/repos/${name}`,
    name: name.split('/')[1],
  });

  test('pull_request: its number, no request', async () => {
    expect(await findPullNumber(api, repo, { pull_request: { number: 5 } })).toBe(5);
    expect(await findPullNumber(api, repo, {})).toBeUndefined();
    expect(github.server.log).toEqual([]);
  });

  test('workflow_run: a listed PR into this repository', async () => {
    const payload = {
      repository: here,
      workflow_run: {
        head_sha: 'abc',
        pull_requests: [
          { number: 8, base: { repo: baseRepo(2, 'upstream/app') } },
          { number: 9, base: { repo: baseRepo(1, 'acme/app') } },
        ],
      },
    };
    expect(await findPullNumber(api, repo, payload)).toBe(9);
  });

  test("workflow_run: a pull_requests[0] into another repository is not this run's PR", async () => {
    const payload = {
      repository: here,
      workflow_run: {
        head_sha: 'abc',
        pull_requests: [{ number: 8, base: { repo: baseRepo(2, 'upstream/app') } }],
      },
    };
    expect(await findPullNumber(api, repo, payload)).toBeUndefined();
  });

  test('workflow_run of a fork PR (pull_requests empty): found by the head commit, open and into this repository', async () => {
    github.pullsByCommit.set('forkhead', [
      { number: 3, state: 'open', base: { repo: { full_name: 'someone/fork' } } },
      { number: 4, state: 'closed', base: { repo: { full_name: 'acme/app' } } },
      { number: 5, state: 'open', base: { repo: { full_name: 'Acme/App' } } },
    ]);
    const payload = { workflow_run: { head_sha: 'forkhead', pull_requests: [] } };
    expect(await findPullNumber(api, repo, payload)).toBe(5);
    expect(github.server.log.map((r) => r.url)).toEqual([
      '/repos/acme/app/commits/forkhead/pulls?per_page=100',
    ]);
    expect(
      await findPullNumber(api, repo, { workflow_run: { head_sha: 'other', pull_requests: [] } }),
    ).toBeUndefined();
  });
});
