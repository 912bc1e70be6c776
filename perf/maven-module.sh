# shellcheck shell=bash
# Shared by the comparison scripts under perf/: a JDK check, and a Maven module with its reactor dependencies
# built (and its runtime classpath written) only when missing or stale. Source it; it defines functions only.

# require_java17 PREFIX: exits 1 with a hint unless `java` is a JDK 17 or newer. PREFIX names the caller in messages.
require_java17() {
  command -v java >/dev/null 2>&1 ||
    { echo "$1: java not found: install a JDK 17 or newer (e.g. apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
  local major
  major="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  if [[ -z "$major" || "${major%%.*}" -lt 17 ]]; then
    echo "$1: java $major found, 17 or newer is needed" >&2
    exit 1
  fi
}

# build_module PREFIX REBUILD ROOT MODULE GOAL JAR CLASSPATH_FILE SOURCE...
#   Runs `mvn -f ROOT/pom.xml -pl MODULE -am GOAL dependency:build-classpath -DskipTests` when REBUILD is
#   true, JAR or CLASSPATH_FILE is missing, an entry of the classpath is gone (a module was cleaned) or a file
#   under a SOURCE (target/ folders aside) is newer than CLASSPATH_FILE. CLASSPATH_FILE then holds MODULE's
#   runtime classpath. Exits 1 with the end of Maven's log when the build fails; environment: MVN [mvn].
build_module() {
  local prefix=$1 rebuild=$2 root=$3 module=$4 goal=$5 jar=$6 classpath_file=$7
  shift 7
  if [[ $rebuild != true && -s $classpath_file && -f $jar ]]; then
    local entry stale=false
    while IFS= read -r entry; do
      [[ -z "$entry" || -e "$entry" ]] || stale=true
    done < <(tr ':' '\n' <"$classpath_file")
    local existing=() s
    for s in "$@"; do [[ -e "$s" ]] && existing+=("$s"); done
    if ! $stale &&
      [[ -z "$(find "${existing[@]}" -name target -prune -o -type f -newer "$classpath_file" -print -quit)" ]]; then
      return 0
    fi
  fi
  local mvn_cmd="${MVN:-mvn}"
  command -v "$mvn_cmd" >/dev/null 2>&1 ||
    { echo "$prefix: Maven ($mvn_cmd) not found: install Maven 3.8+ (e.g. apt-get install maven)" >&2; exit 1; }
  echo "$prefix: building $module and the modules it needs (mvn $goal)..." >&2
  mkdir -p "$(dirname "$classpath_file")"
  local build_log
  build_log="$(mktemp -t "$prefix-build.XXXXXX")"
  # build-classpath runs in every reactor module and each overwrites the one file; MODULE depends on the others,
  # so it runs last and its runtime classpath (the sibling jars in their target/ folders) stays.
  if ! (cd "$root" && "$mvn_cmd" -B -q -f "$root/pom.xml" -pl "$module" -am \
        "$goal" dependency:build-classpath -DskipTests \
        -Dmdep.outputFile="$classpath_file.partial" -DincludeScope=runtime) >"$build_log" 2>&1; then
    tail -n 40 "$build_log" >&2
    rm -f "$classpath_file" "$classpath_file.partial" # never reuse a classpath from a failed build
    echo "$prefix: the Maven build failed (full log: $build_log)" >&2
    exit 1
  fi
  rm -f "$build_log"
  [[ -s "$classpath_file.partial" && -f "$jar" ]] ||
    { echo "$prefix: the build did not produce $jar and a classpath" >&2; exit 1; }
  # Only a completed build publishes the classpath (an interrupted one leaves just the .partial file); its
  # timestamp is the build's, for the staleness check above.
  mv -f "$classpath_file.partial" "$classpath_file"
  touch "$classpath_file"
}
