//! The harness behind the fuzz targets in `fuzz_targets/` (one thin `fuzz_target!` each), kept here so that
//! the checks are ordinary, documented functions:
//!
//! | target | module | what it asserts |
//! |---|---|---|
//! | `bijou_decode` | [`bijou`] | strict and prefix decode of any bytes, four formats: `bijoux`'s value or its error, never another value |
//! | `bijou_slab` | [`bijou`] | slab decode: the offsets check, then each record as `bijoux` decodes it (first bad record's index and error) |
//! | `json_encoder` | [`batch`], [`json`] | arbitrary batches: no panic; Flink-mode output parses as JSON; plain mode equals arrow-json's writer |
//! | `binary_rows` | [`binary_rows`] | Flink binary rows (mutated real flat and nested rows) through the binary-row handoff: an error naming the row, or valid arrays that encode, never a read outside the rows (ASan) |
//! | `ffi_flat` | [`flat`] | the flat JVM handoff over real allocations: an error or a valid array, never a read outside them (ASan) |
//! | `ipc_reader` | [`input`] | any bytes as Arrow IPC, file and stream format: an error or valid batches of the reader's schema, the same on a second read |
//! | `csv_reader` | [`input`] | any bytes as CSV (schema inferred): an error or valid batches of an inferred schema, full batches but the last, the same on a replay |
//! | `json_decode` | [`json_decode`] | a chunk of 1-8 Kafka JSON messages: no panic; the chunk decoded at once fails like its first failing message alone (kind, index, reason) or equals its messages decoded one by one (rows, `rows_per_message`, `null_rows`) |
//!
//! `scripts/fuzz.sh` runs them; docs/reliability.md ("Fuzzing") has the figures of the runs.

use std::sync::Once;

pub mod batch;
pub mod bijou;
pub mod binary_rows;
pub mod flat;
pub mod input;
pub mod json;
pub mod json_decode;

/// Installs, once, a panic hook that ignores panics raised in an arrow crate's source (`arrow-*/src/`) and
/// hands every other one to the hook that was there (libFuzzer's, which aborts), so that a check can catch a
/// panic of arrow's own code (`std::panic::catch_unwind`): `streamfusion-input`'s guard (docs/reliability.md, Fuzzing,
/// finding 5), and arrow-json's writer as the plain-mode reference (docs/reliability.md, Fuzzing, finding 9). A panic
/// that escapes the catch still reaches libfuzzer-sys's own `catch_unwind` and aborts.
pub fn allow_caught_arrow_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_arrow = info.location().is_some_and(|l| {
                let file = l.file();
                file.contains("/arrow-") && !file.contains("streamfusion")
            });
            if !in_arrow {
                previous(info);
            }
        }));
    });
}
