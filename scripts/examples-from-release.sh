#!/usr/bin/env bash
# The examples as a project outside this repository builds them: examples/* copied into a fresh directory
# outside the repository, each built by Maven on its own POM with the release repository (scripts/release.sh
# deploys it) as the only source of org.bijou64 and org.streamfusion artifacts, then run against the broker:
# the counter app's producer and consumer, the word count over two lines, the Flink SQL job over 1,000 rows.
# Prints where each of our artifacts was resolved from and what each program printed.
#
# Why the resolution proves something: the reactor's `mvn install` put the same coordinates into ~/.m2, so a
# build that can read them there proves nothing. This build has its own empty local repository
# (-Dmaven.repo.local) and a settings file whose only repositories are file:// ones, so nothing comes from the
# network either:
#   release: the release repository (REPOSITORY_DIR);
#   central: replaces Maven Central, for third-party dependencies and plugins: a view of ~/.m2/repository
#            made of symbolic links to everything in it except org/bijou64 and org/streamfusion.
# Our artifacts are absent from the view, so they can only come from `release`; the check below reads
# _remote.repositories, where Maven records which repository each downloaded file came from, to say so.
set -euo pipefail
usage() {
  echo "usage: $0 [REPOSITORY_DIR]   (default target/maven-repo; environment: KAFKA_BOOTSTRAP_SERVERS, default 127.0.0.1:19092)" >&2
  exit 2
}
[ $# -le 1 ] || usage
[[ ${1:-} != -* ]] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
repository=$(cd "${1:-$RELEASE_REPO_DIR}" 2>/dev/null && pwd -P) ||
  { echo "error: no repository at ${1:-$RELEASE_REPO_DIR}: run scripts/release.sh first" >&2; exit 1; }
[ -d "$repository/org/bijou64" ] ||
  { echo "error: $repository holds no org.bijou64 artifact: run scripts/release.sh first" >&2; exit 1; }
bootstrap=${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:19092}
m2=$HOME/.m2/repository
run_id=outside-$(date +%s)-$$

work=$(mktemp -d "${TMPDIR:-/tmp}/bijou64-examples.XXXXXX")
word_count_pid=
cleanup() {
  [ -z "$word_count_pid" ] || kill "$word_count_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/third-party/org"
for entry in "$m2"/*; do
  [ "$(basename "$entry")" = org ] || ln -s "$entry" "$work/third-party/"
done
for entry in "$m2"/org/*; do
  case $(basename "$entry") in
    bijou64 | streamfusion) ;;
    *) ln -s "$entry" "$work/third-party/org/" ;;
  esac
done
cat >"$work/settings.xml" <<EOF
<settings>
  <profiles>
    <profile>
      <id>outside</id>
      <repositories>
        <repository>
          <id>release</id>
          <url>file://$repository</url>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
        <repository>
          <!-- ~/.m2 keeps no checksums of what it downloaded: ignore their absence. -->
          <id>central</id>
          <url>file://$work/third-party</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository>
          <id>central</id>
          <url>file://$work/third-party</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>outside</activeProfile>
  </activeProfiles>
</settings>
EOF

# build EXAMPLE: copies examples/EXAMPLE (sources and POM only) into $work and builds it there, as its README
# says; sets CP to its jar and runtime classpath.
build() {
  local example=$1 dir=$work/$1
  tar -C "$ROOT/examples" --exclude=target -cf - "$example" | tar -C "$work" -xf -
  echo "== $example: mvn package in $dir"
  (cd "$dir" && mvn -B -q -s "$work/settings.xml" -Dmaven.repo.local="$work/local" -DskipTests \
    package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime)
  CP=$(ls "$dir"/target/"$example"-*.jar):$(cat "$dir/target/classpath.txt")
}

# expect FILE TEXT: the program's output in FILE must contain TEXT.
expect() {
  grep -qF -- "$2" "$1" || { echo "error: expected '$2' in the output above" >&2; exit 1; }
}

build kafka-counter-app
topic=bijou64-counters-$run_id
java -cp "$CP" org.bijou64.examples.counter.CounterProducer --bootstrap-servers "$bootstrap" --topic "$topic" \
  --count 6 | tee "$work/producer.out"
java -cp "$CP" org.bijou64.examples.counter.CounterConsumer --bootstrap-servers "$bootstrap" --topic "$topic" \
  --max-records 6 | tee "$work/consumer.out"
expect "$work/consumer.out" "read 6 records from $topic"

build kafka-streams-word-count
lines=bijou64-lines-$run_id counts=bijou64-word-counts-$run_id
printf 'the quick brown fox jumps over the lazy dog\nthe dog sleeps\n' |
  "$ROOT/kafka/broker" tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$bootstrap" --topic "$lines"
# Its state directory (under java.io.tmpdir) goes with $work.
java -Djava.io.tmpdir="$work" -cp "$CP" org.bijou64.examples.wordcount.WordCount --bootstrap-servers "$bootstrap" --input "$lines" \
  --output "$counts" --application-id "bijou64-word-count-$run_id" >"$work/word-count.out" 2>&1 &
word_count_pid=$!
# 12 words, 12 updates: the record cache is off.
java -cp "$CP" org.bijou64.examples.wordcount.PrintCounts --bootstrap-servers "$bootstrap" --topic "$counts" \
  --max-records 12 --idle-timeout-ms 60000 | tee "$work/counts.out"
kill "$word_count_pid"
wait "$word_count_pid" || true # ended by SIGTERM, after its shutdown hook closed the streams
word_count_pid=
sed 's/^/  word count: /' "$work/word-count.out"
expect "$work/counts.out" "the=3 (1-byte value)"
expect "$work/counts.out" "read 12 count updates from $counts"

build flink-sql-kafka-json
topic=flink-sql-kafka-json-$run_id
java --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
  --add-opens=java.base/java.lang=ALL-UNNAMED -cp "$CP" org.streamfusion.examples.FlinkSqlKafkaJson \
  1000 "$topic" streamfusion-kafka "$bootstrap" 2>&1 | tee "$work/flink.out"
expect "$work/flink.out" "1000 rows generated, 1000 records written to $topic"
if grep -q 'native library unavailable' "$work"/*.out; then
  echo "error: the native library of the released kafka-serde-native jar did not load" >&2
  exit 1
fi

echo "== Our artifacts in the outside build's local repository, and the repository each came from"
status=0
while IFS= read -r record; do
  dir=${record%/_remote.repositories}
  version=${dir##*/}
  artifact=${dir%/*}
  artifact=${artifact##*/}
  group=${dir#"$work/local/"}
  group=${group%/"$artifact"/"$version"}
  from=$(sed -n 's/^[^#].*>\(.*\)=$/\1/p' "$record" | sort -u | tr '\n' ' ')
  echo "  ${group//\//.}:$artifact:$version from: $from"
  [ "$from" = "release " ] || status=1
done < <(find "$work/local/org/bijou64" "$work/local/org/streamfusion" -name _remote.repositories | sort)
[ "$status" = 0 ] || { echo "error: an artifact of ours came from elsewhere than $repository" >&2; exit 1; }
echo "examples: built outside the repository from $repository alone, and ran against $bootstrap"
