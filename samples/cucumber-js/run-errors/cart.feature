Feature: Cart

  Scenario: adds an item
    Given an empty cart
    When I add an apple
    Then the cart holds 1 item

  Scenario: an ambiguous step
    Given an empty cart
    When I add a pear
    Then the cart holds 1 item
