/** `testcycle parse`: what testcycle reads in the reports (no service needed). */
import {
  addCounts,
  countTests,
  describeRunError,
  noCounts,
  readReportSet,
  referencesOf,
  reportSettings,
  traceOptions,
  type Counts,
  type TestReferences,
  type TestResult,
} from '../job/index.js';
import { oneLine } from '../shared/redact.js';
import type { CommandContext } from './context.js';

export async function runParseCommand(ctx: CommandContext): Promise<number> {
  const { values, io } = ctx;
  const trace = traceOptions(ctx.settings);
  const reports = await readReportSet(reportSettings(ctx.settings), undefined, {
    allowEmpty: true,
  });
  let totals: Counts = noCounts();
  let runErrors = 0;
  const traced = { tests: 0, requirements: new Set<string>(), workItems: new Set<string>() };
  /** A test with what it names (docs/design.md "Traceability: what is read"), when it names any. */
  const withReferences = (test: TestResult): TestResult & Partial<TestReferences> => {
    const { requirements, workItems } = referencesOf(test, trace);
    if (!requirements.length && !workItems.length) return test;
    traced.tests++;
    for (const key of requirements) traced.requirements.add(key);
    for (const key of workItems) traced.workItems.add(key);
    // Both lists once it names any, so a reader need not test for each; none: the test as before.
    return { ...test, requirements, workItems };
  };
  const files = reports.map((r) => {
    const counts = countTests(r.tests);
    totals = addCounts(totals, counts);
    runErrors += r.runErrors?.length ?? 0;
    const tests = r.tests.map(withReferences);
    return {
      file: r.file,
      format: r.format,
      ...counts,
      // Failures of the run that are no test (docs/design.md "Run errors"), and what the report
      // tells of the run being partial (a shard, a filter).
      runErrors: r.runErrors ?? [],
      ...(r.selection ? { selection: r.selection } : {}),
      ...(values.verbose ? { tests } : {}),
    };
  });
  if (values.json) {
    // `runs` beside `total` (tests): each retry is a run; `skippedFiles`: not reports (directory mode).
    io.stdout(
      JSON.stringify({ files, totals: { ...totals, runErrors }, skippedFiles: reports.skipped }),
    );
    return 0;
  }
  const COLUMNS = ['total', 'runs', 'passed', 'failed', 'errors', 'skipped', 'flaky'] as const;
  const rows = files.map((f) => [f.file, f.format, ...COLUMNS.map((c) => String(f[c]))]);
  rows.push(['total', '', ...COLUMNS.map((c) => String(totals[c]))]);
  const head = ['file', 'format', 'tests', ...COLUMNS.slice(1)];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  io.stdout([line(head), ...rows.map(line)].join('\n'));
  // Tests and runs side by side, to reconcile with the runner's own summary.
  io.stdout(
    `${totals.runs} run${totals.runs === 1 ? '' : 's'} of ${totals.total} test${totals.total === 1 ? '' : 's'}, ${totals.flaky} flaky` +
      (runErrors ? `, ${runErrors} run error${runErrors === 1 ? '' : 's'} (no tests)` : '') +
      (reports.skipped.length
        ? `; ${reports.skipped.length} file${reports.skipped.length === 1 ? '' : 's'} skipped as not reports${values.verbose ? '' : ' (--verbose lists them)'}`
        : ''),
  );
  if (traced.tests)
    io.stdout(
      `${plural(traced.tests, 'test')} ${traced.tests === 1 ? 'names' : 'name'} ${plural(traced.requirements.size, 'requirement')} and ${plural(traced.workItems.size, 'work item')}${values.verbose ? '' : ' (--verbose lists them)'}`,
    );
  // Run errors are no tests: named, each on its line, whatever --verbose says.
  for (const r of reports)
    for (const e of r.runErrors ?? [])
      io.stdout(`run error ${describeRunError({ report: r.file, ...e })}`);
  for (const r of reports)
    if (r.selection)
      io.stdout(
        `partial run ${oneLine(r.file)}: ${[
          r.selection.shard && `shard ${r.selection.shard}`,
          r.selection.filter && `filter ${r.selection.filter}`,
        ]
          .filter(Boolean)
          .map((x) => oneLine(String(x)))
          .join(', ')}`,
      );
  if (values.verbose) {
    for (const s of reports.skipped) io.stdout(`skipped ${oneLine(s.file)}: ${oneLine(s.reason)}`);
    for (const f of files) {
      for (const t of f.tests ?? [])
        if (t.outcome !== 'passed')
          io.stdout(
            `${t.outcome.padEnd(7)} ${oneLine(f.file)}: ${testLabel(t)}${t.message ? `: ${oneLine(t.message.split('\n')[0]!)}` : ''}`,
          );
      for (const t of f.tests ?? [])
        if (t.requirements || t.workItems)
          io.stdout(
            `names   ${oneLine(f.file)}: ${testLabel(t)}: ${[
              ...(t.requirements ?? []),
              ...(t.workItems ?? []),
            ]
              .map(oneLine)
              .join(', ')}`,
          );
    }
  }
  return 0;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const testLabel = (t: TestResult) => oneLine(`${t.classname ? `${t.classname} > ` : ''}${t.name}`);
