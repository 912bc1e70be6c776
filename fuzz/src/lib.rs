//! The harness behind the fuzz targets in `fuzz_targets/` (one thin `fuzz_target!` each), kept here so that
//! the checks are ordinary, documented functions:
//!
//! | target | module | what it asserts |
//! |---|---|---|
//! | `bijou_decode` | [`bijou`] | strict and prefix decode of any bytes, four formats: `bijoux`'s value or its error, never another value |
//! | `bijou_slab` | [`bijou`] | slab decode: the offsets check, then each record as `bijoux` decodes it (first bad record's index and error) |
//! | `json_encoder` | [`batch`], [`json`] | arbitrary batches: no panic; Flink-mode output parses as JSON; plain mode equals arrow-json's writer |
//! | `ffi_flat` | [`flat`] | the flat JVM handoff over real allocations: an error or a valid array, never a read outside them (ASan) |
//! | `ipc_reader` | [`input`] | any bytes as Arrow IPC, file and stream format: an error or valid batches of the reader's schema, the same on a second read |
//! | `csv_reader` | [`input`] | any bytes as CSV (schema inferred): an error or valid batches of an inferred schema, full batches but the last, the same on a replay |
//!
//! `scripts/fuzz.sh` runs them; docs/reliability.md ("Fuzzing") has the figures of the runs.

pub mod batch;
pub mod bijou;
pub mod flat;
pub mod input;
pub mod json;
