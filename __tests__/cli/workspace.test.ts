/**
 * Reports of a project outside the folder testcycle runs in (the README's offline try-out, run
 * from a clone of testcycle): keys would begin with `../`, so publish and sync stop before their
 * first request and name --workspace, where they wrote such keys after a warning.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { closeEmulators, emulator, RW } from '../helpers/emulator.js';
import { caseSeed } from '../helpers/publish.js';

afterEach(closeEmulators);

/** `../myproj`: a project of its own, its report naming its test files by absolute path. */
function otherProject() {
  const project = mkdtempSync(join(tmpdir(), 'testcycle-myproj-'));
  mkdirSync(join(project, 'src'));
  const report = join(project, 'junit.xml');
  writeFileSync(
    report,
    `<testsuite name="cart">
  <testcase classname="cart" name="adds" file="${join(project, 'src/cart.test.js')}"/>
  <testcase classname="cart" name="removes" file="${join(project, 'src/cart.test.js')}"/>
</testsuite>`,
  );
  return { project, report };
}

test.each([
  ['publish', ['--cycle-name', 'Local', '--create-missing-cases']],
  ['publish', ['--cycle-name', 'Local', '--dry-run']],
  ['sync', []],
])('%s %j: exit 2 naming --workspace, nothing sent', async (command, flags) => {
  const emu = await emulator({ seed: caseSeed(0) });
  const { project, report } = otherProject();
  const r = await runCli([command, '--report', report, ...flags], {
    TESTCYCLE_BASE_URL: emu.url,
    TESTCYCLE_TOKEN: RW,
  });
  expect(r.code).toBe(2);
  expect(r.err).toBe(
    `testcycle ${command}: --workspace: ${report}: 1 test file(s) lie outside the workspace ${process.cwd()} (e.g. ${join(project, 'src/cart.test.js')}), so {file} in their keys would begin with ../ and change with where the checkout lies; nothing was sent. Run testcycle in the folder the tests ran in (your project's), or set --workspace to it.`,
  );
  expect(emu.stats().total).toBe(0);
});

test('with --workspace the project, its keys are relative to it', async () => {
  const emu = await emulator({ seed: caseSeed(0) });
  const { project, report } = otherProject();
  const r = await runCli(
    [
      'publish',
      '--report',
      report,
      '--cycle-name',
      'Local',
      '--create-missing-cases',
      '--workspace',
      project,
    ],
    { TESTCYCLE_BASE_URL: emu.url, TESTCYCLE_TOKEN: RW },
  );
  expect(r.code).toBe(0);
  const keys = [...emu.service.store.all('test_cases')].map((c) => c.attributes.automationKey);
  expect(keys.sort()).toEqual(['src/cart.test.js › cart.adds', 'src/cart.test.js › cart.removes']);
});
