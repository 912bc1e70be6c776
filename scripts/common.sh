# Shared by the scripts in this folder: locate the repository and check the toolchain.
# Source it; it sets ROOT and RELEASE_REPO_DIR and puts ~/.cargo/bin on PATH.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
export PATH="$HOME/.cargo/bin:$PATH"
# The file:// Maven repository that scripts/release.sh deploys to by default and scripts/examples-from-release.sh
# builds the examples from.
RELEASE_REPO_DIR=$ROOT/target/maven-repo
# The versions of the cargo tools the suite installs (scripts/setup.sh) and names in its hints: the license
# check's and the fuzz pass's, each built with its own Cargo.lock (--locked).
CARGO_DENY_VERSION=0.20.2
CARGO_FUZZ_VERSION=0.13.2

# The Java major version of a java binary (17, 25, ...), or nothing when it does not run.
java_major() { # java_major JAVA-BINARY
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

# Prints the java binary of a JDK 17 (the Flink goldens run Flink on it: JDK 18 and older print other float
# digits): $JAVA17_HOME's, else the Debian or Temurin 17 in /usr/lib/jvm, else `java` on the PATH if it is a 17.
# Returns 1 when there is none.
find_java17() {
  local candidate
  if [ -n "${JAVA17_HOME:-}" ]; then
    candidate=$JAVA17_HOME/bin/java
    [ -x "$candidate" ] && [ "$(java_major "$candidate")" = 17 ] && { echo "$candidate"; return 0; }
    return 1
  fi
  for candidate in /usr/lib/jvm/java-17-openjdk-amd64/bin/java /usr/lib/jvm/temurin-17-jdk-amd64/bin/java "$(command -v java)"; do
    if [ -x "$candidate" ] && [ "$(java_major "$candidate")" = 17 ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

require() { # require COMMAND HINT
  command -v "$1" >/dev/null 2>&1 || { echo "error: '$1' not found: $2" >&2; exit 1; }
}

require_toolchain() {
  require cargo "install Rust 1.90 or newer (https://rustup.rs)"
  require cc "install a C compiler (apt-get install build-essential); librdkafka is built from source"
  require make "install make (apt-get install build-essential)"
  require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
  require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
}

# Flink's own distribution of version $1, from PyPI (apache-flink and apache-flink-libraries, --no-deps) in the
# virtual environment target/flink-dist/venv-$1, made unless it holds that version; sets FLINK_VENV and
# FLINK_DIST (its pyflink folder: bin/, conf/, lib/, opt/). Scripts that change conf/ or lib/ put them back.
flink_dist() { # flink_dist VERSION
  require python3 "install Python 3 with venv (apt-get install python3-venv)"
  FLINK_VENV=$ROOT/target/flink-dist/venv-$1
  if [ ! -x "$FLINK_VENV/bin/python" ] || ! "$FLINK_VENV/bin/pip" show -q apache-flink-libraries 2>/dev/null \
      | grep -q "^Version: $1$"; then
    python3 -m venv "$FLINK_VENV"
    PIP_NO_CACHE_DIR=1 "$FLINK_VENV/bin/pip" install -q --no-deps "apache-flink==$1" "apache-flink-libraries==$1"
  fi
  FLINK_DIST=$("$FLINK_VENV/bin/python" -c 'import os, pyflink; print(os.path.dirname(pyflink.__file__))' 2>/dev/null) \
    || FLINK_DIST=$(ls -d "$FLINK_VENV"/lib/python3*/site-packages/pyflink | head -1)
  [ -x "$FLINK_DIST/bin/start-cluster.sh" ] || { echo "error: no Flink distribution in $FLINK_DIST" >&2; exit 1; }
}

# Copies GROUP:ARTIFACT:VERSION's jar from Maven Central into DIR (as ARTIFACT-VERSION.jar) unless it is there.
maven_jar() { # maven_jar GROUP:ARTIFACT:VERSION DIR
  local artifact=${1#*:}; artifact=${artifact%%:*}
  if [ ! -f "$2/$artifact-${1##*:}.jar" ]; then
    mvn -B -q dependency:copy -Dartifact="$1" -DoutputDirectory="$2" >/dev/null 2>&1 \
      || { echo "error: could not fetch $1 from Maven Central" >&2; exit 1; }
  fi
}

# Sets SQL_CONNECTOR_JAR to the streamfusion-sql-connector-kafka jar of MODULE (java/streamfusion-sql-connector-kafka,
# or a Flink line's), built first with `mvn install` (Maven's output in LOG) when BUILD is 1.
sql_connector_jar() { # sql_connector_jar MODULE BUILD LOG
  if [ "$2" = 1 ]; then
    echo "== Building the SQL connector jar (mvn -pl $1 -am install)"
    mvn -B -q -pl "$1" -am install -DskipTests >"$3" 2>&1 \
      || { tail -40 "$3" >&2; echo "error: building the SQL connector jar failed" >&2; exit 1; }
  fi
  local version
  version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$ROOT/$1/pom.xml" | head -1)
  SQL_CONNECTOR_JAR=$ROOT/$1/target/streamfusion-sql-connector-kafka-$version.jar
  [ -f "$SQL_CONNECTOR_JAR" ] || { echo "error: $SQL_CONNECTOR_JAR was not built (run without --no-build)" >&2; exit 1; }
}

# Reads TOPIC of the broker at BOOTSTRAP read_committed from its beginning (until 20 s without a record: a loaded
# machine may take 10 s to start the consumer and join) into OUT,
# one record a line, "Partition:<n><TAB><key><TAB><value>", the partitions in order, each in its offsets' order.
read_committed_topic() { # read_committed_topic BOOTSTRAP TOPIC OUT
  "$ROOT/kafka/broker" tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$1" \
    --topic "$2" --from-beginning --isolation-level read_committed --timeout-ms 20000 \
    --formatter-property print.partition=true --formatter-property print.key=true \
    --formatter-property key.separator=$'\t' 2>/dev/null \
    | awk -F'\t' '/^Partition:/ { print $1 "\t" NR "\t" $0 }' | sort -t$'\t' -k1,1 -k2,2n | cut -f3- >"$3" || true
}

# Starts the local broker unless one answers; sets BROKER_STARTED_HERE=1 when this script started it.
start_broker() {
  # Once set by a start here, it stays set (a later call that finds the broker up must not clear it).
  BROKER_STARTED_HERE=${BROKER_STARTED_HERE:-0}
  if ! "$ROOT/kafka/broker" status >/dev/null 2>&1; then
    "$ROOT/kafka/broker" start
    BROKER_STARTED_HERE=1
  fi
}

# Sets and exports STREAMFUSION_BENCH_BIN, the streamfusion-bench binary of perf/rust (the value generator, the
# results charts): built with cargo (release, --locked) unless the variable already names one; exits 1 when the
# build fails or the file is not executable.
streamfusion_bench_bin() {
  if [ -z "${STREAMFUSION_BENCH_BIN:-}" ]; then
    require cargo "install Rust 1.90 or newer (https://rustup.rs), or set STREAMFUSION_BENCH_BIN"
    echo "== Building streamfusion-bench (cargo build --release --locked -p streamfusion-bench)" >&2
    (cd "$ROOT" && cargo build -q --release --locked -p streamfusion-bench) \
      || { echo "error: building streamfusion-bench failed" >&2; exit 1; }
    STREAMFUSION_BENCH_BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/streamfusion-bench
  fi
  [ -x "$STREAMFUSION_BENCH_BIN" ] \
    || { echo "error: STREAMFUSION_BENCH_BIN=$STREAMFUSION_BENCH_BIN is not an executable file" >&2; exit 1; }
  export STREAMFUSION_BENCH_BIN
}
