/**
 * `testcycle coverage` against the emulator (docs/design.md "Traceability: coverage"): PASSED,
 * FAILED, NOT_RUN and UNCOVERED where they belong, the thresholds naming the requirements that
 * missed, the scope filter checked before any request, and the requests counted against the
 * budget ceil(R/100) + ceil(N/100) + a few.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createUndiciTransport, type Transport } from '../../src/client/index.js';
import { coverageOfCycle } from '../../src/traceability/index.js';
import { call, closeEmulators, doc, emulator, RW, testSeed } from '../helpers/emulator.js';
import { clientOf, closeClients } from '../helpers/publish.js';
import { runCli } from '../helpers/cli.js';
import { junit } from '../helpers/trace.js';

afterEach(async () => {
  await closeClients();
  await closeEmulators();
});

const envOf = (emu: RunningEmulator) => ({
  TESTCYCLE_BASE_URL: emu.url,
  TESTCYCLE_TOKEN: RW,
  TESTCYCLE_RATE_LIMIT: '100000/1m',
});

/**
 * Cases Suite.test0..2; DEMO-REQ1 linked to test0 (passes), DEMO-REQ2 to test0 and test1 (fails),
 * DEMO-REQ3 to test2 (not in the run), DEMO-REQ4 to none, DEMO-REQ5 ARCHIVED (out of scope).
 */
async function space(): Promise<RunningEmulator> {
  const emu = await emulator({
    seed: testSeed({
      testCases: [0, 1, 2].map((i) => ({
        name: `Suite.test${i}`,
        automationKey: `Suite.test${i}`,
        automationStatus: 'AUTOMATED',
        status: 'ACTIVE',
      })),
      requirements: [
        { name: 'Sign in', status: 'APPROVED' },
        { name: 'Sign out', status: 'APPROVED' },
        { name: 'Audit', status: 'DRAFT' },
        { name: 'Export', status: 'APPROVED' },
        { name: 'Old', status: 'ARCHIVED' },
      ],
    }),
    rateLimit: '100000/1m',
  });
  const published = await runCli(
    [
      'publish',
      '--report',
      junit([
        { name: 'test0', requirements: 'DEMO-REQ1,DEMO-REQ2' },
        { name: 'test1', requirements: 'DEMO-REQ2', outcome: 'failed' },
      ]),
      '--cycle-name',
      'CI',
      '--trace',
    ],
    envOf(emu),
  );
  expect(published.code).toBe(0);
  // test2's case is linked to DEMO-REQ3 in the app; test2 is not in the run.
  const case2 = [...emu.service.store.all('test_cases')].find(
    (c) => c.attributes.automationKey === 'Suite.test2',
  )!;
  const req3 = [...emu.service.store.all('requirements')].find(
    (r) => r.attributes.requirementKey === 'DEMO-REQ3',
  )!;
  await call(emu, 'POST', `/test_cases/${case2.id}/relationships/requirements`, {
    body: { data: [{ type: 'requirements', id: req3.id }] },
  });
  return emu;
}

const keyOf = (emu: RunningEmulator, automationKey: string) =>
  String(
    [...emu.service.store.all('test_cases')].find(
      (c) => c.attributes.automationKey === automationKey,
    )!.attributes.testCaseKey,
  );

test('coverage --json: each requirement in scope, its cases and their results, and its status', async () => {
  const emu = await space();
  const { code, out } = await runCli(['coverage', '--cycle-name', 'CI', '--json'], envOf(emu));
  expect(code).toBe(0);
  const result = JSON.parse(out);
  const [t0, t1, t2] = ['Suite.test0', 'Suite.test1', 'Suite.test2'].map((k) => keyOf(emu, k));
  expect(result.requirements).toEqual([
    { key: 'DEMO-REQ1', name: 'Sign in', status: 'PASSED', cases: [{ key: t0, result: 'PASSED' }] },
    {
      key: 'DEMO-REQ2',
      name: 'Sign out',
      status: 'FAILED',
      cases: [
        { key: t0, result: 'PASSED' },
        { key: t1, result: 'FAILED' },
      ],
    },
    { key: 'DEMO-REQ3', name: 'Audit', status: 'NOT_RUN', cases: [{ key: t2, result: null }] },
    { key: 'DEMO-REQ4', name: 'Export', status: 'UNCOVERED', cases: [] },
  ]);
  expect(result.totals).toEqual({
    requirements: 4,
    passed: 1,
    failed: 1,
    notRun: 1,
    uncovered: 1,
    coverage: 25,
  });
  expect(result.gate).toEqual({ passed: true, reasons: [] });
});

test('--min-coverage 100 and --max-failing-requirements 0 exit 1 naming the requirements that missed', async () => {
  const emu = await space();
  const min = await runCli(['coverage', '--cycle-name', 'CI', '--min-coverage', '100'], envOf(emu));
  expect(min.code).toBe(1);
  expect(min.out).toContain(
    'coverage failed: requirement coverage 25% is below 100%; not PASSED: DEMO-REQ2 (FAILED), DEMO-REQ3 (NOT_RUN), DEMO-REQ4 (UNCOVERED)',
  );
  const failing = await runCli(
    ['coverage', '--cycle-name', 'CI', '--max-failing-requirements', '0', '--json'],
    envOf(emu),
  );
  expect(failing.code).toBe(1);
  expect(JSON.parse(failing.out).gate.reasons).toEqual([
    '1 requirement(s) FAILED (at most 0 allowed): DEMO-REQ2 (FAILED)',
  ]);
  const met = await runCli(
    ['coverage', '--cycle-name', 'CI', '--min-coverage', '25', '--max-failing-requirements', '1'],
    envOf(emu),
  );
  expect(met.code).toBe(0);
});

test('--requirements narrows the scope with a FiltrQL condition; a bad one fails before any request', async () => {
  const emu = await space();
  const { out } = await runCli(
    ['coverage', '--cycle-name', 'CI', '--requirements', 'status = "APPROVED"', '--json'],
    envOf(emu),
  );
  expect(JSON.parse(out).requirements.map((r: { key: string }) => r.key)).toEqual([
    'DEMO-REQ1',
    'DEMO-REQ2',
    'DEMO-REQ4',
  ]);
  const before = emu.stats().total;
  const bad = await runCli(
    ['coverage', '--cycle-name', 'CI', '--requirements', 'status = "APPROVED" OR'],
    envOf(emu),
  );
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('--requirements');
  expect(emu.stats().total).toBe(before);
});

test('requests: R requirements over a cycle of N executions in ceil(R/100) + ceil(N/100) + 1', async () => {
  const R = 150;
  const N = 250;
  const emu = await emulator({
    seed: testSeed({
      requirements: Array.from({ length: R }, (_, i) => ({ name: `R${i}`, status: 'APPROVED' })),
    }),
    rateLimit: '100000/1m',
  });
  // Test i names requirement i % R: every requirement is covered, by one or two tests.
  const tests = Array.from({ length: N }, (_, i) => ({
    name: `test${i}`,
    requirements: `DEMO-REQ${(i % R) + 1}`,
  }));
  const published = await runCli(
    [
      'publish',
      '--report',
      junit(tests),
      '--cycle-name',
      'CI',
      '--create-missing-cases',
      '--trace',
    ],
    envOf(emu),
  );
  expect(published.code).toBe(0);
  const before = emu.stats().total;
  const { out } = await runCli(['coverage', '--cycle-name', 'CI', '--json'], envOf(emu));
  const result = JSON.parse(out);
  expect(result.totals).toMatchObject({ requirements: R, passed: R, coverage: 100 });
  // The cycle by name (1), the requirements with their linkage (2 pages), the executions with
  // their cases' keys (3 pages): no request per requirement or per case.
  const budget = 1 + Math.ceil(R / 100) + Math.ceil(N / 100);
  expect(emu.stats().total - before).toBe(budget);
  expect(result.requests.total).toBe(budget);
});

test('gate --min-coverage fails naming the requirements, and its summary holds the matrix', async () => {
  const emu = await space();
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-summary-'));
  const summary = join(dir, 'summary.md');
  const gate = await runCli(
    ['gate', '--cycle-name', 'CI', '--min-coverage', '100', '--summary-file', summary],
    envOf(emu),
  );
  expect(gate.code).toBe(1);
  expect(gate.out).toContain(
    'requirement coverage 25% is below 100%; not PASSED: DEMO-REQ2 (FAILED), DEMO-REQ3 (NOT_RUN), DEMO-REQ4 (UNCOVERED)',
  );
  const text = readFileSync(summary, 'utf8');
  expect(text).toContain('### Requirement coverage');
  expect(text).toContain('| DEMO-REQ4 | Export | UNCOVERED | - |');
  // Met: the same gate passes; a gate without a coverage threshold reads no coverage.
  expect(
    (await runCli(['gate', '--cycle-name', 'CI', '--max-failing-requirements', '1'], envOf(emu)))
      .code,
  ).toBe(0);
});

test('publish --trace with --max-failing-requirements: the links first, then the gate counts them', async () => {
  const emu = await space();
  const run = await runCli(
    [
      'publish',
      '--report',
      junit([{ name: 'test2', requirements: 'DEMO-REQ4', outcome: 'failed' }]),
      '--cycle-name',
      'CI',
      '--trace',
      '--max-failing-requirements',
      '1',
      '--json',
    ],
    envOf(emu),
  );
  expect(run.code).toBe(1);
  const result = JSON.parse(run.out);
  expect(result.gate.reasons).toEqual([
    // DEMO-REQ3 too: test2's case is linked to it by hand.
    '3 requirement(s) FAILED (at most 1 allowed): DEMO-REQ2 (FAILED), DEMO-REQ3 (FAILED), DEMO-REQ4 (FAILED)',
  ]);
  expect(result.coverage.totals).toMatchObject({ failed: 3, notRun: 0, uncovered: 0 });
});

test('coverage --format csv and markdown: the matrix for auditors, its text as data', async () => {
  const emu = await space();
  const hostile = [...emu.service.store.all('requirements')].find(
    (r) => r.attributes.requirementKey === 'DEMO-REQ4',
  )!;
  const current = await call(emu, 'GET', `/requirements/${hostile.id}`);
  await call(emu, 'PATCH', `/requirements/${hostile.id}`, {
    headers: { 'if-match': current.etag! },
    body: { data: { type: 'requirements', id: hostile.id, attributes: { name: '=cmd|x @team' } } },
  });
  const csv = await runCli(['coverage', '--cycle-name', 'CI', '--format', 'csv'], envOf(emu));
  expect(csv.code).toBe(0);
  const t0 = keyOf(emu, 'Suite.test0');
  expect(csv.out.split('\r\n')).toEqual([
    '"requirement","name","status","test_case","result"',
    `"DEMO-REQ1","Sign in","PASSED","${t0}","PASSED"`,
    `"DEMO-REQ2","Sign out","FAILED","${t0}","PASSED"`,
    `"DEMO-REQ2","Sign out","FAILED","${keyOf(emu, 'Suite.test1')}","FAILED"`,
    `"DEMO-REQ3","Audit","NOT_RUN","${keyOf(emu, 'Suite.test2')}",""`,
    `"DEMO-REQ4","'=cmd|x @team","UNCOVERED","",""`,
  ]);
  const md = await runCli(
    ['coverage', '--cycle-name', 'CI', '--format', 'markdown', '--min-coverage', '50'],
    envOf(emu),
  );
  expect(md.code).toBe(1);
  expect(md.out).toContain('| DEMO-REQ4 | =cmd\\|x @\u200bteam | UNCOVERED | - |');
  expect(md.err).toContain('coverage failed: requirement coverage 25% is below 50%');
});

test('the matrix on the report page and its Markdown (report --trace) and on the emulator live page, the same rows', async () => {
  const emu = await space();
  const dir = mkdtempSync(join(tmpdir(), 'testcycle-report-'));
  const file = join(dir, 'report.html');
  const markdown = join(dir, 'report.md');
  const report = await runCli(
    ['report', '--trace', '--html-file', file, '--markdown-file', markdown],
    envOf(emu),
  );
  expect(report.code).toBe(0);
  expect(readFileSync(markdown, 'utf8')).toContain('| DEMO-REQ3 | Audit | NOT_RUN |');
  const rows = (page: string) =>
    [...page.matchAll(/<tr data-requirement="([^"]*)" data-status="([^"]*)">/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
  const expected = [
    'DEMO-REQ1 PASSED',
    'DEMO-REQ2 FAILED',
    'DEMO-REQ3 NOT_RUN',
    'DEMO-REQ4 UNCOVERED',
  ];
  expect(rows(readFileSync(file, 'utf8'))).toEqual(expected);
  const live = await (await fetch(`${emu.origin}/`)).text();
  expect(rows(live)).toEqual(expected);
  // Without --trace the page reads no coverage and shows none.
  const plain = join(dir, 'plain.html');
  expect((await runCli(['report', '--html-file', plain], envOf(emu))).code).toBe(0);
  expect(readFileSync(plain, 'utf8')).not.toContain('id="coverage"');
});

test('--mark-covered sets PASSED requirements to COVERED (If-Match), once, and never the reverse', async () => {
  const emu = await space();
  const statusOf = (key: string) =>
    [...emu.service.store.all('requirements')].find((r) => r.attributes.requirementKey === key)!
      .attributes.status;
  const before = emu.stats();
  const run = await runCli(
    ['coverage', '--cycle-name', 'CI', '--mark-covered', '--json'],
    envOf(emu),
  );
  expect(run.code).toBe(0);
  expect(JSON.parse(run.out).marked).toEqual(['DEMO-REQ1']);
  expect(['DEMO-REQ1', 'DEMO-REQ2', 'DEMO-REQ3', 'DEMO-REQ4'].map(statusOf)).toEqual([
    'COVERED',
    'APPROVED',
    'DRAFT',
    'APPROVED',
  ]);
  // One read for the ETag and one PATCH with If-Match (the emulator refuses a PATCH without).
  const after = emu.stats();
  expect((after.byMethod.PATCH ?? 0) - (before.byMethod.PATCH ?? 0)).toBe(1);
  // DEMO-REQ1 now fails: it stays COVERED (a person takes it back), and nothing is written.
  const failing = await runCli(
    [
      'publish',
      '--report',
      junit([{ name: 'test0', requirements: 'DEMO-REQ1', outcome: 'failed' }]),
      '--cycle-name',
      'CI',
    ],
    envOf(emu),
  );
  expect(failing.code).toBe(0);
  const again = await runCli(
    ['coverage', '--cycle-name', 'CI', '--mark-covered', '--json'],
    envOf(emu),
  );
  expect(JSON.parse(again.out).marked).toEqual([]);
  expect(statusOf('DEMO-REQ1')).toBe('COVERED');
  expect(emu.stats().byMethod.PATCH ?? 0).toBe(after.byMethod.PATCH! + 1);
});

test('--mark-covered merges: a requirement a person archives between the read and the write is left ARCHIVED', async () => {
  const emu = await space();
  // test2 passes now: DEMO-REQ3 is PASSED too, so two requirements are to be marked.
  await runCli(
    ['publish', '--report', junit([{ name: 'test2' }]), '--cycle-name', 'CI'],
    envOf(emu),
  );
  const req3 = [...emu.service.store.all('requirements')].find(
    (r) => r.attributes.requirementKey === 'DEMO-REQ3',
  )!;
  const undici = createUndiciTransport();
  let archived = false;
  // A person archives DEMO-REQ3 right after testcycle read it for its ETag.
  const transport: Transport = async (request) => {
    const answer = await undici(request);
    if (!archived && request.method === 'GET' && request.url.pathname.endsWith(req3.id)) {
      archived = true;
      const current = await call(emu, 'GET', `/requirements/${req3.id}`);
      await call(emu, 'PATCH', `/requirements/${req3.id}`, {
        headers: { 'if-match': current.etag! },
        body: doc('requirements', { status: 'ARCHIVED' }, req3.id),
      });
    }
    return answer;
  };
  const client = clientOf(emu, { transport });
  try {
    const result = await coverageOfCycle(client, { name: 'CI' }, { markCovered: true });
    expect(archived).toBe(true);
    expect(result.marked).toEqual(['DEMO-REQ1']);
    expect(emu.service.store.get('requirements', req3.id)!.attributes.status).toBe('ARCHIVED');
    // The stale PATCH got 412, the record was read again and nothing was written over it.
    expect(emu.stats().byStatus['412']).toBe(1);
  } finally {
    await undici.close();
  }
});
