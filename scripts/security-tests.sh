#!/usr/bin/env bash
# The security tests (SASL/TLS and ACLs, docs/security.md): starts a broker of its own that takes only
# SASL/SCRAM-SHA-512 over TLS and authorises with ACLs (kafka/broker with KAFKA_SECURITY=sasl_ssl, home
# target/secure-broker, ports 19141/19142; certificates made with keytool), runs the bijou64 serdes' tests and
# the Flink connector's against it (security/java: least-privilege ACLs, each one missing, a wrong password, no
# secret in any log or error; the connectors streamfusion-kafka and streamfusion-upsert-kafka beside Flink's kafka
# and upsert-kafka in Flink SQL jobs on a MiniCluster, exactly and at least once), the exactly-once Rust sink's and the streamfusion CLI's
# (security/rust, the same for their ACLs), and stops it. Then the same on a secured three-node cluster of its
# own (KAFKA_SECURITY=sasl_ssl kafka/cluster, home target/secure-cluster, clients on 19161-19163, controllers on
# 19171-19173): the exactly-once Rust sink with its least-privilege ACLs while the leader of a data partition is
# SIGKILLed (security/rust, tests/sink_cluster_acls.rs). One Kafka at a time; everything is stopped at the end,
# even on failure. The homes are deleted after a pass and kept (the logs) after a failure. Expects the Java
# modules built and installed and the workspace's tests built (scripts/test.sh runs it after cargo test and mvn
# install); about 5 minutes.
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

export KAFKA_HOME_DIR="$ROOT/target/secure-broker" KAFKA_SECURITY=sasl_ssl
export KAFKA_PORT=19141 KAFKA_CONTROLLER_PORT=19142 KAFKA_HEAP_OPTS="-Xms256m -Xmx384m"
# The secured cluster: kafka/cluster gives each node its own home and ports (over the KAFKA_HOME_DIR and
# KAFKA_PORT above) and takes KAFKA_SECURITY from the environment.
export KAFKA_CLUSTER_HOME="$ROOT/target/secure-cluster" KAFKA_CLUSTER_PORT=19161 KAFKA_CLUSTER_CONTROLLER_PORT=19171
passed=0
finish() {
  kafka/broker stop || true
  kafka/cluster stop || true
  if [ "$passed" = 1 ]; then
    rm -rf "$KAFKA_HOME_DIR" "$KAFKA_CLUSTER_HOME"
  else
    echo "security-tests: FAILED; the logs are kept in $KAFKA_HOME_DIR/logs and $KAFKA_CLUSTER_HOME/node-*/logs" >&2
  fi
}
trap finish EXIT

kafka/broker stop >/dev/null 2>&1 || true
kafka/cluster stop >/dev/null 2>&1 || true
rm -rf "$KAFKA_HOME_DIR" "$KAFKA_CLUSTER_HOME"
started=$SECONDS
kafka/broker start
export KAFKA_SECURE_BOOTSTRAP_SERVERS="127.0.0.1:$KAFKA_PORT"
export KAFKA_SECURE_ADMIN_CONFIG="$KAFKA_HOME_DIR/run/admin.properties"
export KAFKA_SECURE_LOG_DIR="$KAFKA_HOME_DIR/logs"
mvn -B -q -pl security/java test
echo "security-tests: Java serdes and Flink connector tests done after $((SECONDS - started)) s"
# The same flags as scripts/test.sh's cargo test, so the binaries it built are reused; one test at a time (each
# runs Kafka's tools to make its user and ACLs).
cargo test --workspace --all-features --locked --test sink_acls --test cli_acls -- --test-threads=1 --nocapture
echo "security-tests: Rust sink and CLI tests done after $((SECONDS - started)) s"

kafka/broker stop
kafka/cluster start
cluster=$(kafka/cluster bootstrap)
admin_config=$(kafka/cluster admin-config)
KAFKA_CLUSTER_BOOTSTRAP_SERVERS=$cluster KAFKA_SECURE_BOOTSTRAP_SERVERS=$cluster KAFKA_SECURE_ADMIN_CONFIG=$admin_config \
  KAFKA_SECURE_LOG_DIR="$KAFKA_CLUSTER_HOME/node-1/logs:$KAFKA_CLUSTER_HOME/node-2/logs:$KAFKA_CLUSTER_HOME/node-3/logs" \
  cargo test --workspace --all-features --locked --test sink_cluster_acls -- --test-threads=1 --nocapture
kafka/cluster stop
echo "security-tests: secured cluster test done after $((SECONDS - started)) s"
passed=1
