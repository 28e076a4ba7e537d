Feature: Broken

  Scenario: a step outside any keyword
    Given an empty cart
    this line is no step, so Gherkin cannot parse the file
