/**
 * FiltrQL builder (docs/service-api.md section 4.2). Filters are built as a small AST and serialized
 * here, so values are always quoted and escaped (docs/design.md: never by string pasting).
 *
 * The service evaluates `{$...}` inside a string literal and FiltrQL has no escape for it, so a
 * value holding `{$` (a branch named `{$"main"}`, a test named `embed {$currentUser()}`) can never
 * be a literal: `literal` refuses it, and `f.same` finds such values by the pieces around each
 * `{$` instead. Either way, callers compare what comes back exactly before trusting it.
 */
import { parseUserFilter, userFilterText, type UserExpr } from './user-filter.js';

export type FilterValue = string | number | boolean | Date | null;
export type ComparisonOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~';

/** A FiltrQL expression as data, built with `f` and written as text only by the client. */
export type Filter =
  | { kind: 'compare'; field: string; op: ComparisonOp; value: Exclude<FilterValue, null> }
  | { kind: 'in'; field: string; values: Exclude<FilterValue, null>[]; negated: boolean }
  | { kind: 'null'; field: string; negated: boolean }
  | { kind: 'and' | 'or'; items: Filter[] }
  | { kind: 'not'; item: Filter }
  /** A filter a user wrote (e.g. --gate-filter), parsed, so it stays inside its parentheses. */
  | { kind: 'user'; expr: UserExpr };

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function checkField(field: string): string {
  if (!FIELD.test(field)) throw new Error(`Invalid FiltrQL field name: ${JSON.stringify(field)}`);
  return field;
}

/** True when the service would evaluate part of this text as an embedded expression. */
export function isEvaluated(value: string): boolean {
  return value.includes('{$');
}

/** A FiltrQL string literal: double quotes, with `\` and `"` escaped by a backslash. */
export function quote(value: string): string {
  if (isEvaluated(value))
    throw new Error(`A FiltrQL literal cannot hold "{$" (the service would evaluate it)`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function literal(value: Exclude<FilterValue, null>): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Invalid FiltrQL number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quote(value.toISOString());
}

/**
 * The FiltrQL builder: every value quoted and escaped, so that data is never filter syntax
 * (`f.eq('status', 'ACTIVE')`).
 */
export const f = {
  eq: (field: string, value: Exclude<FilterValue, null>): Filter => f.cmp(field, '=', value),
  ne: (field: string, value: Exclude<FilterValue, null>): Filter => f.cmp(field, '!=', value),
  cmp: (field: string, op: ComparisonOp, value: Exclude<FilterValue, null>): Filter => ({
    kind: 'compare',
    field: checkField(field),
    op,
    value,
  }),
  in: (field: string, values: Exclude<FilterValue, null>[]): Filter => ({
    kind: 'in',
    field: checkField(field),
    values,
    negated: false,
  }),
  notIn: (field: string, values: Exclude<FilterValue, null>[]): Filter => ({
    kind: 'in',
    field: checkField(field),
    values,
    negated: true,
  }),
  isNull: (field: string): Filter => ({ kind: 'null', field: checkField(field), negated: false }),
  isNotNull: (field: string): Filter => ({ kind: 'null', field: checkField(field), negated: true }),
  and: (...items: (Filter | undefined)[]): Filter => group('and', items),
  or: (...items: (Filter | undefined)[]): Filter => group('or', items),
  not: (item: Filter): Filter => ({ kind: 'not', item }),
  /**
   * Matches every record whose `field` is `value` (and, for a value the service would evaluate,
   * possibly others): the caller keeps only exact matches.
   */
  same: (field: string, value: string): Filter =>
    isEvaluated(value)
      ? group(
          'and',
          piecesOf(value).map((piece) => f.cmp(field, '~', piece)),
        )
      : f.eq(field, value),
  /** A filter a user wrote; a ConfigError names `parameter` when it is not one. */
  user: (text: string, parameter: string): Filter => ({
    kind: 'user',
    expr: parseUserFilter(text, parameter),
  }),
};

/** `a{$b` -> `a{`, `$b`: the value cut between each `{` and `$`, so no piece holds `{$`. */
function piecesOf(value: string): string[] {
  return value.split('{$').flatMap((piece, i, all) => {
    const withBraces = `${i > 0 ? '$' : ''}${piece}${i < all.length - 1 ? '{' : ''}`;
    return withBraces ? [withBraces] : [];
  });
}

function group(kind: 'and' | 'or', items: (Filter | undefined)[]): Filter {
  const present = items.filter((i): i is Filter => i !== undefined);
  if (present.length === 1) return present[0]!;
  if (present.length === 0)
    throw new Error(`FiltrQL ${kind.toUpperCase()} needs at least one condition`);
  return { kind, items: present };
}

/** Serialize a filter to FiltrQL text. */
export function toFiltrQL(filter: Filter): string {
  switch (filter.kind) {
    case 'compare':
      return `${filter.field} ${filter.op} ${literal(filter.value)}`;
    case 'in':
      if (filter.values.length === 0)
        throw new Error(`FiltrQL in () on ${filter.field} needs values`);
      return `${filter.field} ${filter.negated ? 'not in' : 'in'} (${filter.values.map(literal).join(', ')})`;
    case 'null':
      return `${filter.field} is ${filter.negated ? 'not ' : ''}null`;
    case 'and':
    case 'or':
      return filter.items
        .map((item) => wrap(item, filter.kind))
        .join(` ${filter.kind.toUpperCase()} `);
    case 'not':
      return `NOT (${toFiltrQL(filter.item)})`;
    case 'user':
      return `(${userFilterText(filter.expr)})`;
  }
}

function wrap(item: Filter, parent: 'and' | 'or'): string {
  const text = toFiltrQL(item);
  return (item.kind === 'and' || item.kind === 'or') && item.kind !== parent ? `(${text})` : text;
}

/** Length of the filter once url-encoded as a query parameter value. */
export function encodedLength(filter: Filter): number {
  return encodeURIComponent(toFiltrQL(filter)).length;
}

/**
 * Split `field in (values)` into as few filters as possible, each within `maxItems` values and
 * `maxEncodedLength` url-encoded characters once combined by `wrapChunk` (e.g. AND with the cycle).
 * URLs stay under 4 KB (docs/design.md "Publish: request budget").
 */
export function chunkIn(
  field: string,
  values: readonly Exclude<FilterValue, null>[],
  options: ChunkOptions,
): Filter[] {
  return chunkGroups(field, values, options).map((chunk) => chunk.filter);
}

export interface ChunkOptions {
  maxItems: number;
  maxEncodedLength: number;
  wrapChunk?: (chunk: Filter) => Filter;
}

/**
 * chunkIn's chunks with the values each holds: a dry run counts the rows (and so the pages) each
 * chunk of a read would return (src/domain/plan-cost.ts).
 */
export function chunkGroups(
  field: string,
  values: readonly Exclude<FilterValue, null>[],
  options: ChunkOptions,
): { values: Exclude<FilterValue, null>[]; filter: Filter }[] {
  const wrapChunk = options.wrapChunk ?? ((chunk: Filter) => chunk);
  const all = [...new Set(values)];
  const unique = all.filter((v) => typeof v !== 'string' || !isEvaluated(v));
  // Rare values the service would evaluate: one lookup each, by their pieces.
  const chunks: { values: Exclude<FilterValue, null>[]; filter: Filter }[] = all
    .filter((v): v is string => typeof v === 'string' && isEvaluated(v))
    .map((v) => ({ values: [v], filter: wrapChunk(f.same(field, v)) }));
  let current: Exclude<FilterValue, null>[] = [];
  // Cost of the constant part, then of each value with its ", " separator.
  const overhead = encodedLength(wrapChunk(f.in(field, ['']))) - encodeURIComponent('""').length;
  let size = overhead;
  const close = () => chunks.push({ values: current, filter: wrapChunk(f.in(field, current)) });
  for (const value of unique) {
    const cost =
      encodeURIComponent(literal(value)).length +
      (current.length ? encodeURIComponent(', ').length : 0);
    if (overhead + encodeURIComponent(literal(value)).length > options.maxEncodedLength) {
      throw new Error(
        `A value for ${field} is too long for one request URL (${String(value).slice(0, 60)}...)`,
      );
    }
    if (
      current.length &&
      (current.length >= options.maxItems || size + cost > options.maxEncodedLength)
    ) {
      close();
      current = [];
      size = overhead;
    }
    size += current.length ? cost : encodeURIComponent(literal(value)).length;
    current.push(value);
  }
  if (current.length) close();
  return chunks;
}
