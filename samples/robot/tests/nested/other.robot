*** Settings ***
Documentation     Shares a test name with calculator.robot, in another suite and file.

*** Test Cases ***
Adds
    Should Be Equal As Integers    ${{2 + 2}}    4
