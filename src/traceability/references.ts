/**
 * The references a test makes to requirements and work items (docs/design.md "Traceability").
 *
 * A minimal stand-in with the interface the two traceability rooms share: key tokens in the test's
 * name, and the JUnit properties `requirement` / `requirements` (a comma list, as Xray's JUnit
 * import reads it). The full reading of every runner's annotations replaces this file.
 */
import type { TestResult } from '../parsers/index.js';
import type { SettingSource } from '../shared/setting-readers.js';

export interface TraceOptions {
  /** A requirement key token, e.g. DEMO-REQ12. */
  requirementPattern: RegExp;
  /** A tracker key like PROJ-123 (or a URL). */
  workItemPattern: RegExp;
}

export interface TestReferences {
  requirements: string[];
  workItems: string[];
}

/** The emulator's requirement keys (docs/design.md "Record keys"): DEMO-REQ1. */
const REQUIREMENT_PATTERN = /\b[A-Z][A-Z0-9_]*-REQ[0-9]+\b/;
/** A tracker's key: PROJ-123. */
const WORK_ITEM_PATTERN = /\b[A-Z][A-Z0-9_]*-[0-9]+\b/;

function tokens(text: string, pattern: RegExp): string[] {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
  );
  return [...text.matchAll(global)].map((m) => m[0]);
}

export function referencesOf(test: TestResult, options: TraceOptions): TestReferences {
  const name = [test.classname ?? '', test.name].join(' ');
  const listed = [test.properties.requirement, test.properties.requirements]
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const requirements = [...new Set([...tokens(name, options.requirementPattern), ...listed])];
  const workItems = [
    ...new Set(tokens(name, options.workItemPattern).filter((t) => !requirements.includes(t))),
  ];
  return { requirements, workItems };
}

export function traceOptions(_src: SettingSource): TraceOptions {
  return { requirementPattern: REQUIREMENT_PATTERN, workItemPattern: WORK_ITEM_PATTERN };
}
