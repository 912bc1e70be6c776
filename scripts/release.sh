#!/usr/bin/env bash
# The release build (make release; docs/release.md).
# Maven: the public modules (those whose POM sets bijou64.internal to false) and the parent POM they inherit
# from, each with its -sources.jar and -javadoc.jar (-Prelease), kafka-serde-native's jar with the native
# library that cargo builds for this platform, deployed by maven-deploy-plugin to RELEASE_REPOSITORY (ID::URL;
# the credentials of server ID come from ~/.m2/settings.xml) or by default to the file:// repository
# target/maven-repo, emptied first. Prints what the repository then holds.
# Crates: the public ones (workspace members without `publish = false`) through `cargo publish --dry-run`, all
# in one call so that one may depend on another not yet on crates.io (each is packaged, and built from its
# .crate file alone), and their docs with every rustdoc warning an error.
# Runs no tests: release a commit that passed `make test`.
# --maven-only: the Maven part alone (scripts/test.sh, which then builds the examples from the repository).
set -euo pipefail
shopt -s nullglob
usage() {
  echo "usage: $0 [--maven-only]   (environment: RELEASE_REPOSITORY=ID::URL, default local::file://target/maven-repo; MVN_ARGS: more Maven options)" >&2
  exit 2
}
maven_only=0
case $# in
  0) ;;
  1) [ "$1" = --maven-only ] && maven_only=1 || usage ;;
  *) usage ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require_toolchain
require unzip "apt-get install unzip (it lists what kafka-serde-native's jar bundles)"
cd "$ROOT"

modules=()
for module in $(sed -n 's:^ *<module>\(.*\)</module>.*:\1:p' pom.xml); do
  if grep -q '<bijou64.internal>false</bijou64.internal>' "$module/pom.xml"; then
    modules+=("$module")
  fi
done
[ ${#modules[@]} -gt 0 ] || { echo "error: no module in pom.xml sets bijou64.internal to false" >&2; exit 1; }

repository=${RELEASE_REPOSITORY:-local::file://$RELEASE_REPO_DIR}
[[ $repository == ?*::?* ]] || { echo "error: RELEASE_REPOSITORY=$repository is not ID::URL" >&2; exit 1; }
url=${repository#*::}
[ -n "${RELEASE_REPOSITORY:-}" ] || rm -rf "$RELEASE_REPO_DIR"
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)

echo "== Maven: ${modules[*]} and their parent POM, with sources and javadoc, deployed to $url"
# -am brings in the parent POM; the public modules depend on no other module of the reactor.
# shellcheck disable=SC2086 # MVN_ARGS is a list of options
mvn -B -q ${MVN_ARGS:-} -Prelease -pl "$(IFS=,; echo "${modules[*]}")" -am -DskipTests \
  -DaltDeploymentRepository="$repository" deploy

native_jar=java/native/target/kafka-serde-native-$version.jar
libraries=$(unzip -l "$native_jar" | awk '$4 ~ /^native\/.+\/lib/ { print "  " $4 " (" $1 " bytes)" }')
[ -n "$libraries" ] || { echo "error: $native_jar bundles no native library (was -Dbijou64.skipNative=true given?)" >&2; exit 1; }
if [[ $url == file://* ]]; then
  dir=${url#file://}
  echo "== The artifacts in $url (groupId:artifactId:version: files)"
  # The version, or the version with the Flink line as a suffix (streamfusion-sql-connector-kafka: 0.2.0-2.2).
  while IFS= read -r version_dir; do
    artifact_dir=${version_dir%/*}
    artifact=${artifact_dir##*/}
    group=${artifact_dir%/*}
    artifact_version=${version_dir##*/}
    files=$(cd "$dir/$version_dir" && ls -- *.jar *.pom *.zip | sed "s/^$artifact-$artifact_version//" | tr '\n' ' ')
    echo "  ${group//\//.}:$artifact:$artifact_version: $files"
  done < <(cd "$dir" && find . \( -path "*/$version/*.pom" -o -path "*/$version-*/*.pom" \) -printf '%h\n' \
    | sed 's:^\./::' | sort -u)
else
  echo "== Deployed to $url: ${modules[*]} and the parent POM, version $version, each with its sources and javadoc"
fi
echo "== The native library in kafka-serde-native-$version.jar"
echo "$libraries"

[ "$maven_only" = 0 ] || exit 0

crates=()
for member in $(sed -n 's/^members = \[\(.*\)\]/\1/p' Cargo.toml | tr -d '",'); do
  if ! grep -qx 'publish = false' "$member/Cargo.toml"; then
    crates+=("$(sed -n 's/^name = "\(.*\)"/\1/p' "$member/Cargo.toml" | head -1)")
  fi
done
packages=()
for crate in "${crates[@]}"; do packages+=(-p "$crate"); done

echo "== Crates: cargo publish --dry-run ${crates[*]}"
cargo publish --dry-run --locked "${packages[@]}"
echo "== Crates: cargo doc ${crates[*]} (all features, rustdoc warnings denied)"
RUSTDOCFLAGS='-D warnings' cargo doc --no-deps --locked --all-features "${packages[@]}"
echo "== The crates (${CARGO_TARGET_DIR:-$ROOT/target}/package)"
for crate in "${crates[@]}"; do
  ls -l "${CARGO_TARGET_DIR:-$ROOT/target}/package/$crate-$version.crate" | awk '{ print "  " $NF " (" $5 " bytes)" }'
done
