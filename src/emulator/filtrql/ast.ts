/** FiltrQL AST (docs/service-api.md 4.2): a tagged union, every node with its source span. */

export interface Span {
  start: number;
  end: number;
}

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~';
export type Quantifier = 'ANY' | 'ALL' | 'NONE';
export type TimeUnit = 's' | 'm' | 'h' | 'd' | 'w';

export type ValueNode =
  | { kind: 'string'; value: string; span: Span }
  | { kind: 'number'; value: number; span: Span }
  | { kind: 'boolean'; value: boolean; span: Span }
  | { kind: 'call'; name: string; args: ValueNode[]; span: Span }
  | { kind: 'now'; span: Span }
  /** `now - 7d`, `startOfDay() + 2h` */
  | { kind: 'offset'; base: ValueNode; sign: 1 | -1; amount: number; unit: TimeUnit; span: Span };

export type Expr =
  | { kind: 'and' | 'or'; left: Expr; right: Expr; span: Span }
  | { kind: 'not'; operand: Expr; span: Span }
  | { kind: 'compare'; path: string[]; op: CompareOp; value: ValueNode; span: Span }
  | { kind: 'in'; path: string[]; negated: boolean; values: ValueNode[]; span: Span }
  | { kind: 'null'; path: string[]; negated: boolean; span: Span }
  | { kind: 'quantified'; path: string[]; quantifier: Quantifier; condition: Expr; span: Span };
