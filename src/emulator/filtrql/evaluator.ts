/**
 * AST -> predicate. Paths are resolved against src/schema once per request (unknown names are
 * errors listing the valid ones, never a silent match) and values are folded to constants, so
 * evaluating a record is a few closure calls.
 */
import {
  type AttrSpec,
  isLinked,
  resourceSpec,
  type ResourceType,
} from '../../schema/resources.js';
import type { Expr, Span, ValueNode } from './ast.js';
import { parseFilter } from './parser.js';
import { own } from '../model/own.js';
import { FUNCTIONS, TIME_UNITS } from './reference.js';

export interface FilterRecord {
  id: string;
  attributes: Record<string, unknown>;
}

/** What the evaluator needs from the store and the request. */
export interface FilterEnv {
  now: number;
  currentUserId: string | null;
  membersOf(role: string): string[];
  /** The record a to-one relation points at. */
  lookup(type: ResourceType, id: string): FilterRecord | undefined;
  /** The records of a to-many relation of `record`. */
  children(type: ResourceType, foreignKey: string, id: string): Iterable<FilterRecord>;
  /** The live records a linked to-many relation of the record `id` of `type` reaches. */
  linked(type: ResourceType, relation: string, id: string): Iterable<FilterRecord>;
  /** Custom field names defined for a type. */
  customFields(type: ResourceType): string[];
}

/** An unknown field, relation or a value of the wrong type: a 400 naming the valid choices. */
export class FilterFieldError extends Error {
  readonly valid: string[];
  readonly span: Span;
  constructor(message: string, span: Span, valid: string[] = []) {
    super(message);
    this.valid = valid;
    this.span = span;
  }
}

export type Predicate = (record: FilterRecord) => boolean;

export function compileFilter(text: string, type: ResourceType, env: FilterEnv): Predicate {
  return compile(parseFilter(text), type, env);
}

type Const = string | number | boolean | string[];

interface Accessor {
  get: (record: FilterRecord) => unknown;
  spec: AttrSpec | { kind: 'uuid' } | { kind: 'any' };
}

function compile(expr: Expr, type: ResourceType, env: FilterEnv): Predicate {
  switch (expr.kind) {
    case 'and': {
      const l = compile(expr.left, type, env);
      const r = compile(expr.right, type, env);
      return (rec) => l(rec) && r(rec);
    }
    case 'or': {
      const l = compile(expr.left, type, env);
      const r = compile(expr.right, type, env);
      return (rec) => l(rec) || r(rec);
    }
    case 'not': {
      const inner = compile(expr.operand, type, env);
      return (rec) => !inner(rec);
    }
    case 'null': {
      const { get } = resolvePath(expr.path, type, env, expr.span);
      return expr.negated ? (rec) => get(rec) != null : (rec) => get(rec) == null;
    }
    case 'compare': {
      const accessor = resolvePath(expr.path, type, env, expr.span);
      const value = evaluate(expr.value, env);
      if (Array.isArray(value))
        throw new FilterFieldError(`${expr.path.join('.')} ${expr.op}: a list needs IN`, expr.span);
      const test = comparator(
        expr.op,
        coerce(value, accessor.spec, expr.path, expr.value.span),
        accessor.spec,
      );
      return (rec) => test(accessor.get(rec));
    }
    case 'in': {
      const accessor = resolvePath(expr.path, type, env, expr.span);
      const values = new Set<unknown>();
      for (const node of expr.values) {
        const v = evaluate(node, env);
        for (const item of Array.isArray(v) ? v : [v])
          values.add(coerce(item, accessor.spec, expr.path, node.span));
      }
      const isDate = accessor.spec.kind === 'date-time';
      const has = (raw: unknown) => raw != null && values.has(isDate ? toTime(raw) : raw);
      return expr.negated
        ? (rec) => accessor.get(rec) != null && !has(accessor.get(rec))
        : (rec) => has(accessor.get(rec));
    }
    case 'quantified': {
      const spec = resourceSpec(type);
      const name = expr.path.join('.');
      const relation = expr.path.length === 1 ? own(spec.toMany, name) : undefined;
      if (!relation) {
        throw new FilterFieldError(
          `Unknown to-many relation '${name}' on ${type}`,
          expr.span,
          Object.keys(spec.toMany ?? {}),
        );
      }
      const inner = compile(expr.condition, relation.type, env);
      const childType = relation.type;
      const childSpec = resourceSpec(childType);
      const live = (r: FilterRecord) => !childSpec.softDelete || r.attributes.deletedAt == null;
      const children = isLinked(relation)
        ? (rec: FilterRecord) => env.linked(type, name, rec.id)
        : (rec: FilterRecord) => env.children(childType, relation.foreignKey, rec.id);
      return (rec) => {
        let any = false;
        let all = true;
        for (const child of children(rec)) {
          if (!live(child)) continue;
          if (inner(child)) any = true;
          else all = false;
          if (expr.quantifier === 'ANY' && any) return true;
        }
        return expr.quantifier === 'ANY' ? any : expr.quantifier === 'ALL' ? all : !any;
      };
    }
  }
}

/** `a.b.c`: to-one relations, then an attribute (or id, or customFields.<name>). */
function resolvePath(path: string[], type: ResourceType, env: FilterEnv, span: Span): Accessor {
  let current: ResourceType = type;
  const hops: { type: ResourceType; via: string }[] = [];
  for (let i = 0; i < path.length; i++) {
    const name = path[i]!;
    const spec = resourceSpec(current);
    const rest = path.length - i - 1;
    const toOne = rest > 0 ? own(spec.toOne, name) : undefined;
    if (toOne) {
      hops.push({ type: toOne.type, via: toOne.via });
      current = toOne.type;
      continue;
    }
    const follow = (rec: FilterRecord): FilterRecord | undefined => {
      let at: FilterRecord | undefined = rec;
      for (const hop of hops) {
        const id: unknown = at?.attributes[hop.via];
        at = typeof id === 'string' ? env.lookup(hop.type, id) : undefined;
      }
      return at;
    };
    if (name === 'customFields' && rest === 1 && spec.attributes.customFields) {
      const field = path[i + 1]!;
      const defined = env.customFields(current);
      if (!defined.includes(field)) {
        throw new FilterFieldError(
          `Unknown custom field '${field}' on ${current}`,
          span,
          defined.map((d) => `customFields.${d}`),
        );
      }
      return {
        get: (rec) =>
          own(follow(rec)?.attributes.customFields as Record<string, unknown> | undefined, field),
        spec: { kind: 'any' },
      };
    }
    if (rest === 0 && name === 'id')
      return { get: (rec) => follow(rec)?.id, spec: { kind: 'uuid' } };
    const attribute = rest === 0 ? own(spec.attributes, name) : undefined;
    if (attribute) return { get: (rec) => follow(rec)?.attributes[name], spec: attribute };
    throw new FilterFieldError(
      `Unknown field '${path.slice(0, i + 1).join('.')}' on ${type}`,
      span,
      validNames(current, env),
    );
  }
  throw new FilterFieldError(
    `'${path.join('.')}' is a relation, not a field`,
    span,
    validNames(current, env),
  );
}

export function validNames(type: ResourceType, env: Pick<FilterEnv, 'customFields'>): string[] {
  const spec = resourceSpec(type);
  return [
    'id',
    ...Object.keys(spec.attributes).filter((a) => a !== 'id'),
    ...Object.keys(spec.toOne ?? {}).map((r) => `${r}.<field>`),
    ...Object.keys(spec.toMany ?? {}).map((r) => `${r} ANY|ALL|NONE (...)`),
    ...env.customFields(type).map((c) => `customFields.${c}`),
  ];
}

function evaluate(node: ValueNode, env: FilterEnv): Const {
  switch (node.kind) {
    case 'string':
      return interpolate(node.value, env);
    case 'number':
    case 'boolean':
      return node.value;
    case 'now':
      return new Date(env.now).toISOString();
    case 'offset': {
      const base = evaluate(node.base, env);
      const at = typeof base === 'string' ? Date.parse(base) : NaN;
      if (Number.isNaN(at))
        throw new FilterFieldError('Only dates (now, startOfDay(), ...) take an offset', node.span);
      return new Date(at + node.sign * node.amount * TIME_UNITS[node.unit]).toISOString();
    }
    case 'call':
      return call(
        node.name,
        node.args.map((a) => evaluate(a, env)),
        env,
        node.span,
      );
  }
}

/** `{$...}` inside a string: an embedded value expression, e.g. "Nightly {$startOfDay()}". */
function interpolate(text: string, env: FilterEnv): string {
  if (!text.includes('{$')) return text;
  return text.replace(/\{\$([^}]*)\}/g, (_m, inner: string) => {
    const expr = parseFilter(`x = ${inner}`);
    if (expr.kind !== 'compare')
      throw new FilterFieldError(`Invalid embedded expression {$${inner}}`, expr.span);
    const value = evaluate(expr.value, env);
    return Array.isArray(value) ? value.join(',') : String(value);
  });
}

function call(name: string, args: Const[], env: FilterEnv, span: Span): Const {
  const now = new Date(env.now);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const day = Date.UTC(y, m, d);
  const monday = day - ((now.getUTCDay() + 6) % 7) * TIME_UNITS.d;
  const iso = (ms: number) => new Date(ms).toISOString();
  switch (name as keyof typeof FUNCTIONS) {
    case 'currentUser':
      return env.currentUserId ?? '';
    case 'startOfDay':
      return iso(day);
    case 'endOfDay':
      return iso(day + TIME_UNITS.d - 1);
    case 'startOfWeek':
      return iso(monday);
    case 'endOfWeek':
      return iso(monday + TIME_UNITS.w - 1);
    case 'startOfMonth':
      return iso(Date.UTC(y, m, 1));
    case 'endOfMonth':
      return iso(Date.UTC(y, m + 1, 1) - 1);
    case 'startOfYear':
      return iso(Date.UTC(y, 0, 1));
    case 'endOfYear':
      return iso(Date.UTC(y + 1, 0, 1) - 1);
    case 'membersOf':
      return env.membersOf(String(args[0]));
    default:
      throw new FilterFieldError(`Unknown function ${name}()`, span, Object.keys(FUNCTIONS));
  }
}

/** A filter value in the field's own terms; a mismatch is a 400, not a silent non-match. */
function coerce(value: Const, spec: Accessor['spec'], path: string[], span: Span): unknown {
  const name = path.join('.');
  switch (spec.kind) {
    case 'integer':
    case 'number':
      if (typeof value !== 'number')
        throw new FilterFieldError(`${name} is a number; compare it with a number`, span);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean')
        throw new FilterFieldError(`${name} is a boolean; compare it with true or false`, span);
      return value;
    case 'date-time': {
      const at = typeof value === 'string' ? Date.parse(value) : NaN;
      if (Number.isNaN(at))
        throw new FilterFieldError(
          `${name} is a date; compare it with an ISO date, now or a date function`,
          span,
        );
      return at;
    }
    case 'any':
      return value;
    default:
      if (typeof value !== 'string')
        throw new FilterFieldError(`${name} is a string; put the value in quotes`, span);
      return value;
  }
}

function toTime(raw: unknown): number {
  return typeof raw === 'string' ? Date.parse(raw) : NaN;
}

function comparator(op: string, value: unknown, spec: Accessor['spec']): (raw: unknown) => boolean {
  const isDate = spec.kind === 'date-time';
  const read = isDate ? toTime : (raw: unknown) => raw;
  switch (op) {
    case '=':
      return (raw) => raw != null && read(raw) === value;
    case '!=':
      return (raw) => raw != null && read(raw) !== value;
    case '~': {
      const needle = String(value).toLowerCase();
      return (raw) => typeof raw === 'string' && raw.toLowerCase().includes(needle);
    }
    default: {
      const cmp = (a: unknown) => compareValues(a, value);
      const ok = {
        '>': (c: number) => c > 0,
        '>=': (c: number) => c >= 0,
        '<': (c: number) => c < 0,
        '<=': (c: number) => c <= 0,
      }[op as '>' | '>=' | '<' | '<='];
      return (raw) => raw != null && ok(cmp(read(raw)));
    }
  }
}

export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
