#!/usr/bin/env bash
# Runs every test: the license check, Rust (codec, properties, vectors, rdkafka against the broker), a bounded
# pass of every fuzz target (scripts/fuzz.sh --ci), Java (codec, JNI, serializers, broker transactions, example
# app, benchmark generators), a Nexmark-on-Flink smoke run, the cluster failure tests (their own three-node
# cluster, scripts/cluster-faults.sh) and a short producer comparison smoke run. Starts the local Kafka broker
# if none answers, and stops it again at the end (even on failure) if it started it.
set -euo pipefail
usage() { echo "usage: $0   (environment: KAFKA_BOOTSTRAP_SERVERS to use your own cluster)" >&2; exit 2; }
[ $# -eq 0 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

echo "== Licenses: cargo deny, the native library's third-party notice"
bash scripts/licenses.sh

bootstrap=${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:19092}
BROKER_STARTED_HERE=0
if [ -z "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
  start_broker
fi
trap '[ "$BROKER_STARTED_HERE" = 1 ] && "$ROOT/kafka/broker" stop' EXIT

echo "== Rust: fmt, clippy, tests"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
KAFKA_BOOTSTRAP_SERVERS=$bootstrap cargo test --workspace --all-features --locked

echo "== Flink parity of streamfusion-json (real Flink goldens)"
bash scripts/parity.sh
bash scripts/miri.sh

echo "== Fuzzing: every cargo-fuzz target for 25 s (fuzz/, AddressSanitizer); a crash fails the run"
bash scripts/fuzz.sh --ci

echo "== Java: build (native library through cargo) and tests"
mvn -B install -Dkafka.bootstrap.servers="$bootstrap"

echo "== Nexmark on Flink smoke run: q0, q9, q19 over 20,000 events, stock sink vs ours, outputs checked, profiled"
perf/nexmark/run.sh --query q0,q9,q19 --events 20000 --runs 1 --bootstrap "$bootstrap"

echo "== Broker script: a restart one second after SIGKILL starts the first time"
bash kafka/test-restart-after-kill.sh

echo "== Cluster failure tests: three nodes, leaders and the coordinator SIGKILLed, every record checked read_committed"
bash scripts/cluster-faults.sh

echo "== Producer comparison smoke run (every message verified)"
perf/kafka/compare-benchmarks.sh --ci --min-pass-seconds 0 --min-rounds 1 --distribution boundary 2000 1 bijou64-smoke "$bootstrap"
