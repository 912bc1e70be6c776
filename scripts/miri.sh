#!/usr/bin/env bash
# Runs the unit tests of the crates with `unsafe` code under Miri (nightly), which checks every
# load and store of the bulk paths for undefined behaviour. Installs the Miri component when a
# nightly toolchain is present; exits 0 with a note when Miri cannot be had on this machine.
set -euo pipefail
usage() { echo "usage: $0" >&2; exit 2; }
[ $# -eq 0 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
if ! cargo +nightly miri --version >/dev/null 2>&1; then
  rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
  echo "miri: not available on this machine (needs a nightly toolchain with the miri component); skipped"
  exit 0
fi
cargo +nightly miri test -p bijou64-kafka --lib
# The JSON slab writers: the chunked appends (out::), the SWAR scan-and-store escaper's and the vector scan's
# unsafe paths, the timestamp writer, and the row writer's cursor (flink::encode::nested). Built with the ffi
# feature, as the next run is, so that both runs share one Miri build of the crate and of Arrow.
cargo +nightly miri test -p streamfusion-json --lib --features ffi -- out:: escape::tests::miri_unsafe_paths flink::temporal \
  flink::encode::nested::tests::miri_ flink::float::tests::miri_
# The Arrow import of batches handed over by address (streamfusion_json::ffi): the reads and moves of exported
# C Data Interface structs (live, released, null), the flat handoff's buffers read in place (size and offset
# checks, a misaligned buffer), the UTF-8 check, import and encode through the handoffs, and the decoding of
# Flink binary rows (ffi::binary_row: a row written by Flink, every covered type, corrupt offsets, rows and values). Front ends pass the
# struct and buffer addresses as integers, so the integer-to-pointer casts are inherent: permissive provenance
# silences Miri's warning about them (such pointers get wildcard provenance, which can hide some aliasing
# bugs; bounds, liveness, alignment and data races are checked).
MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-permissive-provenance" cargo +nightly miri test -p streamfusion-json --lib --features ffi -- ffi::
# The JNI library's StreamFusion handle registry (open, encode, close, concurrent encodes on one handle); none
# of its unit tests needs a JVM, so all of them run, with the same flag for the addresses of their exports.
MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-permissive-provenance" cargo +nightly miri test -p kafka-serde-native --lib
