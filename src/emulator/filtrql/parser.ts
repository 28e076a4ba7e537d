/**
 * Recursive-descent parser: tokens -> AST. Grammar (keywords case-insensitive):
 *
 *   expr      := and (OR and)*
 *   and       := unary (AND unary)*
 *   unary     := NOT unary | '(' expr ')' | condition
 *   condition := path ( op value | [NOT] IN ( '(' value (',' value)* ')' | call )
 *                     | IS [NOT] NULL | (ANY | ALL | NONE) '(' expr ')' )
 *   path      := ident ('.' ident)*
 *   value     := (string | number | TRUE | FALSE | NOW | call) [('+' | '-') duration]
 */
import type { CompareOp, Expr, Quantifier, Span, TimeUnit, ValueNode } from './ast.js';
import { FilterSyntaxError, tokenize, type Token, type TokenKind } from './lexer.js';
import { own } from '../model/own.js';
import { FUNCTIONS } from './reference.js';

export function parseFilter(input: string): Expr {
  return new Parser(input).parse();
}

/**
 * Limits that keep one request from taking the server down: nesting is bounded so the parser and
 * the evaluator cannot overflow the stack, and conditions so that one filter cannot hold the
 * server for seconds over a large Space (long value lists belong in `in (...)`).
 */
export const MAX_FILTER_DEPTH = 64;
export const MAX_FILTER_CONDITIONS = 200;

class Parser {
  private readonly tokens: Token[];
  private pos = 0;
  private depth = 0;
  private conditions = 0;
  constructor(private readonly input: string) {
    this.tokens = tokenize(input);
  }

  parse(): Expr {
    if (this.peek().kind === 'eof') this.fail('Expected a condition');
    const expr = this.or();
    if (this.peek().kind !== 'eof') this.fail('Expected AND, OR or the end');
    return expr;
  }

  private or(): Expr {
    let left = this.and();
    while (this.isKeyword('OR')) {
      this.next();
      const right = this.and();
      left = { kind: 'or', left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private and(): Expr {
    let left = this.unary();
    while (this.isKeyword('AND')) {
      this.next();
      const right = this.unary();
      left = { kind: 'and', left, right, span: join(left.span, right.span) };
    }
    return left;
  }

  private unary(): Expr {
    const token = this.peek();
    if (this.isKeyword('NOT')) {
      this.next();
      const operand = this.nested(() => this.unary());
      return { kind: 'not', operand, span: join(token.span, operand.span) };
    }
    if (token.kind === '(') {
      this.next();
      const inner = this.nested(() => this.or());
      this.expect(')', "Expected ')'");
      return inner;
    }
    return this.condition();
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_FILTER_DEPTH)
      this.fail(`Nested deeper than ${MAX_FILTER_DEPTH} levels (the limit)`);
    const result = parse();
    this.depth--;
    return result;
  }

  private condition(): Expr {
    if (++this.conditions > MAX_FILTER_CONDITIONS)
      this.fail(
        `More than ${MAX_FILTER_CONDITIONS} conditions (the limit); use field in (...) for long lists`,
      );
    const first = this.expect('ident', 'Expected a field name');
    const path = [first.text];
    while (this.peek().kind === '.') {
      this.next();
      const part = this.expect('ident', 'Expected a field name after "."');
      path.push(part.text);
    }
    const token = this.peek();
    if (token.kind === 'op') {
      this.next();
      const value = this.value();
      return {
        kind: 'compare',
        path,
        op: token.text as CompareOp,
        value,
        span: join(first.span, value.span),
      };
    }
    if (this.isKeyword('NOT') || this.isKeyword('IN')) {
      const negated = this.isKeyword('NOT');
      if (negated) this.next();
      if (!this.isKeyword('IN')) this.fail('Expected IN after NOT');
      this.next();
      const values: ValueNode[] = [];
      let close: Token | undefined;
      // `in membersOf(...)`: a call stands for the list; a ')' after it belongs to an outer group.
      if (this.peek().kind === 'ident') {
        values.push(this.value());
      } else {
        this.expect('(', "Expected '(' after IN");
        values.push(this.value());
        while (this.peek().kind === ',') {
          this.next();
          values.push(this.value());
        }
        close = this.expect(')', "Expected ',' or ')'");
      }
      return {
        kind: 'in',
        path,
        negated,
        values,
        span: join(first.span, close?.span ?? values.at(-1)!.span),
      };
    }
    if (this.isKeyword('IS')) {
      this.next();
      const negated = this.isKeyword('NOT');
      if (negated) this.next();
      if (!this.isKeyword('NULL')) this.fail('Expected NULL');
      const last = this.next();
      return { kind: 'null', path, negated, span: join(first.span, last.span) };
    }
    if (this.isKeyword('ANY') || this.isKeyword('ALL') || this.isKeyword('NONE')) {
      const quantifier = this.next().text as Quantifier;
      this.expect('(', `Expected '(' after ${quantifier}`);
      const condition = this.nested(() => this.or());
      const close = this.expect(')', "Expected ')'");
      return {
        kind: 'quantified',
        path,
        quantifier,
        condition,
        span: join(first.span, close.span),
      };
    }
    return this.fail('Expected an operator (= != > >= < <= ~), IN, IS, ANY, ALL or NONE');
  }

  private value(): ValueNode {
    const base = this.atom();
    const sign = this.peek().kind;
    if (sign === '+' || sign === '-') {
      this.next();
      const duration = this.expect('duration', 'Expected a duration such as 7d (units s m h d w)');
      return {
        kind: 'offset',
        base,
        sign: sign === '+' ? 1 : -1,
        amount: duration.number!,
        unit: duration.text as TimeUnit,
        span: join(base.span, duration.span),
      };
    }
    return base;
  }

  private atom(): ValueNode {
    const token = this.peek();
    switch (token.kind) {
      case 'string':
        this.next();
        return { kind: 'string', value: token.text, span: token.span };
      case 'number':
        this.next();
        return { kind: 'number', value: token.number!, span: token.span };
      case '-': {
        this.next();
        const n = this.expect('number', 'Expected a number after "-"');
        return { kind: 'number', value: -n.number!, span: join(token.span, n.span) };
      }
      case 'keyword':
        if (token.text === 'TRUE' || token.text === 'FALSE') {
          this.next();
          return { kind: 'boolean', value: token.text === 'TRUE', span: token.span };
        }
        if (token.text === 'NOW') {
          this.next();
          return { kind: 'now', span: token.span };
        }
        break;
      case 'ident': {
        const spec = own(FUNCTIONS, token.text);
        if (!spec) break;
        this.next();
        this.expect('(', `Expected '(' after ${token.text}`);
        const args: ValueNode[] = [];
        if (this.peek().kind !== ')') {
          args.push(this.nested(() => this.value()));
          while (this.peek().kind === ',') {
            this.next();
            args.push(this.nested(() => this.value()));
          }
        }
        const close = this.expect(')', "Expected ')'");
        if (args.length !== spec.args) {
          throw new FilterSyntaxError(
            this.input,
            token.span.start,
            `${token.text}() takes ${spec.args} argument(s), got ${args.length}`,
          );
        }
        return { kind: 'call', name: token.text, args, span: join(token.span, close.span) };
      }
      default:
        break;
    }
    return this.fail(
      token.kind === 'ident'
        ? `Unknown function or bare word '${token.text}' (strings need quotes; functions: ${Object.keys(FUNCTIONS).join(', ')})`
        : 'Expected a value (string, number, true, false, now or a function)',
    );
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }
  private next(): Token {
    return this.tokens[this.pos++]!;
  }
  private isKeyword(word: string): boolean {
    const t = this.peek();
    return t.kind === 'keyword' && t.text === word;
  }
  private expect(kind: TokenKind, what: string): Token {
    if (this.peek().kind !== kind) this.fail(what);
    return this.next();
  }
  private fail(what: string): never {
    const token = this.peek();
    const found =
      token.kind === 'eof'
        ? 'end of input'
        : `'${this.input.slice(token.span.start, token.span.end)}'`;
    throw new FilterSyntaxError(this.input, token.span.start, `${what}, found ${found}`);
  }
}

function join(a: Span, b: Span): Span {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}
