#!/usr/bin/env bash
# Nexmark q0, q9 or q19 on a local Flink MiniCluster, three variants of the same job: the stock Kafka JSON source
# and sink; the stock source and streamfusion-kafka / streamfusion-upsert-kafka as sink; streamfusion-kafka as
# source (decoded natively) and sink. Same corpus, exactly once, outputs checked every run (NexmarkBench).
# Usage: perf/nexmark/run.sh [--query q19|q0,q9,q19] [--events 200000] [--partitions 2] [--parallelism 2] [--runs 3]
#                            [--seed 1] [--rate 10000000] [--mini-batch false] [--profile true]
#                            [--source kafka|memory]
#                            [--bootstrap 127.0.0.1:19092]
#        perf/nexmark/run.sh corpus [events [partitions [seed [bootstrap [rate]]]]]   (only write the corpus)
# Needs the broker (kafka/broker start). Builds the module offline first (the native library with cargo,
# unless MVN_ARGS=-Dbijou64.skipNative=true); NATIVE_LIB=/path/libkafka_serde_native.so loads that library
# instead of the bundled one. The corpus topic (nexmark-corpus-n<N>-p<P>-s<seed>-r<rate>-t<base>) is written
# once and kept for later runs; output topics are deleted after each run. The printed report goes to
# perf/nexmark/results/nexmark-<UTC>.txt, the CSV rows to perf/nexmark/results/nexmark-<UTC>.csv, their chart to
# nexmark-<UTC>.png (streamfusion-bench chart; STREAMFUSION_BENCH_BIN or built with cargo) and each profiled run's
# stacks to nexmark-<UTC>-<workload>-<stock|ours-sink|ours>.collapsed.
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '4,8s/^# \{0,1\}//p' "$0" # the usage lines above, before anything is built
  exit 0
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/common.sh
module=perf/nexmark
# shellcheck disable=SC2086
mvn -o -q -pl "$module" -am -DskipTests ${MVN_ARGS:-} package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt
mkdir -p "$module/results"
utc="$(date -u +%Y%m%dT%H%M%SZ)"
jvm=(-Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
     --add-opens=java.base/java.lang=ALL-UNNAMED -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
[[ -n "${NATIVE_LIB:-}" ]] && jvm+=("-Dbijou64.native.path=$NATIVE_LIB")
cp="$module/target/classes:$(cat "$module/target/classpath.txt")"
if [[ "${1:-}" == corpus ]]; then
  shift
  exec java "${jvm[@]}" -cp "$cp" org.streamfusion.perf.nexmark.Corpus "$@"
fi
streamfusion_bench_bin # draws the chart
csv="$module/results/nexmark-$utc.csv"
out="$module/results/nexmark-$utc.txt"
{ echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(uname -srm), $(nproc) CPUs, uptime: $(uptime)"; \
  echo "# java: $(java -version 2>&1 | head -1)"; echo "# args: $*"; } | tee "$out"
# Drops the JVM's and Flink's WARN lines together with the stack trace that follows one (for example Flink's
# "checkpoint request for unknown task" when a checkpoint is triggered as the bounded job finishes).
drop_warnings() {
  awk '/^WARNING:|WARN / { trace = 1; next }
       trace && /^(\t|Caused by: |[A-Za-z_$][A-Za-z0-9_$.]*(Exception|Error)(: |$))/ { next }
       { trace = 0; print; fflush() }'
}
status=0
java "${jvm[@]}" -cp "$cp" org.streamfusion.perf.nexmark.NexmarkBench --csv "$csv" "$@" \
    2>&1 | drop_warnings | tee -a "$out" || status=${PIPESTATUS[0]}
if [[ -s "$csv" ]]; then
  "$STREAMFUSION_BENCH_BIN" chart --csv "$csv" --out "${csv%.csv}.png" \
      --title "Nexmark on Flink: the stock Kafka JSON sink and StreamFusion's, $(basename "$csv")" || status=1
fi
exit "$status"
