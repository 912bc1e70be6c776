//! Reading a topic to the end offsets captured when the read starts: the one read loop of the workspace.
//!
//! [`TopicReader::open`] asks for the topic's partitions, captures each partition's end offset and assigns
//! every non-empty partition from its beginning. [`TopicReader::read`] then polls until the consumer's
//! *position* reaches the captured end of every partition, calling back once per record below the end:
//!
//! * a committed transaction ends with a marker that takes an offset but is no record, and `read_committed`
//!   skips aborted records, so the last record's offset may be well below the end: the position decides;
//! * records at or past the captured end (written after the read started) are not passed on;
//! * a `read_committed` consumer does not move past an open transaction: with [`Stop::idle`] the read fails
//!   with [`Error::Stalled`] when nothing moves for that long; [`TopicReader::wait_until_stable`] waits for
//!   the last stable offsets first instead.
//!
//! The end offsets are what the consumer's own isolation level answers (`read_committed`: the last stable
//! offset) unless [`Ends::HighWatermark`] asks for the high watermark (every record written, committed or
//! not, when the read starts).

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::BorrowedMessage;
use rdkafka::{Message, Offset, TopicPartitionList};

use crate::{Error, BROKER_WAIT};

/// How long one poll of [`TopicReader::read`] waits for a record.
const POLL: Duration = Duration::from_millis(100);
/// Pause between two checks of the last stable offsets.
const STABLE_BACKOFF: Duration = Duration::from_millis(20);
/// Pause before a watermark query is asked again while a partition's leader is unknown.
const WATERMARK_BACKOFF: Duration = Duration::from_millis(50);

/// Which end offsets [`TopicReader::open`] captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    /// What the consumer's isolation level answers: the high watermark for `read_uncommitted`, the last
    /// stable offset for `read_committed`.
    AsIsolation,
    /// The high watermark (asked with `read_uncommitted`), whatever the consumer's isolation level.
    HighWatermark,
}

/// One partition's range: the low watermark and the end offset captured at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartitionRange {
    /// The partition.
    pub partition: i32,
    /// Its low watermark (first offset still in the log).
    pub low: i64,
    /// The captured end offset (exclusive).
    pub end: i64,
}

impl PartitionRange {
    /// `end - low`: records plus transaction markers and gaps.
    #[must_use]
    pub fn offsets(&self) -> u64 {
        u64::try_from(self.end - self.low).unwrap_or(0)
    }
}

/// What [`TopicReader::open`] reads and how long it waits.
#[derive(Debug, Clone, Copy)]
pub struct OpenOptions<'a> {
    /// Only these partitions (`None`: all of the topic's).
    pub partitions: Option<&'a [i32]>,
    /// Which end offsets to capture.
    pub ends: Ends,
    /// How long the metadata request may take ([`Error::NoBroker`] after that).
    pub metadata_timeout: Duration,
    /// How long each watermark query may take.
    pub watermark_timeout: Duration,
}

impl Default for OpenOptions<'_> {
    /// Every partition, [`Ends::AsIsolation`], [`BROKER_WAIT`] for the metadata, 30 s per watermark query.
    fn default() -> Self {
        Self {
            partitions: None,
            ends: Ends::AsIsolation,
            metadata_timeout: BROKER_WAIT,
            watermark_timeout: Duration::from_secs(30),
        }
    }
}

/// When [`TopicReader::read`] gives up.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stop {
    idle: Option<Duration>,
    deadline: Option<Instant>,
}

impl Stop {
    /// Fail with [`Error::Stalled`] when no partition moves towards its end for `idle`.
    #[must_use]
    pub fn idle(idle: Duration) -> Self {
        Self {
            idle: Some(idle),
            deadline: None,
        }
    }

    /// Fail with [`Error::TimedOut`] when the ends are not reached by `deadline`.
    #[must_use]
    pub fn until(deadline: Instant) -> Self {
        Self {
            idle: None,
            deadline: Some(deadline),
        }
    }
}

/// `consumer.fetch_watermarks`, asked again while the partition's leader is not known or moving (a topic created
/// a moment ago whose metadata has not reached this client, a leader election on a cluster: librdkafka's
/// `UnknownPartition`, `UnknownTopicOrPartition`, `LeaderNotAvailable`, `NotLeaderForPartition`) until `timeout`
/// has passed; then, or on any other error, the error.
fn watermarks(
    consumer: &BaseConsumer,
    topic: &str,
    partition: i32,
    timeout: Duration,
) -> Result<(i64, i64), KafkaError> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match consumer.fetch_watermarks(topic, partition, left) {
            Err(KafkaError::MetadataFetch(
                RDKafkaErrorCode::UnknownPartition
                | RDKafkaErrorCode::UnknownTopicOrPartition
                | RDKafkaErrorCode::LeaderNotAvailable
                | RDKafkaErrorCode::NotLeaderForPartition,
            )) if Instant::now() + WATERMARK_BACKOFF < deadline => {
                std::thread::sleep(WATERMARK_BACKOFF);
            }
            answer => return answer,
        }
    }
}

/// A consumer assigned to every non-empty partition of a topic, from the beginning, with the end offsets it
/// reads to.
pub struct TopicReader {
    consumer: BaseConsumer,
    topic: String,
    /// The consumer's `group.id`, for the error that names it.
    group: String,
    ranges: Vec<PartitionRange>,
}

impl TopicReader {
    /// Creates the consumer from `config` (with `enable.partition.eof=true` and `enable.auto.commit=false`
    /// added; see [`crate::consumer_config`]), finds the partitions of `topic` (all of them, or those
    /// `options` names), captures their end offsets as `options` says, and assigns the non-empty ones from
    /// their beginning. `bootstrap` only names the cluster in [`Error::NoBroker`].
    ///
    /// # Errors
    /// [`Error::NoBroker`] when the metadata request fails within [`OpenOptions::metadata_timeout`];
    /// [`Error::Topic`] (operation `read`) when the topic does not exist, this principal may not read it (code
    /// `TopicAuthorizationFailed`, the reason names the ACL to grant) or it has none of the partitions asked
    /// for; [`Error::Kafka`] when the consumer cannot be created, a watermark query or the assignment fails.
    pub fn open(
        config: &ClientConfig,
        bootstrap: &str,
        topic: &str,
        options: &OpenOptions<'_>,
    ) -> Result<Self, Error> {
        let mut config = config.clone();
        config
            .set("enable.partition.eof", "true")
            .set("enable.auto.commit", "false");
        let consumer: BaseConsumer = config.create().map_err(Error::kafka("create consumer"))?;
        let metadata = consumer
            .fetch_metadata(Some(topic), options.metadata_timeout)
            .map_err(|source| Error::NoBroker {
                bootstrap: bootstrap.to_owned(),
                waited: options.metadata_timeout,
                source,
            })?;
        let refused = metadata.topics().iter().any(|t| {
            t.name() == topic
                && t.error().map(RDKafkaErrorCode::from)
                    == Some(RDKafkaErrorCode::TopicAuthorizationFailed)
        });
        if refused {
            return Err(Error::Topic {
                topic: topic.to_owned(),
                operation: "read",
                reason: format!(
                    "not authorised: grant READ on Topic:{topic} to the client's principal"
                ),
                code: Some(RDKafkaErrorCode::TopicAuthorizationFailed),
            });
        }
        let partitions: Vec<i32> = metadata
            .topics()
            .iter()
            .filter(|t| t.name() == topic && t.error().is_none())
            .flat_map(|t| t.partitions().iter().map(|p| p.id()))
            .filter(|p| options.partitions.is_none_or(|only| only.contains(p)))
            .collect();
        if partitions.is_empty() {
            return Err(Error::Topic {
                topic: topic.to_owned(),
                operation: "read",
                reason: "the topic does not exist or has no partitions".into(),
                code: None,
            });
        }
        let high_watermarks: Option<BaseConsumer> = match options.ends {
            Ends::AsIsolation => None,
            Ends::HighWatermark => {
                let mut uncommitted = config.clone();
                uncommitted.set("isolation.level", "read_uncommitted");
                Some(
                    uncommitted
                        .create()
                        .map_err(Error::kafka("create consumer"))?,
                )
            }
        };
        let mut ranges = Vec::with_capacity(partitions.len());
        let mut assignment = TopicPartitionList::new();
        for partition in partitions {
            let (low, end) = watermarks(
                high_watermarks.as_ref().unwrap_or(&consumer),
                topic,
                partition,
                options.watermark_timeout,
            )
            .map_err(Error::kafka(format!(
                "read the offsets of {topic} partition {partition}"
            )))?;
            ranges.push(PartitionRange {
                partition,
                low,
                end,
            });
            if end > low {
                assignment
                    .add_partition_offset(topic, partition, Offset::Beginning)
                    .map_err(Error::kafka("assign"))?;
            }
        }
        if assignment.count() > 0 {
            consumer
                .assign(&assignment)
                .map_err(Error::kafka(format!("assign {topic}")))?;
        }
        Ok(Self {
            consumer,
            topic: topic.to_owned(),
            group: config.get("group.id").unwrap_or_default().to_owned(),
            ranges,
        })
    }

    /// The partitions and the end offsets captured when the reader was opened.
    #[must_use]
    pub fn ranges(&self) -> &[PartitionRange] {
        &self.ranges
    }

    /// Waits until the consumer's watermark query (for `read_committed`: the last stable offset) reaches every
    /// captured end offset, so that no transaction below the ends is still open.
    ///
    /// # Errors
    /// [`Error::TimedOut`] when `deadline` passes first; [`Error::Kafka`] when a query fails.
    pub fn wait_until_stable(&self, deadline: Instant) -> Result<(), Error> {
        let topic = self.topic.as_str();
        for range in self.ranges.iter().filter(|r| r.end > r.low) {
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let (_, stable) = watermarks(&self.consumer, topic, range.partition, left)
                    .map_err(Error::kafka(format!(
                        "read the offsets of {topic} partition {}",
                        range.partition
                    )))?;
                if stable >= range.end {
                    break;
                }
                if Instant::now() >= deadline {
                    return Err(Error::TimedOut {
                        topic: topic.to_owned(),
                        what: "wait for the last stable offsets",
                    });
                }
                std::thread::sleep(STABLE_BACKOFF);
            }
        }
        Ok(())
    }

    /// Reads every assigned partition to its captured end, calling `each` for every record below the end in
    /// the order they arrive (offset order within a partition). `each` returns `ControlFlow::Break` to end the
    /// read early (then `read` returns `Ok`).
    ///
    /// A lost connection to a broker (librdkafka's `BrokerTransportFailure`, `AllBrokersDown`: a node of a
    /// cluster killed or restarting) is not an error of the read: librdkafka reconnects, or fetches from the
    /// partition's new leader, by itself, and `stop` bounds the wait.
    ///
    /// # Errors
    /// [`Error::Kafka`] when consuming fails; [`Error::Topic`] (operation `read`, code
    /// `TopicAuthorizationFailed` or `GroupAuthorizationFailed`, naming the ACL to grant) when the principal
    /// may not read the topic or describe the consumer's group; [`Error::Stalled`] or [`Error::TimedOut`] as `stop` says.
    pub fn read(
        self,
        stop: Stop,
        mut each: impl FnMut(&BorrowedMessage<'_>) -> ControlFlow<()>,
    ) -> Result<(), Error> {
        let topic = self.topic.as_str();
        let ends: HashMap<i32, i64> = self
            .ranges
            .iter()
            .filter(|r| r.end > r.low)
            .map(|r| (r.partition, r.end))
            .collect();
        let mut remaining: Vec<i32> = ends.keys().copied().collect();
        remaining.sort_unstable();
        let mut positions: HashMap<i32, i64> = HashMap::new();
        let mut last_progress = Instant::now();
        let mut seen: u64 = 0;
        while !remaining.is_empty() {
            let mut check_positions = false;
            match self.consumer.poll(POLL) {
                Some(Ok(message)) => {
                    let partition = message.partition();
                    let end = ends.get(&partition).copied().unwrap_or(0);
                    if message.offset() < end {
                        seen += 1;
                        if each(&message).is_break() {
                            return Ok(());
                        }
                    }
                    if message.offset() + 1 >= end {
                        remaining.retain(|&p| p != partition);
                    }
                    positions.insert(partition, message.offset() + 1);
                    last_progress = Instant::now();
                }
                Some(Err(KafkaError::PartitionEOF(_))) | None => check_positions = true,
                Some(Err(KafkaError::MessageConsumption(
                    RDKafkaErrorCode::BrokerTransportFailure | RDKafkaErrorCode::AllBrokersDown,
                ))) => check_positions = true,
                Some(Err(KafkaError::MessageConsumption(
                    code @ (RDKafkaErrorCode::GroupAuthorizationFailed
                    | RDKafkaErrorCode::TopicAuthorizationFailed),
                ))) => {
                    // A principal that may describe the topic (WRITE implies it) but not read it gets this
                    // from the fetch; librdkafka looks up the group's coordinator even for assigned
                    // partitions.
                    let grant = if code == RDKafkaErrorCode::TopicAuthorizationFailed {
                        format!("READ on Topic:{topic}")
                    } else {
                        format!(
                            "DESCRIBE on Group:{} (the reader's own group: it commits nothing)",
                            self.group
                        )
                    };
                    return Err(Error::Topic {
                        topic: topic.to_owned(),
                        operation: "read",
                        reason: format!("not authorised: grant {grant} to the client's principal"),
                        code: Some(code),
                    });
                }
                Some(Err(error)) => return Err(Error::kafka(format!("consume {topic}"))(error)),
            }
            if check_positions || seen.is_multiple_of(1024) {
                let now = self
                    .consumer
                    .position()
                    .map_err(Error::kafka(format!("position in {topic}")))?;
                for element in now.elements() {
                    if let Offset::Offset(position) = element.offset() {
                        let partition = element.partition();
                        if positions.get(&partition).is_none_or(|&p| position > p) {
                            positions.insert(partition, position);
                            last_progress = Instant::now();
                        }
                        if position >= ends.get(&partition).copied().unwrap_or(0) {
                            remaining.retain(|&p| p != partition);
                        }
                    }
                }
            }
            if remaining.is_empty() {
                break;
            }
            if let Some(idle) = stop.idle {
                if last_progress.elapsed() > idle {
                    let partition = remaining[0];
                    return Err(Error::Stalled {
                        topic: topic.to_owned(),
                        partition,
                        position: positions.get(&partition).copied().unwrap_or(-1),
                        end: ends.get(&partition).copied().unwrap_or(0),
                        waited: idle,
                    });
                }
            }
            if stop
                .deadline
                .is_some_and(|deadline| Instant::now() > deadline)
            {
                return Err(Error::TimedOut {
                    topic: topic.to_owned(),
                    what: "read to the end offsets",
                });
            }
        }
        Ok(())
    }
}

/// One record as [`read_settled`] returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The partition it was read from.
    pub partition: i32,
    /// Its offset in that partition.
    pub offset: i64,
    /// The key (`None`: no key).
    pub key: Option<Vec<u8>>,
    /// The value (`None`: a tombstone).
    pub value: Option<Vec<u8>>,
}

/// Every record of `topic` under `isolation` (`read_committed` or `read_uncommitted`) up to the high
/// watermarks captured when it starts, sorted by partition and offset: the read-back of a test or tool that
/// verifies what a writer left on the broker. It first waits until the last stable offsets reach those marks
/// (no transaction open below them: under `read_committed` every record the read could see is decided), then
/// reads with [`TopicReader`] (transaction markers and aborted records are skipped, a lost broker connection is
/// retried). The consumer is [`crate::consumer_config`]; [`read_settled_with`] takes a configuration of the
/// caller's (security settings, for example).
///
/// # Errors
/// Those of [`TopicReader::open`] and [`TopicReader::read`]; [`Error::TimedOut`] when a transaction is still
/// open or the ends are not reached by `deadline`.
pub fn read_settled(
    bootstrap: &str,
    topic: &str,
    isolation: &str,
    deadline: Instant,
) -> Result<Vec<Record>, Error> {
    read_settled_with(
        &crate::consumer_config(bootstrap, isolation),
        topic,
        deadline,
    )
}

/// [`read_settled`] with the consumer configuration `config` (its `bootstrap.servers` and `isolation.level`
/// among it, as [`crate::consumer_config`] sets them), to which it adds a group id of its own and
/// `fetch.wait.max.ms=50`.
///
/// # Errors
/// As [`read_settled`].
pub fn read_settled_with(
    config: &ClientConfig,
    topic: &str,
    deadline: Instant,
) -> Result<Vec<Record>, Error> {
    let mut config = config.clone();
    config
        .set("group.id", crate::unique_name("kafka-util", "settled"))
        .set("fetch.wait.max.ms", "50");
    let bootstrap = config
        .get("bootstrap.servers")
        .unwrap_or_default()
        .to_owned();
    let options = OpenOptions {
        ends: Ends::HighWatermark,
        ..OpenOptions::default()
    };
    let reader = TopicReader::open(&config, &bootstrap, topic, &options)?;
    reader.wait_until_stable(deadline)?;
    let mut records = Vec::new();
    reader.read(Stop::until(deadline), |message| {
        records.push(Record {
            partition: message.partition(),
            offset: message.offset(),
            key: message.key().map(<[u8]>::to_vec),
            value: message.payload().map(<[u8]>::to_vec),
        });
        ControlFlow::Continue(())
    })?;
    records.sort_by_key(|r| (r.partition, r.offset));
    Ok(records)
}
