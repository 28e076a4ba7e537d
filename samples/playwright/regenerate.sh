#!/usr/bin/env bash
# Regenerates reports/ from one real Playwright Test run with five reporters
# (list to the console, json, junit, playwright-ctrf-json-reporter,
# allure-playwright; see playwright.config.ts). No browser is used or installed.
# Playwright exits non-zero because some tests fail on purpose: the exit code is
# recorded, and the script checks that each report was written instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund

rm -rf reports test-results
mkdir -p reports

rc=0
./node_modules/.bin/playwright test >reports/playwright.console.txt 2>&1 || rc=$?
echo "playwright test -> exit $rc" >&2

for f in reports/playwright.json reports/junit.xml reports/ctrf.json; do
  [[ -s $f ]] || { echo "missing report: $f" >&2; exit 1; }
done
compgen -G 'reports/allure-results/*-result.json' >/dev/null ||
  { echo "missing report: reports/allure-results/*-result.json" >&2; exit 1; }

# Error-context files that the reports point at (../test-results/...): not kept.
# Two more runs (run-errors/playwright.config.ts), into reports/run-errors/: the first shard of two
# with --grep @cart (its reports must tell the run was partial), and load-error/ alone, whose spec
# fails to load (exit 1; its reports must tell why).
mkdir -p reports/run-errors
rc=0
./node_modules/.bin/playwright test --config run-errors/playwright.config.ts --shard 1/2 \
  --grep @cart >reports/run-errors/playwright.console.txt 2>&1 || rc=$?
echo "playwright test --shard 1/2 --grep @cart -> exit $rc" >&2
rc=0
SAMPLE_LOAD_ERROR=1 ./node_modules/.bin/playwright test --config run-errors/playwright.config.ts \
  >reports/run-errors/load-error-playwright.console.txt 2>&1 || rc=$?
echo "playwright test (load-error/) -> exit $rc (1 is expected)" >&2
for f in playwright.json junit.xml ctrf.json load-error-playwright.json load-error-junit.xml \
  load-error-ctrf.json; do
  [[ -s reports/run-errors/$f ]] || { echo "missing report: reports/run-errors/$f" >&2; exit 1; }
done

rm -rf test-results
ls -l reports
