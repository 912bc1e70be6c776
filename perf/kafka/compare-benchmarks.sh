#!/usr/bin/env bash
# Producer comparison: Kafka's LongSerializer against the bijou64 serializers (JNI, pure Java,
# zigzag), and the same two encodings from Rust through rdkafka (rust-long, rust-bijou: the streamfusion binary of
# rust/cli), with compression none and zstd, every run read back and verified. Writes
# perf/kafka/results/results-<UTC>.csv and its chart results-<UTC>.png, and prints a table. See perf/kafka/README.md.
#
# Exit status: 0 all runs verified; 1 error (no Java/Maven/cargo, build failed, no broker, chart failed); 2 usage;
# 3 a run was not verified (after the table is printed).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: compare-benchmarks.sh [--ci] [--distribution D[,D...]] [--modes M[,M...]] [--compression C[,C...]]
                             [--seed S] [--min-pass-seconds S] [--min-rounds R] [--keep-topics]
                             [--results-dir DIR] [--rebuild] N ITERATIONS TOPIC BOOTSTRAP

  N               the fewest records per pass (raised until every mode's pass lasts --min-pass-seconds)
  ITERATIONS      the fewest measured rounds (and at least --min-rounds); a warm-up round runs first, discarded
  TOPIC           base name of the per-run topics: TOPIC-<distribution>-<mode>-<compression>-<UTC>
  BOOTSTRAP       Kafka bootstrap servers, e.g. 127.0.0.1:19092 (the local broker: kafka/broker start)
  --ci            plain progress lines on stderr (no carriage-return animation)
  --distribution  sequential, uniform, boundary, mixed; comma-separated for several (default sequential)
  --modes         long, bijou, bijou-java, bijou-zigzag, rust-long, rust-bijou (default: all six)
  --compression   producer compression.type values (default none,zstd)
  --seed          seed of the uniform and mixed distributions
  --min-pass-seconds  shortest measured pass to calibrate N for (default 2; 0 keeps N as given: a quick run)
  --min-rounds    fewest measured rounds whatever ITERATIONS says (default 5; 1 for a quick run)
  --keep-topics   do not delete the per-run topics
  --results-dir   where results-<UTC>.csv and results-<UTC>.png go (default perf/kafka/results)
  --rebuild       rebuild the Maven modules even if they look up to date (cargo checks the streamfusion binary itself)

Each Java mode runs in a JVM of its own (ModeWorker, started by the coordinator CompareBenchmarks), one pass at a time.

example: perf/kafka/compare-benchmarks.sh --ci --distribution sequential,mixed --min-pass-seconds 2 50000 5 bijou64-benchmark-topic 127.0.0.1:19092
quick:   perf/kafka/compare-benchmarks.sh --ci --min-pass-seconds 0 --min-rounds 1 --distribution boundary 2000 1 bijou64-smoke 127.0.0.1:19092
environment: COMPARE_JAVA_OPTS (each mode's worker JVM; default "-Xms1g -Xmx2g"), MVN (default mvn),
             STREAMFUSION_BENCH_BIN (a prebuilt streamfusion-bench binary to use instead of building perf/rust)
EOF
}

die() { echo "compare-benchmarks: $*" >&2; exit 1; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# --- arguments: keep our own flags, count positionals so a usage error shows before any build ---------------
java_args=()
numbers=()
positionals=0
rebuild=false
results_dir=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rebuild) rebuild=true; shift ;;
    --ci|--keep-topics) java_args+=("$1"); shift ;;
    --results-dir) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; results_dir="$2"; shift 2 ;;
    --results-dir=*) results_dir="${1#*=}"; shift ;;
    --distribution|--distributions|--mode|--modes|--compression|--compressions|--seed|--min-pass-seconds|--min-rounds)
      [[ $# -ge 2 ]] || { echo "compare-benchmarks: $1 needs a value" >&2; usage >&2; exit 2; }
      java_args+=("$1" "$2"); shift 2 ;;
    --*=*) java_args+=("$1"); shift ;;
    -?*) echo "compare-benchmarks: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) java_args+=("$1"); positionals=$((positionals + 1)); numbers+=("$1"); shift ;;
  esac
done
if [[ $positionals -ne 4 ]]; then
  echo "compare-benchmarks: expected N ITERATIONS TOPIC BOOTSTRAP" >&2
  usage >&2
  exit 2
fi
for n in "${numbers[@]:0:2}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "compare-benchmarks: N and ITERATIONS must be positive integers, got '$n'" >&2; usage >&2; exit 2; }
done
if [[ -z "$results_dir" ]]; then
  results_dir="$root/perf/kafka/results"
fi

# --- prerequisites ------------------------------------------------------------------------------------------
# shellcheck source=perf/maven-module.sh
source "$root/perf/maven-module.sh"
require_java17 compare-benchmarks

# --- build the reactor modules this needs, if missing or stale ----------------------------------------------
target="$root/perf/kafka/target"
classpath_file="$target/classpath.txt"
jar="$target/bijou64-perf-kafka-0.2.0.jar"
# Rebuilt when this module, the codec, the serializers or the native library changed since the last build.
build_module compare-benchmarks "$rebuild" "$root" perf/kafka package "$jar" "$classpath_file" \
  "$root/pom.xml" "$root/java/native" "$root/java/bijou64" "$root/java/bijou64-kafka-serializers" "$root/perf/common" "$root/perf/kafka/pom.xml" \
  "$root/perf/kafka/src" "$root/rust" "$root/Cargo.toml" "$root/Cargo.lock"

# --- the streamfusion-bench binary: runs the rust-* modes and draws the chart (scripts/common.sh) -------------------
# shellcheck source=scripts/common.sh
source "$root/scripts/common.sh"
streamfusion_bench_bin
streamfusion="$STREAMFUSION_BENCH_BIN"

mkdir -p "$results_dir"
stamp="$(date -u +%Y%m%dT%H%M%S)"
csv="$results_dir/results-$stamp.csv"
png="$results_dir/results-$stamp.png"
status=0
# The coordinator only holds the values and the results; the workers it starts get COMPARE_JAVA_OPTS.
java -Xmx1g -cp "$jar:$(cat "$classpath_file")" \
  org.bijou64.perf.compare.CompareBenchmarks --results-dir "$results_dir" --stamp "$stamp" \
  --worker-java-opts "${COMPARE_JAVA_OPTS:--Xms1g -Xmx2g}" --rust-bench "$streamfusion" "${java_args[@]}" || status=$?

# --- the chart beside the CSV ---------------------------------------------------------------------------------
if [[ -s "$csv" ]]; then
  if chart_error="$("$streamfusion" chart --csv "$csv" --out "$png" 2>&1)"; then
    echo "chart: $(realpath "$png")"
  else
    echo "compare-benchmarks: drawing the chart failed: $chart_error" >&2
    [[ $status -ne 0 ]] || status=1
  fi
fi
exit "$status"
