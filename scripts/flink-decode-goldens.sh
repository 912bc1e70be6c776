#!/usr/bin/env bash
# Golden Flink JSON decoding: runs the real Flink JsonParserRowDataDeserializationSchema (java/flink-parity,
# FlinkDecodeGoldens) over the hand-written <case>.case files of CASES-DIR with Flink 2.2.1 on JDK 25 and writes
# <case>.rows per case and ENV into OUT-DIR, then names the .rows files that changed (git status of OUT-DIR).
# Both default to rust/streamfusion-json/tests/data/flink-decode, the pinned set. See docs/flink-parity.md
# ("Decode goldens"). Environment: JAVA25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail
usage() { echo "usage: $0 [CASES-DIR [OUT-DIR]]" >&2; exit 2; }
[ $# -le 2 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"

default_dir=$ROOT/rust/streamfusion-json/tests/data/flink-decode
cases=$(cd "${1:-$default_dir}" 2>/dev/null && pwd -P) \
  || { echo "error: cases directory '${1:-$default_dir}' does not exist" >&2; exit 2; }
mkdir -p "${2:-$default_dir}"
out=$(cd "${2:-$default_dir}" && pwd -P)
ls "$cases"/*.case >/dev/null 2>&1 || { echo "error: no *.case file in $cases" >&2; exit 2; }

FLINK_22=2.2.1

java25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
[ -x "$java25" ] || { echo "error: no JDK 25 at $java25 (install Temurin 25 or set JAVA25_HOME)" >&2; exit 1; }
[ "$(java_major "$java25")" = 25 ] || { echo "error: $java25 is not a JDK 25 (set JAVA25_HOME)" >&2; exit 1; }

module=$ROOT/java/flink-parity
pom=$module/pom.xml
echo "== Building the harness (java/flink-parity)"
mvn -B -q -Dstyle.color=never -f "$pom" package -DskipTests

# The runtime classpath of Flink $FLINK_22, cached in target/ as scripts/flink-goldens.sh caches it (the same
# file, so either script reuses the other's): rebuilt when the pom is newer or a listed jar is gone.
cpfile=$module/target/classpath-$FLINK_22.txt
if [ -s "$cpfile" ] && [ "$cpfile" -nt "$pom" ] && tr ':' '\n' <"$cpfile" | while read -r jar; do [ -e "$jar" ] || exit 1; done; then
  :
else
  mvn -B -q -Dstyle.color=never -f "$pom" dependency:build-classpath -Dflink.version="$FLINK_22" \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$cpfile"
fi

# Old .rows files go first, so a removed case leaves no stale golden behind.
rm -f "$out"/*.rows
echo "== Flink $FLINK_22 on $("$java25" -version 2>&1 | head -n1) -> $out"
# --sun-misc-unsafe-memory-access=allow silences JDK 25's warning about flink-core's sun.misc.Unsafe calls.
"$java25" --sun-misc-unsafe-memory-access=allow -cp "$module/target/classes:$(cat "$cpfile")" \
  org.streamfusion.parity.FlinkDecodeGoldens "$cases" "$out"

if git -C "$out" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  changed=$(git -C "$out" status --short --untracked-files=all -- .)
  if [ -n "$changed" ]; then
    echo "Changed in $out (git status; review and commit):"
    echo "$changed"
  else
    echo "No golden changed in $out"
  fi
fi
