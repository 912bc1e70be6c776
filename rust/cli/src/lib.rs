//! The `streamfusion` command: rows (generated Nexmark bids, or an Arrow IPC / CSV file) encoded as Flink JSON
//! by `streamfusion-json` and written to Kafka exactly once (or at least once) by `streamfusion-sink`, read
//! back, checked, or just encoded for a look at the bytes.
//!
//! * [`produce`](mod@produce) builds Arrow batches from the rows ([`source`]; [`bids`]: the `nexmark`
//!   crate's generator, deterministic per bid), encodes them (Flink mode, key `auction` for the bids) and
//!   writes them through the sink, one transaction per checkpoint interval exactly once. The source position
//!   of each checkpoint is the number of rows produced, so a restarted run resumes after the last committed
//!   row.
//! * [`read`] reads a topic to the end offsets captured when it starts (the consumer's position decides, so
//!   transaction markers and offset gaps are tolerated): `consume` prints or counts the records, `verify`
//!   compares the `read_committed` records with the regenerated ones as a multiset (missing, duplicates,
//!   unexpected) and counts the aborted or uncommitted ones with a `read_uncommitted` read.
//! * [`encode`](mod@encode) writes the records `produce` would write as JSON lines (Flink or plain mode),
//!   without a broker, in the form `consume --print` prints.
//!
//! The Kafka plumbing (topics, the read loop, the `--bootstrap-servers` / `-X` arguments) is the workspace's
//! `kafka-util`; the benchmarks built on these commands live in their own crate (`perf/rust`).
//!
//! ```
//! use streamfusion_cli::encode::{run, EncodeOptions};
//! use streamfusion_cli::bids::{BidOptions, DEFAULT_BASE_TIME_MS};
//! use streamfusion_cli::source::{Input, JsonMode};
//! let input = Input::Bids {
//!     options: BidOptions { base_time_ms: DEFAULT_BASE_TIME_MS, key_fields: "auction".into() },
//!     events: 3,
//! };
//! let mut out = Vec::new();
//! let summary = run(&EncodeOptions { input, mode: JsonMode::Flink, keys: true }, &mut out)?;
//! assert_eq!(summary.records, 3);
//! assert!(String::from_utf8(out)?.starts_with("{\"auction\":"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bids;
pub mod cli;
pub mod encode;
mod error;
pub mod produce;
pub mod progress;
pub mod read;
pub mod source;

pub use error::Error;
