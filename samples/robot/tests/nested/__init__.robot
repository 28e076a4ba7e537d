*** Settings ***
Suite Setup       Log    nested suites start
