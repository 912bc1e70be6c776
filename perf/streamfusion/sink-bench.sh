#!/usr/bin/env bash
# Throughput of the Rust JSON sink: builds `streamfusion-bench` (perf/rust) in release and runs
# `streamfusion-bench bench-json` on a broker: Nexmark bids encoded by StreamFusion (Flink and plain mode) and by
# arrow-json once per row, written through streamfusion-sink at least once and exactly once, compression none
# and zstd; every run read back. Prints the table (or JSON lines / CSV with --format) and keeps a copy in
# perf/streamfusion/results/sink-bench-<UTC>.{txt,jsonl,csv}. See docs/benchmarks.md.
#
# Exit status: that of `streamfusion-bench bench-json`: 0 every run verified; 1 error (no cargo, build failed, no
# broker); 2 usage; 3 a run was not verified (after the results are printed).
set -euo pipefail

usage() {
  cat <<'EOF_USAGE'
usage: sink-bench.sh [--no-build] [BENCH-JSON OPTIONS...]

  Every option but --no-build goes to `streamfusion-bench bench-json` (see `streamfusion-bench bench-json --help`):
  --events N (default 1_000_000), --iterations N (3), --encoder, --mode, --compression (all by default),
  --checkpoint-interval-ms (1000), --batch-rows (4096), --bootstrap-servers (127.0.0.1:19092),
  --format table|json|csv, --ci, -X KEY=VALUE.
  --no-build   use the binary already built (target/release/streamfusion-bench, or $STREAMFUSION_BENCH_BIN)

examples:
  perf/streamfusion/sink-bench.sh                                   # the full matrix, as in docs/benchmarks.md
  perf/streamfusion/sink-bench.sh --events 200_000 --compression none --mode exactly-once
environment: CARGO_TARGET_DIR (where cargo builds), STREAMFUSION_BENCH_BIN (a streamfusion-bench binary to run instead)
EOF_USAGE
}

die() { echo "sink-bench.sh: $*" >&2; exit 1; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

build=true
format=table
args=()
previous=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --no-build) build=false ;;
    --format=*) format="${arg#--format=}"; args+=("$arg") ;;
    *) [[ "$previous" == "--format" ]] && format="$arg"; args+=("$arg") ;;
  esac
  previous="$arg"
done
case "$format" in
  table) extension=txt ;;
  json) extension=jsonl ;;
  csv) extension=csv ;;
  *) usage >&2; exit 2 ;;
esac

binary="${STREAMFUSION_BENCH_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/streamfusion-bench}"
if $build && [[ -z "${STREAMFUSION_BENCH_BIN:-}" ]]; then
  command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust (https://rustup.rs)"
  echo "sink-bench.sh: cargo build --release -p streamfusion-bench" >&2
  (cd "$root" && cargo build --release --locked -p streamfusion-bench) || die "the build failed"
fi
[[ -x "$binary" ]] || die "$binary not found: build it (drop --no-build) or set STREAMFUSION_BENCH_BIN"

results="$root/perf/streamfusion/results"
mkdir -p "$results"
out="$results/sink-bench-$(date -u +%Y%m%dT%H%M%S).$extension"
echo "sink-bench.sh: $(uname -n), $(nproc 2>/dev/null || echo '?') cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'); results -> $out" >&2
status=0
"$binary" bench-json "${args[@]}" | tee "$out" || status=${PIPESTATUS[0]}
# No results (no broker, bad arguments): keep no empty file.
[[ -s "$out" ]] || rm -f "$out"
exit "$status"
