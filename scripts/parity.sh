#!/usr/bin/env bash
# Flink parity of streamfusion-json: writes the parity corpus (hand-written + seeded random cases, seed from
# PARITY_SEED) into target/parity/corpus, runs the real Flink over it (scripts/flink-goldens.sh: Flink 2.2,
# 1.20 and 2.3 on JDK 25, Flink 2.2 on JDK 17) into target/parity/goldens, rewrites the pinned goldens that plain
# `cargo test` compares (rust/streamfusion-json/tests/data/flink-goldens: the cases whose files are there, from
# the Flink 2.2 / JDK 25 set; it says when one changed), then compares our Flink-mode encoder with every golden
# set (tests/flink_parity.rs). Plain-mode parity runs in plain `cargo test`. To pin one more case, copy its
# <case>.records (or .error) from target/parity/goldens/flink-2.2-jdk25/ into the pinned folder.
set -euo pipefail
usage() { echo "usage: $0   (environment: PARITY_SEED, JAVA25_HOME, JAVA17_HOME)" >&2; exit 2; }
[ $# -eq 0 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
require cargo "install Rust 1.90 or newer (https://rustup.rs)"
cd "$ROOT"

corpus=$ROOT/target/parity/corpus
goldens=$ROOT/target/parity/goldens
start=$(date +%s)

echo "== Parity corpus -> $corpus"
rm -rf "$corpus"
# Same profile and features as `cargo test --workspace --all-features` in scripts/test.sh, so nothing is rebuilt.
cargo build -q --workspace --all-features --locked --profile test --example parity_corpus
"${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples/parity_corpus" "$corpus"

echo "== Flink goldens -> $goldens"
bash scripts/flink-goldens.sh "$corpus" "$goldens"

pinned=$ROOT/rust/streamfusion-json/tests/data/flink-goldens
echo "== The pinned goldens ($pinned) from flink-2.2-jdk25"
changed=()
for file in "$pinned"/*.records "$pinned"/*.error; do
  [ -e "$file" ] || continue
  name=$(basename "$file")
  name=${name%.*}
  fresh=
  for candidate in "$goldens/flink-2.2-jdk25/$name.records" "$goldens/flink-2.2-jdk25/$name.error"; do
    [ -e "$candidate" ] && fresh=$candidate
  done
  [ -n "$fresh" ] || { echo "error: pinned case $name is no case of the corpus any more: remove $file" >&2; exit 1; }
  if [ "$(basename "$fresh")" != "$(basename "$file")" ] || ! cmp -s "$fresh" "$file"; then
    rm "$file"
    cp "$fresh" "$pinned/"
    changed+=("$name")
  fi
done
# ENV: the Flink and JDK versions that wrote them.
cmp -s "$goldens/flink-2.2-jdk25/ENV" "$pinned/ENV" || { cp "$goldens/flink-2.2-jdk25/ENV" "$pinned/ENV"; changed+=(ENV); }
if [ ${#changed[@]} -gt 0 ]; then
  echo "parity: the pinned goldens of ${changed[*]} changed (rewritten in $pinned): review and commit them"
fi

echo "== Our Flink mode against every golden set"
STREAMFUSION_PARITY_CORPUS=$corpus STREAMFUSION_PARITY_GOLDENS=$goldens \
  cargo test -q --workspace --all-features --locked --test flink_parity -- --ignored --nocapture

echo "parity: done in $(( $(date +%s) - start )) s"
