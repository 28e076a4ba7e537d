#!/usr/bin/env bash
# Regenerates reports/ for the Jest sample: one Jest run writes every report.
#   reports/junit.xml          jest-junit
#   reports/jest.json          jest --json
#   reports/ctrf.json          jest-ctrf-json-reporter
#   reports/allure-results/    allure-jest (test environment allure-jest/node)
#   reports/jest.console.txt   Jest's console output (stdout and stderr)
# Then three small runs whose reports must tell what the counts do not:
#   reports/run-errors/        run-errors/: every test passes, one file fails to load and one
#                              afterAll throws (jest.json, junit.xml, ctrf.json); again with
#                              jest-junit's reportTestSuiteErrors (jest-suite-errors.json,
#                              junit-suite-errors.xml)
#   reports/same-names/        same-names/: one describe and test name in two files (one fails),
#                              and a test retried into a pass whose only mark is `invocations`
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund

rm -rf reports
mkdir -p reports

# Tests fail on purpose: Jest exits 1. Keep going and check the reports instead.
status=0
./node_modules/.bin/jest --ci --json --outputFile=reports/jest.json \
  >reports/jest.console.txt 2>&1 || status=$?
echo "jest exited with $status (failures are expected)"

for f in reports/junit.xml reports/jest.json reports/ctrf.json; do
  [[ -s "$f" ]] || { echo "missing report: $f" >&2; exit 1; }
done
ls reports/allure-results/*-result.json >/dev/null || { echo "no allure results" >&2; exit 1; }
grep -E '^Tests:' reports/jest.console.txt

# name config json: one more Jest run; it exits 1 on purpose.
extra_run() {
  local status=0
  mkdir -p "reports/$1"
  ./node_modules/.bin/jest --ci --config "$1/$2" --json --outputFile="reports/$1/$3.json" \
    >"reports/$1/$3.console.txt" 2>&1 || status=$?
  echo "jest --config $1/$2 exited with $status (1 is expected)"
  [[ -s "reports/$1/$3.json" ]] || { echo "missing report: reports/$1/$3.json" >&2; exit 1; }
  grep -E '^(Tests|Test Suites):' "reports/$1/$3.console.txt"
}
extra_run run-errors jest.config.js jest
extra_run run-errors jest.suite-errors.config.js jest-suite-errors
extra_run same-names jest.config.js jest
for f in run-errors/junit.xml run-errors/ctrf.json run-errors/junit-suite-errors.xml \
  same-names/junit.xml same-names/ctrf.json; do
  [[ -s "reports/$f" ]] || { echo "missing report: reports/$f" >&2; exit 1; }
done
