#!/usr/bin/env bash
# End-to-end records/s of Flink SQL jobs (MiniCluster) writing Nexmark-bid-shaped rows through
# streamfusion-kafka per streamfusion.batch-rows, and through the stock kafka connector (BatchRowsBench).
# Usage: perf/streamfusion-flink-sql/run.sh [rows [batch-rows,... [runs [with-stock [bootstrap]]]]]
# Needs the broker (kafka/broker start). Builds the module offline first; the output is copied to
# perf/streamfusion-flink-sql/results/batch-rows-<UTC>.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
mvn -o -q -pl perf/streamfusion-flink-sql -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt
module=perf/streamfusion-flink-sql
mkdir -p "$module/results"
out="$module/results/batch-rows-$(date -u +%Y%m%dT%H%M%SZ).txt"
{ echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(uname -srm), $(nproc) CPUs, uptime: $(uptime)"; \
  echo "# java: $(java -version 2>&1 | head -1)"; echo "# args: $*"; } | tee "$out"
java --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$module/target/classes:$(cat "$module/target/classpath.txt")" \
    org.streamfusion.perf.sql.BatchRowsBench "$@" 2>&1 | grep --line-buffered -v -e '^WARNING:' -e 'WARN ' | tee -a "$out"
