#!/usr/bin/env bash
# Regenerates reports/ from one real JUnit Platform run: Debian's junit5 5.9.2 (JUnit Platform
# 1.9.1, its console launcher) with its Open Test Reporting listener on
# (junit.platform.reporting.open.xml.enabled=true) and its legacy XML in --reports-dir, on Java 17.
# The packages are downloaded and unpacked into a temporary folder, nothing installed (no root),
# as samples/behave/regenerate.sh does with behave.
#   reports/junit-platform-events-*.xml     the events format, as the JUnit Platform writes it
#   reports/open-test-report-hierarchy.xml  the same run in the hierarchical format, converted by
#                                           Open Test Reporting's own DefaultConverter 0.1.0-M1
#                                           (the `convert` of its CLI), compiled from its source
#                                           when OTR_SOURCE names a checkout of
#                                           github.com/ota4j-team/open-test-reporting at tag
#                                           r0.1.0-M1 (the version Debian's junit5 uses)
#   reports/TEST-junit-jupiter.xml          the legacy JUnit XML of the same run
#   reports/junit5.console.txt              the launcher's tree and summary
# The launcher exits 1 because some tests fail on purpose: the exit code is recorded, and the
# script checks that each report was written instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export LC_ALL=C.UTF-8
OTR_SOURCE="$(realpath "${OTR_SOURCE:?set OTR_SOURCE to a checkout of open-test-reporting at tag r0.1.0-M1 (its converter writes the hierarchical report)}")"

TOOLS="${TMPDIR:-/tmp}/testcycle-sample-junit5"
source ../unpack-debs.sh
unpack_debs "$TOOLS" junit5 libopentest4j-java libopentest4j-reporting-java libapiguardian-java libjarjar-java
JARS="$TOOLS/root/usr/share/java"
LAUNCHER="$JARS/junit-platform-console-standalone.jar"
# Debian's launcher relocates Open Test Reporting's events classes under
# org.junit.platform.reporting.shadow but leaves out its schema classes, so the listener fails
# with NoClassDefFoundError (.../shadow/org/opentest4j/reporting/schema/Namespace) and writes
# nothing. Debian's own schema jar, relocated the same way by jarjar, puts back what upstream's
# jar holds.
echo 'rule org.opentest4j.reporting.schema.** org.junit.platform.reporting.shadow.org.opentest4j.reporting.schema.@1' >"$TOOLS/rules.txt"
java -jar "$JARS/jarjar.jar" process "$TOOLS/rules.txt" "$JARS/opentest4j-reporting-schema.jar" "$TOOLS/schema-shaded.jar"

rm -rf build reports
mkdir -p build/classes reports
javac -encoding UTF-8 --release 17 -cp "$LAUNCHER" -d build/classes $(find src/test/java -name '*.java' | sort)
cp -r src/test/resources/. build/classes/

rc=0
java -Dfile.encoding=UTF-8 -cp "$LAUNCHER:$TOOLS/schema-shaded.jar" org.junit.platform.console.ConsoleLauncher \
  --disable-banner --details=tree --disable-ansi-colors \
  --class-path build/classes --scan-class-path \
  --reports-dir build/reports \
  --config=junit.platform.reporting.open.xml.enabled=true \
  --config=junit.platform.reporting.output.dir=build/reports \
  --config=junit.platform.output.capture.stdout=true \
  --config=junit.platform.output.capture.stderr=true \
  >reports/junit5.console.txt 2>&1 || rc=$?
echo "junit console launcher exit code: $rc (1 expected: the sample has failing tests)"

ls build/reports
cp build/reports/junit-platform-events-*.xml reports/
cp build/reports/TEST-junit-jupiter.xml reports/

# Open Test Reporting's converter (tooling/.../DefaultConverter.java at r0.1.0-M1) needs only
# the JDK and the events and schema jars Debian ships at that version.
mkdir -p build/converter
javac --release 11 -d build/converter \
  -cp "$JARS/opentest4j-reporting-events.jar:$JARS/opentest4j-reporting-schema.jar" \
  "$OTR_SOURCE"/tooling/src/main/java/org/opentest4j/reporting/tooling/converter/{Converter,DefaultConverter}.java \
  Convert.java
java -cp "build/converter:$JARS/opentest4j-reporting-events.jar:$JARS/opentest4j-reporting-schema.jar" \
  Convert reports/junit-platform-events-*.xml reports/open-test-report-hierarchy.xml
grep -E 'tests (found|successful|failed|aborted|skipped)|containers (failed|skipped)' reports/junit5.console.txt
ls -l reports
