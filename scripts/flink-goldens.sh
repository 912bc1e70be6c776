#!/usr/bin/env bash
# Golden Flink JSON bytes: runs the real Flink JsonRowDataSerializationSchema (java/flink-parity) over an Arrow
# IPC corpus, once per Flink release / JDK pair, and writes one golden set per pair under OUT-ROOT:
#   flink-2.2-jdk25/   Flink 2.2.1 on JDK 25 (the default, main golden set)
#   flink-1.20-jdk25/  Flink 1.20.4 on JDK 25 (newest 1.20.x whose flink-json and flink-table-runtime both
#                      resolve from Maven Central; flink-table-runtime 1.20.5 is not published there)
#   flink-2.3-jdk25/   Flink 2.3.0 on JDK 25
#   flink-2.2-jdk17/   Flink 2.2.1 on JDK 17 (JDK <= 18 prints some floats with other digits)
# Each holds <case>.records or <case>.error per corpus case, and ENV. See docs/flink-parity.md.
# Environment: JAVA25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64), JAVA17_HOME (default: the JDK 17 in
# /usr/lib/jvm, else `java` on PATH if it is 17).
set -euo pipefail
usage() { echo "usage: $0 CORPUS-DIR OUT-ROOT" >&2; exit 2; }
[ $# -eq 2 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"

corpus=$(cd "$1" 2>/dev/null && pwd -P) || { echo "error: corpus directory '$1' does not exist" >&2; exit 2; }
mkdir -p "$2"
out_root=$(cd "$2" && pwd -P)
ls "$corpus"/*.arrow >/dev/null 2>&1 || { echo "error: no *.arrow case in $corpus" >&2; exit 2; }

FLINK_22=2.2.1
FLINK_120=1.20.4
FLINK_23=2.3.0

java25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
[ -x "$java25" ] || { echo "error: no JDK 25 at $java25 (install Temurin 25 or set JAVA25_HOME)" >&2; exit 1; }
[ "$(java_major "$java25")" = 25 ] || { echo "error: $java25 is not a JDK 25 (set JAVA25_HOME)" >&2; exit 1; }
java17=$(find_java17) \
  || { echo "error: no JDK 17 found (apt-get install openjdk-17-jdk-headless, or set JAVA17_HOME)" >&2; exit 1; }

module=$ROOT/java/flink-parity
pom=$module/pom.xml
echo "== Building the harness (java/flink-parity)"
mvn -B -q -Dstyle.color=never -f "$pom" package -DskipTests

# One runtime classpath per Flink release: the module's dependencies resolved with -Dflink.version=X (the
# harness itself is compiled once, against the pom's default release). Cached in target/ while the pom is
# unchanged and every listed jar still exists.
classpath() { # classpath VERSION -> prints the classpath
  local file=$module/target/classpath-$1.txt
  if [ -s "$file" ] && [ "$file" -nt "$pom" ] && tr ':' '\n' <"$file" | while read -r jar; do [ -e "$jar" ] || exit 1; done; then
    :
  else
    mvn -B -q -Dstyle.color=never -f "$pom" dependency:build-classpath -Dflink.version="$1" -Dmdep.includeScope=runtime \
      -Dmdep.outputFile="$file" >&2
  fi
  printf '%s:%s' "$module/target/classes" "$(cat "$file")"
}

run() { # run FLINK-VERSION JAVA-BINARY OUT-SUBDIR
  local version=$1 javabin=$2 dir=$out_root/$3 cp flags start
  cp=$(classpath "$version")
  # Arrow's memory layer reads java.nio internals; on JDK 23+ it also calls sun.misc.Unsafe memory methods.
  flags=(--add-opens=java.base/java.nio=ALL-UNNAMED)
  if [ "$(java_major "$javabin")" -ge 23 ]; then flags+=(--sun-misc-unsafe-memory-access=allow); fi
  echo "== Flink $version on $("$javabin" -version 2>&1 | head -n1) -> $dir"
  rm -rf "$dir"
  start=$(date +%s%N)
  "$javabin" "${flags[@]}" -cp "$cp" org.streamfusion.parity.FlinkGoldens "$corpus" "$dir"
  echo "   $(( ($(date +%s%N) - start) / 1000000 )) ms"
}

run "$FLINK_22" "$java25" flink-2.2-jdk25
run "$FLINK_120" "$java25" flink-1.20-jdk25
run "$FLINK_23" "$java25" flink-2.3-jdk25
run "$FLINK_22" "$java17" flink-2.2-jdk17

echo "Goldens written to $out_root/{flink-2.2-jdk25,flink-1.20-jdk25,flink-2.3-jdk25,flink-2.2-jdk17}"
