# Same feature and scenario name as features/calculator.feature: identity across files.
Feature: Calculator

  Scenario: adds
    Given a calculator
    When I add 2 and 2
    Then the result is 4
