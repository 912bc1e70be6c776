//! The rdkafka plumbing shared by the workspace: its products (`streamfusion-sink`, the `streamfusion`
//! command), its benchmarks and its broker tests. Published with `streamfusion-sink`, which builds on it;
//! nothing here is specific to bijou64 or JSON.
//!
//! # The model
//!
//! Everything here is a thin layer over librdkafka (through rust-rdkafka's `Base*` clients, polled on the
//! caller's thread):
//!
//! * [`delivery`]: a producer context that remembers the first failed delivery ([`DeliveryErrors`]), and
//!   [`send`](delivery::send), which waits out a full producer queue by serving delivery reports.
//! * [`read`]: the one loop that reads a topic from its beginning to the end offsets captured when the read
//!   starts ([`TopicReader`]). The consumer's *position*, not the offset of the last record seen, ends a
//!   partition: a committed transaction ends with a marker that takes an offset but is no record, and
//!   `read_committed` skips aborted records, so offsets have gaps.
//! * [`check_broker`]: the first contact with a cluster, which fails at once when the broker refuses the
//!   client's credentials (librdkafka itself would retry the handshake until the request's timeout).
//! * [`topics`]: topic creation and deletion through the admin client, waiting until every partition has a
//!   leader ([`Topics`]).
//! * [`Properties`]: extra client properties whose `Debug` and `Display` never print a secret.
//! * the defaults every client here uses: [`DEFAULT_BOOTSTRAP`] (the local broker of `kafka/broker`),
//!   [`BROKER_WAIT`], and, with feature `cli`, the `clap` arguments of a Kafka client
//!   (`--bootstrap-servers`, `-X key=value`; [`args::KafkaArgs`]).
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use kafka_util::{consumer_config, Stop, TopicReader};
//!
//! let config = consumer_config(kafka_util::DEFAULT_BOOTSTRAP, "read_committed");
//! let reader = TopicReader::open(&config, kafka_util::DEFAULT_BOOTSTRAP, "bids", &Default::default())?;
//! let mut records = 0_u64;
//! reader.read(Stop::idle(std::time::Duration::from_secs(30)), |_message| {
//!     records += 1;
//!     ControlFlow::Continue(())
//! })?;
//! # Ok::<(), kafka_util::Error>(())
//! ```

#[cfg(feature = "cli")]
pub mod args;
mod connect;
pub mod delivery;
mod error;
mod properties;
pub mod read;
pub mod topics;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rdkafka::config::ClientConfig;

pub use connect::check_broker;
pub use delivery::DeliveryErrors;
pub use error::Error;
pub use properties::{is_sensitive, Properties, HIDDEN};
pub use read::{
    read_settled, read_settled_with, Ends, OpenOptions, PartitionRange, Record, Stop, TopicReader,
};
pub use topics::Topics;

/// The local broker that `kafka/broker start` runs (loopback, non-default port, so a Kafka of the user's own is
/// left alone).
pub const DEFAULT_BOOTSTRAP: &str = "127.0.0.1:19092";

/// How long the first metadata request may take before the broker counts as absent ([`Error::NoBroker`]).
pub const BROKER_WAIT: Duration = Duration::from_secs(10);

/// The environment variable that points tests and tools at another cluster.
pub const BOOTSTRAP_ENV: &str = "KAFKA_BOOTSTRAP_SERVERS";

/// `$KAFKA_BOOTSTRAP_SERVERS`, or [`DEFAULT_BOOTSTRAP`] when it is not set.
#[must_use]
pub fn bootstrap_from_env() -> String {
    std::env::var(BOOTSTRAP_ENV).unwrap_or_else(|_| DEFAULT_BOOTSTRAP.to_owned())
}

/// A name no other test or run uses: `PREFIX-NAME-PID-NANOS` (process id and the wall clock's nanoseconds),
/// for the topics, groups and transactional ids a test creates.
#[must_use]
pub fn unique_name(prefix: &str, name: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{prefix}-{name}-{}-{nanos}", std::process::id())
}

/// A consumer configuration for [`TopicReader`]: `bootstrap.servers`, `isolation.level` (`read_committed` or
/// `read_uncommitted`), a throw-away `group.id` (`kafka-util-read-PID`; offsets are never committed), earliest
/// offsets, no auto-commit, `fetch.wait.max.ms=100` and no topic auto-creation. Callers add or override what
/// they need (security settings, `client.id`, fetch sizes).
#[must_use]
pub fn consumer_config(bootstrap: &str, isolation: &str) -> ClientConfig {
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", bootstrap)
        .set(
            "group.id",
            format!("kafka-util-read-{}", std::process::id()),
        )
        .set("isolation.level", isolation)
        .set("enable.auto.commit", "false")
        .set("enable.auto.offset.store", "false")
        .set("auto.offset.reset", "earliest")
        .set("fetch.wait.max.ms", "100")
        .set("allow.auto.create.topics", "false");
    config
}
