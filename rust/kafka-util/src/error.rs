//! The crate's one error type.

use std::time::Duration;

use rdkafka::error::{KafkaError, RDKafkaErrorCode};

/// Why a Kafka operation of this crate failed. Each variant names the operation; none leaves a client behind
/// (they are dropped with the call that failed).
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
    /// The broker refused the client's credentials (SASL: a wrong password, an unknown user, a mechanism it
    /// does not enable) or the TLS handshake failed ([`check_broker`](crate::check_broker)). Not retried: the
    /// client's settings must change. `reason` is librdkafka's, which names the broker and the mechanism,
    /// never a password.
    #[error(
        "the Kafka broker at {bootstrap} refused the connection: {reason} ({code:?}). \
         Check the client's sasl.* and ssl.* settings"
    )]
    Unauthenticated {
        /// The bootstrap servers that were tried.
        bootstrap: String,
        /// librdkafka's code: `Authentication`, `SaslAuthenticationFailed` or `SSL`.
        code: RDKafkaErrorCode,
        /// librdkafka's report.
        reason: String,
    },
    /// A Kafka client call failed; `operation` says which, e.g. `create producer`.
    #[error("{operation}: {source}")]
    Kafka {
        /// What the caller was doing.
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
        /// `create`, `wait for leader`, `delete` or `read`.
        operation: &'static str,
        /// The broker's error code or a timeout.
        reason: String,
        /// The broker's error code, when it sent one.
        code: Option<RDKafkaErrorCode>,
    },
    /// A read made no progress towards the end offsets captured when it started, for [`Stop::idle`]'s
    /// duration.
    ///
    /// [`Stop::idle`]: crate::Stop::idle
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
    /// A read did not reach its end offsets before [`Stop::until`]'s deadline, or the last stable offsets did
    /// not reach them in time ([`TopicReader::wait_until_stable`]).
    ///
    /// [`Stop::until`]: crate::Stop::until
    /// [`TopicReader::wait_until_stable`]: crate::TopicReader::wait_until_stable
    #[error("topic {topic}: {what} not done before the deadline")]
    TimedOut {
        /// The topic.
        topic: String,
        /// `read to the end offsets` or `wait for the last stable offsets`.
        what: &'static str,
    },
}

impl Error {
    /// A [`Error::Kafka`] for `operation`, for `map_err`.
    pub fn kafka(operation: impl Into<String>) -> impl FnOnce(KafkaError) -> Error {
        let operation = operation.into();
        move |source| Error::Kafka { operation, source }
    }

    /// The client error behind this one, if there is one: the source of [`Error::NoBroker`] and
    /// [`Error::Kafka`], `Global(code)` for [`Error::Unauthenticated`], `AdminOp(code)` for a [`Error::Topic`] with a broker code, `OperationTimedOut` for
    /// [`Error::Stalled`] and [`Error::TimedOut`]. For callers whose own error type wraps a `KafkaError`.
    #[must_use]
    pub fn into_kafka_error(self) -> KafkaError {
        match self {
            Error::NoBroker { source, .. } | Error::Kafka { source, .. } => source,
            Error::Unauthenticated { code, .. } => KafkaError::Global(code),
            Error::Topic {
                code: Some(code), ..
            } => KafkaError::AdminOp(code),
            Error::Topic { code: None, .. } => {
                KafkaError::MetadataFetch(RDKafkaErrorCode::UnknownTopicOrPartition)
            }
            Error::Stalled { .. } | Error::TimedOut { .. } => {
                KafkaError::MessageConsumption(RDKafkaErrorCode::OperationTimedOut)
            }
        }
    }
}
