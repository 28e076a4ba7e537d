/**
 * Cucumber messages (`--format message`, NDJSON): the format every current Cucumber shares. One
 * test per test case (a pickle: a scenario, or one example row of an outline, whose cells are its
 * params); each testCaseStarted is an attempt (`attempt` counts the retries of `--retry`).
 */
import type { ReportFormat } from '../format.js';
import { outcomeOfRuns, type Attempt, type TestResult } from '../model.js';
import { gherkinStep, notPassedStep, scenarioOutcome, type StepArgument } from './cucumber.js';
import { arr, num, obj, str, type Json } from './json-util.js';

export const cucumberMessages: ReportFormat = {
  id: 'cucumber-messages',
  label: 'Cucumber messages (NDJSON, --format message)',
  kind: 'text',
  detect: (s) =>
    /^\s*\{\s*"(meta|source|gherkinDocument|pickle|stepDefinition|hook|parameterType|testRunStarted)"\s*:\s*\{/.test(
      s.head,
    ),
  parse(text) {
    const features = new Map<
      string,
      { name: string; lines: Map<string, RowInfo>; keywords: Map<string, string> }
    >();
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
        const run = started.get(str(e.testCaseStartedId) ?? '');
        const result = obj(e.testStepResult);
        if (!run) continue;
        run.statuses.push((str(result.status) ?? 'UNKNOWN').toLowerCase());
        run.message ??= str(result.message) ?? str(obj(result.exception).message);
      } else if (envelope.testCaseFinished) {
        const e = obj(envelope.testCaseFinished);
        const run = started.get(str(e.testCaseStartedId) ?? '');
        if (!run) continue;
        const outcome = scenarioOutcome(run.statuses);
        const attempts = attemptsByCase.get(run.testCaseId) ?? [];
        attempts.push({ outcome, message: run.message ?? notPassedStep(run.statuses) });
        attemptsByCase.set(run.testCaseId, attempts);
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
          const keyword = feature?.keywords.get(str(arr(step.astNodeIds)[0]) ?? '');
          const text = str(step.text) ?? '';
          return { action: gherkinStep(keyword ? `${keyword} ${text}` : text, argumentOf(step)) };
        }),
      });
    }
    return tests;
  },
};

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

/** The keyword of each step of a feature (`Given`, `When`, `And` ...), by AST node id. */
function stepKeywords(feature: Json): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (children: unknown[]) => {
    for (const child of children.map(obj)) {
      if (child.rule) visit(arr(obj(child.rule).children));
      const node = obj(child.scenario ?? child.background);
      for (const step of arr(node.steps).map(obj))
        out.set(str(step.id) ?? '', (str(step.keyword) ?? '').trim());
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
