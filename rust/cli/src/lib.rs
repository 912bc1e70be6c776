//! The `streamfusion` command line tool (DESIGN.md 2: `rust/cli/`): `produce`, `consume`
//! and `verify` for the exactly-once sink, `bench-json` for its throughput, `bench` and
//! `chart` for the producer comparison.
//!
//! # Produce, consume, verify (issue #6)
//!
//! * [`produce`](mod@produce) generates Nexmark bids ([`bids`]: the `nexmark` crate's
//!   generator, deterministic per bid), builds Arrow batches, encodes them with
//!   `streamfusion-json` (Flink mode, key `auction`) and writes them through
//!   `streamfusion-sink`, exactly once (one transaction per checkpoint interval) or at
//!   least once. The source position of each checkpoint is the number of bids produced,
//!   so a restarted run resumes after the last committed bid. [`source`] puts the rows
//!   of an Arrow IPC or CSV file in place of the bids, by the same positions.
//! * [`read`] reads a topic to the end offsets captured when it starts (the consumer's
//!   position decides, so transaction markers and offset gaps are tolerated): `consume`
//!   prints or counts the records, `verify` compares the `read_committed` records with
//!   the regenerated ones as a multiset (missing, duplicates, unexpected) and counts the
//!   aborted or uncommitted ones with a `read_uncommitted` read.
//!
//! # The JSON sink's throughput (issue #6)
//!
//! [`bench_json`] runs the bids through the sink in a matrix (encoder × guarantee ×
//! compression): StreamFusion's encoder in Flink and plain mode against arrow-json once
//! per row, records/s, MB/s and the share of CPU spent encoding, each run read back.
//!
//! # The producer comparison
//!
//! The producer comparison (`perf/kafka/compare-benchmarks.sh`, DESIGN.md 3.7) measures
//! how fast one producer thread sends Long values to a real broker, and how many bytes
//! each value takes, with Kafka's 8-byte `LongSerializer` against bijou64. Its Java side
//! covers the Java client (stock serializer, JNI, pure Java); this crate is its Rust side,
//! on rdkafka (librdkafka):
//!
//! * [`bench`](mod@bench) runs one comparison run: a fresh topic, a producer with the Java side's
//!   settings, a discarded warm-up pass and N timed passes, then every record read back
//!   and checked; it prints one result line (JSON, or a row of the comparison CSV).
//! * [`distribution`] generates exactly the Java side's values (same `SplittableRandom`
//!   algorithm and seed), so both sides report the same payload sizes.
//! * [`chart`] draws a comparison CSV as a PNG (throughput per mode and compression, and
//!   payload bytes per mode) with plotters and an embedded font.
//!
//! ```
//! use streamfusion_cli::bench::{median, Mode};
//! use streamfusion_cli::distribution::{Distribution, DEFAULT_SEED};
//! let values = Distribution::Sequential.generate(50_000, DEFAULT_SEED);
//! let bytes: usize = values
//!     .iter()
//!     .map(|&v| bijou64_kafka::encoded_len(v, bijou64_kafka::Mapping::Unsigned))
//!     .sum();
//! assert_eq!(format!("{:.3}", bytes as f64 / values.len() as f64), "2.985");
//! assert_eq!(Mode::Bijou.comparison_name(), "rust-bijou");
//! assert_eq!(median(&[1.0, 5.0, 2.0]), Some(2.0));
//! ```

pub mod bench;
pub mod bench_json;
pub mod bids;
pub mod chart;
pub mod cli;
pub mod distribution;
mod error;
pub mod produce;
pub mod progress;
pub mod read;
pub mod source;

pub use error::Error;
