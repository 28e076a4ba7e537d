*** Settings ***
Suite Setup       Fail    database connection refused

*** Test Cases ***
Never Gets To Run Its Body
    Should Be True    True

Neither Does This One
    Should Be True    True
