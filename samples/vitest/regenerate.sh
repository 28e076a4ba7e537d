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
