/** `testcycle parse`: what testcycle reads in the reports (no service needed). */
import {
  addCounts,
  countTests,
  type Counts,
  DEFAULT_MAX_BYTES,
  readReports,
  FORMAT_IDS,
} from '../reports/index.js';
import { ConfigError } from '../api/errors.js';
import { integerFlag } from './args.js';
import type { CommandContext } from './main.js';

export const PARSE_FLAGS = {
  report: { type: 'string', multiple: true },
  format: { type: 'string' },
  'max-report-bytes': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runParseCommand({ values, io }: CommandContext): Promise<number> {
  const patterns = (values.report as string[] | undefined) ?? [];
  if (patterns.length === 0)
    throw new ConfigError(
      '--report',
      'is required: a glob of report files, e.g. --report "build/test-results/**/*.xml".',
    );
  const format = typeof values.format === 'string' ? values.format : 'auto';
  if (format !== 'auto' && !FORMAT_IDS.includes(format))
    throw new ConfigError('--format', `"${format}" is not one of auto, ${FORMAT_IDS.join(', ')}.`);
  const maxBytes = integerFlag(
    values['max-report-bytes'] as string | undefined,
    'max-report-bytes',
    DEFAULT_MAX_BYTES,
  );
  const reports = await readReports(patterns, { format, maxBytes });
  let totals: Counts = { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0, flaky: 0 };
  const files = reports.map((r) => {
    const counts = countTests(r.tests);
    totals = addCounts(totals, counts);
    return {
      file: r.file,
      format: r.format,
      ...counts,
      ...(values.verbose ? { tests: r.tests } : {}),
    };
  });
  if (values.json) {
    io.stdout(JSON.stringify({ files, totals }));
    return 0;
  }
  const rows = files.map((f) =>
    [f.file, f.format, f.total, f.passed, f.failed, f.errors, f.skipped, f.flaky].map(String),
  );
  rows.push([
    'total',
    '',
    ...[
      totals.total,
      totals.passed,
      totals.failed,
      totals.errors,
      totals.skipped,
      totals.flaky,
    ].map(String),
  ]);
  const head = ['file', 'format', 'tests', 'passed', 'failed', 'errors', 'skipped', 'flaky'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  io.stdout([line(head), ...rows.map(line)].join('\n'));
  if (values.verbose) {
    for (const f of files) {
      for (const t of f.tests ?? [])
        if (t.outcome !== 'passed')
          io.stdout(
            `${t.outcome.padEnd(7)} ${f.file}: ${t.classname ? `${t.classname} > ` : ''}${t.name}${t.message ? `: ${t.message.split('\n')[0]}` : ''}`,
          );
    }
  }
  return 0;
}
