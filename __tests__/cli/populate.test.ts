/**
 * `cycle create --populate FILTER` checks its filter before its first write: a filter that is not
 * whole, or that the service refuses, stops the command with no cycle made.
 */
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

async function createWith(populate: string) {
  const emu = await emulator({ seed: caseSeed(3) });
  const r = await runCli(['cycle', 'create', '--name', 'Nightly', '--populate', populate], {
    TESTCYCLE_BASE_URL: emu.url,
    TESTCYCLE_TOKEN: RW,
  });
  const cycles = [...emu.service.store.all('test_cycles')].map((c) => c.attributes.name);
  return { ...r, cycles, writes: emu.stats().total - (emu.stats().byMethod.GET ?? 0) };
}

test.each([
  [
    'a condition without its value',
    'automationStatus = ',
    'testcycle cycle create: --populate: expected a value after "=", found the end at character 19; write a FiltrQL condition such as automationStatus = "AUTOMATED" (docs/service-api.md 4.2).',
  ],
  [
    'an unknown field (the service says so)',
    'automationStatu = "AUTOMATED"',
    /^testcycle cycle create: --populate: the service refuses this filter: Unknown field 'automationStatu' on test_cases\. Valid names: /,
  ],
  [
    'a bare word (the service says so)',
    'automationStatus = AUTOMATED',
    /^testcycle cycle create: --populate: the service refuses this filter: .*bare word 'AUTOMATED' \(strings need quotes/,
  ],
])('%s: exit 2, and no cycle was created', async (_what, populate, message) => {
  const r = await createWith(populate);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(typeof message === 'string' ? new RegExp(`^${escape(message)}$`) : message);
  expect(r.cycles).toEqual([]);
  expect(r.writes).toBe(0);
});

test('a filter the service takes: the cycle, populated', async () => {
  const r = await createWith('automationStatus = "AUTOMATED" OR name ~ "case"');
  expect(r.code).toBe(0);
  expect(r.out).toBe(
    'created cycle DEMO-R1 "Nightly" (ACTIVE); 3 NOT_EXECUTED executions added for 3 matching test cases',
  );
  expect(r.cycles).toEqual(['Nightly']);
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
