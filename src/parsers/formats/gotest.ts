/** `go test -json` (test2json): one event per line; subtests are tests of their own. */
import type { ReportFormat } from '../base/format.js';
import {
  foldRepeats,
  runErrorMessage,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { num, obj, str } from './json-util.js';

const ACTIONS: Record<string, Outcome> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

export const gotest: ReportFormat = {
  id: 'gotest',
  label: 'Go test JSON (go test -json)',
  kind: 'text',
  extensions: ['json', 'jsonl'],
  // A package that did not build writes its FAIL line before the first event (go before 1.24).
  detect: (s) => /^(FAIL\s[^\n]*\n)*\s*\{[^\n]*"Action"\s*:\s*"/.test(s.head),
  parse(text) {
    const tests: TestResult[] = [];
    const output = new Map<string, string[]>();
    const packages = new Packages();
    let lineNo = 0;
    for (const line of text.split('\n')) {
      lineNo++;
      const l = line.trim();
      if (!l) continue;
      if (!l.startsWith('{')) {
        // Build output between events: go before 1.24 writes a package that did not build only
        // here, as `FAIL <package> [build failed]`.
        const failed = BUILD_FAILED.exec(l);
        if (failed) packages.buildFailed(failed[1]!, failed[2]!);
        continue;
      }
      let e;
      try {
        e = obj(JSON.parse(l));
      } catch {
        throw new Error(`line ${lineNo} is not a JSON object`);
      }
      const test = str(e.Test);
      const pkg = str(e.Package) ?? '';
      if (!test) {
        packages.event(pkg, str(e.Action) ?? '', str(e.Output), str(e.FailedBuild));
        continue;
      }
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
      if (outcome === 'failed') packages.testFailed(pkg);
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
    return withRunErrors(foldRepeats(tests), packages.runErrors());
  },
};

/** go's line for a package that did not build or set up, outside the JSON events before go 1.24. */
const BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(build|setup) failed\]$/;

/**
 * The packages' own events (no Test): a package that failed with no failed test failed outside
 * its tests (docs/design.md "Run errors"): it did not build (go 1.24 and later mark its fail
 * event with FailedBuild; earlier ones write `FAIL <package> [build failed]` between the events),
 * or it panicked before or after its tests (in init or TestMain), which its output shows.
 */
class Packages {
  private readonly output = new Map<string, string[]>();
  private readonly failing = new Set<string>();
  private readonly errors = new Map<string, RunError>();

  event(pkg: string, action: string, text: string | undefined, failedBuild: string | undefined) {
    if (action === 'output' && text !== undefined) {
      const lines = this.output.get(pkg) ?? [];
      if (lines.length < 200) lines.push(text);
      this.output.set(pkg, lines);
    } else if (action === 'fail') {
      if (failedBuild !== undefined) this.buildFailed(pkg, 'build');
      else if (!this.failing.has(pkg) && !this.errors.has(pkg)) {
        const said = this.output.get(pkg) ?? [];
        const panic = said.find((l) => l.startsWith('panic: '));
        this.errors.set(pkg, {
          suite: pkg,
          message:
            panic?.trim() ?? runErrorMessage(said.join(''), 'the package failed outside its tests'),
        });
      }
    }
  }

  buildFailed(pkg: string, step: string): void {
    this.errors.set(pkg, {
      suite: pkg,
      message: `${step} failed (go test's output names the errors)`,
    });
  }

  testFailed(pkg: string): void {
    this.failing.add(pkg);
  }

  runErrors(): RunError[] {
    return [...this.errors.values()];
  }
}

/** A panic's own text, else the first line that is not test2json's framing (=== RUN, --- FAIL). */
function failureMessage(details: string | undefined): string | undefined {
  const lines = details?.split('\n') ?? [];
  const panic = lines.find((x) => /^panic: /.test(x));
  if (panic) return panic.trim();
  return lines.find((x) => /\S/.test(x) && !/^\s*(=== |--- (FAIL|PASS|SKIP))/.test(x))?.trim();
}
