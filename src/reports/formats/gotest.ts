/** `go test -json` (test2json): one event per line; subtests are tests of their own. */
import type { ReportFormat } from '../format.js';
import { foldRepeats, type Outcome, type TestResult } from '../model.js';
import { num, obj, str } from './json-util.js';

const ACTIONS: Record<string, Outcome> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

export const gotest: ReportFormat = {
  id: 'gotest',
  label: 'Go test JSON (go test -json)',
  kind: 'text',
  detect: (s) => /^\s*\{[^\n]*"Action"\s*:\s*"/.test(s.head),
  parse(text) {
    const tests: TestResult[] = [];
    const output = new Map<string, string[]>();
    let lineNo = 0;
    for (const line of text.split('\n')) {
      lineNo++;
      const l = line.trim();
      if (!l) continue;
      if (!l.startsWith('{')) continue; // build output between events
      let e;
      try {
        e = obj(JSON.parse(l));
      } catch {
        throw new Error(`line ${lineNo} is not a JSON object`);
      }
      const test = str(e.Test);
      const pkg = str(e.Package) ?? '';
      if (!test) continue;
      const key = `${pkg}\u0000${test}`;
      const action = str(e.Action) ?? '';
      if (action === 'output') {
        const lines = output.get(key) ?? [];
        if (lines.length < 200) lines.push(str(e.Output) ?? '');
        output.set(key, lines);
        continue;
      }
      const outcome = ACTIONS[action];
      if (!outcome) continue;
      const durationMs =
        num(e.Elapsed) === undefined ? undefined : Math.round(num(e.Elapsed)! * 1000);
      const details = output.get(key)?.join('') || undefined;
      output.delete(key);
      const message = outcome === 'failed' ? failureMessage(details) : undefined;
      tests.push({
        suite: [pkg],
        classname: pkg,
        name: test,
        durationMs,
        outcome,
        message,
        details,
        properties: {},
      });
    }
    return foldRepeats(tests);
  },
};

/** A panic's own text, else the first line that is not test2json's framing (=== RUN, --- FAIL). */
function failureMessage(details: string | undefined): string | undefined {
  const lines = details?.split('\n') ?? [];
  const panic = lines.find((x) => /^panic: /.test(x));
  if (panic) return panic.trim();
  return lines.find((x) => /\S/.test(x) && !/^\s*(=== |--- (FAIL|PASS|SKIP))/.test(x))?.trim();
}
