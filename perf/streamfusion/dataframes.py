"""Times polars' `write_ndjson` and DuckDB's `COPY ... (FORMAT JSON)`, one thread each, over Arrow IPC files of
the rows the Rust JSON benches use (written by `json_instructions write-ipc`). Prints, per file and library, the
median time per row of N rounds, the spread, and the output bytes per row. Run by `dataframes.sh`."""

import io
import os
import statistics
import sys
import time

os.environ["POLARS_MAX_THREADS"] = "1"  # read by polars at import

import duckdb  # noqa: E402
import polars as pl  # noqa: E402
import pyarrow.ipc as ipc  # noqa: E402


def rounds(fn, rows, budget_s=2.0, count=7):
    """Per-row nanoseconds of `fn` in `count` rounds, each repeating it for about `budget_s` / `count`."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-6)
    reps = max(1, int(budget_s / count / once))
    out = []
    for _ in range(count):
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        out.append((time.perf_counter() - start) / reps / rows * 1e9)
    return out


def main(paths):
    con = duckdb.connect()
    con.execute("SET threads = 1")
    sink = "/dev/shm/streamfusion-dataframes.json" if os.path.isdir("/dev/shm") else "streamfusion-dataframes.json"
    print("| rows | library | ns per row (median) | spread | output bytes per row |")
    print("|---|---|---:|---:|---:|")
    for path in paths:
        table = ipc.open_file(path).read_all()
        rows = table.num_rows
        frame = pl.from_arrow(table)

        def polars_ndjson():
            buffer = io.BytesIO()
            frame.write_ndjson(buffer)
            return buffer.getbuffer().nbytes

        con.register("batch", table)

        def duckdb_copy():
            con.execute(f"COPY batch TO '{sink}' (FORMAT JSON)")
            return os.path.getsize(sink)

        for name, fn in [("polars write_ndjson", polars_ndjson), ("DuckDB COPY (FORMAT JSON)", duckdb_copy)]:
            size = fn()
            ns = rounds(fn, rows)
            label = os.path.basename(path)
            print(f"| {label} ({rows}) | {name} | {statistics.median(ns):.0f} | {min(ns):.0f}-{max(ns):.0f} | {size / rows:.1f} |")
    if os.path.exists(sink):
        os.remove(sink)
    print(f"polars {pl.__version__}, duckdb {duckdb.__version__}, one thread each", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
