//! Writes StreamFusion [`EncodedRecords`](streamfusion_json::EncodedRecords) to Kafka through rdkafka
//! (librdkafka), at least once or exactly once.
//!
//! # The model
//! The caller reads a source, encodes batches and hands them to [`Sink::write`]; every so often it calls
//! [`Sink::checkpoint`] with an id and its *source position* (opaque bytes: where to resume reading). The
//! records between two checkpoints are one *interval*. Each checkpoint writes a progress record (writer id,
//! checkpoint id, source position; see [`Progress`]) keyed by the writer id to a compacted *progress topic*.
//! After a crash the caller builds a new [`Sink`] with the same writer id, calls [`Sink::recover`], and resumes
//! its source after the returned position.
//!
//! - **Exactly once** ([`DeliveryGuarantee::ExactlyOnce`]): one stable `transactional.id` per writer
//!   ([`SinkConfig::transactional_id`]). [`Sink::new`] runs `init_transactions` before any recovery read; this
//!   fences older instances of the writer and aborts the transaction they left open. The records of an
//!   interval and its progress record commit in one transaction, so `read_committed` readers see an interval
//!   together with its progress or neither; the progress read by `recover` therefore names exactly the data
//!   that is visible, and replaying from it neither loses nor duplicates. A crash before the commit leaves an
//!   open transaction that the next instance aborts; a crash after the commit (before the caller learned of it)
//!   is seen by `recover` as committed. `checkpoint` commits, waiting up to the transaction timeout, in one call:
//!   librdkafka cannot resume a prepared transaction in another producer, so the commit is not split off for
//!   later as in Flink's two-phase sinks (a writer that died between the phases could not finish it). Fault
//!   tests that must time a failure between the phases get them apart with the `fault-injection` feature
//!   (`Sink::prepare_commit`, `Sink::commit`); it is not part of the API.
//! - **At least once** ([`DeliveryGuarantee::AtLeastOnce`]): an idempotent producer; `checkpoint` waits for every record of
//!   the interval to be acknowledged before writing the progress record, so the progress never runs ahead of
//!   the data; replaying after a crash may write the last interval again.
//!
//! # Failures
//! Retriable errors retry the same call; abortable ones abort the transaction and return
//! [`Error::Aborted`] (replay the interval); fatal ones (fenced, invalid state) drop the producer and return
//! [`Error::Fatal`] (the next call builds a new producer; recover, then replay). A request the broker refuses
//! for lack of an ACL is never retried: [`Error::Unauthorized`] names the permission and the resource the
//! sink's principal needs (`docs/security.md` lists them all). See [`Error`].
//!
//! # Partitions
//! The sink picks every record's partition itself ([`Partitioning`]): keyed records where Kafka's default
//! partitioner puts them ([`partition_for_key`], murmur2 as Java's `Utils.murmur2`), null keys round robin.
//!
//! # Configuration the user must get right
//! `transaction_timeout` must not exceed the broker's `transaction.max.timeout.ms`; a writer that is down longer
//! than the broker's `transactional.id.expiration.ms` (7 days by default) starts with a fresh producer epoch,
//! which is harmless here since its last transaction has long been aborted by the timeout.
//!
//! ```no_run
//! use streamfusion_sink::{Sink, SinkConfig};
//! # fn next_batch(_: &[u8]) -> Option<(streamfusion_json::EncodedRecords, Vec<u8>)> { None }
//!
//! let config = SinkConfig::new("127.0.0.1:19092", "bids", "bids-progress", "job-7-task-0");
//! let mut sink = Sink::new(config)?;
//! let mut next_id = 0;
//! let mut position = Vec::new();
//! if let Some(progress) = sink.recover()? {
//!     next_id = progress.checkpoint_id + 1;
//!     position = progress.source_position;
//! }
//! while let Some((records, new_position)) = next_batch(&position) {
//!     sink.write(&records)?;
//!     sink.checkpoint(next_id, &new_position)?; // or every N batches / every second
//!     next_id += 1;
//!     position = new_position;
//! }
//! # Ok::<(), streamfusion_sink::Error>(())
//! ```

mod config;
mod error;
mod partition;
mod progress;
mod sink;

pub use config::{DeliveryGuarantee, Partitioning, SinkConfig};
pub use error::Error;
pub use partition::{murmur2, partition_for_key};
pub use progress::Progress;
pub use sink::Sink;
