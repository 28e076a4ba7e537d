import { COMPARE_OPERATORS, KEYWORDS } from './reference.js';
import type { Span } from './ast.js';

export type TokenKind =
  | 'ident'
  | 'keyword'
  | 'string'
  | 'number'
  | 'duration'
  | 'op'
  | '('
  | ')'
  | ','
  | '.'
  | '+'
  | '-'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Identifier text, upper-cased keyword, decoded string, operator. */
  text: string;
  number?: number;
  span: Span;
}

/** A syntax error with offset, line and column, quoting the input (docs/architecture.md "Query language": liqe, rsql). */
export class FilterSyntaxError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  constructor(input: string, offset: number, what: string) {
    const before = input.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const shown = input.length > 200 ? `${input.slice(0, 197)}...` : input;
    super(`${what} at ${offset} (line ${line}, column ${column}) in ${JSON.stringify(shown)}`);
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

const KEYWORD_SET = new Set<string>(KEYWORDS);
const OPERATORS = Object.keys(COMPARE_OPERATORS).sort((a, b) => b.length - a.length);
const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= input.length) throw new FilterSyntaxError(input, start, 'Unterminated string');
        const ch = input[i]!;
        if (ch === '\\') {
          const next = input[i + 1];
          if (next !== '"' && next !== "'" && next !== '\\') {
            throw new FilterSyntaxError(
              input,
              i,
              `Unknown escape '\\${next ?? ''}' (use \\" \\' or \\\\)`,
            );
          }
          value += next;
          i += 2;
          continue;
        }
        i++;
        if (ch === c) break;
        value += ch;
      }
      tokens.push({ kind: 'string', text: value, span: { start, end: i } });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < input.length && /[0-9]/.test(input[i]!)) i++;
      if (input[i] === '.' && /[0-9]/.test(input[i + 1] ?? '')) {
        i++;
        while (i < input.length && /[0-9]/.test(input[i]!)) i++;
      }
      // Exponents, as JavaScript writes very small and very large numbers (5e-324, 1e+21).
      const exponent = /^[eE][+-]?[0-9]+/.exec(input.slice(i));
      if (exponent) i += exponent[0].length;
      const number = Number(input.slice(start, i));
      // `7d`: a number glued to a time unit is a duration.
      if (/[smhdw]/.test(input[i] ?? '') && !IDENT_PART.test(input[i + 1] ?? '')) {
        tokens.push({ kind: 'duration', text: input[i]!, number, span: { start, end: i + 1 } });
        i++;
        continue;
      }
      if (IDENT_PART.test(input[i] ?? ''))
        throw new FilterSyntaxError(input, i, `Unexpected '${input[i]}'`);
      tokens.push({ kind: 'number', text: input.slice(start, i), number, span: { start, end: i } });
      continue;
    }
    if (IDENT_START.test(c)) {
      while (i < input.length && IDENT_PART.test(input[i]!)) i++;
      const text = input.slice(start, i);
      const upper = text.toUpperCase();
      tokens.push(
        KEYWORD_SET.has(upper)
          ? { kind: 'keyword', text: upper, span: { start, end: i } }
          : { kind: 'ident', text, span: { start, end: i } },
      );
      continue;
    }
    const op = OPERATORS.find((o) => input.startsWith(o, i));
    if (op) {
      i += op.length;
      tokens.push({ kind: 'op', text: op, span: { start, end: i } });
      continue;
    }
    if ('(),.+-'.includes(c)) {
      i++;
      tokens.push({ kind: c as TokenKind, text: c, span: { start, end: i } });
      continue;
    }
    throw new FilterSyntaxError(input, i, `Unexpected '${c}'`);
  }
  tokens.push({ kind: 'eof', text: '', span: { start: input.length, end: input.length } });
  return tokens;
}
