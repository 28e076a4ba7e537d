*** Settings ***
Documentation     Calculator tests: every outcome Robot Framework has.
Test Tags         calc

*** Test Cases ***
Adds
    [Tags]    fast    SHOP-T1
    ${result}=    Evaluate    1 + 2
    Should Be Equal As Integers    ${result}    3

Multiplies
    Should Be Equal As Integers    ${{2 * 3}}    6

Subtracts Wrongly
    [Documentation]    An assertion failure: the keywords after it are NOT RUN.
    Should Be Equal As Integers    ${{5 - 3}}    3    five minus three
    Log    never reached

Calls A Missing Keyword
    No Such Keyword    1    0

Rounds
    Skip    not on this platform

Fails But Is Skipped On Failure
    [Tags]    robot:skip-on-failure
    Fail    known to fail here

Logs To The Console
    Log To Console    hello from stdout: é ü 日本 <>&
    Log    a message

Handles "quotes", 'apostrophes', <angle> & brackets, emoji 🚀 and é ü 日本
    Should Be True    True

Setup And Teardown
    [Setup]    Log    setting up
    Should Be True    True
    [Teardown]    Fail    teardown broke

Uses A Loop
    FOR    ${n}    IN    1    2    3
        Should Be True    ${n} > 0
    END

Sums From A Template
    [Template]    Sum Should Be
    1    1    2
    2    3    5
    2    2    5

Is Flaky
    [Documentation]    Fails on the first run, passes on the rerun (--rerunfailed, then rebot --merge).
    ${marker}=    Set Variable    ${OUTPUT DIR}${/}flaky.marker
    ${exists}=    Evaluate    os.path.exists($marker)    modules=os
    IF    not ${exists}    Create File    ${marker}
    Should Be True    ${exists}    fails on the first run

*** Keywords ***
Sum Should Be
    [Arguments]    ${a}    ${b}    ${expected}
    Should Be Equal As Integers    ${{${a} + ${b}}}    ${expected}

Create File
    [Arguments]    ${path}
    Evaluate    open($path, 'w').close()
