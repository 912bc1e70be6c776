//! The crate's one error type.

use std::path::PathBuf;

/// Why a benchmark stopped. A run that completed but read back something other than what it sent is not an
/// error: it is a result with `verified = false` ([`crate::bench::BenchResult`],
/// [`crate::bench_json::RunResult`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A Kafka client call failed: no broker answered, a topic operation or a read failed.
    #[error(transparent)]
    Kafka(#[from] kafka_util::Error),
    /// A step shared with the `streamfusion` command failed (generating bids, reading a topic back).
    #[error(transparent)]
    Cli(#[from] streamfusion_cli::Error),
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
    /// The JSON encoder refused its options or a batch.
    #[error("encoding the records: {0}")]
    Encode(#[from] streamfusion_json::Error),
    /// arrow-json refused a batch or a row (`bench-json`'s per-row contender), or a key field is not a column.
    #[error("encoding with arrow-json: {0}")]
    ArrowJson(#[source] arrow_schema::ArrowError),
    /// A CPU clock could not be read (`bench-json`).
    #[error("reading a CPU clock: {0}")]
    Clock(#[source] std::io::Error),
    /// The exactly-once / at-least-once sink failed.
    #[error("sink: {0}")]
    Sink(#[from] streamfusion_sink::Error),
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
    /// A Kafka client error for `operation`, for `map_err`.
    pub(crate) fn kafka(
        operation: impl Into<String>,
    ) -> impl FnOnce(rdkafka::error::KafkaError) -> Error {
        let kafka = kafka_util::Error::kafka(operation);
        move |source| Error::Kafka(kafka(source))
    }
}
