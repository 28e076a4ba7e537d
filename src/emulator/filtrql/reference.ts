/**
 * The language's own tables: the lexer, the parser, the evaluator and GET /filter-reference all
 * read these, so the reference can never drift from what is accepted.
 */
import type { CompareOp, Quantifier, TimeUnit } from './ast.js';

export const COMPARE_OPERATORS: Record<CompareOp, string> = {
  '=': 'equal',
  '!=': 'not equal',
  '>': 'greater than',
  '>=': 'greater than or equal',
  '<': 'less than',
  '<=': 'less than or equal',
  '~': 'contains, case-insensitive (strings)',
};

export const KEYWORDS = [
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'NOW',
  'ANY',
  'ALL',
  'NONE',
] as const;

export const QUANTIFIERS: Record<Quantifier, string> = {
  ANY: 'at least one related record matches',
  ALL: 'every related record matches (true when there are none)',
  NONE: 'no related record matches',
};

export const TIME_UNITS: Record<TimeUnit, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

export interface FunctionSpec {
  args: number;
  returns: 'date' | 'user' | 'user-list';
  description: string;
}

export const FUNCTIONS: Record<string, FunctionSpec> = {
  currentUser: { args: 0, returns: 'user', description: 'the id of the token owner' },
  startOfDay: { args: 0, returns: 'date', description: 'today 00:00 UTC' },
  endOfDay: { args: 0, returns: 'date', description: 'today 23:59:59.999 UTC' },
  startOfWeek: { args: 0, returns: 'date', description: 'Monday 00:00 UTC of this week' },
  endOfWeek: { args: 0, returns: 'date', description: 'Sunday 23:59:59.999 UTC of this week' },
  startOfMonth: { args: 0, returns: 'date', description: 'the first day of this month, 00:00 UTC' },
  endOfMonth: {
    args: 0,
    returns: 'date',
    description: 'the last day of this month, 23:59:59.999 UTC',
  },
  startOfYear: { args: 0, returns: 'date', description: 'January 1, 00:00 UTC' },
  endOfYear: { args: 0, returns: 'date', description: 'December 31, 23:59:59.999 UTC' },
  membersOf: { args: 1, returns: 'user-list', description: 'ids of the users with the given role' },
};
