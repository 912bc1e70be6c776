#!/usr/bin/env bash
# The cluster failure tests (docs/reliability.md): starts a fresh local three-node cluster
# (kafka/cluster, home target/cluster-faults), runs the Rust sink's failover tests (reliability/rust), the bijou64
# serdes' and the Flink connector's (reliability/java) against it with KAFKA_CLUSTER_BOOTSTRAP_SERVERS set, and
# stops the cluster at the end, even on failure. The home is deleted after a pass and kept (logs of every node)
# after a failure. Expects the workspace's test binaries and the Java modules built and installed (scripts/test.sh
# runs it after cargo test and mvn install); about 7 minutes on two cores.
#
# --soak (make soak) also runs the long tests CI leaves out: the rolling restarts of the Rust sink and of the
# Flink connector (two to three minutes each), the Rust sink's paused leader with a 10 s socket.timeout.ms, and
# its kills with the commit's progress record in flight (CI kills with EndTxn in flight instead).
set -euo pipefail
usage() { echo "usage: $0 [--soak]" >&2; exit 2; }
soak=0
case $# in
  0) ;;
  1) [ "$1" = --soak ] || usage; soak=1 ;;
  *) usage ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

export KAFKA_CLUSTER_HOME="$ROOT/target/cluster-faults"
passed=0
finish() {
  kafka/cluster stop || true
  if [ "$passed" = 1 ]; then
    rm -rf "$KAFKA_CLUSTER_HOME"
  else
    echo "cluster-faults: FAILED; the nodes' logs are kept in $KAFKA_CLUSTER_HOME/node-*/logs" >&2
  fi
}
trap finish EXIT

kafka/cluster stop >/dev/null 2>&1 || true
rm -rf "$KAFKA_CLUSTER_HOME"
started=$SECONDS
kafka/cluster start
KAFKA_CLUSTER_BOOTSTRAP_SERVERS=$(kafka/cluster bootstrap)
export KAFKA_CLUSTER_BOOTSTRAP_SERVERS
echo "cluster-faults: cluster up after $((SECONDS - started)) s"

# The same flags as scripts/test.sh's cargo test, so the binaries it built are reused.
rust_args=(--test-threads=1 --nocapture)
java_args=()
if [ "$soak" = 1 ]; then
  rust_args+=(--include-ignored)
  java_args+=(-Dreliability.excludedGroups=none)
fi
cargo test --workspace --all-features --locked --test sink_failover -- "${rust_args[@]}"
echo "cluster-faults: Rust sink tests done after $((SECONDS - started)) s"
mvn -B -q -pl reliability/java test "${java_args[@]}"
echo "cluster-faults: Java tests (bijou64 serdes, Flink connector) done after $((SECONDS - started)) s"
passed=1
