@arithmetic
Feature: Calculator
  Arithmetic on a small calculator, with every kind of outcome.

  Background:
    Given a calculator

  Scenario: adds
    When I add 1 and 1
    Then the result is 2

  Scenario: subtracts (fails on an assertion)
    When I subtract 3 from 5
    Then the result is 3

  Scenario: divides (raises a non-assertion error)
    When I divide 1 by 0 on a broken calculator
    Then the result is 0

  Scenario: uses an undefined step
    When I press a button nobody defined
    Then the result is 0

  Scenario: is skipped by a step
    Given this scenario does not apply here
    Then the result is 0

  @skip
  Scenario: is skipped by its tag
    When I add 1 and 1
    Then the result is 2

  @autoretry
  Scenario: is flaky: fails first, passes on retry
    When I press the flaky button
    Then the result is 42

  Scenario: takes a while
    When I wait 120 milliseconds
    Then the result is 0

  Scenario: writes to stdout
    When I print "hello from the stdout test"
    Then the result is 0

  @outline
  Scenario Outline: sums <a> + <b> = <sum>
    When I add <a> and <b>
    Then the result is <sum>

    Examples: small numbers
      | a | b | sum |
      | 1 | 1 | 2   |
      | 2 | 3 | 5   |
      | 2 | 2 | 5   |
