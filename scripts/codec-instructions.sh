#!/usr/bin/env bash
# Instructions per value of the bijou64 bulk paths and the upstream `bijoux` scalar loops, under
# `valgrind --tool=callgrind` (exact and load-independent, unlike timings on a shared VM): each cell runs
# the `instructions` bench binary of rust/bijou64-kafka once with 1 and once with 21 passes over the same
# 50,000 values; (Ir(21) - Ir(1)) / (20 * 50,000) is printed, so setup cancels out. Results and how to read
# them: docs/benchmarks.md ("criterion: Rust bulk paths against upstream and LEB128"). The bulk paths' portable
# kernels are counted (BIJOU64_KAFKA_SIMD=off): valgrind does not run AVX-512.
set -euo pipefail
usage() { echo "usage: $0 [distribution ...]   (default: sequential uniform boundary mixed)" >&2; exit 2; }
[ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] && usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
require cargo "install Rust 1.90 or newer (https://rustup.rs)"
require valgrind "install valgrind (apt-get install valgrind)"
distributions=("$@")
[ ${#distributions[@]} -gt 0 ] || distributions=(sequential uniform boundary mixed)

echo "== Building the instructions bench (cargo bench --no-run, release profile)" >&2
bin=$(cargo bench -q --locked -p bijou64-kafka --bench instructions --no-run --message-format=json \
  | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "error: no instructions bench binary found" >&2; exit 1; }

instructions() { # instructions OP CONTENDER DISTRIBUTION PASSES: callgrind's total Ir
  BIJOU64_KAFKA_SIMD=off valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '| op | contender |'; printf ' %s |' "${distributions[@]}"; echo
printf '|---|---|'; printf -- '---:|%.0s' "${distributions[@]}"; echo
for op in encode decode; do
  for contender in bulk-bijou64 bulk-bijou64s bijoux-scalar; do
    printf '| %s | %s |' "$op" "$contender"
    for d in "${distributions[@]}"; do
      one=$(instructions "$op" "$contender" "$d" 1)
      many=$(instructions "$op" "$contender" "$d" 21)
      awk -v a="$one" -v b="$many" 'BEGIN { printf " %.1f |", (b - a) / (20 * 50000) }'
    done
    echo
  done
done
