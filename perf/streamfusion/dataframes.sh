#!/usr/bin/env bash
# Dataframe libraries as JSON writers, beside the Rust JSON encoder's criterion figures: polars `write_ndjson` and DuckDB's
# `COPY ... (FORMAT JSON)`, one thread each, over the same rows as the Rust JSON benches (the 4096-row bid and
# q9 batches and the 1,048,576-row bid corpus, written as Arrow IPC by the `json_instructions` bench binary).
# Installs pinned polars, duckdb and pyarrow into target/dataframes-venv (PyPI). Prints a table; compare with
# `cargo bench -p streamfusion-json --bench json_batch` run right before or after (docs/benchmarks.md).
set -euo pipefail
usage() { echo "usage: $0" >&2; exit 2; }
[ $# -eq 0 ] || usage
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"
cd "$ROOT"
require cargo "install Rust 1.90 or newer (https://rustup.rs)"
require python3 "install Python 3.9 or newer"

venv=${CARGO_TARGET_DIR:-$ROOT/target}/dataframes-venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== Python packages -> $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q polars==2.1.0 duckdb==2.0.0 pyarrow==26.0.1
fi

echo "== Rows as Arrow IPC (json_instructions write-ipc)" >&2
bin=$(cargo bench -q --locked -p streamfusion-json --bench json_instructions --no-run --message-format=json \
  | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "error: no json_instructions bench binary found" >&2; exit 1; }
dir=${CARGO_TARGET_DIR:-$ROOT/target}/dataframes
mkdir -p "$dir"
for shape in bid q9 bid-1m; do "$bin" write-ipc "$shape" "$dir/$shape.arrow"; done

"$venv/bin/python" "$ROOT/perf/streamfusion/dataframes.py" "$dir/bid.arrow" "$dir/q9.arrow" "$dir/bid-1m.arrow"
