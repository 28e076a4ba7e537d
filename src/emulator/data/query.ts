/**
 * Query parameters (docs/service-api.md 4.1, 4.3): which a route accepts, and their parsing into
 * checked values. An unknown parameter or name gives 400 naming what is valid.
 */
import { MAX_PAGE_SIZE } from '../../schema/limits.js';
import { resourceSpec, type ResourceType } from '../../schema/resources.js';
import { ApiError } from '../model/errors.js';
import { compileFilter, type FilterEnv, FilterFieldError } from '../filtrql/evaluator.js';
import { FilterSyntaxError } from '../filtrql/lexer.js';
import { own } from '../model/own.js';
import type { StoredRecord } from './store.js';

export const DEFAULT_PAGE_SIZE = 25;
export { MAX_PAGE_SIZE };
export const MAX_INCLUDE_DEPTH = 3;

export const LIST_PARAMS = [
  'filter',
  'sort',
  'page[number]',
  'page[size]',
  'page[after]',
  'include',
  'withDeleted',
];
export const ONE_PARAMS = ['include', 'withDeleted'];
export const AGGREGATE_PARAMS = [
  'filter',
  'aggregations[count]',
  'aggregations[groupBy][]',
  'withDeleted',
];
export const AGGREGATE_FUNCTIONS = ['sum', 'avg', 'min', 'max'] as const;

/** Unknown query parameters give 400 (docs/design.md); fields[<type>] is checked in parseFieldsets. */
export function checkParams(query: URLSearchParams, allowed: string[], type: ResourceType): void {
  for (const name of query.keys()) {
    if (allowed.includes(name)) continue;
    if (/^fields\[[^\]]+\]$/.test(name) && (allowed.includes('include') || allowed === LIST_PARAMS))
      continue;
    throw new ApiError(
      400,
      'UNKNOWN_PARAMETER',
      `Unknown query parameter '${name}' on this ${type} route. Valid: ${allowed.join(', ') || 'none'}${allowed.includes('include') ? ', fields[<type>]' : ''}.`,
      {
        parameter: name,
      },
    );
  }
}

export function flag(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  if (v === null) return false;
  if (v !== 'true' && v !== 'false')
    throw new ApiError(400, 'INVALID_PARAMETER', `${name} must be true or false.`, {
      parameter: name,
    });
  return v === 'true';
}

export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const v = query.get(name);
  if (v === null) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) {
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      `${name} must be a whole number from ${min} to ${max}.`,
      { parameter: name },
    );
  }
  return n;
}

export interface SortKey {
  name: string;
  desc: boolean;
}

export function parseSort(type: ResourceType, text: string | null): SortKey[] {
  if (!text) return [];
  const attrs = resourceSpec(type).attributes;
  return text.split(',').map((part) => {
    const desc = part.startsWith('-');
    const name = desc ? part.slice(1) : part;
    if (name !== 'id' && !own(attrs, name)) {
      throw new ApiError(
        400,
        'UNKNOWN_FIELD',
        `Unknown sort field '${name}' on ${type}. Valid names: id, ${Object.keys(attrs).join(', ')}.`,
        { parameter: 'sort' },
      );
    }
    return { name, desc };
  });
}

/** filter and withDeleted as one test of a record (soft-deleted ones only when asked for). */
export function recordFilter(
  type: ResourceType,
  query: URLSearchParams,
  env: () => FilterEnv,
): (r: StoredRecord) => boolean {
  const text = query.get('filter');
  const withDeleted = flag(query, 'withDeleted');
  const softDelete = resourceSpec(type).softDelete === true;
  const live = (r: StoredRecord) => withDeleted || !softDelete || r.attributes.deletedAt == null;
  if (text === null || text.trim() === '') return live;
  try {
    const test = compileFilter(text, type, env());
    return (r) => live(r) && test(r);
  } catch (error) {
    if (error instanceof FilterSyntaxError) {
      throw new ApiError(400, 'INVALID_FILTER', `Unparsable filter: ${error.message}`, {
        parameter: 'filter',
      });
    }
    if (error instanceof FilterFieldError) {
      const valid = error.valid.length ? ` Valid names: ${error.valid.join(', ')}.` : '';
      throw new ApiError(400, 'UNKNOWN_FIELD', `${error.message}.${valid}`, {
        parameter: 'filter',
      });
    }
    throw error;
  }
}
