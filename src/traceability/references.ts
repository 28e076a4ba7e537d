/**
 * The requirements and work items a test names, read from its runner's own way of annotating a
 * test (docs/design.md "Traceability: what is read"). The parsers keep each format's metadata
 * without knowing of traceability (properties, labels, tags, links: src/parsers/base/model.ts); this
 * reads the references out of it, by the settings `requirement-names`, `work-item-names`,
 * `requirement-pattern` and `work-item-pattern` (src/settings/table.ts).
 *
 * A reference is data: compared exactly, written through the filter builder (src/client/filter.ts),
 * never parsed into anything else.
 */
import { runnerNameOf } from '../domain/index.js';
import { tagsOf, type TestResult } from '../parsers/index.js';
import { settingValue } from '../settings/index.js';
import type { SettingSource } from '../shared/setting-readers.js';
import { ConfigError } from '../shared/errors.js';
import { DEFAULT_REQUIREMENT_NAMES, DEFAULT_WORK_ITEM_NAMES } from '../shared/defaults.js';

export interface TraceOptions {
  /** A requirement key in a test's name or a bare tag (`REQ-12`); its first group, if any, is the key. */
  requirementPattern: RegExp;
  /** A work item key in a test's name or a bare tag (`PROJ-123`); NO_PATTERN: none is read there. */
  workItemPattern: RegExp;
  /**
   * The names that mark a requirement (a property, label, link type, `@NAME:KEY` tag), compared
   * without case, `-`, `_` or spaces; absent: `requirement`, `requirements`.
   */
  requirementNames?: readonly string[];
  /** The names that mark a work item; absent: `issue`, `issues`, `workitem`. */
  workItemNames?: readonly string[];
}

export interface TestReferences {
  requirements: string[];
  workItems: string[];
}

/** A pattern that matches nothing: `work-item-pattern` unset reads no work item from free text. */
export const NO_PATTERN = /(?!)/g;

/** The settings of traceability, checked before the first request: a bad pattern names its setting. */
export function traceOptions(src: SettingSource): TraceOptions {
  const workItem = settingValue(src, 'work-item-pattern');
  return {
    requirementPattern: compile(settingValue(src, 'requirement-pattern')!, 'requirement-pattern'),
    workItemPattern: workItem ? compile(workItem, 'work-item-pattern') : NO_PATTERN,
    requirementNames: names(settingValue(src, 'requirement-names')!, 'requirement-names'),
    workItemNames: names(settingValue(src, 'work-item-names')!, 'work-item-names'),
  };
}

function compile(source: string, setting: string): RegExp {
  try {
    return new RegExp(source, 'g');
  } catch (error) {
    throw new ConfigError(
      setting,
      `is not a valid regular expression: ${(error as Error).message}. Write a JavaScript regular expression, such as REQ-[0-9]+.`,
    );
  }
}

function names(value: string, setting: string): string[] {
  const list = splitList(value);
  if (list.length === 0)
    throw new ConfigError(setting, 'names nothing; give one name or more, comma-separated.');
  return list;
}

/** `Work_Item`, `work-item` and `workItem` are one name. */
const normal = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');

/** A value marked as a reference holds one or a list: split on commas and line ends. */
function splitList(value: string): string[] {
  return value
    .split(/[,\n\r]/)
    .map((piece) => piece.trim())
    .filter(Boolean);
}

/**
 * Longer than any key or address a tracker gives; a piece holding a control or format character
 * (a line end, a bidi override) is none either: both are left out rather than written as a link.
 */
const MAX_REFERENCE = 2000;
const UNREADABLE = /[\p{Cc}\p{Cf}]/u;
const usable = (piece: string) => piece.length <= MAX_REFERENCE && !UNREADABLE.test(piece);

/** A tag `@requirement:REQ-1` or `issue=PROJ-2`: the name before the first `:` or `=`. */
const NAMED_TAG = /^@?([^:=]+)[:=](.*)$/s;

interface Reader {
  kindOf(name: string): 'requirements' | 'workItems' | undefined;
  requirement: RegExp;
  workItem: RegExp;
}

const readers = new WeakMap<TraceOptions, Reader>();

function readerOf(options: TraceOptions): Reader {
  let reader = readers.get(options);
  if (reader) return reader;
  const requirementNames = new Set(
    (options.requirementNames ?? splitList(DEFAULT_REQUIREMENT_NAMES)).map(normal),
  );
  const workItemNames = new Set(
    (options.workItemNames ?? splitList(DEFAULT_WORK_ITEM_NAMES)).map(normal),
  );
  const global = (re: RegExp) =>
    re.flags.includes('g') ? re : new RegExp(re.source, `${re.flags}g`);
  reader = {
    kindOf(name) {
      const n = normal(name);
      return requirementNames.has(n)
        ? 'requirements'
        : workItemNames.has(n)
          ? 'workItems'
          : undefined;
    },
    requirement: global(options.requirementPattern),
    workItem: global(options.workItemPattern),
  };
  readers.set(options, reader);
  return reader;
}

/**
 * What a test names, each reference once, in the order read: values under a marking name
 * (properties, labels, Allure links, `@NAME:KEY` tags) taken whole; then the keys the patterns
 * find in bare tags and in the test's name as its runner gives it.
 */
export function referencesOf(test: TestResult, options: TraceOptions): TestReferences {
  const reader = readerOf(options);
  const found = { requirements: new Set<string>(), workItems: new Set<string>() };
  const marked = (name: string, value: string | undefined) => {
    const kind = value ? reader.kindOf(name) : undefined;
    if (kind) for (const piece of splitList(value!)) if (usable(piece)) found[kind].add(piece);
    return kind !== undefined;
  };
  const tokens = (text: string) => {
    for (const [kind, pattern] of [
      ['requirements', reader.requirement],
      ['workItems', reader.workItem],
    ] as const)
      for (const m of text.matchAll(pattern)) {
        const key = (m[1] ?? m[0]).trim();
        if (key && usable(key)) found[kind].add(key);
      }
  };
  for (const [name, value] of Object.entries(test.properties)) marked(name, value);
  for (const [name, value] of Object.entries(test.labels ?? {})) marked(name, value);
  // An Allure link shows its key as its name (allure.issue("PROJ-1")); else its address is it.
  for (const link of test.links ?? []) marked(link.type ?? '', link.name || link.url);
  for (const tag of tagsOf(test)) {
    const named = NAMED_TAG.exec(tag.trim());
    if (!(named && marked(named[1]!.trim(), named[2]!))) tokens(tag);
  }
  tokens(runnerNameOf(test));
  // A key read both ways (a work-item-pattern that also fits requirement keys) is a requirement.
  const workItems = [...found.workItems].filter((key) => !found.requirements.has(key));
  return { requirements: [...found.requirements], workItems };
}
