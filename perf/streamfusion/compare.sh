#!/usr/bin/env bash
# StreamFusion end to end on a real broker: Nexmark-shaped Flink rows produced as Kafka JSON records by Flink's
# JsonRowDataSerializationSchema, one row at a time (flink-per-row), and by StreamFusion's RowDataJsonEncoder, one
# batch at a time (native-batch), with the same idempotent producer settings as perf/kafka (512 KiB batches,
# linger 20 ms, acks=all); every record is read back (read_committed) and its key and value bytes compared with
# Flink's serializer. Prints a table and writes perf/streamfusion/results/results-<UTC>.csv. See
# perf/streamfusion/README.md.
#
# Exit status: 0 all runs verified; 1 error (no Java/Maven, build failed, no broker); 2 usage; 3 a run was not
# verified (after the table is printed).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: compare.sh [--rebuild] [--rows N] [--batch N] [--shape bid|q9[,..]] [--iterations N]
                  [--bootstrap HOST:PORT] [--topic BASE] [--compression C[,C..]]
                  [--modes flink-per-row,native-batch] [--seed S] [--key-fields F[;F..]]
                  [--keep-topics] [--results-dir DIR | --no-csv]

  --rows         rows per pass (default 200000)
  --batch        rows per native encode call (default 4096; the last batch may be smaller)
  --shape        bid (default), q9, or both comma-separated
  --iterations   measured passes per mode, after one warm-up pass (default 3; the median is reported)
  --bootstrap    Kafka bootstrap servers (default 127.0.0.1:19092, the local broker: kafka/broker start)
  --topic        topic base name: TOPIC-<shape>-<mode>-<compression>-<UTC> (default streamfusion-benchmark-topic)
  --compression  producer compression.type, comma-separated for several (default none; e.g. none,zstd)
  --modes        flink-per-row, native-batch (default both)
  --seed         seed of the rows (default 42)
  --key-fields   Flink key.fields (default auction for bid, id for q9; '' for null keys)
  --keep-topics  do not delete the topics after the run
  --results-dir  where results-<UTC>.csv goes (default perf/streamfusion/results)
  --no-csv       write no CSV
  --rebuild      rebuild the Maven modules even if they look up to date

example: perf/streamfusion/compare.sh --rows 200000 --iterations 3 --batch 4096
environment: COMPARE_JAVA_OPTS (default "-Xms1g -Xmx2g"), MVN (default mvn)
EOF
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

rebuild=false
java_args=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --rebuild) rebuild=true ;;
    *) java_args+=("$arg") ;;
  esac
done

# shellcheck source=perf/maven-module.sh
source "$root/perf/maven-module.sh"
require_java17 compare.sh

# --- build the module and its reactor dependencies, if missing or stale ----------------------------------------
target="$here/target"
classpath_file="$target/classpath.txt"
jar="$target/streamfusion-perf-0.2.0.jar"
# Rebuilt when this module, the modules it builds on or the native library changed since the last build.
build_module compare.sh "$rebuild" "$root" perf/streamfusion install "$jar" "$classpath_file" \
  "$root/pom.xml" "$root/java/native" "$root/java/streamfusion-kafka" "$root/java/streamfusion-flink" "$root/perf/common" \
  "$here/pom.xml" "$here/src" "$root/rust" "$root/Cargo.toml" "$root/Cargo.lock"

status=0
# --results-dir first, so that a --results-dir or --no-csv of the caller overrides it.
# shellcheck disable=SC2086 # COMPARE_JAVA_OPTS is a list of JVM options
# A JVM crash report goes to target/, not into the caller's working directory.
java ${COMPARE_JAVA_OPTS:--Xms1g -Xmx2g} --add-opens=java.base/java.nio=ALL-UNNAMED \
  "-XX:ErrorFile=$target/hs_err_pid%p.log" \
  -cp "$jar:$(cat "$classpath_file")" org.streamfusion.perf.ProducerComparison \
  --results-dir "$root/perf/streamfusion/results" "${java_args[@]}" || status=$?
exit "$status"
