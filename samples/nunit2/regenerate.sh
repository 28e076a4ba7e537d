#!/usr/bin/env bash
# Regenerates reports/ with NUnit 2 (Debian nunit-console 2.6.4 on Mono): compiles two test
# assemblies with mcs and runs them in one nunit-console call; NUnit 2 XML in reports/TestResult.xml.
# NUnit 2 has no retry mechanism ([Retry] exists only in NUnit 3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C.UTF-8  # UTF-8 console whatever the caller's locale

PKGS=(nunit-console libnunit-cil-dev mono-mcs)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

NUNIT_FRAMEWORK=/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll

rm -rf build reports
mkdir -p build reports
mcs -nologo -target:library -r:"$NUNIT_FRAMEWORK" -out:build/Sample.Main.Tests.dll src/Main/*.cs
mcs -nologo -target:library -r:"$NUNIT_FRAMEWORK" -out:build/Sample.Other.Tests.dll src/Other/*.cs

# nunit-console exits with the number of failed tests: capture it.
rc=0
nunit-console build/Sample.Main.Tests.dll build/Sample.Other.Tests.dll \
  -xml=reports/TestResult.xml -labels > reports/nunit-console.console.txt 2>&1 || rc=$?
echo "nunit-console exit code: $rc (non-zero expected: the sample has failing tests)"

test -f reports/TestResult.xml
grep -E '^Tests run:|Not run:' reports/nunit-console.console.txt
ls reports
