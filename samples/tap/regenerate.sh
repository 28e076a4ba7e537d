#!/usr/bin/env bash
# Regenerates reports/ for the node-tap sample: the tap package (a devDependency) run by Node 24
# from the npm package "node" (npm ci puts both in node_modules/.bin, first on PATH here, so tap
# and the test processes it starts use that Node, not the machine's own).
#   reports/tap.tap        tap --reporter=tap: the whole run as one TAP 14 stream, each test
#                          file a subtest named by its path; ends with tap's own count,
#                          '# { total: ..., pass: ..., fail: ..., todo: ..., skip: ... }'
#   reports/tap-bail.tap   the same with --bail: the stream stops at the first failure
# tap exits 1 because some tests fail on purpose: the script checks the reports instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci --no-audit --no-fund
export PATH="$PWD/node_modules/.bin:$PATH"
node --version
tap --version

rm -rf reports .tap
mkdir -p reports

status=0
tap --reporter=tap --disable-coverage --jobs=1 test/ >reports/tap.tap 2>&1 || status=$?
echo "tap exited with $status (failures are expected)"
status=0
tap --reporter=tap --disable-coverage --jobs=1 --bail test/ >reports/tap-bail.tap 2>&1 || status=$?
echo "tap --bail exited with $status (failures are expected)"
rm -rf .tap

for report in reports/tap.tap reports/tap-bail.tap; do
  [[ -s "$report" ]] || { echo "missing report: $report" >&2; exit 1; }
done
grep -E '^# \{ total' reports/tap.tap
grep -E 'Bail out!' reports/tap-bail.tap
