/** `dart test --reporter json` and `flutter test --machine`: an event stream, one JSON object per line. */
import type { ReportFormat } from '../base/format.js';
import {
  foldRepeats,
  runErrorMessage,
  withRunErrors,
  type Outcome,
  type RunError,
  type TestResult,
} from '../base/model.js';
import { arr, num, obj, str, type Json } from './json-util.js';

export const dart: ReportFormat = {
  id: 'dart',
  label: 'Dart/Flutter JSON (dart test --reporter json, flutter test --machine)',
  kind: 'text',
  extensions: ['json', 'jsonl'],
  detect: (s) =>
    /^\s*(\[\s*)?\{[^\n]*"(protocolVersion|type)"\s*:\s*"?(start|0\.)/.test(s.head) &&
    /"type"\s*:\s*"/.test(s.head),
  parse(text) {
    const suites = new Map<number, string>();
    const groups = new Map<number, string>();
    const started = new Map<number, Json>();
    const tests: TestResult[] = [];
    const runErrors: RunError[] = [];
    const messages = new Map<number, string>();
    for (const event of events(text)) {
      switch (str(event.type)) {
        case 'suite':
          suites.set(num(obj(event.suite).id) ?? -1, str(obj(event.suite).path) ?? '');
          break;
        case 'group':
          groups.set(num(obj(event.group).id) ?? -1, str(obj(event.group).name) ?? '');
          break;
        case 'testStart':
          started.set(num(obj(event.test).id) ?? -1, obj(event.test));
          break;
        case 'error':
          messages.set(num(event.testID) ?? -1, str(event.error) ?? 'error');
          break;
        case 'testDone': {
          if (event.hidden === true) break;
          const id = num(event.testID) ?? -1;
          const test = started.get(id) ?? {};
          const result = str(event.result);
          const outcome: Outcome =
            event.skipped === true
              ? 'skipped'
              : result === 'success'
                ? 'passed'
                : result === 'failure'
                  ? 'failed'
                  : 'error';
          const groupName = arr(test.groupIDs)
            .map((g) => groups.get(num(g) ?? -1) ?? '')
            .filter(Boolean)
            .at(-1);
          const name = str(test.name) ?? '';
          const file = suites.get(num(test.suiteID) ?? -1);
          // The runner's "loading <file>" pseudo-test, shown (not hidden) when the file failed
          // to load: no test, a run error of the file (docs/design.md "Run errors").
          if (outcome !== 'passed' && arr(test.groupIDs).length === 0 && /^loading /.test(name)) {
            runErrors.push({
              file: file || name.slice('loading '.length),
              message: runErrorMessage(messages.get(id), 'failed to load'),
            });
            break;
          }
          const durationMs =
            (num(event.time) ?? 0) - (num(startedAt(test)) ?? num(event.time) ?? 0);
          tests.push({
            suite: file ? [file] : [],
            classname: groupName,
            name,
            file: file ?? str(test.url),
            line: num(test.root_line) ?? num(test.line),
            durationMs,
            outcome,
            message: messages.get(id),
            attempts: [{ outcome, durationMs, message: messages.get(id) }],
            properties: {},
          });
          break;
        }
        default:
          break;
      }
    }
    return withRunErrors(foldRepeats(tests), runErrors);
  },
};

function startedAt(test: Json): unknown {
  return test.__time;
}

/** Lines of JSON objects (also a JSON array of them). */
function* events(text: string): Generator<Json> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    for (const e of arr(JSON.parse(trimmed))) yield obj(e);
    return;
  }
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    const l = line.trim();
    if (!l) continue;
    if (!l.startsWith('{')) continue; // flutter prints a few plain lines
    try {
      yield obj(JSON.parse(l));
    } catch {
      throw new Error(`line ${lineNo} is not a JSON object`);
    }
  }
}
