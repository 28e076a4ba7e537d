// `npm run demo`: the main job on the embedded emulator, start to finish, offline.
// Starts the emulator in-process with examples/seed.json, then runs the real CLI commands against
// it (parse, a dry run, publish with a gate, gate) and stops. Uses the built library (lib/).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../lib/cli/main.js';
import { loadSeedFile, startEmulator } from '../lib/emulator/index.js';

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[22m` : s);

const seed = loadSeedFile('examples/seed.json');
const emulator = await startEmulator({ seed }); // the service's own limit: 100 requests per minute
const token = seed.tokens.find((t) => t.role === 'read-write').token;
const env = { ...process.env, TESTCYCLE_BASE_URL: emulator.url, TESTCYCLE_TOKEN: token };
const out = mkdtempSync(join(tmpdir(), 'testcycle-demo-'));
// DEMO_SUMMARY_FILE: where to keep the summary (scripts/render-summary.mjs renders it for docs/).
const summaryFile = process.env.DEMO_SUMMARY_FILE ?? join(out, 'summary.md');

console.log(
  bold('testcycle demo') +
    dim(
      ` — emulator of the service listening on ${emulator.url} (Space "${seed.project.name}", ${seed.testCases.length} test cases)`,
    ),
);
console.log(
  dim('The same commands work against your service: set TESTCYCLE_BASE_URL and TESTCYCLE_TOKEN.\n'),
);

async function step(title, args) {
  console.log(bold(`\n▶ ${title}`));
  console.log(
    dim(`$ testcycle ${args.map((a) => (/[\s*{}">]/.test(a) ? `'${a}'` : a)).join(' ')}`),
  );
  const code = await main(args, {
    stdout: (t) => console.log(t),
    stderr: (t) => console.log(dim(t)),
    env,
  });
  console.log(dim(`(exit code ${code})`));
  return code;
}

const reports = ['--report', 'examples/reports/**/*.xml', '--report', 'examples/reports/**/*.json'];
const cycle = ['--cycle-name', 'Release 2.3 regression'];
try {
  await step('What testcycle reads in the reports (no service needed)', ['parse', ...reports]);
  await step('The plan and its cost, writing nothing', [
    'publish',
    ...reports,
    ...cycle,
    '--dry-run',
  ]);
  const code = await step(
    'Publish into the cycle (it is DRAFT: made ACTIVE first), then gate on the whole cycle',
    ['publish', ...reports, ...cycle, '--min-pass-rate', '80', '--summary-file', summaryFile],
  );
  await step('A re-run with nothing changed costs only the reads', [
    'publish',
    ...reports,
    ...cycle,
    '--json',
  ]);
  const checkout = await step('Gate the checkout tests only, stricter (one aggregate request)', [
    'gate',
    ...cycle,
    '--min-pass-rate',
    '95',
    '--gate-filter',
    'testCase.customFields.component = "checkout"',
  ]);
  // Triage: the flaky quantity-limit test is quarantined on its test case; a pull request then
  // breaks one test that passed in the regression cycle (its baseline) and fails the flaky one again.
  const caseKey = (automationKey) =>
    [...emulator.service.store.all('test_cases')].find(
      (c) => c.attributes.automationKey === automationKey,
    ).attributes.testCaseKey;
  const flaky = caseKey('com.acme.shop.cart.CartServiceTest.enforcesQuantityLimit');
  await step('Quarantine the flaky test: stored on its test case, left out of every gate', [
    'quarantine',
    'add',
    '--case',
    flaky,
    '--reason',
    'flaky: quantity races the stock service (ACME-977)',
  ]);
  const prReport = join(out, 'pr-42.xml');
  writeFileSync(
    prReport,
    `<testsuite name="com.acme.shop.cart.CartServiceTest" tests="3" failures="2">
  <testcase classname="com.acme.shop.cart.CartServiceTest" name="addsItem"><failure message="expected cart size 1 but was 0"/></testcase>
  <testcase classname="com.acme.shop.cart.CartServiceTest" name="enforcesQuantityLimit"><failure message="expected: &lt;10&gt; but was: &lt;11&gt;"/></testcase>
  <testcase classname="com.acme.shop.catalog.SearchTest" name="findsByName"/>
</testsuite>
`,
  );
  const pr = await step(
    'A pull request against the regression cycle: only the failures it introduced fail the gate',
    [
      'publish',
      '--report',
      prReport,
      '--cycle-name',
      'PR 42',
      '--max-new-failures',
      '0',
      '--baseline-cycle',
      cycle[1],
    ],
  );
  console.log(
    bold('\n▶ The job summary (Markdown, as the action writes it to the GitHub job summary)\n'),
  );
  console.log(readFileSync(summaryFile, 'utf8'));
  const stats = emulator.stats();
  console.log(bold('▶ Requests the service saw'));
  console.log(
    `${stats.total} in all: ${Object.entries(stats.byMethod)
      .map(([m, n]) => `${n} ${m}`)
      .join(', ')}; ${stats.rateLimited} answered 429`,
  );
  console.log(dim(`summary file: ${summaryFile}`));
  // DEMO_REPORT_FILE: where to keep the page (the README's screenshot is made from such a page).
  const reportFile = process.env.DEMO_REPORT_FILE ?? join(out, 'report.html');
  const before = emulator.stats().total;
  await step("The Space's cycles over time, as a self-contained page", [
    'report',
    '--html-file',
    reportFile,
  ]);
  // The demo's emulator stops with the demo: the live page is offered by one that stays.
  console.log(
    `report page: ${reportFile} (${emulator.stats().total - before} requests). An emulator shows the same page live at its address while it runs: eval "$(npx testcycle emulator --seed examples/seed.json --rate-limit 6000/1m --detach)", then open \${TESTCYCLE_BASE_URL%/api/v1}/`,
  );
  console.log(
    bold(
      `\nDemo finished: the publish gate ${code === 0 ? 'passed' : 'failed'} (exit ${code}), the checkout gate ${checkout === 0 ? 'passed' : 'failed'} (exit ${checkout}), the pull request's new-failure gate ${pr === 0 ? 'passed' : 'failed'} (exit ${pr}).`,
    ),
  );
} finally {
  await emulator.close();
}
