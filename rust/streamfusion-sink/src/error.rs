//! The crate's [`Error`] and what the caller should do about each.

use rdkafka::error::{KafkaError, RDKafkaErrorCode};

/// Everything a [`Sink`](crate::Sink) can fail with. The variant says what the caller must do next:
///
/// | variant | state after | caller |
/// | --- | --- | --- |
/// | [`Aborted`](Error::Aborted) | the open transaction was aborted; the producer is usable | replay the interval since the last successful checkpoint |
/// | [`Fatal`](Error::Fatal) | the producer was dropped; the next call builds a new one (`init_transactions` fences and aborts the old transaction) | call [`recover`](crate::Sink::recover) and replay from what it returns |
/// | [`Delivery`](Error::Delivery) | at-least-once: a record was not acknowledged | replay from the last checkpoint |
/// | [`Unauthorized`](Error::Unauthorized) | a request lacked an ACL; the open transaction, if any, was aborted | grant the permission it names, then recover and replay |
/// | [`Unauthenticated`](Error::Unauthenticated) | nothing was sent | fix the credentials or TLS settings |
/// | [`CommitOrder`](Error::CommitOrder) | nothing was sent; the sink is as before the call | only with the `fault-injection` feature: call `commit` after `prepare_commit`, and nothing but [`recover`](crate::Sink::recover) (which aborts it) between them |
/// | others | no Kafka state changed | fix the cause (configuration, topic) |
///
/// Retriable errors (librdkafka `is_retriable`) never surface: the sink retries the same call until the
/// transaction timeout passes, then reports [`Fatal`](Error::Fatal).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The configuration is invalid (for example `RoundRobin { partitions: 0 }`, or more partitions than the
    /// topic has).
    #[error("invalid sink configuration: {0}")]
    Config(String),
    /// A topic does not exist or has no partitions (the data topic must be created beforehand).
    #[error("topic {topic} does not exist or has no partitions")]
    UnknownTopic {
        /// The topic name.
        topic: String,
    },
    /// A Kafka client call failed without touching the transaction (producer or consumer creation, metadata,
    /// topic creation, reading progress).
    #[error("{operation} failed: {source}")]
    Kafka {
        /// What the sink was doing.
        operation: &'static str,
        /// The librdkafka error.
        #[source]
        source: KafkaError,
    },
    /// The transaction hit an abortable error (librdkafka `txn_requires_abort`, for example a record that
    /// could not be delivered); the sink aborted it. Nothing since the last checkpoint is visible to
    /// `read_committed` readers: replay that interval.
    #[error(
        "{operation}: transaction aborted, replay the interval since the last checkpoint: {source}"
    )]
    Aborted {
        /// What the sink was doing.
        operation: &'static str,
        /// The error that required the abort.
        #[source]
        source: KafkaError,
    },
    /// The producer is unusable: fenced by a newer instance with the same writer id
    /// (`PRODUCER_FENCED` / `INVALID_PRODUCER_EPOCH`), an invalid transaction state, any librdkafka fatal error,
    /// or a commit whose outcome stayed unknown until the transaction timeout. The sink dropped the producer
    /// and builds a new one on the next call; call [`recover`](crate::Sink::recover) to learn what committed.
    #[error("{operation}: fatal producer error, recover and replay: {source}")]
    Fatal {
        /// What the sink was doing.
        operation: &'static str,
        /// The fatal error.
        #[source]
        source: KafkaError,
    },
    /// At-least-once: a record was not acknowledged (reported by its delivery callback). Replay from the last
    /// checkpoint.
    #[error("delivery of a record failed, replay from the last checkpoint: {0}")]
    Delivery(#[source] KafkaError),
    /// The broker refused a request for lack of an ACL (Kafka's `TOPIC_`, `TRANSACTIONAL_ID_`, `GROUP_` or
    /// `CLUSTER_AUTHORIZATION_FAILED`). Not retried, since only an operator can fix it: grant the sink's
    /// principal `permission` on `resource` (`docs/security.md` lists what the sink needs). An open transaction
    /// was aborted first, so nothing of it is visible to `read_committed` readers; once the ACL is granted,
    /// [`recover`](crate::Sink::recover) and replay from what it returns.
    #[error("{operation}: not authorised: grant {permission} on {resource} to the sink's principal ({source})")]
    Unauthorized {
        /// What the sink was doing.
        operation: &'static str,
        /// The ACL operation the sink needs, as Kafka names it (`WRITE`, `READ`, `CREATE`, ...).
        permission: &'static str,
        /// The resource it needs it on, as `Type:name` (`Topic:bids`, `TransactionalId:streamfusion-sink-w1`).
        resource: Box<str>,
        /// The broker's refusal (boxed: the variant's other fields make it larger than the rest).
        #[source]
        source: Box<KafkaError>,
    },
    /// At the first contact ([`Sink::new`](crate::Sink::new)), the broker refused the sink's credentials
    /// (SASL: a wrong password, an unknown user, a mechanism it does not enable) or the TLS handshake failed
    /// (`kafka_util::check_broker`). Not retried, since librdkafka would retry the handshake until the
    /// transaction timeout: fix the `sasl.*` or `ssl.*` producer properties. `reason` is librdkafka's: it
    /// names the broker and the mechanism, never a password.
    #[error(
        "connect to {bootstrap}: the broker refused the sink's credentials: {reason} ({code:?}); \
         check the sasl.* and ssl.* producer properties"
    )]
    Unauthenticated {
        /// The bootstrap servers of the sink's configuration.
        bootstrap: String,
        /// librdkafka's code: `Authentication`, `SaslAuthenticationFailed` or `SSL`.
        code: RDKafkaErrorCode,
        /// librdkafka's report.
        reason: String,
    },
    /// A call out of the order of a checkpoint's two phases (`prepare_commit`, then `commit`; both only with the
    /// `fault-injection` feature, for fault tests): `commit` with no checkpoint prepared, or `write`, `flush`,
    /// `prepare_commit` or `checkpoint` while a prepared checkpoint waits for its `commit` (a prepared
    /// transaction takes no more records). Nothing was sent and the sink is as it was before the call: a prepared
    /// checkpoint is still prepared.
    #[error("{operation}: {}", commit_order(*.prepared))]
    CommitOrder {
        /// The call made out of order.
        operation: &'static str,
        /// The checkpoint prepared and waiting for its commit; `None` when none was.
        prepared: Option<u64>,
    },
    /// A record in the progress topic under this writer's key is not a progress record this crate wrote.
    #[error("progress record at offset {offset} is corrupt: {reason}")]
    CorruptProgress {
        /// The record's offset in the progress topic.
        offset: i64,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// What [`Error::CommitOrder`] says about the call.
fn commit_order(prepared: Option<u64>) -> String {
    match prepared {
        None => "no checkpoint is prepared: call prepare_commit first".to_owned(),
        Some(id) => format!(
            "checkpoint {id} is prepared and not committed: call commit (or recover, which aborts it) first"
        ),
    }
}

impl Error {
    /// Whether the caller must replay the records written since the last successful checkpoint
    /// ([`Aborted`](Error::Aborted), [`Fatal`](Error::Fatal), [`Delivery`](Error::Delivery)).
    pub fn requires_replay(&self) -> bool {
        matches!(
            self,
            Error::Aborted { .. } | Error::Fatal { .. } | Error::Delivery(_)
        )
    }

    /// Whether the producer was dropped ([`Fatal`](Error::Fatal)): the next call builds a new one, and the caller
    /// should [`recover`](crate::Sink::recover) first.
    pub fn is_fatal(&self) -> bool {
        matches!(self, Error::Fatal { .. })
    }
}
