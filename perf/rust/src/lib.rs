//! The workspace's Rust benchmarks, each against a real broker and each read back before it counts: the
//! `streamfusion-bench` binary. Not published; the products it measures are `bijou64-kafka`,
//! `streamfusion-json` and `streamfusion-sink` (and the `streamfusion` command, whose bid generator, progress
//! output and topic reader it reuses).
//!
//! # The JSON sink's throughput
//!
//! [`bench_json`] runs Nexmark bids through the sink in a matrix (encoder × guarantee × compression):
//! StreamFusion's encoder in Flink and plain mode against arrow-json once per row, records/s, MB/s and the
//! share of CPU spent encoding, each run read back.
//!
//! # The producer comparison
//!
//! The producer comparison (`perf/kafka/compare-benchmarks.sh`) measures how fast one producer thread sends
//! Long values to a real broker, and how many bytes each value takes, with Kafka's 8-byte `LongSerializer`
//! against bijou64. Its Java side covers the Java client (stock serializer, JNI, pure Java); this crate is
//! its Rust side, on rdkafka (librdkafka):
//!
//! * [`bench`](mod@bench) runs one comparison run: a fresh topic, a producer with the shared settings, a
//!   discarded warm-up pass and N timed passes, then every record read back and checked; it prints one
//!   result (a JSON line, or a row of the results schema).
//! * [`distribution`] is the comparison's one value generator: the Rust modes call it, the Java side reads
//!   its output (`streamfusion-bench values`), so both sides send the same values.
//! * [`common`] reads the producer settings and the results schema every comparison shares
//!   (`perf/common`).
//! * [`chart`] draws a comparison CSV as a PNG (throughput per mode and compression, and payload bytes per
//!   mode) with plotters and an embedded font.
//!
//! ```
//! use streamfusion_bench::bench::{median, ValueCodec};
//! use streamfusion_bench::distribution::{Distribution, DEFAULT_SEED};
//! let values = Distribution::Sequential.generate(50_000, DEFAULT_SEED);
//! let bytes: usize = values
//!     .iter()
//!     .map(|&v| bijou64_kafka::encoded_len(v, bijou64_kafka::Mapping::Unsigned))
//!     .sum();
//! assert_eq!(format!("{:.3}", bytes as f64 / values.len() as f64), "2.985");
//! assert_eq!(ValueCodec::Bijou.comparison_name(), "rust-bijou");
//! assert_eq!(median(&[1.0, 5.0, 2.0]), Some(2.0));
//! ```

pub mod bench;
pub mod bench_json;
pub mod chart;
pub mod cli;
pub mod common;
pub mod distribution;
mod error;
pub mod progress;

pub use error::Error;
