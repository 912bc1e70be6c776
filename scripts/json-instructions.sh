#!/usr/bin/env bash
# Instructions per row of the StreamFusion JSON encoder and its contenders, under `valgrind --tool=callgrind`
# (exact and load-independent, unlike timings on a shared VM): each cell runs the `json_instructions` bench
# binary of rust/streamfusion-json once with 1 and once with 11 passes over the same 4096-row batch;
# (Ir(11) - Ir(1)) / (10 * 4096) is printed, so setup cancels out. Results and how to read them:
# docs/benchmarks.md ("criterion: one Arrow batch to Kafka JSON records").
set -euo pipefail
usage() { echo "usage: $0 [shape ...]   (default: bid q9)" >&2; exit 2; }
[ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] && usage
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
require cargo "install Rust 1.90 or newer (https://rustup.rs)"
require valgrind "install valgrind (apt-get install valgrind)"
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(bid q9)

echo "== Building the json_instructions bench (cargo bench --no-run, release profile)" >&2
bin=$(cargo bench -q --locked -p streamfusion-json --bench json_instructions --no-run --message-format=json \
  | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "error: no json_instructions bench binary found" >&2; exit 1; }

instructions() { # instructions CONTENDER SHAPE PASSES: callgrind's total Ir
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '| contender |'; printf ' %s |' "${shapes[@]}"; echo
printf '|---|'; printf -- '---:|%.0s' "${shapes[@]}"; echo
for contender in flink flink-keyed plain line-delimited serde-typed; do
  printf '| %s |' "$contender"
  for shape in "${shapes[@]}"; do
    if [ "$contender" = serde-typed ] && [ "$shape" != bid ]; then printf ' — |'; continue; fi
    one=$(instructions "$contender" "$shape" 1)
    many=$(instructions "$contender" "$shape" 11)
    awk -v a="$one" -v b="$many" 'BEGIN { printf " %.0f |", (b - a) / (10 * 4096) }'
  done
  echo
done
