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
