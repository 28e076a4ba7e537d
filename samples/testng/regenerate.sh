#!/usr/bin/env bash
# Regenerates reports/ with TestNG (Debian testng 6.9.12) run directly:
#   java -cp ... org.testng.TestNG -d build/testng-output testng.xml
# with TestNG's default listeners (console TextReporter, testng-results.xml, junitreports/, HTML).
# Only testng-results.xml and junitreports/TEST-*.xml are copied (unchanged) to reports/testng-output/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C.UTF-8  # UTF-8 console whatever the caller's locale

PKGS=(testng libjcommander-java libbsh-java openjdk-17-jdk-headless)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

CP=/usr/share/java/testng.jar:/usr/share/java/jcommander.jar:/usr/share/java/bsh.jar

rm -rf build reports
mkdir -p build/classes reports
javac -encoding UTF-8 --release 17 -cp "$CP" -d build/classes $(find src -name '*.java' | sort)

# TestNG exits non-zero when tests fail (or are skipped): capture it.
rc=0
java -Dfile.encoding=UTF-8 -cp "build/classes:$CP" org.testng.TestNG \
  -d build/testng-output \
  testng.xml > reports/testng.console.txt 2>&1 || rc=$?
echo "TestNG exit code: $rc (non-zero expected: the sample has failing tests)"

test -f build/testng-output/testng-results.xml
ls build/testng-output/junitreports/TEST-*.xml > /dev/null
mkdir -p reports/testng-output/junitreports
cp build/testng-output/testng-results.xml reports/testng-output/
cp build/testng-output/junitreports/TEST-*.xml reports/testng-output/junitreports/
grep -E 'Total tests run' reports/testng.console.txt
find reports -type f | sort
