#!/usr/bin/env bash
# usage: scripts/flink-cluster-test.sh [--rows N] [--runs N] [--no-build]   (make flink-cluster-test)
#   --rows ids per job [20000], --runs ADD JAR submissions [3], --no-build: test the jar already built
#
# The SQL connector jar (java/streamfusion-sql-connector-kafka) on a real Flink 2.2.1 session cluster, started
# by Flink's own scripts from Flink's own distribution (PyPI's apache-flink and apache-flink-libraries, installed
# with --no-deps into target/flink-dist/venv), with Flink's default JVM options and Flink's
# flink-sql-connector-kafka in lib/: one JobManager and two TaskManagers (two slots each, a job's spread over both;
# 1 GiB per process).
# Through bin/sql-client.sh -f, a statement set writes one deterministic table (datagen, a sequence of --rows
# ids) through the stock 'kafka' connector and through 'streamfusion-kafka' into two topics of the local broker,
# exactly once, at parallelism 2 (so every TaskManager runs a writer of each):
#   1. our jar added with ADD JAR (lib/ has only Flink's connector), the same job submitted --runs times, one
#      after another, to the same cluster (each job its own class loader in the same TaskManager JVMs);
#   2. on that cluster, two such jobs at once (two class loaders loading the library at the same time);
#   3. our jar in lib/, on a cluster started afresh, the job once;
#   4. on that cluster, a slower job (20 s) whose TaskManager is killed with SIGKILL after two checkpoints, and a
#      new TaskManager started: the job must restart and finish, every id exactly once in both topics.
# After each job: the TaskManagers' RSS, the copies of the native library left in their temporary directory,
# and the copies they have mapped. At the end, with the cluster stopped, every pair of topics is compared record
# by record (read_committed: partition, order in the partition, key, value; 'sink.partitioner' = 'fixed', so a
# partition has one writer and its order is deterministic), and the TaskManager logs must show every encoder
# batch native (the streamfusion metrics, logged by Flink's Slf4jReporter; 'streamfusion.native.min-batch-rows'
# = 0, so a small batch too), no fallback and no UnsatisfiedLinkError. The cluster is stopped on exit, failure
# included; the local broker (kafka/broker, 127.0.0.1:19092) too if this script started it. Needs python3
# (venv), a JDK 17+, Maven and curl; builds the jar (mvn install) unless --no-build. Environment:
# FLINK_REST_PORT [18081], FLINK_RPC_PORT [16123] (the JobManager's; the other ports are Flink's random ones).
# Everything it writes is under target/flink-dist.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,3p' "$0" >&2; exit 2; }
rows=20000
runs=3
build=1
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0; shift ;;
    --rows) [ $# -ge 2 ] || usage; rows=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ $rows =~ ^[0-9]+$ && $rows -ge 1000 && $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || usage

FLINK_VERSION=2.2.1
# flink-sql-connector-kafka for Flink 2.2 (Maven Central), the kafka-clients it relocates our jar is linked to.
FLINK_KAFKA_VERSION=5.0.0-2.2
require python3 "install Python 3 with venv (apt-get install python3-venv)"
require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
require curl "install curl (apt-get install curl): the test asks Flink's REST API for its TaskManagers"
started=$(date +%s)
cd "$ROOT"
work=$ROOT/target/flink-dist
mkdir -p "$work"

if [ "$build" = 1 ]; then
  echo "== Building the SQL connector jar (mvn -pl java/streamfusion-sql-connector-kafka -am install)"
  mvn -B -q -pl java/streamfusion-sql-connector-kafka -am install -DskipTests >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; echo "error: building the SQL connector jar failed" >&2; exit 1; }
fi
jar_version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' java/streamfusion-sql-connector-kafka/pom.xml | head -1)
our_jar=$ROOT/java/streamfusion-sql-connector-kafka/target/streamfusion-sql-connector-kafka-$jar_version.jar
[ -f "$our_jar" ] || { echo "error: $our_jar was not built (run without --no-build)" >&2; exit 1; }

echo "== Flink $FLINK_VERSION from PyPI (apache-flink, apache-flink-libraries, --no-deps) in $work/venv"
if [ ! -x "$work/venv/bin/python" ] || ! "$work/venv/bin/pip" show -q apache-flink-libraries 2>/dev/null \
    | grep -q "^Version: $FLINK_VERSION$"; then
  python3 -m venv "$work/venv"
  PIP_NO_CACHE_DIR=1 "$work/venv/bin/pip" install -q --no-deps "apache-flink==$FLINK_VERSION" "apache-flink-libraries==$FLINK_VERSION"
fi
dist=$("$work/venv/bin/python" -c 'import os, pyflink; print(os.path.dirname(pyflink.__file__))' 2>/dev/null) \
  || dist=$(ls -d "$work"/venv/lib/python3*/site-packages/pyflink | head -1)
[ -x "$dist/bin/start-cluster.sh" ] || { echo "error: no Flink distribution in $dist" >&2; exit 1; }

echo "== flink-sql-connector-kafka $FLINK_KAFKA_VERSION and flink-sql-gateway $FLINK_VERSION (Maven Central)"
fetch() { # fetch GROUP:ARTIFACT:VERSION DIR
  local artifact=${1#*:}; artifact=${artifact%%:*}
  if ! ls "$2/$artifact-"*.jar >/dev/null 2>&1; then
    mvn -B -q dependency:copy -Dartifact="$1" -DoutputDirectory="$2" >>"$work/build.log" 2>&1 \
      || { echo "error: could not fetch $1 from Maven Central" >&2; exit 1; }
  fi
}
fetch "org.apache.flink:flink-sql-gateway:$FLINK_VERSION" "$dist/opt"
fetch "org.apache.flink:flink-sql-connector-kafka:$FLINK_KAFKA_VERSION" "$work/jars"
cp -f "$work/jars/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar" "$dist/lib/"
rm -f "$dist"/lib/streamfusion-sql-connector-kafka-*.jar

# Flink's own config.yaml with its default JVM options for JDK 17+ (env.java.opts.all), and: two TaskManagers
# of two slots (two jobs at once fit; either TaskManager alone can run a job after the other is killed), short
# heartbeats (a killed TaskManager is noticed in seconds), small processes, ports and pid files of our own, the TaskManagers' java.io.tmpdir (where the
# native library is extracted) in target/, and the metrics logged every second.
conf=$dist/conf
[ -f "$conf/config.yaml.flink" ] || cp "$conf/config.yaml" "$conf/config.yaml.flink"
java_opts=$(sed -n 's/^ *all: \(--add-.*\)$/\1/p' "$conf/config.yaml.flink" | head -1)
[ -n "$java_opts" ] || { echo "error: no env.java.opts.all in Flink's config.yaml" >&2; exit 1; }
tm_tmp=$work/tm-tmp
run_dir=$work/run
rm -rf "$tm_tmp" "$run_dir" "$dist/log"
mkdir -p "$tm_tmp" "$run_dir" "$dist/log"
rest_port=${FLINK_REST_PORT:-18081}
cat >"$conf/config.yaml" <<EOF
env.java.opts.all: $java_opts
env.java.opts.taskmanager: -Djava.io.tmpdir=$tm_tmp
env.pid.dir: $run_dir
jobmanager.bind-host: localhost
jobmanager.rpc.address: localhost
jobmanager.rpc.port: ${FLINK_RPC_PORT:-16123}
jobmanager.memory.process.size: 1024m
jobmanager.execution.failover-strategy: region
taskmanager.bind-host: localhost
taskmanager.host: localhost
taskmanager.numberOfTaskSlots: 2
taskmanager.load-balance.mode: slots
taskmanager.memory.process.size: 1024m
parallelism.default: 2
rest.address: localhost
rest.bind-address: localhost
rest.port: $rest_port
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 4
restart-strategy.fixed-delay.delay: 2 s
heartbeat.interval: 2000
heartbeat.timeout: 10000
metrics.reporter.slf4j.factory.class: org.apache.flink.metrics.slf4j.Slf4jReporterFactory
metrics.reporter.slf4j.interval: 1 s
EOF
printf 'localhost\nlocalhost\n' >"$conf/workers"
printf 'localhost:%s\n' "$rest_port" >"$conf/masters"

start_broker
cluster_up=0
stop_cluster() {
  if [ "$cluster_up" = 1 ]; then
    "$dist/bin/stop-cluster.sh" >>"$work/cluster.log" 2>&1 || true
    cluster_up=0
  fi
}
cleanup() {
  local status=$?
  stop_cluster
  [ "${BROKER_STARTED_HERE:-0}" = 1 ] && "$ROOT/kafka/broker" stop >/dev/null 2>&1
  echo "== Done in $(($(date +%s) - started)) s (logs: $dist/log, $work)"
  exit $status
}
trap cleanup EXIT

start_cluster() {
  "$dist/bin/start-cluster.sh" >>"$work/cluster.log" 2>&1
  cluster_up=1
  local deadline=$((SECONDS + 90)) tms=0
  while [ $SECONDS -lt $deadline ]; do
    tms=$(curl -sf "http://localhost:$rest_port/taskmanagers" 2>/dev/null | grep -o '"id"' | wc -l || true)
    [ "$tms" -ge 2 ] && break
    sleep 1
  done
  [ "$tms" -ge 2 ] || { echo "error: the cluster did not come up with 2 TaskManagers" >&2; tail -20 "$dist"/log/*.log >&2; exit 1; }
}

tm_pids() { # the live TaskManagers (the pid file keeps a killed one's line)
  local pid
  for pid in $(cat "$run_dir"/*taskexecutor.pid); do
    kill -0 "$pid" 2>/dev/null && echo "$pid"
  done
}
# One line on the TaskManagers: RSS in MB, the library copies in their java.io.tmpdir, the copies mapped.
measure() { # measure LABEL
  local pid line="" files mapped
  files=$(find "$tm_tmp" -name 'libkafka_serde_native*' | wc -l)
  for pid in $(tm_pids); do
    mapped=$(grep 'libkafka_serde_native' "/proc/$pid/maps" 2>/dev/null | awk '{print $6}' | sort -u | wc -l || true)
    line+=" TM $pid: RSS $(($(ps -o rss= -p "$pid") / 1024)) MB, $mapped mapped;"
  done
  echo "  $1:$line library files in the TaskManagers' tmpdir: $files" | tee -a "$work/measurements.txt"
}

# rest_job NAME FIELD [STATE]: FIELD of the job named NAME (in STATE, when given), from the REST API's job list.
rest_job() {
  curl -sf "http://localhost:$rest_port/jobs/overview" | python3 -c '
import json, sys
name, field, state = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
for job in json.load(sys.stdin)["jobs"]:
    if job["name"] == name and (state is None or job["state"] == state):
        print(job[field]); break' "$@" 2>/dev/null || true
}

prefix=sfct-$(date +%s)
topics=()
# Writes the job's SQL for run $1 to $work/run-$1.sql ($2: an ADD JAR line or nothing) and creates its topics.
job_sql() { # job_sql RUN ADD_JAR_LINE [ROWS_PER_SECOND]
  local run=$1 stock=$prefix-$1-kafka ours=$prefix-$1-streamfusion rate=${3:-$((rows / 4))}
  topics+=("$stock $ours")
  local options="'properties.bootstrap.servers' = '127.0.0.1:19092', 'key.format' = 'json', 'key.fields' = 'id',
  'value.format' = 'json', 'sink.partitioner' = 'fixed', 'sink.delivery-guarantee' = 'exactly-once'"
  local columns="id BIGINT, name STRING, price DECIMAL(10, 2), ratio DOUBLE, flag BOOLEAN, ts TIMESTAMP(3), tags ARRAY<STRING>"
  cat >"$work/run-$run.sql" <<EOF
$2
SET 'table.dml-sync' = 'true';
SET 'execution.checkpointing.interval' = '1 s';
SET 'parallelism.default' = '2';
SET 'pipeline.name' = '$prefix-$run';
CREATE TEMPORARY TABLE ids (id BIGINT) WITH (
  'connector' = 'datagen', 'rows-per-second' = '$rate',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '$rows');
CREATE TEMPORARY VIEW source_rows AS SELECT id, CONCAT('name-', CAST(id AS STRING), IF(MOD(id, 7) = 0, ' "q"\\\\t', '')) AS name,
  CAST(CAST(MOD(id, 100000) AS DECIMAL(12, 2)) / 4 AS DECIMAL(10, 2)) AS price, CAST(id AS DOUBLE) / 7 AS ratio, MOD(id, 3) = 0 AS flag,
  TIMESTAMPADD(SECOND, CAST(id AS INT), TIMESTAMP '2026-01-01 00:00:00') AS ts,
  ARRAY[CAST(MOD(id, 10) AS STRING), 'x'] AS tags FROM ids;
CREATE TEMPORARY TABLE stock_sink ($columns) WITH ('connector' = 'kafka', 'topic' = '$stock',
  'sink.transactional-id-prefix' = '$stock', $options);
CREATE TEMPORARY TABLE streamfusion_sink ($columns) WITH ('connector' = 'streamfusion-kafka', 'topic' = '$ours',
  'sink.transactional-id-prefix' = '$ours', 'streamfusion.native.min-batch-rows' = '0', $options);
EXECUTE STATEMENT SET BEGIN
INSERT INTO stock_sink SELECT * FROM source_rows;
INSERT INTO streamfusion_sink SELECT * FROM source_rows;
END;
EOF
}

submit() { # submit RUN (waits for the job's end)
  local t0=$SECONDS
  if ! "$dist/bin/sql-client.sh" -f "$work/run-$1.sql" >"$work/run-$1.out" 2>&1 \
      || grep -q '\[ERROR\]' "$work/run-$1.out"; then
    tail -40 "$work/run-$1.out" >&2
    echo "error: job $1 failed (its SQL: $work/run-$1.sql; logs: $dist/log)" >&2
    exit 1
  fi
  echo "  job $1 finished in $((SECONDS - t0)) s (sql-client.sh -f, job submitted and run to the end)"
}

# Two partitions per topic, made before the cluster starts (one admin client JVM per topic, all at once).
pids=()
for run in $(seq 1 $((runs + 4))); do
  for topic in "$prefix-$run-kafka" "$prefix-$run-streamfusion"; do
    "$ROOT/kafka/broker" tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:19092 \
      --create --topic "$topic" --partitions 2 --replication-factor 1 >/dev/null &
    pids+=($!)
  done
done
wait "${pids[@]}"
: >"$work/measurements.txt"
echo "== 1. ADD JAR: lib/ has flink-sql-connector-kafka only; the job submitted $runs times to one session cluster"
start_cluster
measure "fresh cluster"
for run in $(seq 1 "$runs"); do
  job_sql "$run" "ADD JAR '$our_jar';"
  submit "$run"
  measure "after job $run (ADD JAR)"
done
echo "== 2. ADD JAR: two jobs at once on the same cluster (each its own class loader, the same TaskManager JVMs)"
both=()
for run in $((runs + 1)) $((runs + 2)); do
  job_sql "$run" "ADD JAR '$our_jar';"
  submit "$run" &
  both+=($!)
done
for pid in "${both[@]}"; do
  wait "$pid" || { echo "error: a job of the two at once failed" >&2; exit 1; }
done
measure "after jobs $((runs + 1)) and $((runs + 2)) (ADD JAR, at once)"

cp "$dist"/log/*taskexecutor*.log "$work/" 2>/dev/null || true
stop_cluster
mkdir -p "$work/logs-add-jar" && mv "$dist"/log/* "$work/logs-add-jar/"

echo "== 3. lib/: the jar beside flink-sql-connector-kafka in lib/, a fresh cluster, the job once"
cp "$our_jar" "$dist/lib/"
lib_run=$((runs + 3))
start_cluster
measure "fresh cluster (jar in lib/)"
job_sql "$lib_run" ""
submit "$lib_run"
measure "after job $lib_run (lib/)"

echo "== 4. A TaskManager killed with SIGKILL during an exactly-once job, a new one started"
kill_run=$((runs + 4))
job_sql "$kill_run" "" $((rows / 20))
submit "$kill_run" &
kill_submit=$!
# Killed once the job runs and has completed two checkpoints (its rows then span the kill: 20 s at rows/20 a second).
deadline=$((SECONDS + 60))
checkpoints=0
while [ $SECONDS -lt $deadline ]; do
  job=$(rest_job "$prefix-$kill_run" jid RUNNING)
  if [ -n "$job" ]; then
    checkpoints=$(curl -sf "http://localhost:$rest_port/jobs/$job/checkpoints" \
      | python3 -c 'import json, sys; print(json.load(sys.stdin)["counts"]["completed"])' 2>/dev/null || echo 0)
    [ "$checkpoints" -ge 2 ] && break
  fi
  sleep 1
done
[ "${checkpoints:-0}" -ge 2 ] || { echo "error: job $kill_run did not run and checkpoint within 60 s" >&2; exit 1; }
victim=$(tm_pids | head -1)
kill -9 "$victim"
echo "  killed TaskManager $victim (SIGKILL) after $checkpoints completed checkpoints of job $kill_run"
"$dist/bin/taskmanager.sh" start >>"$work/cluster.log" 2>&1
wait "$kill_submit" || { echo "error: job $kill_run did not recover from the TaskManager's kill" >&2; exit 1; }
job=$(rest_job "$prefix-$kill_run" jid FINISHED)
restarts=$(curl -sf "http://localhost:$rest_port/jobs/$job/exceptions" \
  | python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("exceptionHistory", {}).get("entries", [])))' 2>/dev/null || echo "?")
echo "  job $kill_run finished (state FINISHED) after $restarts failure(s) in its exception history"
[ "$restarts" != 0 ] || { echo "error: job $kill_run saw no failure: the kill came too late" >&2; exit 1; }
measure "after job $kill_run (a TaskManager killed, a new one started)"
stop_cluster
mkdir -p "$work/logs-lib" && mv "$dist"/log/* "$work/logs-lib/"
rm -f "$dist/lib/$(basename "$our_jar")"

echo "== The TaskManager logs: every encoder batch native, no fallback, no UnsatisfiedLinkError"
failed=0
for logs in "$work/logs-add-jar" "$work/logs-lib"; do
  if grep -l 'UnsatisfiedLinkError\|native library unavailable\|written by Flink.s own' "$logs"/*.log "$logs"/*.out 2>/dev/null; then
    echo "  FAIL: $logs has a fallback or a link error (files above)"; failed=1
  fi
  for tm_log in "$logs"/*taskexecutor*.log; do
    # The last value each encoder subtask reported: numBatches and numNativeBatches per job and subtask.
    # Slf4jReporter writes one "<scope>.streamfusion.<metric>: <value>" line per metric; the scope names the
    # TaskManager, the job, the operator and the subtask (and may hold spaces).
    summary=$(awk 'match($0, /\.streamfusion\.num(Native)?Batches: [0-9]+$/) {
        scope = substr($0, 1, RSTART - 1); split(substr($0, RSTART + 14), kv, ": "); last[scope "|" kv[1]] = kv[2]
      } END { for (k in last) print k "|" last[k] }' "$tm_log")
    jobs_seen=$(echo "$summary" | awk -F'|' '$2 == "numBatches" && $3 > 0' | wc -l)
    native_short=$(echo "$summary" | awk -F'|' 'NF == 3 { n[$1 SUBSEP $2] = $3; s[$1] = 1 }
      END { for (k in s) if (n[k SUBSEP "numBatches"] != n[k SUBSEP "numNativeBatches"]) print k }' | wc -l)
    # The loader's INFO line (SLF4J, into this log): once per class loader that loaded the library.
    loads=$(grep -c 'bijou64: native library libkafka_serde_native .* loaded from' "$tm_log" || true)
    echo "  $(basename "$logs")/$(basename "$tm_log"): $jobs_seen encoder subtasks reported batches, $native_short with a batch not native, $loads library loads logged"
    [ "$native_short" = 0 ] || failed=1
    # The two TaskManagers started with the cluster run encoders; the one started after the kill may run none.
    case $tm_log in
      *taskexecutor-[01]-*) [ "$jobs_seen" -ge 1 ] && [ "$loads" -ge 1 ] || failed=1 ;;
    esac
  done
done

echo "== The topics, read_committed, record by record (partition, order, key, value)"
read_topic() { # read_topic TOPIC OUT
  "$ROOT/kafka/broker" tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server 127.0.0.1:19092 \
    --topic "$1" --from-beginning --isolation-level read_committed --timeout-ms 10000 \
    --formatter-property print.partition=true --formatter-property print.key=true \
    --formatter-property key.separator=$'\t' 2>/dev/null \
    | awk -F'\t' '/^Partition:/ { print $1 "\t" NR "\t" $0 }' | sort -t$'\t' -k1,1 -k2,2n | cut -f3- >"$2" || true
}
pids=()
for pair in "${topics[@]}"; do
  for topic in $pair; do
    read_topic "$topic" "$work/$topic.records" &
    pids+=($!)
  done
done
wait "${pids[@]}"
for pair in "${topics[@]}"; do
  read -r stock ours <<<"$pair"
  n_stock=$(wc -l <"$work/$stock.records")
  n_ours=$(wc -l <"$work/$ours.records")
  ids=$(cut -f2 "$work/$ours.records" | sort -u | wc -l)
  ids_stock=$(cut -f2 "$work/$stock.records" | sort -u | wc -l)
  order=cat what="partition, order, key, value"
  if [ "$ours" = "$prefix-$kill_run-streamfusion" ]; then
    # Across the kill, each partition's records are compared as a set: every id exactly once in both.
    order=sort what="partition, key, value; every id exactly once across the kill"
  fi
  if [ "$n_stock" = "$rows" ] && [ "$n_ours" = "$rows" ] && [ "$ids" = "$rows" ] && [ "$ids_stock" = "$rows" ] \
      && cmp -s <(sed 's/^Partition:\([0-9]*\)\t/\1\t/' "$work/$stock.records" | $order) \
                <(sed 's/^Partition:\([0-9]*\)\t/\1\t/' "$work/$ours.records" | $order); then
    echo "  $ours: $n_ours records, equal to $stock's ($what), $ids distinct keys"
  else
    echo "  FAIL: $ours has $n_ours records ($ids distinct keys), $stock $n_stock, expected $rows each and equal:"
    diff <(cat "$work/$stock.records") <(cat "$work/$ours.records") | head -5
    failed=1
  fi
done

echo "== Measurements"
cat "$work/measurements.txt"
[ "$failed" = 0 ] || { echo "FAILED"; exit 1; }
echo "PASSED"
