#!/usr/bin/env bash
# Regenerates reports/ for the googletest sample with Debian's libgtest-dev, cmake and g++.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [ ! -f /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake ] && [ ! -f /usr/lib/cmake/GTest/GTestConfig.cmake ] \
  || ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
  apt-get install -y --no-install-recommends libgtest-dev cmake g++ make
fi

rm -rf build reports
mkdir -p reports
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j2 > /dev/null

# the binary accepts one --gtest_output, so it runs once per report format
set +e
./build/sample_tests --gtest_output=xml:reports/gtest.xml > reports/gtest.console.txt 2>&1
rc=$?
set -e
echo "sample_tests (xml) exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/gtest.xml

set +e
./build/sample_tests --gtest_output=json:reports/gtest.json > reports/gtest-json.console.txt 2>&1
rc=$?
set -e
echo "sample_tests (json) exit code: $rc (non-zero is expected: the sample has failing tests)"
test -s reports/gtest.json
