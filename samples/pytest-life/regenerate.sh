#!/usr/bin/env bash
# Regenerates steps/: the life of a small pytest project, commit by commit, each commit run by the
# real pytest of Debian (python3-pytest and its dependencies, unpacked into a temporary folder,
# nothing installed; no root needed). For each step, steps/NN-name/ holds:
#   workspace/     the project's files as they stood at that commit (what sync's source check reads)
#   junit.xml      the report pytest wrote (its built-in junitxml, junit_family xunit2)
#   console.txt    pytest's console output (ends with its own counts)
#   run.json       the command line and pytest's exit code
# __tests__/life/pytest.test.ts replays them: publish and sync after each step, the Space checked
# against pytest's own counts. The steps: add; -m "not slow" (a test deselected); a collection
# error, pytest's default (it stops, exit 2) and with --continue-on-collection-errors (exit 1);
# rename a test; delete a test and a module; the same function name in two modules.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
HERE="$PWD"

TOOLS="${TMPDIR:-/tmp}/testcycle-sample-pytest-life-tools"
source ../unpack-debs.sh
unpack_debs "$TOOLS" python3-pytest python3-attr python3-more-itertools python3-pkg-resources \
  python3-pluggy python3-py python3-iniconfig python3-packaging
export PYTHONPATH="$TOOLS/root/usr/lib/python3/dist-packages"
export PYTHONDONTWRITEBYTECODE=1
# Only pytest's own plugins: none the machine happens to have installed.
export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1

# A fixed folder, so that the paths pytest writes into its reports stay the same from run to run.
PROJECT="${TMPDIR:-/tmp}/testcycle-sample-pytest-life/project"
rm -rf "$PROJECT" steps
mkdir -p "$PROJECT/tests" steps
cd "$PROJECT"

# step NAME [pytest arguments...]: runs pytest on the project as it stands, records the step.
step() {
  local name="$1"
  shift
  local out="$HERE/steps/$name" rc=0
  mkdir -p "$out/workspace"
  cp -r pytest.ini tests "$out/workspace/"
  /usr/bin/python3 -m pytest -v -p no:cacheprovider --junitxml="$out/junit.xml" "$@" \
    >"$out/console.txt" 2>&1 || rc=$?
  local args="" a
  for a in "$@"; do args+=", \"$a\""; done
  printf '{ "command": ["pytest", "-v", "-p", "no:cacheprovider", "--junitxml=junit.xml"%s], "exitCode": %d }\n' \
    "$args" "$rc" >"$out/run.json"
  echo "$name: pytest exit $rc: $(tail -n 1 "$out/console.txt")"
  [[ -s "$out/junit.xml" ]] || { echo "missing report: $out/junit.xml" >&2; exit 1; }
}

cat >pytest.ini <<'EOF'
[pytest]
testpaths = tests
markers =
    slow: a slow test
EOF

cat >tests/test_cart.py <<'EOF'
import pytest


def test_adds_an_item():
    assert [1] + [2] == [1, 2]


def test_removes_an_item():
    assert [1, 2][1:] == [2]


@pytest.mark.slow
def test_checks_out_slowly():
    assert sum(range(1000)) == 499500
EOF

cat >tests/test_price.py <<'EOF'
def test_rounds_half_up():
    assert int(12.5 + 0.5) == 13


def test_formats_a_currency():
    assert f"{12.5:.2f} EUR" == "12.50 EUR"
EOF
cat >tests/test_stock.py <<'EOF'
def test_counts_the_shelf():
    assert len(["a", "b"]) == 2


def test_reserves_an_item():
    assert {"a": 1}.get("a") == 1


def test_releases_a_reservation():
    assert {"a": 1}.pop("a") == 1
EOF
step 01-add

step 02-deselect -m "not slow"

cp tests/test_price.py ../test_price.py.good
# tests/test_price.py imports a module that does not exist: pytest cannot collect it.
cat >tests/test_price.py <<'EOF'
from money import rounding


def test_rounds_half_up():
    assert rounding.half_up(12.5) == 13


def test_formats_a_currency():
    assert f"{12.5:.2f} EUR" == "12.50 EUR"
EOF
step 03-collection-error
step 04-collection-error-continued --continue-on-collection-errors

# The import fixed; test_removes_an_item renamed test_removes_one_item.
cp ../test_price.py.good tests/test_price.py
sed -i 's/^def test_removes_an_item(/def test_removes_one_item(/' tests/test_cart.py
step 05-rename

# test_adds_an_item deleted, and the whole module tests/test_price.py.
cat >tests/test_cart.py <<'EOF'
import pytest


def test_removes_one_item():
    assert [1, 2][1:] == [2]


@pytest.mark.slow
def test_checks_out_slowly():
    assert sum(range(1000)) == 499500
EOF
rm tests/test_price.py
step 06-delete

cat >tests/test_orders.py <<'EOF'
def test_totals():
    assert sum([10, 20]) == 30
EOF
cat >tests/test_refunds.py <<'EOF'
def test_totals():
    assert sum([10, -20]) == 10
EOF
step 07-same-names

rm -rf "${TMPDIR:-/tmp}/testcycle-sample-pytest-life"
