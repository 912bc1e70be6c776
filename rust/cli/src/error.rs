//! The crate's one error type.

use std::path::PathBuf;
use std::time::Duration;

use rdkafka::error::KafkaError;

/// Why a command stopped. A run that completed but read back something other than
/// what it sent is not an error: it is a [`crate::bench::BenchResult`] with
/// `verified = false`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No broker answered the first metadata request.
    #[error(
        "no Kafka broker answered at {bootstrap} within {} s ({source}). \
         Start the local one with `kafka/broker start`, or pass --bootstrap-servers HOST:PORT",
        waited.as_secs()
    )]
    NoBroker {
        /// The bootstrap servers that were tried.
        bootstrap: String,
        /// How long the request waited.
        waited: Duration,
        /// The client's error.
        #[source]
        source: KafkaError,
    },
    /// A Kafka client call failed; `operation` says which, e.g. `create producer`.
    #[error("{operation}: {source}")]
    Kafka {
        /// What the command was doing.
        operation: String,
        /// The client's error.
        #[source]
        source: KafkaError,
    },
    /// The broker refused or did not finish a topic operation.
    #[error("topic {topic}: {operation} failed: {reason}")]
    Topic {
        /// The topic.
        topic: String,
        /// `create`, `wait for leader` or `delete`.
        operation: &'static str,
        /// The broker's error code or a timeout.
        reason: String,
    },
    /// Records were sent but not all deliveries succeeded.
    #[error("{failed} of {sent} deliveries failed; first error: {first}")]
    Delivery {
        /// Records sent in the pass.
        sent: u64,
        /// Deliveries that reported an error (or never reported).
        failed: u64,
        /// The first delivery error.
        first: String,
    },
    /// The bijou codec refused the values (a slab over 4 GiB).
    #[error("encoding the values: {0}")]
    Codec(#[from] bijou64_kafka::Error),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A results CSV is not in the producer comparison's format.
    #[error("{}:{line}: {reason}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line number (0: the file as a whole).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// An input file of `produce` or `verify` is not what its format says, or has fewer
    /// rows than the committed position.
    #[error("{}: {reason}", path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The JSON encoder refused its options or a batch.
    #[error("encoding the records: {0}")]
    Encode(#[from] streamfusion_json::Error),
    /// An Arrow batch could not be built.
    #[error("building an Arrow batch: {0}")]
    Arrow(#[source] arrow_schema::ArrowError),
    /// arrow-json refused a batch or a row (`bench-json`'s per-row contender), or a key field is not a column.
    #[error("encoding with arrow-json: {0}")]
    ArrowJson(#[source] arrow_schema::ArrowError),
    /// A CPU clock could not be read (`bench-json`).
    #[error("reading a CPU clock: {0}")]
    Clock(#[source] std::io::Error),
    /// The exactly-once / at-least-once sink failed (after the replays `produce` tries).
    #[error("sink: {0}")]
    Sink(#[from] streamfusion_sink::Error),
    /// A read made no progress towards the end offsets captured when it started.
    #[error(
        "topic {topic} partition {partition}: no progress for {} s at offset {position} of {end} \
         (an open transaction? it ends at the latest when its transaction timeout passes)",
        waited.as_secs()
    )]
    Stalled {
        /// The topic.
        topic: String,
        /// The partition that did not reach its end offset.
        partition: i32,
        /// Its position (next offset to read; -1 when unknown).
        position: i64,
        /// The end offset captured at the start.
        end: i64,
        /// How long nothing arrived.
        waited: Duration,
    },
    /// Drawing or encoding the chart failed.
    #[error("chart {}: {reason}", path.display())]
    Chart {
        /// The PNG being written.
        path: PathBuf,
        /// The drawing backend's error.
        reason: String,
    },
}

impl Error {
    /// A [`Error::Kafka`] for `operation`.
    pub(crate) fn kafka(operation: impl Into<String>) -> impl FnOnce(KafkaError) -> Error {
        let operation = operation.into();
        move |source| Error::Kafka { operation, source }
    }
}
