//! [`SinkConfig`]: where and how a [`Sink`](crate::Sink) writes.

use std::time::Duration;

use kafka_util::Properties;

/// The delivery guarantee of a [`Sink`](crate::Sink).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryGuarantee {
    /// Idempotent producer (`enable.idempotence=true`): no duplicates from the producer's own retries, but
    /// records written after the last checkpoint are written again when the caller replays after a crash.
    AtLeastOnce,
    /// Kafka transactions: the records of a checkpoint interval and its progress record commit together or
    /// not at all; `read_committed` consumers see each record exactly once.
    ExactlyOnce,
}

/// How the sink chooses each record's partition. The choice is always explicit (set on the record), never left
/// to librdkafka's partitioner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partitioning {
    /// Keyed records go where Kafka's default partitioner puts them:
    /// `(murmur2(key) & 0x7fffffff) % partitions` ([`partition_for_key`](crate::partition_for_key)), with the
    /// topic's partition count read from metadata when the producer is built. Null keys go round robin.
    KeyHash,
    /// Every record goes round robin over partitions `0 .. partitions`, keyed or not. `partitions` must be at
    /// least 1 and at most the topic's partition count.
    RoundRobin {
        /// How many partitions (from 0) to spread over.
        partitions: i32,
    },
}

/// Configuration of a [`Sink`](crate::Sink).
///
/// ```
/// use std::time::Duration;
/// use streamfusion_sink::{DeliveryGuarantee, Partitioning, SinkConfig};
///
/// let config = SinkConfig::new("127.0.0.1:19092", "bids", "bids-progress", "job-7-task-0")
///     .with_mode(DeliveryGuarantee::ExactlyOnce)
///     .with_partitioning(Partitioning::KeyHash)
///     .with_transaction_timeout(Duration::from_secs(60))
///     .with_property("linger.ms", "20");
/// assert_eq!(config.transactional_id(), "streamfusion-sink-job-7-task-0");
/// ```
///
/// Its `Debug` form prints the value of every producer property but a secret's (`sasl.password`, the other
/// passwords, OAuth secrets, JAAS configs, private keys), which it prints as `[hidden]`
/// ([`kafka_util::is_sensitive`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SinkConfig {
    /// `bootstrap.servers`: comma-separated `host:port` list.
    pub bootstrap_servers: String,
    /// The data topic. It must exist (the sink reads its partition count); the sink never creates it.
    pub topic: String,
    /// The compacted progress topic. Created with `cleanup.policy=compact`, one partition, the broker's default
    /// replication factor, when missing. Several writers may share it (each record is keyed by writer id).
    pub progress_topic: String,
    /// The writer id: names this writer in progress records and derives its `transactional.id`
    /// ([`transactional_id`](Self::transactional_id)). Must stay the same across restarts of one writer and
    /// differ between writers that run at the same time.
    pub writer_id: String,
    /// At least once or exactly once. Default [`DeliveryGuarantee::ExactlyOnce`].
    pub mode: DeliveryGuarantee,
    /// Partition choice. Default [`Partitioning::KeyHash`].
    pub partitioning: Partitioning,
    /// `transaction.timeout.ms` of the producer, and the bound on every blocking call of the sink (commit,
    /// abort, `init_transactions`, flushes, recovery). Must not exceed the broker's
    /// `transaction.max.timeout.ms` (Kafka's default 15 min). Default 60 s.
    pub transaction_timeout: Duration,
    /// Extra librdkafka producer properties (`linger.ms`, `batch.size`, `compression.type`, ...), applied before
    /// the sink's own (`bootstrap.servers`, `enable.idempotence`, `transactional.id`, `transaction.timeout.ms`),
    /// which they cannot override. The connection properties among them (`security.*`, `sasl.*`, `ssl.*`,
    /// `client.id`) also go to the admin client that creates the progress topic and to the recovery readers.
    pub producer_properties: Properties,
}

impl SinkConfig {
    /// A configuration with the defaults: exactly once, key hash partitioning, 60 s transaction timeout,
    /// no extra producer properties.
    pub fn new(
        bootstrap_servers: impl Into<String>,
        topic: impl Into<String>,
        progress_topic: impl Into<String>,
        writer_id: impl Into<String>,
    ) -> Self {
        Self {
            bootstrap_servers: bootstrap_servers.into(),
            topic: topic.into(),
            progress_topic: progress_topic.into(),
            writer_id: writer_id.into(),
            mode: DeliveryGuarantee::ExactlyOnce,
            partitioning: Partitioning::KeyHash,
            transaction_timeout: Duration::from_secs(60),
            producer_properties: Properties::new(),
        }
    }

    /// Sets [`mode`](Self::mode).
    #[must_use]
    pub fn with_mode(mut self, mode: DeliveryGuarantee) -> Self {
        self.mode = mode;
        self
    }

    /// Sets [`partitioning`](Self::partitioning).
    #[must_use]
    pub fn with_partitioning(mut self, partitioning: Partitioning) -> Self {
        self.partitioning = partitioning;
        self
    }

    /// Sets [`transaction_timeout`](Self::transaction_timeout).
    #[must_use]
    pub fn with_transaction_timeout(mut self, timeout: Duration) -> Self {
        self.transaction_timeout = timeout;
        self
    }

    /// Adds one extra producer property ([`producer_properties`](Self::producer_properties)).
    #[must_use]
    pub fn with_property(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.producer_properties.push(key, value);
        self
    }

    /// The `transactional.id` of this writer in exactly-once mode: `streamfusion-sink-<writer id>`. Stable across
    /// restarts, so a new instance fences the previous one and aborts its open transaction.
    pub fn transactional_id(&self) -> String {
        format!("streamfusion-sink-{}", self.writer_id)
    }
}

#[cfg(test)]
mod tests {
    use super::SinkConfig;

    #[test]
    fn the_debug_form_hides_every_secret_and_keeps_the_rest() {
        let secrets = [
            ("sasl.password", "secret-value-sasl"),
            ("ssl.key.password", "secret-value-key"),
            ("ssl.keystore.password", "secret-value-keystore"),
            ("ssl.truststore.password", "secret-value-truststore"),
            ("sasl.oauthbearer.client.secret", "secret-value-oauth"),
            (
                "sasl.oauthbearer.config",
                "clientSecret=secret-value-oauth-config",
            ),
            ("ssl.key.pem", "secret-value-pem"),
        ];
        let mut config = SinkConfig::new("127.0.0.1:19092", "bids", "bids-progress", "w")
            .with_property("linger.ms", "20")
            .with_property("sasl.username", "alice");
        for (key, value) in secrets {
            config = config.with_property(key, value);
        }
        let debug = format!("{config:?}");
        for (key, _) in secrets {
            assert!(debug.contains(key), "{key} missing from {debug}");
        }
        assert!(!debug.contains("secret-value"), "a secret printed: {debug}");
        for kept in [
            "bids-progress",
            "linger.ms",
            "\"20\"",
            "alice",
            "ExactlyOnce",
        ] {
            assert!(debug.contains(kept), "{kept} missing from {debug}");
        }
    }
}
