#!/usr/bin/env bash
# The main job: builds everything (Rust core, JNI library, Java modules), starts the local Kafka broker,
# runs the producer comparison (Kafka LongSerializer vs bijou64 through JNI and pure Java, plus the Rust
# rdkafka producer with 8-byte and bijou64 values; none and zstd) on the sequential and mixed distributions,
# and prints the table (a CSV and a chart land in perf/kafka/results/). Then the StreamFusion end-to-end run:
# Nexmark bid rows produced as Flink JSON by Flink's serializer per row and by the native batch encoder, same
# broker, same producer settings, every record read back and checked against Flink's bytes; prints rows/s of
# both and their ratio (a CSV lands in perf/streamfusion/results/). Then a short run of the Rust exactly-once
# sink's throughput (streamfusion-bench bench-json: StreamFusion's Flink mode against arrow-json per row, exactly once,
# no compression; docs/benchmarks.md has the full matrix). Then Nexmark q0, q9 and q19 as Flink SQL jobs
# (perf/nexmark/run.sh: the same corpus on the broker, the stock kafka/upsert-kafka source and sink against
# streamfusion-kafka/streamfusion-upsert-kafka as sink, and as source and sink, exactly once, every output
# checked; a CSV and a chart land in
# perf/nexmark/results/). All run even if one fails; the exit status is
# non-zero if any did. The broker keeps running afterwards (stop it with `kafka/broker stop`).
set -euo pipefail
usage() { echo "usage: $0 [MESSAGES [ITERATIONS [ROWS [NEXMARK_EVENTS]]]]   (defaults: 50000 3 200000 200000; ROWS: StreamFusion rows per pass)" >&2; exit 2; }
[ $# -le 4 ] || usage
messages=${1:-50000}
iterations=${2:-3}
rows=${3:-200000}
nexmark_events=${4:-200000}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

echo "== Building (cargo + Maven; the first build downloads crates and jars)"
mvn -B -q install -DskipTests

echo "== Starting the local Kafka broker"
start_broker

echo "== Producer comparison: $messages messages, $iterations measured iterations per mode"
status=0
perf/kafka/compare-benchmarks.sh --ci --min-pass-seconds 0 --min-rounds 1 --distribution sequential,mixed "$messages" "$iterations" \
  bijou64-benchmark-topic 127.0.0.1:19092 || status=$?

echo
echo "== StreamFusion end to end: $rows Nexmark bid rows, Flink per row vs native batches of 4096, $iterations measured iterations per mode"
sf_status=0
perf/streamfusion/compare.sh --shape bid --rows "$rows" --batch 4096 --iterations "$iterations" \
  --bootstrap 127.0.0.1:19092 --topic streamfusion-benchmark-topic || sf_status=$?

echo
echo "== Rust exactly-once sink: $rows Nexmark bids, StreamFusion (Flink mode) vs arrow-json per row, $iterations measured passes"
sink_status=0
perf/streamfusion/sink-bench.sh --ci --events "$rows" --iterations "$iterations" --mode exactly-once \
  --compression none --encoder streamfusion-flink,arrow-json-per-row || sink_status=$?

echo
echo "== Nexmark on Flink: q0, q9, q19 over $nexmark_events events, stock Kafka JSON source and sink vs StreamFusion's sink vs StreamFusion's source and sink, exactly once, 1 measured round"
nexmark_status=0
perf/nexmark/run.sh --query q0,q9,q19 --events "$nexmark_events" --runs 1 --profile false \
  --bootstrap 127.0.0.1:19092 || nexmark_status=$?
echo
echo "The broker is still running at 127.0.0.1:19092; stop it with: kafka/broker stop"
for code in "$status" "$sf_status" "$sink_status" "$nexmark_status"; do
  [ "$code" -eq 0 ] || exit "$code"
done
