#!/usr/bin/env bash
# Regenerates reports/ for the Go sample with Debian's golang-go and gotestsum.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if ! command -v go >/dev/null || ! command -v gotestsum >/dev/null; then
  apt-get install -y --no-install-recommends golang-go gotestsum
fi

# no external modules: never fetch anything
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off
export GOCACHE="${TMPDIR:-/tmp}/testcycle-sample-go-cache"
export SAMPLE_MARKER_DIR="${TMPDIR:-/tmp}/testcycle-sample-go-markers"
rm -rf reports
mkdir -p reports
go clean -testcache

# 1. plain go test -json (no retry: the flaky test fails here)
rm -rf "$SAMPLE_MARKER_DIR"
set +e
go test -json -count=1 ./... > reports/go-test.json 2> reports/go-test.console.txt
rc=$?
set -e
echo "go test exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/go-test.json

# 2. gotestsum over all packages with JUnit output. --rerun-fails is asked for, but gotestsum 1.8.2
#    aborts the rerun because the panicky package panicked ("rerun aborted because previous run had a
#    suspected panic"), so this report holds the first run only (the flaky test fails in it).
rm -rf "$SAMPLE_MARKER_DIR"
set +e
gotestsum --format standard-verbose --junitfile reports/gotestsum-junit.xml \
  --rerun-fails=1 --packages ./... -- -count=1 > reports/gotestsum-junit.console.txt 2>&1
rc=$?
set -e
echo "gotestsum exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/gotestsum-junit.xml

# 3. gotestsum with a working rerun: the packages without the panic. The flaky test fails on its
#    first attempt and passes on the rerun; the always-failing tests fail twice.
rm -rf "$SAMPLE_MARKER_DIR"
set +e
gotestsum --format standard-verbose --junitfile reports/gotestsum-rerun-junit.xml \
  --jsonfile reports/gotestsum-rerun.json --rerun-fails=1 \
  --rerun-fails-report reports/gotestsum-rerun-report.txt \
  --packages "./mathutil ./strutil" -- -count=1 > reports/gotestsum-rerun-junit.console.txt 2>&1
rc=$?
set -e
echo "gotestsum (rerun) exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/gotestsum-rerun-junit.xml
test -s reports/gotestsum-rerun.json

# 4. run-errors/ (a module of its own, so ./... above leaves it out), into reports/run-errors/:
#    cart passes, broken does not compile, initpanic panics before any test runs (exit 2).
mkdir -p reports/run-errors
set +e
(cd run-errors && go test -json -count=1 ./... > ../reports/run-errors/go-test.json \
  2> ../reports/run-errors/go-test.console.txt)
rc=$?
(cd run-errors && gotestsum --format standard-verbose \
  --junitfile ../reports/run-errors/gotestsum-junit.xml --packages ./... -- -count=1 \
  > ../reports/run-errors/gotestsum-junit.console.txt 2>&1)
rc2=$?
set -e
echo "go test (run-errors) exit code: $rc, gotestsum: $rc2 (2 is expected: a build failure)"
test -s reports/run-errors/go-test.json
test -s reports/run-errors/gotestsum-junit.xml

