#!/usr/bin/env bash
# Runs every test: the license check, Rust (codec, properties, vectors, rdkafka against the broker), Miri, a
# bounded fuzz pass (scripts/fuzz.sh --ci), Java (codec, JNI, serializers, property tests, broker transactions,
# example app, benchmark generators), the release deployed to a file:// repository with the examples built from
# it outside the repository and run, a Nexmark-on-Flink smoke run, the cluster failure tests (their own
# three-node cluster, scripts/cluster-faults.sh), the security tests (a SASL_SSL broker of their own,
# scripts/security-tests.sh) and a short producer comparison smoke run. Starts the local Kafka broker if none
# answers, and stops it again at the end (even on failure) if it started it.
set -euo pipefail
usage() { echo "usage: $0   (environment: KAFKA_BOOTSTRAP_SERVERS to use your own cluster)" >&2; exit 2; }
[ $# -eq 0 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"
# Prints a step's heading with the time since the start and the previous step's duration, and the total at exit.
started=$SECONDS
step_started=$SECONDS
step() {
  local now=$SECONDS
  printf '== %s   [at %dm%02ds; previous step %ds]\n' "$1" $(((now - started) / 60)) $(((now - started) % 60)) \
    $((now - step_started))
  step_started=$now
}

step "Licenses: cargo deny, the native library's third-party notice"
bash scripts/licenses.sh

bootstrap=${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:19092}
BROKER_STARTED_HERE=0
if [ -z "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
  start_broker
fi
trap 'status=$?; echo "== test.sh: exit $status after $((SECONDS - started)) s (last step $((SECONDS - step_started)) s)"; [ "$BROKER_STARTED_HERE" = 1 ] && "$ROOT/kafka/broker" stop' EXIT

step "Rust: fmt, clippy"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check # the fuzz crate (its own workspace; run by make fuzz)
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
step "Rust: tests (codec, properties, vectors, the sink against the broker)"
KAFKA_BOOTSTRAP_SERVERS=$bootstrap cargo test --workspace --all-features --locked

# The smoke runs below (Nexmark's chart, the producer comparison's Rust modes) check outputs, not speed: they use
# the streamfusion-bench that cargo test just built (the test profile, optimised) instead of building a release one
# with LTO (about 5 minutes on two cores).
if [ -z "${STREAMFUSION_BENCH_BIN:-}" ] && [ -x "${CARGO_TARGET_DIR:-$ROOT/target}/debug/streamfusion-bench" ]; then
  export STREAMFUSION_BENCH_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/streamfusion-bench"
fi

step "Flink parity of streamfusion-json (real Flink goldens)"
bash scripts/parity.sh
step "Miri: the unsafe paths of the codec, the JSON writers, the Arrow import and the JNI registry"
bash scripts/miri.sh

step "Fuzz: every cargo-fuzz target for 25 s under AddressSanitizer (bounded pass; make fuzz runs longer)"
bash scripts/fuzz.sh --ci

step "Java: build (native library through cargo) and tests"
mvn -B install -Dkafka.bootstrap.servers="$bootstrap"

step "Release: the public artifacts deployed to a file:// repository; the examples built from it outside the repository and run"
bash scripts/release.sh --maven-only
KAFKA_BOOTSTRAP_SERVERS=$bootstrap bash scripts/examples-from-release.sh

step "Nexmark on Flink smoke run: q0, q9, q19 over 20,000 events, stock sink vs ours, outputs checked, profiled"
perf/nexmark/run.sh --query q0,q9,q19 --events 20000 --runs 1 --bootstrap "$bootstrap"

step "Broker script: a restart one second after SIGKILL starts the first time"
bash kafka/test-restart-after-kill.sh

step "Cluster failure tests: three nodes, leaders and the coordinator SIGKILLed, every record checked read_committed"
bash scripts/cluster-faults.sh

step "Security tests: SASL/SCRAM over TLS with ACLs (a broker of their own), least privilege, each ACL missing, no secret logged"
bash scripts/security-tests.sh

step "Producer comparison smoke run (every message verified)"
perf/kafka/compare-benchmarks.sh --ci --min-pass-seconds 0 --min-rounds 1 --distribution boundary 2000 1 bijou64-smoke "$bootstrap"
