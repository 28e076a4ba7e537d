*** Settings ***
Suite Teardown    Fail    cleanup failed

*** Test Cases ***
Passes Before The Teardown
    Should Be True    True
