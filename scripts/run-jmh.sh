#!/usr/bin/env bash
# JMH microbenchmarks (java/benchmarks/README.md): Kafka's LongSerializer/LongDeserializer
# against the bijou64 serdes (pure Java and JNI) per record, the bulk slab calls (Java vs JNI, 16 to 65,536
# values), and the fixed cost of one JNI crossing, over the sequential, uniform and boundary distributions;
# and StreamFusion's JSON paths (org.streamfusion.benchmarks) against Flink's serializer per row, batches of 1
# to 8192 Nexmark bid and q9 rows, with the crossover batch size and the fixed cost of one crossing, and the
# native JSON decoder against Flink's deserializer per message (JsonDecodeBenchmark).
# Builds java/benchmarks when its jar is missing or older than the sources, runs it, writes
# perf/jmh/results-<UTC>.json, and prints JMH's table followed by the ratio tables (same run, same machine).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/run-jmh.sh [--quick] [--rebuild] [JMH args...]

  --quick     very short iterations (-wi 1 -w 200ms -i 2 -r 200ms): checks that everything runs, in a few
              minutes; the numbers are not meant to be read
  --rebuild   rebuild the jar even if it looks up to date
  JMH args    passed to JMH after the defaults, and replace a default they name, e.g.
                scripts/run-jmh.sh BulkBenchmark -p size=4096      only the bulk benchmark, one size
                scripts/run-jmh.sh -p distribution=uniform -i 10   one distribution, ten iterations
                scripts/run-jmh.sh -prof gc PerRecord              with allocation rates
                scripts/run-jmh.sh org.streamfusion.benchmarks     only StreamFusion (about 12 minutes)
              (java -jar java/benchmarks/target/benchmarks.jar -h lists every JMH option)

defaults: -f 1 -wi 3 -w 1s -i 5 -r 1s -foe true -rf json -rff perf/jmh/results-<UTC>.json
          (about 11 minutes for the whole set on 2 cores)
environment: JAVA_HOME (the JDK that runs the benchmarks, else java from PATH), MVN (default mvn),
             STREAMFUSION_BENCH_BIN (the value generator, a streamfusion-bench binary; built with cargo if unset)
EOF
}

die() { echo "run-jmh: $*" >&2; exit 1; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
jar=$root/java/benchmarks/target/benchmarks.jar

quick=false
rebuild=false
jmh_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) quick=true; shift ;;
    --rebuild) rebuild=true; shift ;;
    --) shift; jmh_args+=("$@"); break ;;
    *) jmh_args+=("$1"); shift ;;
  esac
done

# --- prerequisites ------------------------------------------------------------------------------------------
if [[ -n ${JAVA_HOME:-} ]]; then
  java=$JAVA_HOME/bin/java
  [[ -x $java ]] || die "JAVA_HOME=$JAVA_HOME has no bin/java; point it at a JDK 17 or newer"
else
  java=java
  command -v java >/dev/null 2>&1 \
    || die "'java' not found: install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
fi
java_spec=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
[[ ${java_spec%%.*} =~ ^[0-9]+$ && ${java_spec%%.*} -ge 17 ]] \
  || die "$java is Java ${java_spec:-of unknown version}; the benchmarks need 17 or newer"

# --- build when needed --------------------------------------------------------------------------------------
# Stale when anything the jar is made of is newer: this module, the codec, the serdes, the distributions
# (perf/kafka) and the Rust crates behind the JNI library.
stale_source() {
  find "$root/pom.xml" "$root/java/benchmarks/pom.xml" "$root/java/benchmarks/src" \
       "$root/java/native/pom.xml" "$root/java/native/src/main" \
       "$root/java/bijou64/pom.xml" "$root/java/bijou64/src/main" \
       "$root/java/bijou64-kafka-serializers/pom.xml" "$root/java/bijou64-kafka-serializers/src/main" \
       "$root/perf/kafka/pom.xml" "$root/perf/kafka/src/main" \
       "$root/java/streamfusion-kafka/pom.xml" "$root/java/streamfusion-kafka/src/main" \
       "$root/java/streamfusion-flink/pom.xml" "$root/java/streamfusion-flink/src/main" \
       "$root/perf/streamfusion/pom.xml" "$root/perf/streamfusion/src/main" \
       "$root/rust/kafka-serde-native" "$root/rust/bijou64-kafka" "$root/rust/streamfusion-json" "$root/Cargo.toml" "$root/Cargo.lock" \
       -type f -newer "$jar" -not -path '*/target/*' -print -quit 2>/dev/null || true
}
if [[ $rebuild == true || ! -f $jar || -n $(stale_source) ]]; then
  mvn=${MVN:-mvn}
  command -v "$mvn" >/dev/null 2>&1 || die "'$mvn' not found: install Apache Maven 3.8 or newer (apt-get install maven)"
  echo "== Building java/benchmarks ($mvn -B -q -pl java/benchmarks -am package -DskipTests)" >&2
  "$mvn" -B -q -f "$root/pom.xml" -pl java/benchmarks -am package -DskipTests \
    || die "the build failed (the JNI library needs cargo: https://rustup.rs)"
  [[ -f $jar ]] || die "the build did not produce $jar"
fi

# --- the value generator (streamfusion-bench values, perf/rust): the values every bijou64 benchmark measures ---
source "$root/scripts/common.sh"
streamfusion_bench_bin

# --- run ----------------------------------------------------------------------------------------------------
has_option() { # has_option FLAG: true when the user passed FLAG among the JMH args
  local arg
  for arg in ${jmh_args[@]+"${jmh_args[@]}"}; do
    [[ $arg == "$1" ]] && return 0
  done
  return 1
}
option_value() { # option_value FLAG: the value the user gave FLAG, if any
  local i
  for ((i = 0; i + 1 < ${#jmh_args[@]}; i++)); do
    if [[ ${jmh_args[i]} == "$1" ]]; then
      echo "${jmh_args[i + 1]}"
      return 0
    fi
  done
  return 0
}

if [[ $quick == true ]]; then
  defaults=(-f 1 -wi 1 -w 200ms -i 2 -r 200ms)
else
  defaults=(-f 1 -wi 3 -w 1s -i 5 -r 1s)
fi
defaults+=(-foe true -rf json)
args=()
for ((i = 0; i < ${#defaults[@]}; i += 2)); do
  has_option "${defaults[i]}" || args+=("${defaults[i]}" "${defaults[i + 1]}")
done
format=$(option_value -rf)
format=${format:-json}
results=""
if ! has_option -rff; then
  mkdir -p "$root/perf/jmh"
  results=$root/perf/jmh/results-$(date -u +%Y%m%dT%H%M%SZ).$format
  args+=(-rff "$results")
fi

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
echo "== JMH on ${cpu:-an unknown CPU}, $(nproc 2>/dev/null || echo '?') CPUs, Java $java_spec ($java)" >&2
echo "== java -jar java/benchmarks/target/benchmarks.jar ${args[*]} ${jmh_args[*]+${jmh_args[*]}}" >&2
"$java" -jar "$jar" "${args[@]}" ${jmh_args[@]+"${jmh_args[@]}"}

# JMH has printed its own table; add the ratio tables, read from the JSON results.
if [[ -n $results && -f $results ]]; then
  if [[ $format == json ]]; then
    echo
    "$java" -cp "$jar" org.bijou64.benchmarks.Summary "$results"
  fi
  echo "results: ${results#"$root"/}"
fi
