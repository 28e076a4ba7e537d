#!/usr/bin/env bash
# Regenerates reports/ for the Vitest sample: one Vitest run writes every report
# (the reporters are listed in vitest.config.js).
#   reports/junit.xml            Vitest's junit reporter
#   reports/vitest.json          Vitest's json reporter (Jest-compatible JSON)
#   reports/ctrf.json            vitest-ctrf-json-reporter
#   reports/ctrf-d2t.json        @d2t/vitest-ctrf-json-reporter
#   reports/vitest.console.txt   Vitest's default reporter (console), stdout and stderr
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund

rm -rf reports
mkdir -p reports

# Tests fail on purpose: Vitest exits 1. Keep going and check the reports instead.
status=0
NO_COLOR=1 ./node_modules/.bin/vitest run >reports/vitest.console.txt 2>&1 || status=$?
echo "vitest exited with $status (failures are expected)"

for f in reports/junit.xml reports/vitest.json reports/ctrf.json reports/ctrf-d2t.json; do
  [[ -s "$f" ]] || { echo "missing report: $f" >&2; exit 1; }
done
grep -E '^ +Tests ' reports/vitest.console.txt

# Two more runs whose reports must tell what the counts do not (reports/run-errors/):
#   run-errors/vitest.config.js            every test passes, one file fails to load and one
#                                          afterAll throws (vitest.json, junit.xml, ctrf.json)
#   run-errors/vitest.unhandled.config.js  its test passes, an unhandled rejection makes vitest
#                                          exit 1, and neither report says so
extra_run() {
  local status=0
  NO_COLOR=1 ./node_modules/.bin/vitest run --config "run-errors/$1" \
    >"reports/run-errors/$2.console.txt" 2>&1 || status=$?
  echo "vitest --config run-errors/$1 exited with $status (1 is expected)"
  grep -E '^ +(Tests|Test Files) ' "reports/run-errors/$2.console.txt"
}
mkdir -p reports/run-errors
extra_run vitest.config.js vitest
extra_run vitest.unhandled.config.js unhandled-vitest
for f in vitest.json junit.xml ctrf.json unhandled-vitest.json unhandled-junit.xml; do
  [[ -s "reports/run-errors/$f" ]] || { echo "missing report: reports/run-errors/$f" >&2; exit 1; }
done
