/** The PR comment against a fake of GitHub's issue-comment endpoints, through the real Octokit. */
import { getOctokit } from '@actions/github';
import {
  commentMarker,
  pullNumberOf,
  upsertComment,
  type CommentMode,
  type CommentsApi,
} from '../../src/action/comment.js';
import { fakeGitHub, peopleComments, type FakeGitHub } from '../helpers/fake-github.js';
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

test('the PR number comes from pull_request or a workflow_run for a PR', () => {
  expect(pullNumberOf({ pull_request: { number: 5 } })).toBe(5);
  expect(pullNumberOf({ workflow_run: { pull_requests: [{ number: 9 }] } })).toBe(9);
  expect(pullNumberOf({ workflow_run: { pull_requests: [] } })).toBeUndefined();
  expect(pullNumberOf({})).toBeUndefined();
});
