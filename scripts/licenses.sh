#!/usr/bin/env bash
# Licenses of the third-party code. `cargo deny check licenses`: every crate in Cargo.lock is under a license
# deny.toml allows. Then the notice of what libkafka_serde_native links, rust/kafka-serde-native/
# THIRD-PARTY-NOTICES.txt (java/native puts it into its jar as META-INF/): it is made by `cargo about` from
# Cargo.lock (about.toml, about.hbs next to it) and checked in; this checks that it names exactly the crates
# and versions the library is built from (`cargo tree`, the library's normal dependencies on the platform the
# jar carries), so a Cargo.lock change that alters them fails until the notice is regenerated.
# --write regenerates it (needs cargo-about).
set -euo pipefail
usage() { echo "usage: $0 [--write]" >&2; exit 2; }
write=0
case $# in
  0) ;;
  1) [ "$1" = --write ] && write=1 || usage ;;
  *) usage ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
crate=rust/kafka-serde-native
notice=$crate/THIRD-PARTY-NOTICES.txt

if [ "$write" = 1 ]; then
  require cargo-about "cargo install --locked cargo-about --version 0.9.3 --features cli"
  cargo about generate --locked --manifest-path "$crate/Cargo.toml" --config "$crate/about.toml" \
    --output-file "$notice" "$crate/about.hbs"
  echo "licenses: wrote $notice"
  exit 0
fi

require cargo-deny "cargo install --locked cargo-deny --version $CARGO_DENY_VERSION"
echo "== cargo deny check licenses"
cargo deny --locked check licenses

echo "== $notice names the crates the library links"
# The target must be about.toml's `targets`.
linked=$(cargo tree --locked --manifest-path "$crate/Cargo.toml" -e normal --target x86_64-unknown-linux-gnu \
  --prefix none --format '{p}' | sed -E 's/ v([^ ]+).*/ \1/' | sort -u)
# The notice's "Crates" section (about.hbs): one "name version: license" line per crate, up to a blank line.
named=$(awk '/^Crates$/ { getline; on = 1; next } on && /^$/ { exit } on { sub(":", "", $2); print $1, $2 }' "$notice" | sort -u)
if [ "$linked" != "$named" ]; then
  comm -23 <(echo "$named") <(echo "$linked") | sed 's/^/  only in the notice: /' >&2
  comm -13 <(echo "$named") <(echo "$linked") | sed 's/^/  only in the library: /' >&2
  echo "error: $notice does not match Cargo.lock; run scripts/licenses.sh --write and commit it" >&2
  exit 1
fi
echo "licenses: $notice names the library's $(echo "$linked" | wc -l) crates"
