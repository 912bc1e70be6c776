//! The crate's one error type.

use std::path::PathBuf;

/// Why a command stopped. A `verify` that finds the topic different from what was expected is not an error:
/// it is a [`crate::read::Verification`] that is not [exact](crate::read::Verification::exact).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A Kafka client call failed: no broker answered, a topic operation or a read failed
    /// ([`kafka_util::Error`] says which).
    #[error(transparent)]
    Kafka(#[from] kafka_util::Error),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// An input file of `produce`, `verify` or `encode` is not what its format says, or has fewer rows than
    /// the committed position.
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
    /// The exactly-once / at-least-once sink failed (after the replays `produce` tries).
    #[error("sink: {0}")]
    Sink(#[from] streamfusion_sink::Error),
    /// The progress topic holds a source position `produce` did not write.
    #[error("topic {topic}: recover failed: {reason}")]
    Recover {
        /// The progress topic.
        topic: String,
        /// What is wrong.
        reason: String,
    },
}
