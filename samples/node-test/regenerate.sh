#!/usr/bin/env bash
# Regenerates reports/ for the node:test sample, with Node 24 from the npm package
# "node" (a devDependency: npm ci puts its binary in node_modules/.bin/node; the
# machine's own Node is not used), with three reporters at once: junit, tap and spec.
#
# node:test has no in-run retry. Its own mechanism is --test-rerun-failures=<state file>:
# the first run records which tests passed; a second run with the same state file
# replays those and runs the failed ones again (test/retry.test.js passes when
# t.attempt >= 1). So the runner is run twice, each time with two reporters:
#   reports/junit-run1.xml, tap-run1.tap, spec-run1.console.txt   first run
#   reports/junit-run2.xml, tap-run2.tap, spec-run2.console.txt   rerun of the failures
#   reports/rerun-state.json                                 the runner's state file
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund

NODE=./node_modules/.bin/node
"$NODE" --version

rm -rf reports
mkdir -p reports

for run in 1 2; do
  # Tests fail on purpose: node exits 1. Keep going and check the report instead.
  status=0
  "$NODE" --test --test-concurrency=1 --test-rerun-failures=reports/rerun-state.json \
    --test-reporter=junit --test-reporter-destination="reports/junit-run$run.xml" \
    --test-reporter=tap --test-reporter-destination="reports/tap-run$run.tap" \
    --test-reporter=spec --test-reporter-destination=stdout \
    'test/**/*.test.js' >"reports/spec-run$run.console.txt" 2>&1 || status=$?
  echo "node --test run $run exited with $status (failures are expected)"
  for report in "reports/junit-run$run.xml" "reports/tap-run$run.tap"; do
    [[ -s "$report" ]] || { echo "missing report: $report" >&2; exit 1; }
  done
  grep -E '^ℹ (tests|pass|fail|cancelled|skipped|todo) ' "reports/spec-run$run.console.txt"
done
[[ -s reports/rerun-state.json ]] || { echo "missing rerun state file" >&2; exit 1; }
