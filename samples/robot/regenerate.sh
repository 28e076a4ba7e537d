#!/usr/bin/env bash
# Regenerates reports/ with real Robot Framework runs: RF 7.4.2 (output.xml schema 5, `start` and
# `elapsed` times) and RF 6.1.1 (schema 4, `starttime` and `endtime`). Robot Framework is pure
# Python with no dependencies; Debian does not package it, so each version is taken either from a
# checkout of its source (ROBOT_SOURCE_7 and ROBOT_SOURCE_6: the folder holding src/robot, e.g.
# `git clone https://github.com/robotframework/robotframework` at tag v7.4.2 and v6.1.1) or, where
# none is given, installed with pip into a temporary virtual environment.
#   reports/rf7/output.xml   the first run (robot exits non-zero: tests fail on purpose)
#   reports/rf7/rerun.xml    robot --rerunfailed reports/rf7/output.xml: the failed tests again
#   reports/rf7/merged.xml   rebot --merge output.xml rerun.xml: 'Is Flaky' failed, then passed
#   reports/rf6/output.xml   the first run with RF 6
#   reports/*/robot.console.txt, rerun.console.txt   robot's console, ending with its statistics
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
# Debian's python3 explicitly (a pyenv python may come first on PATH)
PYTHON=/usr/bin/python3
TOOLS="${TMPDIR:-/tmp}/testcycle-sample-robot"
rm -rf "$TOOLS" build reports
mkdir -p "$TOOLS" build reports

# Prints the PYTHONPATH that holds Robot Framework $1 (7 or 6) at version $2.
robot_path() {
  local source_var="ROBOT_SOURCE_$1"
  if [[ -n "${!source_var:-}" ]]; then
    realpath "${!source_var}/src"
  else
    "$PYTHON" -m venv "$TOOLS/venv$1" >&2
    "$TOOLS/venv$1/bin/pip" install --quiet "robotframework==$2" >&2
    "$TOOLS/venv$1/bin/python" -c 'import robot, os; print(os.path.dirname(os.path.dirname(robot.__file__)))'
  fi
}

for spec in 7:7.4.2 6:6.1.1; do
  major=${spec%%:*}
  version=${spec#*:}
  out="build/rf$major"
  mkdir -p "$out" "reports/rf$major"
  export PYTHONPATH
  PYTHONPATH="$(robot_path "$major" "$version")"
  "$PYTHON" -m robot --version || true
  rc=0
  "$PYTHON" -m robot --outputdir "$out" --log NONE --report NONE --consolecolors off \
    --consolewidth 100 tests >"reports/rf$major/robot.console.txt" 2>&1 || rc=$?
  echo "RF $version: robot exited with $rc (tests fail on purpose)"
  cp "$out/output.xml" "reports/rf$major/output.xml"
  if [[ $major == 7 ]]; then
    # The flaky test's marker file (in the output folder) makes it pass on the rerun.
    rc=0
    "$PYTHON" -m robot --outputdir "$out" --output rerun.xml --rerunfailed "$out/output.xml" \
      --log NONE --report NONE --consolecolors off --consolewidth 100 tests \
      >"reports/rf$major/rerun.console.txt" 2>&1 || rc=$?
    echo "RF $version: robot --rerunfailed exited with $rc"
    rc=0
    "$PYTHON" -m robot.rebot --outputdir "$out" --output merged.xml --merge --log NONE --report NONE \
      "$out/output.xml" "$out/rerun.xml" || rc=$?
    echo "RF $version: rebot --merge exited with $rc"
    cp "$out/rerun.xml" "$out/merged.xml" "reports/rf$major/"
  fi
  tail -n 3 "reports/rf$major/robot.console.txt"
done
rm -rf build
find reports -type f | sort
