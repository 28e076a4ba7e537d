Feature: Calculator
  Arithmetic on a small calculator, with every kind of outcome.

  Background:
    Given a calculator

  # Traceability (README "Traceability"): a bare requirement key as a tag, and named tags.
  @REQ-201
  Scenario: adds
    When I add 1 and 1
    Then the result is 2

  @requirement:REQ-202 @issue:PROJ-8
  Scenario: subtracts (fails on an assertion)
    When I subtract 3 from 5
    Then the result is 3

  Scenario: divides (throws a non-assertion error)
    When I divide 1 by 0 on a broken calculator
    Then the result is 0

  Scenario: uses an undefined step
    When I press a button nobody defined
    Then the result is 0

  Scenario: uses a pending step
    When I press the square-root button
    Then the result is 0

  Scenario: is skipped by a step
    Given this scenario does not apply here
    Then the result is 0

  Scenario: is flaky: fails first, passes on retry
    When I press the flaky button
    Then the result is 42

  Scenario: writes to stdout
    When I print "hello from the stdout test"
    Then the result is 0

  Scenario Outline: sums <a> + <b> = <sum>
    When I add <a> and <b>
    Then the result is <sum>

    Examples:
      | a | b | sum |
      | 1 | 1 | 2   |
      | 2 | 3 | 5   |
      | 2 | 2 | 5   |

  Rule: multiplication
    Scenario: multiplies
      When I multiply 3 by 4
      Then the result is 12
