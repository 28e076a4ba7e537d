/**
 * Cucumber messages (`--format message`, NDJSON): the format every current Cucumber shares. One
 * test per test case (a pickle: a scenario, or one example row of an outline, whose cells are its
 * params); each testCaseStarted is an attempt (`attempt` counts the retries of `--retry`).
 */
import type { ReportFormat } from '../base/format.js';
import {
  outcomeOfRuns,
  withRunErrors,
  type Attempt,
  type RunError,
  type TestResult,
} from '../base/model.js';
import {
  gherkinStep,
  notPassedStep,
  scenarioOutcome,
  stepError,
  type StepArgument,
} from './cucumber.js';
import { arr, num, obj, str, type Json } from './json-util.js';

export const cucumberMessages: ReportFormat = {
  id: 'cucumber-messages',
  label: 'Cucumber messages (NDJSON, --format message)',
  kind: 'text',
  extensions: ['ndjson', 'jsonl'],
  detect: (s) =>
    /^\s*\{\s*"(meta|source|gherkinDocument|pickle|stepDefinition|hook|parameterType|testRunStarted)"\s*:\s*\{/.test(
      s.head,
    ),
  parse(text) {
    const features = new Map<
      string,
      { name: string; lines: Map<string, RowInfo>; keywords: Map<string, StepInfo> }
    >();
    const run = new RunEvents();
    const pickles = new Map<string, Json>();
    const testCases = new Map<string, Json>();
    const started = new Map<string, { testCaseId: string; statuses: string[]; message?: string }>();
    const attemptsByCase = new Map<string, Attempt[]>();
    let lineNo = 0;
    for (const line of text.split('\n')) {
      lineNo++;
      const l = line.trim();
      if (!l) continue;
      let envelope: Json;
      try {
        envelope = obj(JSON.parse(l));
      } catch {
        throw new Error(`line ${lineNo} is not a JSON object (one Cucumber message per line)`);
      }
      if (envelope.gherkinDocument) {
        const doc = obj(envelope.gherkinDocument);
        const feature = obj(doc.feature);
        features.set(str(doc.uri) ?? '', {
          name: str(feature.name) ?? '',
          lines: astLines(feature),
          keywords: stepKeywords(feature),
        });
      } else if (envelope.pickle) {
        const pickle = obj(envelope.pickle);
        pickles.set(str(pickle.id) ?? '', pickle);
      } else if (envelope.testCase) {
        const testCase = obj(envelope.testCase);
        testCases.set(str(testCase.id) ?? '', testCase);
      } else if (envelope.testCaseStarted) {
        const e = obj(envelope.testCaseStarted);
        started.set(str(e.id) ?? '', { testCaseId: str(e.testCaseId) ?? '', statuses: [] });
      } else if (envelope.testStepFinished) {
        const e = obj(envelope.testStepFinished);
        const caseRun = started.get(str(e.testCaseStartedId) ?? '');
        const result = obj(e.testStepResult);
        if (!caseRun) continue;
        const status = (str(result.status) ?? 'UNKNOWN').toLowerCase();
        caseRun.statuses.push(status);
        caseRun.message ??= str(result.message) ?? str(obj(result.exception).message);
        if (status === 'undefined' || status === 'ambiguous')
          run.badStep(status, caseRun.testCaseId, str(e.testStepId) ?? '');
      } else if (run.read(envelope)) {
        // a run-level event (parse error, hook, end of the run), kept by RunEvents
      } else if (envelope.testCaseFinished) {
        const e = obj(envelope.testCaseFinished);
        const caseRun = started.get(str(e.testCaseStartedId) ?? '');
        if (!caseRun) continue;
        const outcome = scenarioOutcome(caseRun.statuses);
        const attempts = attemptsByCase.get(caseRun.testCaseId) ?? [];
        attempts.push({ outcome, message: caseRun.message ?? notPassedStep(caseRun.statuses) });
        attemptsByCase.set(caseRun.testCaseId, attempts);
      }
    }
    const tests: TestResult[] = [];
    for (const [testCaseId, attempts] of attemptsByCase) {
      const pickle = pickles.get(str(testCases.get(testCaseId)?.pickleId) ?? '') ?? {};
      const uri = str(pickle.uri);
      const feature = features.get(uri ?? '');
      const nodes = arr(pickle.astNodeIds).map((id) => feature?.lines.get(String(id)));
      const row = nodes.at(-1);
      const tags = arr(pickle.tags)
        .map((t) => str(obj(t).name))
        .filter((t): t is string => !!t);
      const final = attempts.at(-1)!;
      const message = final.message?.split('\n')[0];
      tests.push({
        suite: feature?.name ? [feature.name] : [],
        classname: feature?.name,
        name: str(pickle.name) ?? '',
        file: uri,
        line: row?.line,
        params: nodes.length > 1 && row?.cells ? `[${row.cells.join(', ')}]` : undefined,
        outcome: outcomeOfRuns(attempts),
        message,
        details: final.message,
        attempts: attempts.length > 1 ? attempts : undefined,
        properties: tags.length ? { tags: tags.join(',') } : {},
        // The pickle's steps (background first, outline values filled in), as Gherkin reads them.
        steps: arr(pickle.steps).map((value) => {
          const step = obj(value);
          const keyword = feature?.keywords.get(str(arr(step.astNodeIds)[0]) ?? '')?.keyword;
          const text = str(step.text) ?? '';
          return { action: gherkinStep(keyword ? `${keyword} ${text}` : text, argumentOf(step)) };
        }),
      });
    }
    return withRunErrors(
      tests,
      run.errors((testCaseId, testStepId) => {
        const testCase = testCases.get(testCaseId);
        const pickleStepId = str(
          arr(testCase?.testSteps)
            .map(obj)
            .find((st) => str(st.id) === testStepId)?.pickleStepId,
        );
        const pickle = pickles.get(str(testCase?.pickleId) ?? '') ?? {};
        const step = arr(pickle.steps)
          .map(obj)
          .find((st) => str(st.id) === pickleStepId);
        const uri = str(pickle.uri);
        const feature = features.get(uri ?? '');
        const info = feature?.keywords.get(str(arr(step?.astNodeIds)[0]) ?? '');
        const text = str(step?.text) ?? '';
        return {
          step: info ? `${info.keyword} ${text}` : text,
          file: uri,
          suite: feature?.name || undefined,
          line: info?.line,
        };
      }),
    );
  },
};

/** A step of a feature as Gherkin writes it: its keyword and line. */
interface StepInfo {
  keyword: string;
  line?: number;
}

/**
 * The run's own events (docs/design.md "Run errors"): a feature file Gherkin could not parse
 * (`parseError`: its scenarios never ran), a BeforeAll or AfterAll hook that failed
 * (`testRunHookFinished`), the run's end (`testRunFinished`, with the exception that stopped it),
 * and the steps no step definition or several matched. Messages that end before
 * `testRunFinished` are a run that stopped before it finished.
 */
class RunEvents {
  private readonly found: RunError[] = [];
  private readonly bad: {
    status: 'undefined' | 'ambiguous';
    testCaseId: string;
    testStepId: string;
  }[] = [];
  private finished = false;

  /** True when the envelope is a run-level event, read here. */
  read(envelope: Json): boolean {
    if (envelope.parseError) {
      const e = obj(envelope.parseError);
      const source = obj(e.source);
      const uri = str(source.uri);
      // Gherkin's message starts with the line and column: `(5:5): expected: ...`.
      this.found.push({
        ...(uri ? { file: uri } : {}),
        message: `${uri ?? 'a feature file'} cannot be parsed: ${str(e.message) ?? 'no message'}`,
      });
      return true;
    }
    if (envelope.testRunHookFinished) {
      const result = obj(obj(envelope.testRunHookFinished).result);
      const status = str(result.status);
      if (status && status !== 'PASSED' && status !== 'SKIPPED')
        this.found.push({
          message: `a BeforeAll or AfterAll hook ${status.toLowerCase()}: ${str(result.message) ?? str(obj(result.exception).message) ?? 'no message'}`,
        });
      return true;
    }
    if (envelope.testRunFinished) {
      this.finished = true;
      const e = obj(envelope.testRunFinished);
      const exception = str(obj(e.exception).message) ?? str(e.message);
      if (e.success === false && exception)
        this.found.push({ message: `the run stopped: ${exception}` });
      return true;
    }
    return false;
  }

  badStep(status: 'undefined' | 'ambiguous', testCaseId: string, testStepId: string): void {
    this.bad.push({ status, testCaseId, testStepId });
  }

  errors(
    stepOf: (
      testCaseId: string,
      testStepId: string,
    ) => { step: string; file?: string; suite?: string; line?: number },
  ): RunError[] {
    const steps = this.bad.map(({ status, testCaseId, testStepId }) => {
      const { step, ...where } = stepOf(testCaseId, testStepId);
      return stepError(status, step, where);
    });
    const unfinished = this.finished
      ? []
      : [
          {
            message: 'the messages end before testRunFinished: the run stopped before it finished',
          },
        ];
    return [...this.found, ...steps, ...unfinished];
  }
}

/** A pickle step's argument: `argument.dataTable.rows[].cells[].value` or `argument.docString`. */
function argumentOf(step: Json): StepArgument | undefined {
  const argument = obj(step.argument);
  if (argument.dataTable)
    return {
      rows: arr(obj(argument.dataTable).rows).map((row) =>
        arr(obj(row).cells).map((cell) => str(obj(cell).value) ?? ''),
      ),
    };
  const content = str(obj(argument.docString).content);
  return content === undefined ? undefined : { docString: content };
}

/** The keyword (`Given`, `When`, `And` ...) and line of each step of a feature, by AST node id. */
function stepKeywords(feature: Json): Map<string, StepInfo> {
  const out = new Map<string, StepInfo>();
  const visit = (children: unknown[]) => {
    for (const child of children.map(obj)) {
      if (child.rule) visit(arr(obj(child.rule).children));
      const node = obj(child.scenario ?? child.background);
      for (const step of arr(node.steps).map(obj))
        out.set(str(step.id) ?? '', {
          keyword: (str(step.keyword) ?? '').trim(),
          line: num(obj(step.location).line),
        });
    }
  };
  visit(arr(feature.children));
  return out;
}

interface RowInfo {
  line?: number;
  cells?: string[];
}

/** Lines of the scenarios and example rows of a feature (inside rules too), by AST node id. */
function astLines(feature: Json): Map<string, RowInfo> {
  const out = new Map<string, RowInfo>();
  const visit = (children: unknown[]) => {
    for (const child of children.map(obj)) {
      if (child.rule) visit(arr(obj(child.rule).children));
      const scenario = obj(child.scenario);
      if (!str(scenario.id)) continue;
      out.set(str(scenario.id)!, { line: num(obj(scenario.location).line) });
      for (const examples of arr(scenario.examples).map(obj))
        for (const row of arr(examples.tableBody).map(obj))
          out.set(str(row.id) ?? '', {
            line: num(obj(row.location).line),
            cells: arr(row.cells).map((c) => str(obj(c).value) ?? ''),
          });
    }
  };
  visit(arr(feature.children));
  return out;
}
