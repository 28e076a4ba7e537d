/**
 * publish --trace and sync --trace against the emulator (docs/design.md "Traceability: links"):
 * links added once, a re-run writes nothing, sync removes exactly the link the code dropped and
 * never a person's, an unknown requirement key is reported and never created, two jobs at once
 * end with each link once, and a server without the link routes gets one line and the rest of
 * the job.
 */
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { closeAll, startServer } from '../helpers/http-server.js';
import { runCli } from '../helpers/cli.js';
import { junit, type TracedTest } from '../helpers/trace.js';

afterEach(async () => {
  await closeAll();
  await closeEmulators();
});

type T = TracedTest;

/** Automated cases Suite.test0..2 (and Suite.fixes PROJ-7) and requirements DEMO-REQ1..3. */
const seed = (names = ['test0', 'test1', 'test2']) =>
  testSeed({
    testCases: names.map((name) => ({
      name: `Suite.${name}`,
      automationKey: `Suite.${name}`,
      automationStatus: 'AUTOMATED',
      status: 'ACTIVE',
    })),
    requirements: ['Sign in', 'Sign out', 'Audit'].map((name) => ({ name, status: 'APPROVED' })),
  });

const envOf = (url: string) => ({
  TESTCYCLE_BASE_URL: url,
  TESTCYCLE_TOKEN: RW,
  TESTCYCLE_RATE_LIMIT: '1000/1m',
});

/** Each case's linked requirement keys as the emulator holds them; "(by hand)": not testcycle's. */
function linksOf(emu: RunningEmulator): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of emu.service.store.all('test_cases'))
    out[String(c.attributes.name)] = emu.service
      .linkedRecords(c, 'requirements')
      .map(
        ({ record, meta }) =>
          `${String(record.attributes.requirementKey)}${meta?.origin === 'testcycle' ? '' : ' (by hand)'}`,
      );
  return out;
}

const writes = (emu: RunningEmulator) => {
  const m = emu.stats().byMethod;
  return (m.POST ?? 0) + (m.PATCH ?? 0) + (m.DELETE ?? 0);
};

const TESTS: T[] = [
  { name: 'test0', requirements: 'DEMO-REQ1,DEMO-REQ2' },
  { name: 'test1', requirements: 'DEMO-REQ2, DEMO-REQ99' },
  { name: 'test2' },
];

test('publish --trace links each case to what its test names, once; a re-run writes nothing; an unknown key is reported, not created', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const args = ['publish', '--report', junit(TESTS), '--cycle-name', 'CI', '--trace', '--json'];
  const first = await runCli(args, envOf(emu.url));
  expect(first.code).toBe(0);
  expect(linksOf(emu)).toEqual({
    'Suite.test0': ['DEMO-REQ1', 'DEMO-REQ2'],
    'Suite.test1': ['DEMO-REQ2'],
    'Suite.test2': [],
  });
  const result = JSON.parse(first.out);
  expect(result.trace).toMatchObject({
    added: [
      { case: expect.any(String), requirement: 'DEMO-REQ1' },
      { case: expect.any(String), requirement: 'DEMO-REQ2' },
      { case: expect.any(String), requirement: 'DEMO-REQ2' },
    ],
    removed: [],
    unknown: [{ file: expect.stringContaining('junit.xml'), test: 'test1', key: 'DEMO-REQ99' }],
    unavailable: [],
  });
  expect(first.err).toContain('test1 names requirement DEMO-REQ99');
  // Never created: the Space still holds three requirements.
  expect([...emu.service.store.all('requirements')]).toHaveLength(3);
  // One POST per case that gains links (test0 and test1), beside the publish's own writes.
  const before = writes(emu);
  const again = await runCli(args, envOf(emu.url));
  expect(again.code).toBe(0);
  expect(JSON.parse(again.out).trace.added).toEqual([]);
  expect(writes(emu) - before).toBe(0);
});

test('sync --trace removes exactly the link the code dropped; a link made by hand stays; an unproven test keeps its links', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const env = envOf(emu.url);
  expect((await runCli(['sync', '--report', junit(TESTS), '--trace'], env)).code).toBe(0);
  // A person links test2's case to DEMO-REQ3 in the app (no origin).
  const case2 = [...emu.service.store.all('test_cases')].find(
    (c) => c.attributes.name === 'Suite.test2',
  )!;
  const req3 = [...emu.service.store.all('requirements')].find(
    (r) => r.attributes.requirementKey === 'DEMO-REQ3',
  )!;
  await call(emu, 'POST', `/test_cases/${case2.id}/relationships/requirements`, {
    body: { data: [{ type: 'requirements', id: req3.id }] },
  });
  // test0 no longer names DEMO-REQ2; test1 fails, so its report proves nothing of what it names.
  const changed: T[] = [
    { name: 'test0', requirements: 'DEMO-REQ1' },
    { name: 'test1', outcome: 'failed' },
    { name: 'test2' },
  ];
  const dry = await runCli(
    ['sync', '--report', junit(changed), '--trace', '--dry-run', '--json'],
    env,
  );
  const planned = JSON.parse(dry.out).trace;
  expect(planned).toMatchObject({
    dryRun: true,
    removed: [{ requirement: 'DEMO-REQ2' }],
    held: [{ requirement: 'DEMO-REQ2', reason: 'the test did not pass in this run' }],
    plannedRequests: 1,
  });
  const before = emu.stats().total;
  const run = await runCli(['sync', '--report', junit(changed), '--trace', '--json'], env);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.out).trace.removed).toEqual(planned.removed);
  expect(linksOf(emu)).toEqual({
    'Suite.test0': ['DEMO-REQ1'],
    'Suite.test1': ['DEMO-REQ2'],
    'Suite.test2': ['DEMO-REQ3 (by hand)'],
  });
  // The dry run's reads plus its planned writes are the run's requests (sync's included).
  expect(emu.stats().total - before).toBe(JSON.parse(dry.out).requests.total + 1);
});

test('two jobs linking the same cases at once end with each link once', async () => {
  const emu = await emulator({ seed: seed(['test0', 'fixes PROJ-7']), rateLimit: '1000/1m' });
  const tests: T[] = [
    { name: 'test0', requirements: 'DEMO-REQ1,DEMO-REQ3' },
    // A work item named in the test's name (read there once work-item-pattern says how one looks):
    // a link of the `links` resource, made once (409 to the other).
    { name: 'fixes PROJ-7' },
  ];
  const both = await Promise.all(
    ['A', 'B'].map((job) =>
      runCli(
        [
          'publish',
          '--report',
          junit(tests),
          '--cycle-name',
          `CI ${job}`,
          '--trace',
          '--work-item-pattern',
          'PROJ-[0-9]+',
        ],
        envOf(emu.url),
      ),
    ),
  );
  expect(both.map((r) => r.code)).toEqual([0, 0]);
  expect(linksOf(emu)['Suite.test0']).toEqual(['DEMO-REQ1', 'DEMO-REQ3']);
  expect(
    [...emu.service.store.all('links')].map((l) => [l.attributes.workItem, l.attributes.origin]),
  ).toEqual([['PROJ-7', 'testcycle']]);
});

test('a server whose /openapi.json offers no link routes: one line, the results published, exit code unchanged', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const target = new URL(emu.url);
  // The same service, but its description has no link route (as the service's own shows none).
  const server = await startServer(async (req) => {
    const res = await fetch(`${target.origin}${req.url}`, {
      method: req.method,
      headers: {
        authorization: String(req.headers.authorization),
        accept: String(req.headers.accept),
        ...(req.body ? { 'content-type': String(req.headers['content-type']) } : {}),
        ...(req.headers['if-match'] ? { 'if-match': String(req.headers['if-match']) } : {}),
      },
      body: req.body || undefined,
    });
    const body = (res.status === 204 ? undefined : await res.json()) as
      { paths: Record<string, unknown> } | undefined;
    if (req.url.endsWith('/openapi.json'))
      for (const path of Object.keys(body!.paths))
        if (path.includes('relationships/requirements') || path.startsWith('/links'))
          delete body!.paths[path];
    return {
      status: res.status,
      body,
      headers: {
        'content-type': res.headers.get('content-type') ?? '',
        etag: res.headers.get('etag') ?? '',
      },
    };
  });
  const { code, err } = await runCli(
    ['publish', '--report', junit(TESTS), '--cycle-name', 'CI', '--trace'],
    envOf(`${server.url}${target.pathname}`),
  );
  expect(code).toBe(0);
  const lines = err.split('\n').filter((l) => l.includes('does not offer'));
  expect(lines).toEqual([
    expect.stringContaining(
      'trace: the server does not offer GET /test_cases/{id}/relationships/requirements, POST /test_cases/{id}/relationships/requirements, DELETE /test_cases/{id}/relationships/requirements, GET /links, POST /links, DELETE /links/{id} in its /openapi.json; no link is written',
    ),
  ]);
  // The results are there; no link is.
  expect([...emu.service.store.all('test_case_executions')]).toHaveLength(3);
  expect(Object.values(linksOf(emu)).flat()).toEqual([]);
});

test('a hostile requirement key from a report is data: never a filter expression, reported, nothing linked', async () => {
  const emu = await emulator({ seed: seed(), rateLimit: '1000/1m' });
  const hostile = 'DEMO-REQ1" OR requirementKey != "x';
  const { code, out } = await runCli(
    [
      'publish',
      '--report',
      junit([{ name: 'test0', requirements: hostile.replace(/"/g, '&quot;') }]),
      '--cycle-name',
      'CI',
      '--trace',
      '--json',
    ],
    envOf(emu.url),
  );
  expect(code).toBe(0);
  const trace = JSON.parse(out).trace;
  expect(trace.unknown).toEqual([{ file: expect.any(String), test: 'test0', key: hostile }]);
  expect(trace.added).toEqual([]);
  expect(Object.values(linksOf(emu)).flat()).toEqual([]);
});
