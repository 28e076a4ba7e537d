Feature: Step arguments
  A data table and a doc string belong to their steps.

  Scenario: adds the rows of a table and shows a doc string
    Given a calculator
    When I add the rows:
      | a | b |
      | 1 | 2 |
      | 3 | 4 |
    Then the result is 10
    And the display shows:
      """
      10
      and a second line
      """
