#!/usr/bin/env bash
# The test tiers (CONTRIBUTING.md). Each runs scripts/setup.sh for its tier first, which checks up front what
# cannot be installed and installs what can (cargo-deny, cargo-fuzz with a nightly toolchain).
#   all    (make test) every test: the license check, Rust (fmt, clippy, codec, properties, vectors, rdkafka
#          against the broker), the Flink parity of the JSON encoder (real Flink goldens), Miri, a bounded fuzz
#          pass (scripts/fuzz.sh --ci), Java (codec, JNI, serializers, property tests, broker transactions, example
#          app, benchmark generators), the release deployed to a file:// repository with the examples built from it
#          outside the repository and run, the SQL jar on a real Flink session cluster (scripts/flink-cluster-test.sh),
#          the PyFlink example (scripts/pyflink-example-test.sh), a Nexmark-on-Flink smoke run, the cluster failure tests (their own
#          three-node cluster, scripts/cluster-faults.sh), the security tests (a SASL_SSL broker of their own,
#          scripts/security-tests.sh) and a short producer comparison smoke run.
#   check  (make check) the inner loop, no broker: Rust and Java format, clippy, and the Rust and JVM tests that
#          need no broker (every test but the `*_broker.rs` and `*BrokerTest` ones; the cluster and security
#          tests skip themselves), the pinned Flink goldens included.
#   rust   (make test-rust) the Rust tiers with the broker: the license check, fmt, clippy, every Rust test, the
#          Flink parity, Miri, the fuzz pass.
#   jvm    (make test-jvm) every JVM test with the broker (Maven builds the native library through cargo).
# The tiers with a broker start the local Kafka broker if none answers, and stop it again at the end (even on
# failure) if they started it. TEST_PRUNE_BUILDS=1 (.ci/run) removes the fuzz build after the fuzz pass.
set -euo pipefail
usage() { echo "usage: $0 [all|check|rust|jvm]   (environment: KAFKA_BOOTSTRAP_SERVERS to use your own cluster)" >&2; exit 2; }
[ $# -le 1 ] || usage
tier=${1:-all}
case "$tier" in all | check | rust | jvm) ;; *) usage ;; esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
bash scripts/setup.sh "$tier"
# Prints a step's heading with the time since the start and the previous step's duration, and the total at exit.
started=$SECONDS
step_started=$SECONDS
step() {
  local now=$SECONDS
  printf '== %s   [at %dm%02ds; previous step %ds]\n' "$1" $(((now - started) / 60)) $(((now - started) % 60)) \
    $((now - step_started))
  step_started=$now
}

# After a failed Maven build: each failed test of the surefire reports (its name, its assertion and the first lines
# of its stack trace outside JUnit and the JDK), so that the end of the log, which a CI summary keeps, names it.
surefire_failures() {
  local report
  for report in $(grep -l -E '(Failures|Errors): [1-9]' java/*/target/surefire-reports/*.txt \
    java/*/*/target/surefire-reports/*.txt 2>/dev/null); do
    echo "== failed: $report"
    grep -v -E '^\s+at (java\.|jdk\.|org\.junit\.|org\.apache\.maven\.)' "$report" | grep -A4 '<<<' | head -30 || true
  done
}

# After a passing Maven build: the tests that failed once and passed when run again (surefire's
# rerunFailingTestsCount; a test that fails twice fails the build), with their first failure, so that a flaky test
# is seen and fixed, never hidden.
surefire_flakes() {
  python3 - java/*/target/surefire-reports/TEST-*.xml java/*/*/target/surefire-reports/TEST-*.xml <<'PY'
import sys, xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError):
        continue
    for case in cases:
        for flake in list(case.iter("flakyFailure")) + list(case.iter("flakyError")):
            message = (flake.get("message") or flake.get("type") or "").splitlines()[:1]
            print(f"== flaky (failed once, passed on its rerun): {case.get('classname')}.{case.get('name')}: "
                  f"{message[0] if message else ''}")
PY
}

# The same cargo flags everywhere (here and in the scripts it calls), so every step reuses one build.
CARGO_TEST=(cargo test --workspace --all-features --locked)

rust_format_and_lints() {
  step "Rust: fmt, clippy"
  cargo fmt --all -- --check
  cargo fmt --manifest-path fuzz/Cargo.toml -- --check # the fuzz crate (its own workspace; run by make fuzz)
  cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
}

if [ "$tier" = check ]; then
  trap 'status=$?; echo "== test.sh check: exit $status after $((SECONDS - started)) s"' EXIT
  rust_format_and_lints
  step "Java: format (spotless)"
  mvn -B -q -N spotless:check
  step "Rust: the tests that need no broker (units, every tests/*.rs but *_broker.rs, doctests)"
  targets=()
  for file in rust/*/tests/*.rs perf/rust/tests/*.rs reliability/rust/tests/*.rs security/rust/tests/*.rs; do
    name=$(basename "$file" .rs)
    case "$name" in *_broker) ;; *) targets+=(--test "$name") ;; esac
  done
  "${CARGO_TEST[@]}" --lib --bins "${targets[@]}"
  "${CARGO_TEST[@]}" --doc
  step "Java: build (native library through cargo) and the tests that need no broker (every test but *BrokerTest)"
  mvn -B install -Dsurefire.excludesFile="$ROOT/scripts/broker-tests.excludes" || { surefire_failures; exit 1; }
  exit 0
fi

bootstrap=${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:19092}
BROKER_STARTED_HERE=0
if [ -z "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
  start_broker
fi
trap 'status=$?; echo "== test.sh $tier: exit $status after $((SECONDS - started)) s (last step $((SECONDS - step_started)) s)"; [ "$BROKER_STARTED_HERE" = 1 ] && "$ROOT/kafka/broker" stop' EXIT

if [ "$tier" = all ] || [ "$tier" = rust ]; then
  step "Licenses: cargo deny, the native library's third-party notice"
  bash scripts/licenses.sh
  rust_format_and_lints
  step "Rust: tests (codec, properties, vectors, the pinned Flink goldens, the sink against the broker)"
  # A failed test runs once more, as the JVM tier's do: the broker tests share a 2-core VM whose stalls can time out
  # a broker call (seen once: the broker silent for a minute, its session expired). Failing twice fails the run.
  if ! KAFKA_BOOTSTRAP_SERVERS=$bootstrap "${CARGO_TEST[@]}"; then
    echo "== Rust tests: a test failed (above); the Rust tests run once more, and a second failure fails the run"
    start_broker
    KAFKA_BOOTSTRAP_SERVERS=$bootstrap "${CARGO_TEST[@]}"
  fi
  step "Flink parity of streamfusion-json (real Flink goldens)"
  bash scripts/parity.sh
  step "Miri: the unsafe paths of the codec, the JSON writers, the Arrow import and the JNI registry"
  bash scripts/miri.sh
  step "Fuzz: every cargo-fuzz target for 12 s under AddressSanitizer, built unoptimised (bounded pass; make fuzz runs longer)"
  bash scripts/fuzz.sh --ci
  if [ "${TEST_PRUNE_BUILDS:-0}" = 1 ]; then
    echo "TEST_PRUNE_BUILDS=1: removing the fuzz build (fuzz/target, $(du -sh fuzz/target 2>/dev/null | cut -f1)) to free the disk"
    rm -rf fuzz/target
  fi
fi

if [ "$tier" = all ] || [ "$tier" = jvm ]; then
  step "Java: format (spotless), build (native library through cargo) and tests"
  mvn -B -q -N spotless:check
  # A failed test runs once more: the broker tests share a 2-core machine with a broker and Flink MiniClusters.
  mvn -B install -Dkafka.bootstrap.servers="$bootstrap" -Dsurefire.rerunFailingTestsCount=1 \
    || { surefire_failures; exit 1; }
  surefire_flakes
fi
[ "$tier" = all ] || exit 0

# The smoke runs below (Nexmark's chart, the producer comparison's Rust modes) check outputs, not speed: they use
# the streamfusion-bench that cargo test just built (the test profile, optimised) instead of building a release one
# with LTO (about 5 minutes on two cores).
if [ -z "${STREAMFUSION_BENCH_BIN:-}" ] && [ -x "${CARGO_TARGET_DIR:-$ROOT/target}/debug/streamfusion-bench" ]; then
  export STREAMFUSION_BENCH_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/streamfusion-bench"
fi

step "Release: the public artifacts deployed to a file:// repository; the examples built from it outside the repository and run"
bash scripts/release.sh --maven-only
KAFKA_BOOTSTRAP_SERVERS=$bootstrap bash scripts/examples-from-release.sh

step "Flink session cluster: Flink 2.2.1's own distribution and scripts, the SQL jar through ADD JAR (jobs one after another and two at once) and in lib/, a TaskManager SIGKILLed mid-job; every record against the stock connector's"
bash scripts/flink-cluster-test.sh --no-build --runs 2

step "PyFlink: examples/pyflink-kafka-json (pip install apache-flink, the jars as pipeline.jars), both sinks' topics compared"
bash scripts/pyflink-example-test.sh --no-build

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
