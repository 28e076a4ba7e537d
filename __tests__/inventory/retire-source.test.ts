/**
 * Whether a test file still declares a test (src/inventory/retire-source.ts): each runner's names,
 * read back from a key, against the source text people write.
 */
import { declares, indexSource, Workspace } from '../../src/inventory/retire-source.js';

const JEST = `import { Cart } from '../src/cart';
// don't run this against production
describe('Cart', () => {
  describe("when empty", () => {
    it('adds an item', () => expect(new Cart().add(1)).toBe(1));
    it('it\\'s fine', () => {});
  });
  test(\`counts \${n} items\`, () => {});
});
`;

const PYTHON = `import pytest

@pytest.mark.slow
def test_slow():
    assert True

class TestGroup:
    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n
`;

const FEATURE = `Feature: Calculator

  Scenario: adds
    Given 1 and 2
    Then "3" is shown

  Scenario Outline: sums <a> + <b>
    When I add <a> and <b>

    Examples:
      | a | b |
      | 1 | 2 |
`;

const EACH = `describe('sums', () => {
  it.each([[1, 2, 3]])('add(%i, %i) -> %i', (a, b, c) => {});
  it.each\`a | b\`('$a plus $b', () => {});
});
for (const n of [4]) it('doubles ' + n, () => {});
`;

const DYNAMIC = `describe('cases', () => {
  for (const c of table) it(c.title, () => {});
});
`;

const ROBOT = `*** Settings ***
Library    Collections

*** Test Cases ***
Adds
    [Tags]    smoke
    Add Numbers    1    2
| Divides | Log | 1 |

*** Keywords ***
Add Numbers
    [Arguments]    \${a}    \${b}
    Log    \${a}
`;

const GO = `package mathutil

func TestAdds(t *testing.T) {
	t.Run("with zero", func(t *testing.T) {})
}
`;

/** Each source where it lives: the file's kind says how it declares tests. */
const PATHS = new Map([
  [FEATURE, 'features/calculator.feature'],
  [ROBOT, 'tests/calculator.robot'],
  [PYTHON, 'tests/test_mod.py'],
  [GO, 'mathutil/math_test.go'],
]);

describe('declares', () => {
  test.each([
    [
      'jest: describe path and title, each a string',
      JEST,
      'Cart when empty adds an item',
      [],
      true,
    ],
    ['jest: an escaped quote in a title', JEST, "Cart when empty it's fine", [], true],
    [
      'jest: a renamed describe leaves its old title nowhere',
      JEST,
      'Basket when empty adds an item',
      [],
      false,
    ],
    // Each piece stands; their nesting is not read: a false match keeps a case, never archives one.
    [
      'jest: pieces are checked, not their nesting (errs towards declared)',
      JEST,
      'Cart adds an item',
      [],
      true,
    ],
    [
      'jest: a describe removed from around a test',
      JEST.replace('describe("when empty", () => {', '{'),
      'Cart when empty adds an item',
      [],
      false,
    ],
    [
      'jest: an identifier is no title (Cart is imported, "Cart" is the describe)',
      'const c = new Cart();\nit("adds an item")',
      'Cart adds an item',
      [],
      false,
    ],
    ['jest: a deleted test', JEST, 'Cart when empty removes an item', [], false],
    [
      "jest: a regular expression's test(x) is no title built at run time",
      `${JEST}const ok = /^a/.test(value);\n`,
      'Cart when empty removes an item',
      [],
      false,
    ],
    // A title built at run time: what it may be is read from the source as a pattern, so a test
    // a filter left out of the run (mocha --grep, Playwright's JUnit) is not taken as deleted.
    [
      'jest: a title built at run time stands as its template',
      JEST,
      'Cart counts 3 items',
      [],
      true,
    ],
    ['jest: a template stands only for names of its shape', JEST, 'Cart counts 3 boxes', [], false],
    ['jest: each-table titles (printf, $name)', EACH, 'sums add(1, 2) -> 3', [], true],
    ['jest: a $name title of each', EACH, 'sums 1 plus 2', [], true],
    ['mocha: a title concatenated at run time', EACH, 'doubles 4', [], true],
    [
      'mocha: a title from a variable may be any name of its file',
      DYNAMIC,
      'cases whatever it is',
      [],
      true,
    ],
    ['vitest: joined by " > "', JEST, 'Cart > when empty > adds an item', [], true],
    [
      'Playwright: joined by " › ", the project after it',
      JEST,
      'Cart › when empty › adds an item [chromium]',
      [],
      true,
    ],
    [
      'pytest: a module path, then the function',
      PYTHON,
      'tests.test_mod.test_slow',
      ['tests.test_mod'],
      true,
    ],
    [
      'pytest: a class and a parametrized method',
      PYTHON,
      'tests.test_mod.TestGroup.test_param[1]',
      ['tests.test_mod'],
      true,
    ],
    ['pytest: a deleted function', PYTHON, 'tests.test_mod.test_gone', ['tests.test_mod'], false],
    [
      'pytest: a word in a comment is no declaration',
      '# test_gone was removed\n',
      'tests.test_mod.test_gone',
      ['tests.test_mod'],
      false,
    ],
    ['Cucumber: feature and scenario lines', FEATURE, 'Calculator.adds', [], true],
    ['Cucumber: a renamed scenario', FEATURE, 'Calculator.subtracts', [], false],
    [
      "Cucumber: an outline's example, named with its values",
      FEATURE,
      'Calculator.sums 1 + 2',
      [],
      true,
    ],
    [
      'Robot: a test case line, under its suite path',
      ROBOT,
      'Tests.Calculator.Adds',
      ['Tests.Calculator'],
      true,
    ],
    [
      'Robot: a test in the pipe-separated format',
      ROBOT,
      'Tests.Calculator.Divides',
      ['Tests.Calculator'],
      true,
    ],
    [
      'Robot: a keyword is no test',
      ROBOT,
      'Tests.Calculator.Add Numbers',
      ['Tests.Calculator'],
      false,
    ],
    ['Robot: a deleted test', ROBOT, 'Tests.Calculator.Subtracts', ['Tests.Calculator'], false],
    [
      'go: a test function and its subtest (spaces written as _)',
      GO,
      'TestAdds/with_zero',
      [],
      true,
    ],
    ['go: a deleted test function', GO, 'TestSubtracts', [], false],
  ])('%s', (_what, source, name, prefixes, expected) => {
    const index = indexSource(source as string, PATHS.get(source as string) ?? 'test/x.test.js');
    expect(declares(index, name as string, prefixes as string[])).toBe(expected);
  });
});

describe('Workspace.pathOf: a key names a file of the workspace only by a relative path inside it', () => {
  test.each([
    ['src/cart.test.ts', 'src/cart.test.ts'],
    ['./src/../src/cart.test.ts', 'src/cart.test.ts'],
    ['../other/cart.test.ts', undefined],
    ['/etc/passwd.txt', undefined],
    ['C:/work/cart.test.ts', undefined],
    ['src\\cart.test.ts', undefined],
    ['Cart adds an item', undefined],
  ])('%s', (text, path) => {
    expect(Workspace.pathOf(text)).toBe(path);
  });
});
