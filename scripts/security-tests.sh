#!/usr/bin/env bash
# The security tests (issue #17 item 3, docs/security.md): starts a broker of its own that takes only
# SASL/SCRAM-SHA-512 over TLS and authorises with ACLs (kafka/broker with KAFKA_SECURITY=sasl_ssl, home
# target/secure-broker, ports 19141/19142; certificates made with keytool), runs the bijou64 serdes' tests and
# the Flink connector's against it (security/java: least-privilege ACLs, each one missing, a wrong password, no
# secret in any log or error; the connectors streamfusion-kafka and streamfusion-upsert-kafka beside Flink's kafka
# and upsert-kafka in Flink SQL jobs on a MiniCluster, exactly and at least once), the exactly-once Rust sink's and the streamfusion CLI's
# (security/rust, the same for their ACLs), and stops it at the end, even on failure. The home is deleted after
# a pass and kept (the broker's logs) after a failure. Expects the Java modules built and installed and the
# workspace's tests built (scripts/test.sh runs it after cargo test and mvn install); about 3.5 minutes.
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
cd "$ROOT"

export KAFKA_HOME_DIR="$ROOT/target/secure-broker" KAFKA_SECURITY=sasl_ssl
export KAFKA_PORT=19141 KAFKA_CONTROLLER_PORT=19142 KAFKA_HEAP_OPTS="-Xms256m -Xmx384m"
passed=0
finish() {
  kafka/broker stop || true
  if [ "$passed" = 1 ]; then
    rm -rf "$KAFKA_HOME_DIR"
  else
    echo "security-tests: FAILED; the broker's logs are kept in $KAFKA_HOME_DIR/logs" >&2
  fi
}
trap finish EXIT

kafka/broker stop >/dev/null 2>&1 || true
rm -rf "$KAFKA_HOME_DIR"
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
passed=1
