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
# mocha-junit-reporter with its titles changed (the root's, the root suite's, the separator of full
# suite titles, used as testsuite names): classname and name stay as by default.
run junit-titles reports/junit-titles.xml --reporter mocha-junit-reporter \
  --reporter-option 'mochaFile=reports/junit-titles.xml,useFullSuiteTitle=true,testsuitesTitle=Calculator,rootSuiteTitle=All,suiteTitleSeparatedBy= / '
# mocha-junit-reporter in jenkinsMode: the describe path joined by "." as classname, the title as
# name, each testsuite named by its full suite title ("Root Suite.math.nested").
run junit-jenkins reports/junit-jenkins.xml --reporter mocha-junit-reporter \
  --reporter-option mochaFile=reports/junit-jenkins.xml,jenkinsMode=true
# jenkinsMode with its titles changed too: the separator joins both classname and testsuite names.
run junit-jenkins-titles reports/junit-jenkins-titles.xml --reporter mocha-junit-reporter \
  --reporter-option 'mochaFile=reports/junit-jenkins-titles.xml,jenkinsMode=true,testsuitesTitle=Calculator,rootSuiteTitle=All,suiteTitleSeparatedBy= / '
# Mocha's xunit reporter with the root testsuite named by its suiteName option.
run xunit-suitename reports/mocha-xunit-suitename.xml --reporter xunit \
  --reporter-option output=reports/mocha-xunit-suitename.xml,suiteName=Calculator
# mocha-ctrf-json-reporter (testcycle format: ctrf).
run ctrf reports/ctrf.json --reporter mocha-ctrf-json-reporter \
  --reporter-option outputDir=reports,outputFile=ctrf.json

# Run errors (docs/design.md "Run errors"): hooks outside the tests that threw, in a spec file of
# their own (run-errors/), so the runs above keep their counts.
mkdir -p reports/run-errors
rc=0
./node_modules/.bin/mocha --reporter spec run-errors/hooks.spec.js >reports/run-errors/spec.console.txt 2>&1 || rc=$?
echo "mocha run-errors --reporter spec -> exit $rc" >&2
rc=0
./node_modules/.bin/mocha --reporter json --reporter-option output=reports/run-errors/mocha.json \
  run-errors/hooks.spec.js || rc=$?
echo "mocha run-errors --reporter json -> exit $rc" >&2
[[ -s reports/run-errors/mocha.json ]] || { echo "missing report: reports/run-errors/mocha.json" >&2; exit 1; }

ls -l reports reports/run-errors
