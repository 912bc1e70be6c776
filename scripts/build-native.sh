#!/usr/bin/env bash
# Builds the project's JNI library with cargo and copies it to OUT_DIR/native/<os>-<arch>/,
# the resource path the Java loader (org.bijou64.NativeLibrary) looks for in the jar, and names that
# platform in OUT_DIR/native/platforms.txt.
# Called by Maven (java/native/pom.xml); honours CARGO_TARGET_DIR and CARGO_PROFILE (release).
set -euo pipefail
usage() { echo "usage: $0 OUT_DIR" >&2; exit 2; }
[ $# -eq 1 ] || usage
out_dir=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v cargo >/dev/null 2>&1; then
  [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH" || {
    echo "error: cargo not found; install Rust (https://rustup.rs) to build the native library" >&2; exit 1; }
fi
profile=${CARGO_PROFILE:-release}
target_dir=${CARGO_TARGET_DIR:-$root/target}
cargo build --manifest-path "$root/Cargo.toml" -p kafka-serde-native --profile "$profile" --locked >&2
case "$(uname -s)" in
  Linux) os=linux; lib=libkafka_serde_native.so ;;
  Darwin) os=macos; lib=libkafka_serde_native.dylib ;;
  *) echo "error: unsupported OS $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac
case "$profile" in dev|test) profile_dir=debug ;; bench) profile_dir=release ;; *) profile_dir=$profile ;; esac
dir="$target_dir/$profile_dir"
mkdir -p "$out_dir/native/$os-$arch"
cp "$dir/$lib" "$out_dir/native/$os-$arch/$lib"
# What the jar covers, one platform a line: the loader names it when this platform has no library.
echo "$os-$arch" > "$out_dir/native/platforms.txt"
echo "bundled $dir/$lib -> $out_dir/native/$os-$arch/$lib" >&2
