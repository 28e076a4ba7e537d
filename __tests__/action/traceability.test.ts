/** The action's publish mode with trace and a coverage threshold (docs/design.md "Traceability"). */
import { closeEmulators, emulator, RW, testSeed } from '../helpers/emulator.js';
import { runActionInProcess as runAction } from '../helpers/action-in-process.js';
import { junit } from '../helpers/trace.js';

afterEach(closeEmulators);

test('mode publish with trace and min-coverage: the links made, the step failed naming the requirements, the matrix in the job summary', async () => {
  const emu = await emulator({
    seed: testSeed({
      testCases: [0, 1].map((i) => ({
        name: `Suite.test${i}`,
        automationKey: `Suite.test${i}`,
        status: 'ACTIVE',
      })),
      requirements: ['Sign in', 'Export'].map((name) => ({ name, status: 'APPROVED' })),
    }),
    rateLimit: '1000/1m',
  });
  const run = await runAction({
    mode: 'publish',
    'base-url': emu.url,
    token: RW,
    reports: junit([{ name: 'test0', requirements: 'DEMO-REQ1' }, { name: 'test1' }]),
    'cycle-name': 'CI',
    trace: 'true',
    'min-coverage': '100',
    'rate-limit': '1000/1m',
  });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain(
    '::error::testcycle gate failed: requirement coverage 50%25 is below 100%25; not PASSED: DEMO-REQ2 (UNCOVERED)',
  );
  expect(run.summary).toContain('### Links (trace)');
  expect(run.summary).toContain('- added: DEMO-T1 → DEMO-REQ1');
  expect(run.summary).toContain('### Requirement coverage');
  expect(run.summary).toContain('| DEMO-REQ1 | Sign in | PASSED |');
  expect(run.summary).toContain('| DEMO-REQ2 | Export | UNCOVERED | - |');
});

test('mode sync with trace: the links it added and the unknown key in the job summary', async () => {
  const emu = await emulator({
    seed: testSeed({
      requirements: [{ name: 'Sign in', status: 'APPROVED' }],
    }),
    rateLimit: '1000/1m',
  });
  const run = await runAction({
    mode: 'sync',
    'base-url': emu.url,
    token: RW,
    reports: junit([{ name: 'test0', requirements: 'DEMO-REQ1, DEMO-REQ7' }]),
    trace: 'true',
    'rate-limit': '1000/1m',
  });
  expect(run.code).toBe(0);
  expect(run.summary).toContain('### Links (trace)');
  expect(run.summary).toContain(
    '1 added, 0 removed, 0 kept for want of evidence, 1 unknown requirement key.',
  );
  expect(run.summary).toMatch(/- unknown: .*junit\.xml: test0 names DEMO-REQ7/);
});
