/** xUnit.net XML: v2 (<assemblies>) and v1 (<assembly> with <class>). */
import type { ReportFormat } from '../base/format.js';
import { addNamed, foldRepeats, type Outcome, type TestResult } from '../base/model.js';
import { attr, list, seconds, text, type XmlNode } from '../base/xml.js';

const RESULTS: Record<string, Outcome> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  notrun: 'skipped',
};

export const xunit: ReportFormat = {
  id: 'xunit',
  label: 'xUnit.net XML (v1 and v2)',
  kind: 'xml',
  extensions: ['xml'],
  detect: (s) => s.xmlRoot === 'assemblies' || s.xmlRoot === 'assembly',
  parse(doc) {
    const tests: TestResult[] = [];
    const assemblies = doc.assemblies
      ? list((doc.assemblies as XmlNode).assembly)
      : list(doc.assembly);
    for (const assembly of assemblies) {
      const asm = attr(assembly, 'name') ?? '';
      // v2: assembly > collection > test; v1: assembly > class > test.
      for (const group of [...list(assembly.collection), ...list(assembly.class)]) {
        const groupName = attr(group, 'name') ?? '';
        for (const t of list(group.test)) tests.push(toResult(t, [asm, groupName].filter(Boolean)));
      }
    }
    return foldRepeats(tests);
  },
};

function toResult(t: XmlNode, suite: string[]): TestResult {
  const outcome = RESULTS[(attr(t, 'result') ?? '').toLowerCase()] ?? 'error';
  const failure = list(t.failure)[0];
  const reason = list(t.reason)[0];
  const message = text(failure?.message)?.trim() ?? text(reason)?.trim();
  const durationMs = seconds(attr(t, 'time'));
  const traits: Record<string, string> = {};
  for (const group of list(t.traits))
    for (const trait of list(group.trait))
      addNamed(traits, attr(trait, 'name') ?? '', attr(trait, 'value') ?? '');
  return {
    suite,
    classname: attr(t, 'type'),
    name: attr(t, 'name') ?? attr(t, 'method') ?? '',
    durationMs,
    outcome,
    message,
    details: text(failure?.['stack-trace']),
    attempts: [{ outcome, durationMs, message }],
    properties: traits,
  };
}
