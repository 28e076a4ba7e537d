#!/usr/bin/env bash
# Regenerates reports/ from one real cucumber-js run with four formatters:
# progress (console, ends with the summary), json, message (NDJSON) and junit.
# --retry 1 reruns failed scenarios once; the flaky scenario passes on its retry.
# cucumber-js exits non-zero because some scenarios fail on purpose: the exit
# code is recorded, and the script checks that each report was written instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund

rm -rf reports
mkdir -p reports

rc=0
./node_modules/.bin/cucumber-js --retry 1 \
  --format progress \
  --format json:reports/cucumber.json \
  --format message:reports/messages.ndjson \
  --format junit:reports/junit.xml \
  >reports/cucumber.console.txt 2>&1 || rc=$?
echo "cucumber-js -> exit $rc" >&2

for f in reports/cucumber.json reports/messages.ndjson reports/junit.xml; do
  [[ -s $f ]] || { echo "missing report: $f" >&2; exit 1; }
done
# Two more runs into reports/run-errors/: run-errors/*.feature, where one step matches two step
# definitions (ambiguous; exit 1), and run-errors/broken/, a feature file Gherkin cannot parse,
# which stops cucumber-js before any scenario runs (exit 1; it writes its JSON and JUnit empty, so
# only the messages are kept).
mkdir -p reports/run-errors
rc=0
./node_modules/.bin/cucumber-js 'run-errors/*.feature' --require 'run-errors/step_definitions/*.js' \
  --format progress \
  --format json:reports/run-errors/cucumber.json \
  --format message:reports/run-errors/messages.ndjson \
  --format junit:reports/run-errors/junit.xml \
  >reports/run-errors/cucumber.console.txt 2>&1 || rc=$?
echo "cucumber-js run-errors/ -> exit $rc (1 is expected)" >&2
rc=0
./node_modules/.bin/cucumber-js 'run-errors/broken/*.feature' \
  --require 'run-errors/step_definitions/*.js' \
  --format progress \
  --format message:reports/run-errors/broken-messages.ndjson \
  >reports/run-errors/broken-cucumber.console.txt 2>&1 || rc=$?
echo "cucumber-js run-errors/broken/ -> exit $rc (1 is expected)" >&2
for f in cucumber.json messages.ndjson junit.xml broken-messages.ndjson; do
  [[ -s reports/run-errors/$f ]] || { echo "missing report: reports/run-errors/$f" >&2; exit 1; }
done

ls -l reports reports/run-errors
