#!/usr/bin/env bash
# Regenerates reports/ from one real behave run (Debian's python3-behave and its dependencies,
# unpacked into a temporary folder, nothing installed; no root needed) with its json formatter,
# its progress formatter on the console (ends with the summary) and its JUnit reporter.
# Scenarios tagged @autoretry run again after a failure (features/environment.py); @skip ones are
# left out by --tags and written as skipped. behave exits non-zero because some scenarios fail on
# purpose: the exit code is recorded, and the script checks that each report was written instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# A fixed folder, so that the tracebacks in the reports stay the same from run to run.
TOOLS="${TMPDIR:-/tmp}/testcycle-sample-behave"
source ../unpack-debs.sh
unpack_debs "$TOOLS" python3-behave python3-parse python3-parse-type python3-six
export PYTHONPATH="$TOOLS/root/usr/lib/python3/dist-packages"
export PYTHONDONTWRITEBYTECODE=1

rm -rf reports
mkdir -p reports

# Debian's python3 explicitly (a pyenv python may come first on PATH)
rc=0
/usr/bin/python3 -m behave --no-color --tags=-@skip \
  --format json -o reports/behave.json \
  --format progress \
  --junit --junit-directory reports/junit \
  features >reports/behave.console.txt 2>&1 || rc=$?
echo "behave $(/usr/bin/python3 -m behave --version) -> exit $rc" >&2

for f in reports/behave.json reports/junit/TESTS-calculator.xml; do
  [[ -s $f ]] || { echo "missing report: $f" >&2; exit 1; }
done
ls -l reports reports/junit
