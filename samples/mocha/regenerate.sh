#!/usr/bin/env bash
# Regenerates reports/ from the real Mocha run, one run per reporter.
# No .mocharc: mocha-ctrf-json-reporter ignores --reporter-option when a
# .mocharc.json/.mocharc.js exists, so the spec and options are all given here.
# Mocha exits non-zero because some tests fail on purpose: the exit code is
# recorded, and the script checks that each report file was written instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund

rm -rf reports
mkdir -p reports

run() { # run NAME REPORT-FILE mocha-args...
  local name=$1 report=$2
  shift 2
  local rc=0
  ./node_modules/.bin/mocha --sort 'test/*.spec.js' "$@" >"reports/$name.console.txt" 2>&1 || rc=$?
  echo "mocha $* -> exit $rc" >&2
  if [[ -n $report && ! -s $report ]]; then
    echo "missing report: $report" >&2
    exit 1
  fi
}

# Console summary (spec reporter): the runner's own counts.
run spec '' --reporter spec
# Mocha's JSON reporter (testcycle format: mocha).
run mocha-json reports/mocha.json --reporter json --reporter-option output=reports/mocha.json
# Mocha's built-in xunit reporter: root is <testsuite> (testcycle format: junit).
run xunit reports/mocha-xunit.xml --reporter xunit --reporter-option output=reports/mocha-xunit.xml
# mocha-junit-reporter, default options (only the file name set).
run junit reports/junit.xml --reporter mocha-junit-reporter --reporter-option mochaFile=reports/junit.xml
# mocha-junit-reporter with includePending=true.
run junit-pending reports/junit-include-pending.xml --reporter mocha-junit-reporter \
  --reporter-option mochaFile=reports/junit-include-pending.xml,includePending=true
# mocha-ctrf-json-reporter (testcycle format: ctrf).
run ctrf reports/ctrf.json --reporter mocha-ctrf-json-reporter \
  --reporter-option outputDir=reports,outputFile=ctrf.json

ls -l reports
