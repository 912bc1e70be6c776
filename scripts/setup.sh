#!/usr/bin/env bash
# The set-up of the test tiers (scripts/test.sh runs it first): checks up front, one line each, what cannot be
# installed from the package registries (Rust, a C compiler, make, a JDK 17+ with Maven; for the whole suite also
# unzip, a JDK 17 and a Temurin JDK 25 for the Flink goldens, and a nightly Rust toolchain for Miri and the fuzz
# pass, which are skipped without it), then installs
# what can be: the rustfmt and clippy components, and for the whole suite the pinned cargo-deny (the license
# check) and, where a nightly toolchain is present, the pinned cargo-fuzz. Already installed tools are left alone.
#   all    everything `make test` needs (the default)
#   check  what `make check` needs: the toolchain, rustfmt and clippy
#   rust   what `make test-rust` needs: the above, cargo-deny, the JDKs 17 and 25 (Flink goldens), cargo-fuzz with
#          nightly
#   jvm    what `make test-jvm` needs: the toolchain
# Exits 1 naming every missing prerequisite (all of them, not only the first).
set -euo pipefail
usage() { echo "usage: $0 [all|check|rust|jvm]   (environment: JAVA17_HOME, JAVA25_HOME)" >&2; exit 2; }
[ $# -le 1 ] || usage
tier=${1:-all}
case "$tier" in all | check | rust | jvm) ;; *) usage ;; esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"

missing=0
need() { # need OK-COMMAND... -- MESSAGE: prints MESSAGE as an error unless the command succeeds
  local message=${*: -1}
  if ! "${@:1:$#-1}" >/dev/null 2>&1; then
    echo "setup: missing: $message" >&2
    missing=1
  fi
}
java_at_least_17() { local major; major=$(java_major java); [ -n "$major" ] && [ "$major" -ge 17 ]; }
java25_present() { [ "$(java_major "${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java")" = 25 ]; }

need command -v cargo "Rust 1.90 or newer (https://rustup.rs)"
need command -v cc "a C compiler (apt-get install build-essential); librdkafka is built from source"
need command -v make "make (apt-get install build-essential)"
need java_at_least_17 "a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
need command -v mvn "Apache Maven 3.8 or newer (apt-get install maven)"
if [ "$tier" = all ]; then
  need command -v unzip "unzip (apt-get install unzip): make test unpacks the released jars"
fi
if [ "$tier" = all ] || [ "$tier" = rust ]; then
  need find_java17 "a JDK 17 (apt-get install openjdk-17-jdk-headless, or set JAVA17_HOME): the Flink goldens of scripts/parity.sh also run Flink on it, whose float digits differ from JDK 19+"
  need java25_present "a JDK 25 at ${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} (Temurin 25; set JAVA25_HOME): the Flink goldens of scripts/parity.sh run the real Flink on it"
  if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "setup: note: no nightly Rust toolchain (rustup toolchain install nightly): Miri and the fuzz pass will be skipped"
  fi
fi
[ "$missing" = 0 ] || exit 1

if [ "$tier" != jvm ] && { ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; }; then
  echo "setup: installing the rustfmt and clippy components"
  rustup component add rustfmt clippy
fi
[ "$tier" = all ] || [ "$tier" = rust ] || exit 0

install_crate() { # install_crate BINARY CRATE VERSION
  if command -v "$1" >/dev/null 2>&1; then
    return
  fi
  echo "setup: installing $2 $3 (cargo install --locked)"
  local start=$SECONDS
  cargo install --locked "$2" --version "$3"
  echo "setup: $2 installed in $((SECONDS - start)) s"
}
# The license check (scripts/licenses.sh).
install_crate cargo-deny cargo-deny "$CARGO_DENY_VERSION"
# The bounded fuzz pass (scripts/fuzz.sh --ci); without a nightly toolchain the pass is skipped and it is not needed.
if cargo +nightly --version >/dev/null 2>&1; then
  install_crate cargo-fuzz cargo-fuzz "$CARGO_FUZZ_VERSION"
fi
