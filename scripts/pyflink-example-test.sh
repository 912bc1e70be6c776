#!/usr/bin/env bash
# usage: scripts/pyflink-example-test.sh [--no-build]   (make test)
#
# examples/pyflink-kafka-json/job.py as a PyFlink user runs it: `python job.py` in a virtual environment with
# `pip install apache-flink==2.2.1` (Flink's distribution and PyFlink with its dependencies; the environment of
# scripts/flink-cluster-test.sh, target/flink-dist/venv-2.2.1, completed), Flink's flink-sql-connector-kafka 5.0.0-2.2
# and our streamfusion-sql-connector-kafka jar passed to the job as pipeline.jars, on PyFlink's local
# MiniCluster, against the local broker. The job reads 2,000 JSON bids (a topic this script fills, with a
# price of 0 and a NULL channel among them) with 'streamfusion-kafka' and writes them converted, exactly once,
# through Flink's own 'kafka' sink and through 'streamfusion-kafka'; both topics are then read read_committed
# and compared record by record (partition, order, key, value), and every bid must be there once. Builds the jar
# (mvn install) unless --no-build; starts and stops the broker if none answers. Everything it writes is under
# target/pyflink-example. Environment: KAFKA_PORT [19092], the local broker's port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=1
case ${1:-} in
  "") ;;
  --no-build) build=0 ;;
  *) sed -n '2p' "$0" >&2; exit 2 ;;
esac
FLINK_VERSION=2.2.1
FLINK_KAFKA_VERSION=5.0.0-2.2
BIDS=2000
# The local broker's port (kafka/broker reads the same variable).
bootstrap=127.0.0.1:${KAFKA_PORT:-19092}
require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
started=$(date +%s)
cd "$ROOT"
work=$ROOT/target/pyflink-example
rm -rf "$work"
mkdir -p "$work"

sql_connector_jar java/streamfusion-sql-connector-kafka "$build" "$work/build.log"
our_jar=$SQL_CONNECTOR_JAR

echo "== PyFlink $FLINK_VERSION with its dependencies (pip install apache-flink==$FLINK_VERSION)"
flink_dist "$FLINK_VERSION"
PIP_NO_CACHE_DIR=1 "$FLINK_VENV/bin/pip" install -q "apache-flink==$FLINK_VERSION" >"$work/pip.log" 2>&1 \
  || { tail -20 "$work/pip.log" >&2; echo "error: pip install apache-flink==$FLINK_VERSION failed" >&2; exit 1; }
maven_jar "org.apache.flink:flink-sql-connector-kafka:$FLINK_KAFKA_VERSION" "$ROOT/target/flink-dist/jars"
kafka_jar=$ROOT/target/flink-dist/jars/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar
if ls "$FLINK_DIST"/lib/*kafka*.jar >/dev/null 2>&1; then
  echo "error: $FLINK_DIST/lib has a Kafka connector jar: the job must get them from pipeline.jars alone" >&2; exit 1
fi

start_broker
cleanup() {
  local status=$?
  [ "${BROKER_STARTED_HERE:-0}" = 1 ] && "$ROOT/kafka/broker" stop >/dev/null 2>&1
  echo "== Done in $(($(date +%s) - started)) s (files: $work)"
  exit $status
}
trap cleanup EXIT

prefix=pyflink-$(date +%s)
input=$prefix-bids stock=$prefix-euro-bids-kafka ours=$prefix-euro-bids
for topic in "$input" "$stock" "$ours"; do
  "$ROOT/kafka/broker" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" \
    --create --topic "$topic" --partitions 2 --replication-factor 1 >/dev/null
done
echo "== $BIDS JSON bids into $input"
awk -v n="$BIDS" 'BEGIN {
  for (i = 1; i <= n; i++) {
    channel = (i % 50 == 0) ? "null" : "\"channel-" (i % 7) "\""
    printf "{\"auction\":%d,\"bidder\":%d,\"price\":%d,\"channel\":%s,\"date_time\":\"2026-12-06 10:%02d:%02d.%03d\"}\n",
      1000 + i % 97, i, (i % 40 == 0) ? 0 : i * 37 % 100000, channel, (i / 60) % 60, i % 60, i % 1000
  }
}' >"$work/bids.json"
"$ROOT/kafka/broker" tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$bootstrap" \
  --topic "$input" <"$work/bids.json" >/dev/null

echo "== python job.py (PyFlink's local MiniCluster; pipeline.jars: flink-sql-connector-kafka and ours)"
t0=$SECONDS
(cd examples/pyflink-kafka-json && "$FLINK_VENV/bin/python" job.py --jars "$kafka_jar,$our_jar" --input "$input" \
  --stock-output "$stock" --output "$ours" --bootstrap "$bootstrap") >"$work/job.out" 2>&1 \
  || { tail -40 "$work/job.out" >&2; echo "error: the PyFlink job failed" >&2; exit 1; }
echo "  $(tail -1 "$work/job.out") in $((SECONDS - t0)) s"

echo "== The two topics, read_committed, record by record (partition, order, key, value)"
read_committed_topic "$bootstrap" "$stock" "$work/stock.records" &
read_committed_topic "$bootstrap" "$ours" "$work/ours.records" &
wait
n_stock=$(wc -l <"$work/stock.records")
n_ours=$(wc -l <"$work/ours.records")
bidders=$(grep -o '"bidder":[0-9]*' "$work/ours.records" | sort -u | wc -l)
if [ "$n_ours" = "$BIDS" ] && [ "$bidders" = "$BIDS" ] && cmp -s "$work/stock.records" "$work/ours.records"; then
  echo "  $ours: $n_ours records, equal to $stock's (partition, order, key, value); every bid once"
  echo "  e.g. $(grep -m1 '"channel":null' "$work/ours.records" | cut -f2-)"
  echo "PASSED"
else
  echo "  FAIL: $ours has $n_ours records ($bidders distinct bidders), $stock $n_stock; expected $BIDS each and equal:"
  diff "$work/stock.records" "$work/ours.records" | head -5 || true
  exit 1
fi
