//! One contender of the JSON shootout over one shape, a given number of passes, for instruction counts under
//! `valgrind --tool=callgrind` (exact and load-independent, unlike this VM's timings).
//!
//! `scripts/json-instructions.sh` runs every cell with 1 and with 11 passes and divides the difference by
//! 10 passes × 4096 rows, so setup (making the batch, planning, first allocations) cancels out. Results:
//! `docs/benchmarks.md`.
//!
//! Usage: `json_instructions <flink|flink-keyed|plain|line-delimited|serde-typed> <bid|q9> <passes>`
//! (`serde-typed`: bid only; a `memcpy` is left out, since valgrind counts each byte `rep movsb` moves as an
//! instruction). Run by `cargo bench` (no such arguments), it runs every cell once.
//!
//! `json_instructions write-ipc <bid|q9|bid-1m> <file>` writes the same rows as an Arrow IPC file instead (one
//! 4096-row batch, or the 1,048,576-row corpus of `json_batch` in 256 batches), for the dataframe libraries'
//! script (`perf/streamfusion/dataframes.sh`).

mod common;

use std::hint::black_box;

use common::{
    arrow_json_batch, bid_batch, bid_corpus, bid_date_times, encoder, q9_batch, serde_per_row,
};
use streamfusion_json::EncodedRecords;

/// The contenders, as the command line names them.
const CONTENDERS: [&str; 5] = [
    "flink",
    "flink-keyed",
    "plain",
    "line-delimited",
    "serde-typed",
];

/// Runs `contender` over `shape` `passes` times.
fn run(contender: &str, shape: &str, passes: usize) {
    let (batch, key) = match shape {
        "bid" => (bid_batch(), "auction"),
        "q9" => (q9_batch(), "id"),
        _ => usage(),
    };
    let mut out = EncodedRecords::new();
    let mut encode = |mode: &str, options: &[(&str, &str)]| {
        let mut enc = encoder(mode, options);
        for _ in 0..passes {
            enc.encode_into(black_box(&batch), &mut out)
                .expect("encodes");
        }
    };
    match contender {
        "flink" => encode("flink", &[]),
        "flink-keyed" => encode("flink", &[("key.fields", key)]),
        "plain" => encode("plain", &[]),
        "line-delimited" => {
            for _ in 0..passes {
                black_box(arrow_json_batch(black_box(&batch)));
            }
        }
        "serde-typed" if shape == "bid" => {
            let date_times = bid_date_times(&batch);
            let (mut slab, mut offsets) = (Vec::new(), Vec::new());
            for _ in 0..passes {
                serde_per_row(black_box(&batch), &date_times, &mut slab, &mut offsets);
            }
        }
        _ => usage(),
    }
}

/// Writes `shape`'s rows to `path` as an Arrow IPC file.
fn write_ipc(shape: &str, path: &str) {
    let batches = match shape {
        "bid" => vec![bid_batch()],
        "q9" => vec![q9_batch()],
        "bid-1m" => bid_corpus(),
        _ => usage(),
    };
    let file = std::fs::File::create(path).unwrap_or_else(|e| panic!("cannot create {path}: {e}"));
    let mut writer =
        arrow_ipc::writer::FileWriter::try_new(file, &batches[0].schema()).expect("IPC writer");
    for batch in &batches {
        writer.write(batch).expect("writes the batch");
    }
    writer.finish().expect("finishes the file");
}

fn usage() -> ! {
    eprintln!(
        "usage: json_instructions <{}> <bid|q9> <passes>",
        CONTENDERS.join("|")
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.as_slice() {
        [] => {
            for shape in ["bid", "q9"] {
                for contender in CONTENDERS {
                    if contender != "serde-typed" || shape == "bid" {
                        run(contender, shape, 1);
                    }
                }
            }
        }
        [command, shape, path] if command == "write-ipc" => write_ipc(shape, path),
        [contender, shape, passes] => {
            run(contender, shape, passes.parse().unwrap_or_else(|_| usage()))
        }
        _ => usage(),
    }
}
