#!/usr/bin/env bash
# The main job: builds everything (Rust core, JNI library, Java modules), starts the local Kafka broker,
# runs the producer comparison (Kafka LongSerializer vs bijou64 through JNI and pure Java, plus the Rust
# rdkafka producer with 8-byte and bijou64 values; none and zstd) on the sequential and mixed distributions,
# and prints the table (a CSV and a chart land in perf/kafka/results/). The broker keeps running afterwards
# (stop it with `kafka/broker stop`).
set -euo pipefail
usage() { echo "usage: $0 [MESSAGES [ITERATIONS]]   (defaults: 50000 3)" >&2; exit 2; }
[ $# -le 2 ] || usage
messages=${1:-50000}
iterations=${2:-3}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

echo "== Building (cargo + Maven; the first build downloads crates and jars)"
mvn -B -q -f java/pom.xml install -DskipTests

echo "== Starting the local Kafka broker"
start_broker

echo "== Producer comparison: $messages messages, $iterations measured iterations per mode"
perf/kafka/compare-benchmarks.sh --ci --distribution sequential,mixed "$messages" "$iterations" \
  bijou64-benchmark-topic 127.0.0.1:19092
echo
echo "The broker is still running at 127.0.0.1:19092; stop it with: kafka/broker stop"
