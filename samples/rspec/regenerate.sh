#!/usr/bin/env bash
# Regenerates reports/ for the RSpec sample with Debian's ruby-rspec, ruby-rspec-junit-formatter and
# ruby-rspec-retry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if ! command -v rspec >/dev/null || ! ruby -e 'require "rspec_junit_formatter"; require "rspec/retry"' 2>/dev/null; then
  apt-get install -y --no-install-recommends ruby-rspec ruby-rspec-junit-formatter ruby-rspec-retry
fi

export SAMPLE_MARKER_DIR="${TMPDIR:-/tmp}/testcycle-sample-rspec-markers"
rm -rf reports "$SAMPLE_MARKER_DIR"
mkdir -p reports

# one run, three formatters: documentation on the console, JSON and JUnit into files
set +e
rspec --format documentation \
  --format json --out reports/rspec.json \
  --format RspecJunitFormatter --out reports/rspec-junit.xml \
  > reports/rspec.console.txt 2>&1
rc=$?
set -e
echo "rspec exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/rspec.json
test -s reports/rspec-junit.xml

# Two more runs of run-errors/ (without the sample's .rspec) into reports/run-errors/: its examples
# pass but an after(:context) hook raises (exit 1), and run-errors/broken/, a spec file that fails
# to load, which stops RSpec before any example runs (exit 1).
mkdir -p reports/run-errors
for run in run-errors broken; do
  pattern='run-errors/*_spec.rb'; out=rspec
  if [ "$run" = broken ]; then pattern='run-errors/broken/*_spec.rb'; out=broken-rspec; fi
  set +e
  rspec --options /dev/null --pattern "$pattern" --format documentation \
    --format json --out reports/run-errors/$out.json \
    --format RspecJunitFormatter --out reports/run-errors/$out-junit.xml \
    > reports/run-errors/$out.console.txt 2>&1
  rc=$?
  set -e
  echo "rspec ($run) exit code: $rc (1 is expected)"
  test -s reports/run-errors/$out.json
done

