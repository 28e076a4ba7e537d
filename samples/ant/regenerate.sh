#!/usr/bin/env bash
# Regenerates reports/ with Apache Ant's <junit> task (Debian ant + ant-optional + junit4) and
# the XML formatter: one reports/TEST-<class>.xml per test class. Ant has no retry mechanism.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C.UTF-8  # UTF-8 console whatever the caller's locale

PKGS=(ant ant-optional junit4 openjdk-17-jdk-headless)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

rm -rf build reports
mkdir -p reports

# The XML formatter writes straight into reports/ (see build.xml). haltonfailure=false, so Ant
# itself normally exits 0 even though tests fail; capture a non-zero code anyway.
rc=0
ant -noinput -buildfile build.xml test > reports/ant.console.txt 2>&1 || rc=$?
echo "ant exit code: $rc"

ls reports/TEST-*.xml > /dev/null
grep -E 'Tests run: [0-9]+' reports/ant.console.txt
ls reports
