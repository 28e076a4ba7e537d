Feature: names: "double" & 'single' <tags> & more

  Scenario: has "double" and 'single' quotes, <>&, an emoji 🚀 and é ü 日本
    Given a calculator
    When I add 1 and 1
    Then the result is 2

  Scenario: fails with <>& and "quotes" in the message 💥
    Given a calculator
    Then the text "é" equals "ü"
