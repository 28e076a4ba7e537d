#!/usr/bin/env bash
# Regenerates every sample's reports with its real runner (npm packages, Debian packages, Maven
# offline against Debian's repository). The samples that apt-get install a toolchain need root
# (behave's only downloads and unpacks its packages); takes several minutes.
# Usage: samples/regenerate.sh [runner ...]   (default: every folder with a regenerate.sh)
set -euo pipefail
cd "$(dirname "$0")"
runners=("$@")
if [ ${#runners[@]} -eq 0 ]; then
  for script in */regenerate.sh; do runners+=("${script%/regenerate.sh}"); done
fi
for runner in "${runners[@]}"; do
  printf '\n== %s\n' "$runner"
  bash "$runner/regenerate.sh"
done
echo "Reports regenerated; review 'git diff samples/' (times and absolute paths change) and the expected.json files."
