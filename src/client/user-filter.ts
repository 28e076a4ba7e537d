/**
 * A filter a user wrote (--gate-filter, --populate), read as a FiltrQL expression before it is
 * combined with the client's own conditions (docs/service-api.md 4.2). The client does not evaluate
 * FiltrQL, so this parser checks structure only: strings, parentheses, AND/OR/NOT and conditions.
 * That is what keeps a user's text inside its parentheses: `a = "x") OR (b is not null` is refused
 * instead of widening the gate to other cycles. Fields, functions and operators are the service's
 * to judge. The emulator has its own full parser; the two share no code (docs/design.md).
 *
 *   expr      := and (OR and)*
 *   and       := unary (AND unary)*
 *   unary     := NOT unary | '(' expr ')' | condition
 *   condition := word part*          (ends at AND, OR, ')' or the end)
 *   part      := word | string | operator | ',' | '(' (expr | list) ')'
 */
import { ConfigError } from '../shared/errors.js';

type TokenKind = 'word' | 'string' | 'op' | '(' | ')' | ',' | 'eof';
interface Token {
  kind: TokenKind;
  /** The source text, verbatim (a string keeps its own quotes and escapes). */
  text: string;
  at: number;
  /** Whitespace came before it: kept, so `now-7d` and `f(x)` are written back as the user wrote them. */
  spaced: boolean;
}

export type UserExpr =
  | { kind: 'and' | 'or'; items: UserExpr[] }
  | { kind: 'not'; item: UserExpr }
  | { kind: 'condition'; parts: Part[] };

/** A token of a condition, or a parenthesised group inside it (a call, an `in` list, ANY (...)). */
type Part = { token: Token } | { group: UserExpr | Part[][]; spaced: boolean };

/** Deeper nesting than this is not a filter a person wrote; refusing it keeps the stack bounded. */
const MAX_DEPTH = 64;
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);
const QUANTIFIERS = new Set(['ANY', 'ALL', 'NONE']);
const OPERATORS = ['!=', '>=', '<=', '=', '>', '<', '~', '+', '-'];

function tokenize(text: string, parameter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let spaced = false;
  const fail = (what: string): never => {
    throw new ConfigError(parameter, `${what} at character ${i + 1}; ${hint(parameter)}`);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      spaced = true;
      continue;
    }
    const start = i;
    const push = (kind: TokenKind) => {
      tokens.push({ kind, text: text.slice(start, i), at: start, spaced });
      spaced = false;
    };
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) {
        i = start;
        fail('a string that is never closed');
      }
      i++;
      push('string');
    } else if (c === '(' || c === ')' || c === ',') {
      i++;
      push(c);
    } else if (/[A-Za-z0-9_$.]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_$.]/.test(text[i]!)) i++;
      push('word');
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (!op) fail(`unexpected ${JSON.stringify(c)}`);
      i += op!.length;
      push('op');
    }
  }
  tokens.push({ kind: 'eof', text: '', at: text.length, spaced });
  return tokens;
}

/** What each setting filters, by an example that is true for it (docs/service-api.md 4.2). */
const EXAMPLES: Record<string, string> = {
  'gate-filter': 'testCase.priority = "CRITICAL"',
  populate: 'automationStatus = "AUTOMATED"',
  'series-filter': 'name ~ "Nightly"',
};
const hint = (parameter: string) =>
  `write a FiltrQL condition such as ${EXAMPLES[parameter] ?? EXAMPLES['gate-filter']} (docs/service-api.md 4.2).`;

/** Parses a user's filter; a ConfigError names `parameter` and the position when it is not one. */
export function parseUserFilter(text: string, parameter: string): UserExpr {
  const tokens = tokenize(text, parameter);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const keyword = (word: string) => peek().kind === 'word' && peek().text.toUpperCase() === word;
  const fail = (what: string): never => {
    const token = peek();
    const found = token.kind === 'eof' ? 'the end' : JSON.stringify(token.text);
    throw new ConfigError(
      parameter,
      `${what}, found ${found} at character ${token.at + 1}; ${hint(parameter)}`,
    );
  };
  const close = () => {
    if (peek().kind !== ')') fail("expected ')'");
    pos++;
  };

  const expr = (depth: number): UserExpr => {
    if (depth > MAX_DEPTH) fail(`nested more than ${MAX_DEPTH} levels deep`);
    return chain('or', () => chain('and', () => unary(depth)));
  };
  const chain = (kind: 'and' | 'or', item: () => UserExpr): UserExpr => {
    const items = [item()];
    while (keyword(kind.toUpperCase())) {
      pos++;
      items.push(item());
    }
    return items.length === 1 ? items[0]! : { kind, items };
  };
  const unary = (depth: number): UserExpr => {
    if (keyword('NOT')) {
      pos++;
      return { kind: 'not', item: unary(depth + 1) };
    }
    if (peek().kind === '(') {
      pos++;
      const inner = expr(depth + 1);
      close();
      return inner;
    }
    return condition(depth);
  };
  const condition = (depth: number): UserExpr => {
    if (peek().kind !== 'word' || KEYWORDS.has(peek().text.toUpperCase()))
      fail('expected a condition');
    const parts: Part[] = [];
    for (;;) {
      const token = peek();
      if (token.kind === 'eof' || token.kind === ')') break;
      if (token.kind === 'word' && ['AND', 'OR'].includes(token.text.toUpperCase())) break;
      if (token.kind === '(') {
        pos++;
        const previous = parts.at(-1);
        const quantified =
          previous && 'token' in previous && QUANTIFIERS.has(previous.token.text.toUpperCase());
        parts.push({
          group: quantified ? expr(depth + 1) : list(depth + 1),
          spaced: token.spaced,
        });
        close();
        continue;
      }
      parts.push({ token });
      pos++;
    }
    if (parts.length < 2) fail('expected an operator after the field');
    // `automationStatus =` with nothing after the operator: the value is missing.
    const last = parts.at(-1)!;
    if ('token' in last && last.token.kind === 'op')
      fail(`expected a value after ${JSON.stringify(last.token.text)}`);
    return { kind: 'condition', parts };
  };
  // The inside of a call or an `in (...)` list: values separated by commas.
  const list = (depth: number): Part[][] => {
    if (depth > MAX_DEPTH) fail(`nested more than ${MAX_DEPTH} levels deep`);
    const items: Part[][] = [];
    let current: Part[] = [];
    for (;;) {
      const token = peek();
      if (token.kind === 'eof' || token.kind === ')') break;
      pos++;
      if (token.kind === ',') {
        items.push(current);
        current = [];
      } else if (token.kind === '(') {
        current.push({ group: list(depth + 1), spaced: token.spaced });
        close();
      } else current.push({ token });
    }
    if (current.length || items.length) items.push(current);
    return items;
  };

  if (peek().kind === 'eof') fail('is empty: expected a condition');
  const parsed = expr(0);
  if (peek().kind !== 'eof')
    fail(peek().kind === ')' ? "a ')' closes nothing" : 'expected AND, OR or the end');
  return parsed;
}

/** FiltrQL text for a parsed user filter: fully parenthesised, the user's strings as written. */
export function userFilterText(expr: UserExpr): string {
  switch (expr.kind) {
    case 'and':
    case 'or':
      return expr.items
        .map((item) =>
          item.kind === 'condition' || item.kind === 'not'
            ? userFilterText(item)
            : `(${userFilterText(item)})`,
        )
        .join(` ${expr.kind.toUpperCase()} `);
    case 'not':
      return `NOT (${userFilterText(expr.item)})`;
    case 'condition':
      return partsText(expr.parts);
  }
}

function partsText(parts: Part[]): string {
  return parts
    .map((part, i) => {
      const text =
        'token' in part
          ? part.token.text
          : `(${Array.isArray(part.group) ? part.group.map(partsText).join(', ') : userFilterText(part.group)})`;
      const spaced = 'token' in part ? part.token.spaced : part.spaced;
      return i > 0 && spaced ? ` ${text}` : text;
    })
    .join('');
}
