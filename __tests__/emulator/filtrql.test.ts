/**
 * FiltrQL (docs/service-api.md 4.2): each query is its own test name over one shared dataset, plus a
 * property test that the client's builder and the emulator's parser agree.
 */
import fc from 'fast-check';
import { f, toFiltrQL, type Filter } from '../../src/client/filter.js';
import {
  compileFilter,
  type FilterEnv,
  type FilterRecord,
} from '../../src/emulator/filtrql/evaluator.js';
import { FilterSyntaxError } from '../../src/emulator/filtrql/lexer.js';
import { parseFilter } from '../../src/emulator/filtrql/parser.js';
import type { Expr, ValueNode } from '../../src/emulator/filtrql/ast.js';
import type { ResourceType } from '../../src/schema/resources.js';

const NOW = Date.parse('2026-11-18T12:00:00Z'); // a Wednesday
const day = 86_400_000;
const ADA = 'a0000000-0000-4000-8000-000000000001';
const BOB = 'b0000000-0000-4000-8000-000000000002';

const users: FilterRecord[] = [
  { id: ADA, attributes: { name: 'Ada', email: 'ada@example.com' } },
  { id: BOB, attributes: { name: 'Bob', email: 'bob@example.com' } },
];
const cases: FilterRecord[] = [
  {
    id: 'c1',
    attributes: {
      name: 'Login works',
      priority: 'CRITICAL',
      rank: 1,
      automationKey: 'auth.Login',
      ownerId: ADA,
      updatedAt: new Date(NOW - 2 * 3_600_000).toISOString(),
      deletedAt: null,
      customFields: { component: 'auth' },
    },
  },
  {
    id: 'c2',
    attributes: {
      name: 'Logout "quoted"',
      priority: 'HIGH',
      rank: 2,
      automationKey: null,
      ownerId: BOB,
      updatedAt: new Date(NOW - 3 * day).toISOString(),
      deletedAt: null,
      customFields: { component: 'auth' },
    },
  },
  {
    id: 'c3',
    attributes: {
      name: 'Prüfung \\ back',
      priority: 'LOW',
      rank: 3,
      automationKey: 'ui.Check',
      ownerId: null,
      updatedAt: new Date(NOW - 10 * day).toISOString(),
      deletedAt: null,
      customFields: {},
    },
  },
];
const executions: FilterRecord[] = [
  { id: 'e1', attributes: { testCaseId: 'c1', testCycleId: 'r1', result: 'PASSED' } },
  { id: 'e2', attributes: { testCaseId: 'c2', testCycleId: 'r1', result: 'FAILED' } },
  { id: 'e3', attributes: { testCaseId: 'c2', testCycleId: 'r2', result: 'PASSED' } },
];

const requirements: FilterRecord[] = [
  { id: 'q1', attributes: { requirementKey: 'DEMO-REQ1', status: 'READY', deletedAt: null } },
  { id: 'q2', attributes: { requirementKey: 'DEMO-REQ2', status: 'COVERED', deletedAt: null } },
];
/** Requirement links (test_cases.requirements), the many-to-many relation. */
const links: [string, string][] = [
  ['c1', 'q1'],
  ['c2', 'q1'],
  ['c2', 'q2'],
];

const env: FilterEnv = {
  now: NOW,
  currentUserId: ADA,
  membersOf: (role) => (role === 'tester' ? [BOB] : []),
  lookup: (type, id) =>
    (type === 'users' ? users : type === 'test_cases' ? cases : []).find((r) => r.id === id),
  children: (type, fk, id) =>
    type === 'test_case_executions' ? executions.filter((e) => e.attributes[fk] === id) : [],
  linked: (type, relation, id) =>
    type === 'test_cases' && relation === 'requirements'
      ? requirements.filter((q) => links.some(([c, r]) => c === id && r === q.id))
      : type === 'requirements' && relation === 'testCases'
        ? cases.filter((c) => links.some(([k, r]) => k === c.id && r === id))
        : [],
  customFields: (type) => (type === 'test_cases' ? ['component'] : []),
};

function ids(type: ResourceType, query: string): string[] {
  const records =
    type === 'test_cases' ? cases : type === 'requirements' ? requirements : executions;
  const test = compileFilter(query, type, env);
  return records.filter(test).map((r) => r.id);
}

describe('test_cases', () => {
  test.each<[string, string[]]>([
    ['name = "Login works"', ['c1']],
    ["name = 'Login works'", ['c1']],
    ['name = "Logout \\"quoted\\""', ['c2']],
    ["name = 'Prüfung \\\\ back'", ['c3']],
    ['name != "Login works"', ['c2', 'c3']],
    ['name ~ "LOG"', ['c1', 'c2']],
    ['rank > 1', ['c2', 'c3']],
    ['rank >= 2 and rank <= 2', ['c2']],
    ['rank < 2 OR priority = "LOW"', ['c1', 'c3']],
    ['priority in ("CRITICAL", "HIGH")', ['c1', 'c2']],
    ['priority not in ("CRITICAL")', ['c2', 'c3']],
    ['automationKey is null', ['c2']],
    ['automationKey IS NOT NULL', ['c1', 'c3']],
    ['NOT (rank = 1)', ['c2', 'c3']],
    ['not rank = 1 and priority != "LOW"', ['c2']],
    ['(rank = 1 or rank = 2) and priority = "HIGH"', ['c2']],
    ['updatedAt > now - 1d', ['c1']],
    ['updatedAt > now-7d', ['c1', 'c2']],
    ['updatedAt >= startOfWeek()', ['c1']],
    ['updatedAt < startOfDay() - 1w', ['c3']],
    ['updatedAt > "2026-11-10T00:00:00Z"', ['c1', 'c2']],
    ['ownerId = currentUser()', ['c1']],
    ['ownerId in membersOf("tester")', ['c2']],
    ['ownerUser.name = "Bob"', ['c2']],
    ['ownerUser.email ~ "ada"', ['c1']],
    ['customFields.component = "auth"', ['c1', 'c2']],
    ['testCaseExecutions ANY (result = "FAILED")', ['c2']],
    ['testCaseExecutions ALL (result = "PASSED")', ['c1', 'c3']],
    ['testCaseExecutions NONE (result = "PASSED")', ['c3']],
    ['requirements ANY (requirementKey = "DEMO-REQ1")', ['c1', 'c2']],
    ['requirements ANY (requirementKey in ("DEMO-REQ2"))', ['c2']],
    ['requirements ALL (status = "READY")', ['c1', 'c3']],
    ['requirements NONE (requirementKey = "DEMO-REQ1")', ['c3']],
    ['name = "{$currentUser()}"', []],
    ['id = "c3"', ['c3']],
  ])('%s', (query, expected) => {
    expect(ids('test_cases', query)).toEqual(expected);
  });
});

describe('requirements', () => {
  test.each<[string, string[]]>([
    ['testCases ANY (priority = "CRITICAL")', ['q1']],
    ['testCases ANY (name ~ "log") AND status != "COVERED"', ['q1']],
    ['testCases NONE (priority = "CRITICAL")', ['q2']],
  ])('%s', (query, expected) => {
    expect(ids('requirements', query)).toEqual(expected);
  });
});

describe('test_case_executions', () => {
  test.each<[string, string[]]>([
    ['testCase.priority = "CRITICAL"', ['e1']],
    ['testCase.ownerUser.name = "Bob" AND result = "PASSED"', ['e3']],
    ['result = "PASSED" and testCycleId = "r1"', ['e1']],
  ])('%s', (query, expected) => {
    expect(ids('test_case_executions', query)).toEqual(expected);
  });
});

describe('errors', () => {
  test.each<[string, RegExp]>([
    ['name = ', /Expected a value .* at 7 \(line 1, column 8\)/],
    ['name "x"', /Expected an operator/],
    ['name = "x', /Unterminated string at 7/],
    ['name = "a\\n"', /Unknown escape/],
    ['(name = "x"', /Expected '\)'/],
    ['name = "x" name = "y"', /Expected AND, OR or the end/],
    ['name == "x"', /Expected a value/],
    ['rank = 1 AND', /Expected a field name, found end of input/],
    ['name = bare', /Unknown function or bare word 'bare'/],
    ['updatedAt > now - 7y', /Unexpected 'y'|Expected a duration/],
    ['membersOf()', /Expected an operator/],
    ['ownerId in membersOf()', /takes 1 argument/],
    ['name @ "x"', /Unexpected '@' at 5/],
  ])('%s', (query, message) => {
    expect(() => ids('test_cases', query)).toThrow(message);
  });

  test.each<[string, RegExp]>([
    ['nme = "x"', /Unknown field 'nme' on test_cases/],
    ['ownerUser.nme = "x"', /Unknown field 'ownerUser.nme'/],
    ['customFields.team = "x"', /Unknown custom field 'team'/],
    ['testSteps.name = "x"', /Unknown field/],
    ['rank = "one"', /rank is a number/],
    ['name = 3', /name is a string/],
    ['updatedAt > "yesterday"', /updatedAt is a date/],
    ['priority ANY (name = "x")', /Unknown to-many relation 'priority'/],
  ])('%s is a field error', (query, message) => {
    expect(() => ids('test_cases', query)).toThrow(message);
  });

  test('a syntax error carries offset, line and column', () => {
    let error: unknown;
    try {
      parseFilter('rank = 1 AND\n  name = ');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FilterSyntaxError);
    expect(error).toMatchObject({ offset: 22, line: 2, column: 10 });
  });
});

// ---- property: builder -> text -> parser gives back the same tree ----

type Norm =
  | { k: 'and' | 'or'; items: Norm[] }
  | { k: 'not'; item: Norm }
  | { k: 'cmp'; path: string; op: string; value: unknown }
  | { k: 'in'; path: string; neg: boolean; values: unknown[] }
  | { k: 'null'; path: string; neg: boolean };

/** FiltrQL has one zero: -0 is written and read back as 0. */
const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v === 0 ? 0 : v);

function fromBuilder(filter: Filter): Norm {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return {
        k: filter.kind,
        items: filter.items.flatMap((i) => flatten(fromBuilder(i), filter.kind as 'and' | 'or')),
      };
    case 'not':
      return { k: 'not', item: fromBuilder(filter.item) };
    case 'compare':
      return {
        k: 'cmp',
        path: filter.field,
        op: filter.op,
        value: plain(filter.value),
      };
    case 'in':
      return {
        k: 'in',
        path: filter.field,
        neg: filter.negated,
        values: filter.values.map(plain),
      };
    case 'null':
      return { k: 'null', path: filter.field, neg: filter.negated };
    case 'user':
      throw new Error('not generated');
  }
}

function value(node: ValueNode): unknown {
  if (node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean')
    return node.value;
  throw new Error(`unexpected ${node.kind}`);
}

function fromParser(expr: Expr): Norm {
  switch (expr.kind) {
    case 'and':
    case 'or':
      return {
        k: expr.kind,
        items: [
          ...flatten(fromParser(expr.left), expr.kind),
          ...flatten(fromParser(expr.right), expr.kind),
        ],
      };
    case 'not':
      return { k: 'not', item: fromParser(expr.operand) };
    case 'compare':
      return { k: 'cmp', path: expr.path.join('.'), op: expr.op, value: value(expr.value) };
    case 'in':
      return {
        k: 'in',
        path: expr.path.join('.'),
        neg: expr.negated,
        values: expr.values.map(value),
      };
    case 'null':
      return { k: 'null', path: expr.path.join('.'), neg: expr.negated };
    case 'quantified':
      throw new Error('not generated');
  }
}

function flatten(n: Norm, kind: 'and' | 'or'): Norm[] {
  return n.k === kind ? n.items : [n];
}

const fieldArb = fc.constantFrom(
  'name',
  'automationKey',
  'rank',
  'testCase.priority',
  'testCycle.testCycleKey',
  'customFields.component',
);
// Literals never hold "{$" (the service would evaluate it): f.same finds such values instead.
const stringArb = fc.oneof(
  fc.string().filter((s) => !s.includes('{$')),
  fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('{$')),
  fc.constantFrom(
    '"',
    "'",
    '\\',
    '\\"',
    'a"b\'c\\d',
    'Prüfung ✓ 測試',
    ' AND ',
    ')',
    '{x}',
    '$x',
    'x'.repeat(300),
  ),
);
const scalarArb = fc.oneof(
  stringArb,
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
);
const leafArb: fc.Arbitrary<Filter> = fc.oneof(
  fc
    .tuple(
      fieldArb,
      fc.constantFrom('=', '!=', '>', '>=', '<', '<=', '~') as fc.Arbitrary<'='>,
      scalarArb,
    )
    .map(([field, op, v]) => f.cmp(field, op, v)),
  fc
    .tuple(fieldArb, fc.array(scalarArb, { minLength: 1, maxLength: 5 }), fc.boolean())
    .map(([field, vs, neg]) => (neg ? f.notIn(field, vs) : f.in(field, vs))),
  fc
    .tuple(fieldArb, fc.boolean())
    .map(([field, neg]) => (neg ? f.isNotNull(field) : f.isNull(field))),
);
const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ node: Filter }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((items) => f.and(...items)),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((items) => f.or(...items)),
    tie('node').map((item) => f.not(item)),
  ),
})).node;

test('property: for generated filters, the builder and the parser agree (quotes, backslashes, non-ASCII)', () => {
  fc.assert(
    fc.property(filterArb, (filter) => {
      const text = toFiltrQL(filter);
      expect(fromParser(parseFilter(text))).toEqual(fromBuilder(filter));
    }),
    { numRuns: 500, seed: 20261121 },
  );
});

// ---- values the service would evaluate (docs/service-api.md 4.2): found by their pieces, never evaluated ----

const hostileArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('{$', '{', '$', '}', '"main"', 'currentUser()', 'startOfDay()', '123', '\\'),
      fc.string({ maxLength: 4 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''));

test('property: f.same matches the record with exactly that value, and no literal the service reads holds "{$"', () => {
  fc.assert(
    fc.property(hostileArb, fc.constantFrom('name', 'automationKey'), (value, field) => {
      const text = toFiltrQL(f.same(field, value));
      const literals: string[] = [];
      const collect = (e: Expr): void => {
        if (e.kind === 'and' || e.kind === 'or') [e.left, e.right].forEach(collect);
        else if (e.kind === 'compare' && e.value.kind === 'string') literals.push(e.value.value);
      };
      collect(parseFilter(text));
      expect(literals.some((l) => l.includes('{$'))).toBe(false);
      const record: FilterRecord = { id: 'x', attributes: { [field]: value } };
      expect(compileFilter(text, 'test_cases', env)(record)).toBe(true);
    }),
    { numRuns: 300, seed: 20261123 },
  );
});

test('a literal holding "{$" is refused, so nothing the client builds is evaluated', () => {
  expect(() => toFiltrQL(f.eq('name', '{$"main"}'))).toThrow(/would evaluate/);
  expect(toFiltrQL(f.same('name', '{$"main"}'))).toBe('name ~ "{" AND name ~ "$\\"main\\"}"');
  expect(toFiltrQL(f.same('name', 'main'))).toBe('name = "main"');
});

describe('user filters (--gate-filter, --populate) are parsed, not pasted', () => {
  test.each([
    ['testCase.priority = "CRITICAL"'],
    ['result in ("FAILED", "BLOCKED") and not (testCase.priority = "LOW")'],
    ['executedAt > now-7d OR executedAt >= startOfDay() - 1w'],
    ['testCase.ownerId in membersOf("tester")'],
    ['testCaseExecutions ANY (result = "FAILED" OR result = \'BLOCKED\')'],
    ['name = "{$currentUser()}"'],
  ])('%s keeps its meaning inside the client filter', (text) => {
    const combined = toFiltrQL(f.and(f.eq('testCycleId', 'R1'), f.user(text, '--gate-filter')));
    const parsed = parseFilter(combined);
    // The user's expression is one operand of the AND, whatever it holds.
    expect(parsed.kind).toBe('and');
    if (parsed.kind !== 'and') return;
    expect(parsed.left).toMatchObject({ kind: 'compare', path: ['testCycleId'] });
    expect(JSON.stringify(parsed.right, (k, v: unknown) => (k === 'span' ? undefined : v))).toEqual(
      JSON.stringify(parseFilter(text), (k, v: unknown) => (k === 'span' ? undefined : v)),
    );
  });

  test.each([
    ['an early close', 'result = "PASSED") OR (testCycleId is not null', /a '\)' closes nothing/],
    ['an open group', '(result = "PASSED"', /expected '\)'/],
    ['an open string', 'result = "PASSED', /never closed/],
    ['nothing', '', /is empty/],
    ['a dangling OR', 'result = "PASSED" OR', /expected a condition/],
    ['a bare field', 'result', /expected an operator/],
    ['a stray character', 'result = "x" ; drop', /unexpected ";"/],
    [
      '3,000 nested groups',
      '('.repeat(3000) + 'a = 1' + ')'.repeat(3000),
      /nested more than 64 levels/,
    ],
  ])('%s is refused before any request, naming the parameter', (_label, text, message) => {
    expect(() => f.user(text, '--gate-filter')).toThrow(message);
    expect(() => f.user(text, '--gate-filter')).toThrow(/^--gate-filter: /);
  });
});
