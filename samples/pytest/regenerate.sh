#!/usr/bin/env bash
# Regenerates reports/ for the pytest sample with Debian's pytest and pytest-rerunfailures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if ! /usr/bin/python3 -c 'import pytest, pytest_rerunfailures' 2>/dev/null; then
  apt-get install -y --no-install-recommends python3-pytest python3-pytest-rerunfailures
fi

export SAMPLE_MARKER_DIR="${TMPDIR:-/tmp}/testcycle-sample-pytest-markers"
rm -rf "$SAMPLE_MARKER_DIR" reports .pytest_cache
mkdir -p reports "$SAMPLE_MARKER_DIR"
export PYTHONDONTWRITEBYTECODE=1

# Debian's python3 explicitly (a pyenv python may come first on PATH)
set +e
/usr/bin/python3 -m pytest -v -rA -p no:cacheprovider --reruns 1 \
  --junitxml=reports/junit.xml > reports/junit.console.txt 2>&1
rc=$?
set -e
echo "pytest exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/junit.xml

# Two more runs of run-errors/ into reports/run-errors/, with -m "not slow" (one test deselected):
# test_broken.py fails at collection. pytest's default stops after collection (exit 2: only the
# error is written); --continue-on-collection-errors runs the rest (exit 1).
mkdir -p reports/run-errors
for run in continue stopped; do
  flags=(); out=junit
  if [ "$run" = continue ]; then flags=(--continue-on-collection-errors); else out=junit-stopped; fi
  set +e
  /usr/bin/python3 -m pytest -v -rA -p no:cacheprovider -c run-errors/pytest.ini \
    --rootdir run-errors -m "not slow" "${flags[@]}" --junitxml=reports/run-errors/$out.xml \
    run-errors > reports/run-errors/$out.console.txt 2>&1
  rc=$?
  set -e
  echo "pytest run-errors ($run) exit code: $rc (1 and 2 are expected)"
  test -s reports/run-errors/$out.xml
done

