//! [`Sink`]: the producer loop, transactions, checkpoints and recovery.

use std::time::{Duration, Instant};

use std::ops::ControlFlow;

use kafka_util::delivery::send;
use kafka_util::topics::TopicSpec;
use kafka_util::{DeliveryErrors, Ends, OpenOptions, Stop, TopicReader, Topics};
use rdkafka::config::ClientConfig;
use rdkafka::error::{KafkaError, KafkaResult, RDKafkaErrorCode};
use rdkafka::message::Message;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
use rdkafka::util::Timeout;
use streamfusion_json::EncodedRecords;

use crate::config::{DeliveryGuarantee, Partitioning, SinkConfig};
use crate::error::Error;
use crate::partition::partition_for_key;
use crate::progress::Progress;

/// How long a topic missing from the metadata is asked for again before it is reported unknown.
const TOPIC_APPEARS: Duration = Duration::from_secs(2);
/// Pause between two polls of a condition the broker will reach on its own (metadata, last stable offset).
const BACKOFF: Duration = Duration::from_millis(20);
/// How long [`flush_producer`] serves delivery reports between two checks that nothing is in flight.
const FLUSH_STEP: Duration = Duration::from_millis(1);

/// A producer with everything learnt when it was built.
struct Live {
    producer: BaseProducer<DeliveryErrors>,
    /// Partitions records are spread over: the data topic's count (key hash) or the configured count.
    partitions: i32,
    /// This writer's partition of the progress topic (key hash of the writer id).
    progress_partition: i32,
    /// Exactly-once: a transaction has begun and is neither committed nor aborted.
    in_transaction: bool,
    /// The checkpoint id [`Sink::prepare_commit`] prepared, until [`Sink::commit`] (or an abort) ends it.
    prepared: Option<u64>,
}

/// Writes [`EncodedRecords`] to one Kafka topic, at least once or exactly once, with checkpoints recorded in a
/// compacted progress topic. See the [crate documentation](crate) for the protocol.
///
/// Blocking: every call returns when its Kafka work is done or has failed; nothing runs in the background
/// except librdkafka's own threads. Not `Clone`; one `Sink` per writer id.
pub struct Sink {
    config: SinkConfig,
    /// `None` after a fatal error: the next call builds a new producer.
    live: Option<Live>,
    /// The next round-robin slot (taken modulo the partition count).
    round_robin: u32,
    /// `read_committed` / `read_uncommitted` reads of the progress topic.
    consumer_config: ClientConfig,
}

impl Sink {
    /// Validates `config`, creates the progress topic if it is missing (`cleanup.policy=compact`, one
    /// partition), builds the producer and reads the partition counts.
    ///
    /// Exactly-once: the producer has `transactional.id` = [`SinkConfig::transactional_id`] and
    /// `enable.idempotence=true`, and `init_transactions` runs here, before any recovery read: it fences every
    /// older producer with the same writer id and aborts (or completes, if its commit had started) the
    /// transaction that one left open. At-least-once: an idempotent producer, no transactions.
    ///
    /// # Errors
    /// [`Error::Config`] for an invalid configuration; [`Error::UnknownTopic`] when the data topic does not
    /// exist (it is never created here); [`Error::Kafka`] when no broker answers within the transaction timeout
    /// or the topic cannot be created; [`Error::Unauthenticated`] when the broker refuses the credentials or
    /// the TLS handshake; [`Error::Fatal`] when `init_transactions` fails; [`Error::Unauthorized`] when the principal may
    /// not create the missing progress topic (`CREATE`; a progress topic that exists needs none), use the
    /// transactional id (`WRITE`) or see a topic (`WRITE` on the data topic, `READ` and `WRITE` on the progress
    /// topic).
    pub fn new(config: SinkConfig) -> Result<Self, Error> {
        if config.writer_id.is_empty() {
            return Err(Error::Config("the writer id is empty".into()));
        }
        if let Partitioning::RoundRobin { partitions } = config.partitioning {
            if partitions < 1 {
                return Err(Error::Config(format!(
                    "RoundRobin needs at least one partition, got {partitions}"
                )));
            }
        }
        // librdkafka assigns partitions only to a consumer with a group, whose coordinator it then looks up
        // (`DESCRIBE` on the group); offsets are never committed, so the sink needs no `READ` on it.
        let mut consumer_config = connection(&config);
        consumer_config
            .set(
                "group.id",
                format!("streamfusion-sink-recover-{}", config.writer_id),
            )
            .set("enable.auto.commit", "false")
            .set("enable.partition.eof", "true")
            // The read ends at end of partition, which an empty fetch reports only after this wait.
            .set("fetch.wait.max.ms", "50")
            .set("allow.auto.create.topics", "false");
        let mut sink = Self {
            config,
            live: None,
            round_robin: 0,
            consumer_config,
        };
        sink.check_broker()?;
        sink.create_progress_topic()?;
        sink.live()?;
        Ok(sink)
    }

    /// The configuration this sink was built with.
    pub fn config(&self) -> &SinkConfig {
        &self.config
    }

    /// Reads this writer's last committed [`Progress`] from the progress topic: `None` when it never committed
    /// one. The caller resumes its source right after [`Progress::source_position`] and numbers its next
    /// checkpoint after [`Progress::checkpoint_id`].
    ///
    /// The read uses `isolation.level=read_committed` on this writer's partition of the progress topic, from the
    /// beginning to the high watermark captured when it starts (`read_uncommitted` end offset). It first waits
    /// until the last stable offset reaches that mark, so a transaction another writer has open on the same
    /// partition delays recovery (at most until that transaction commits, aborts or times out) instead of
    /// hiding a later progress record of this writer. Exactly-once: an open transaction of this sink, prepared
    /// by `prepare_commit` (feature `fault-injection`) or not, is aborted first (its records are to be replayed from
    /// the returned position), and a dropped producer is rebuilt (`init_transactions` before the read).
    ///
    /// # Errors
    /// [`Error::Kafka`] when the read fails or does not finish within the transaction timeout;
    /// [`Error::CorruptProgress`] when this writer's latest record cannot be parsed; [`Error::Unauthorized`]
    /// without `READ` on the progress topic or `DESCRIBE` on the reader's group
    /// (`streamfusion-sink-recover-<writer id>`: librdkafka assigns partitions only to a consumer with a group,
    /// and looks up its coordinator; no offset is ever committed); the errors of [`new`](Self::new) when the
    /// producer has to be rebuilt.
    pub fn recover(&mut self) -> Result<Option<Progress>, Error> {
        let progress_partition = self.live()?.progress_partition;
        if self.config.mode == DeliveryGuarantee::ExactlyOnce && self.live()?.in_transaction {
            self.abort("recover")?;
        }
        self.live()?.prepared = None;
        self.read_progress(progress_partition)
    }

    /// Produces every record of `records` to the data topic, in order, each as a slice of the slabs (no copy or
    /// allocation on the sink's side; librdkafka copies into its own buffers). A null key goes without a key;
    /// a tombstone (null value) goes without a payload. The partition is chosen per [`Partitioning`].
    ///
    /// Exactly-once: the records join the open transaction (begun here if none is open) and become visible to
    /// `read_committed` readers only with the next [`checkpoint`](Self::checkpoint). At-least-once: they are
    /// queued; [`checkpoint`](Self::checkpoint) or [`flush`](Self::flush) waits for their acknowledgement.
    /// A full producer queue is handled by serving delivery reports and retrying, so this may block.
    ///
    /// # Errors
    /// Exactly-once: [`Error::Aborted`] when a record is refused (for example larger than `message.max.bytes`)
    /// or the transaction must abort; [`Error::Fatal`] when the producer is fenced or otherwise unusable.
    /// At-least-once: [`Error::Delivery`] when a record is refused. [`Error::Unauthorized`] without `WRITE` on
    /// the data topic (the open transaction is aborted). [`Error::CommitOrder`] while a checkpoint prepared by
    /// `prepare_commit` waits for its `commit` (only with the `fault-injection` feature).
    pub fn write(&mut self, records: &EncodedRecords) -> Result<(), Error> {
        self.not_prepared("write")?;
        self.begin("write")?;
        let Sink {
            config,
            live,
            round_robin,
            ..
        } = self;
        let live = live.as_mut().expect("built by begin");
        let failure = send_all(
            &live.producer,
            &config.topic,
            config.partitioning,
            live.partitions,
            round_robin,
            records.iter(),
        );
        match failure {
            None => Ok(()),
            Some(error) => Err(self.fail("write", error)),
        }
    }

    /// Ends a checkpoint interval: records `checkpoint_id` and `source_position` (opaque bytes, see
    /// [`Progress::source_position`]) as this writer's progress, and commits, in one call: librdkafka cannot
    /// resume a prepared transaction in another producer, so a commit left for later (as Flink's two-phase sinks
    /// do) could not survive the writer. (Feature `fault-injection` splits it for fault tests.)
    ///
    /// Exactly-once: sends the progress record (key = writer id) to the progress topic inside the open
    /// transaction (one is begun for an empty interval), waits until every record of the transaction is
    /// acknowledged, then `commit_transaction`, retrying retriable failures, all within the transaction timeout.
    /// On success the interval's records and the progress are visible together; the next interval's transaction
    /// begins with the next [`write`](Self::write) or checkpoint (beginning is local to librdkafka, so no
    /// failure of it can be mistaken for a failed commit).
    ///
    /// At-least-once: flushes the data, checks every delivery, then writes and flushes the progress record.
    ///
    /// # Errors
    /// [`Error::Aborted`] when the commit needs an abort (the sink aborted; replay the interval);
    /// [`Error::Fatal`] when fenced, on a fatal error, when the records are still not all acknowledged at the
    /// transaction timeout, or when the commit's outcome is still unknown then ([`recover`](Self::recover) tells
    /// whether it committed); [`Error::Delivery`] (at-least-once) when a record was not acknowledged;
    /// [`Error::Unauthorized`] (after an abort) when a record was refused for lack of `WRITE` on the data or the
    /// progress topic; [`Error::CommitOrder`] while a checkpoint prepared by `prepare_commit` waits for its
    /// `commit` (only with the `fault-injection` feature).
    pub fn checkpoint(&mut self, checkpoint_id: u64, source_position: &[u8]) -> Result<(), Error> {
        // The two phases the fault tests also drive apart (feature `fault-injection`), within one transaction
        // timeout: every record acknowledged, then EndTxn.
        let deadline = Instant::now() + self.config.transaction_timeout;
        self.prepare_until("checkpoint", checkpoint_id, source_position, deadline)?;
        self.commit_until(deadline)
    }

    /// Waits until every record written so far is acknowledged by the broker (at most the transaction timeout).
    /// Exactly-once the records stay uncommitted: this only makes sure they reached the log.
    ///
    /// # Errors
    /// Exactly-once: [`Error::Aborted`] when a record failed (the sink aborted) or the flush timed out;
    /// [`Error::Fatal`] on a fatal error. At-least-once: [`Error::Delivery`]. [`Error::CommitOrder`] while a
    /// checkpoint prepared by `prepare_commit` waits for its `commit` (only with the `fault-injection` feature).
    pub fn flush(&mut self) -> Result<(), Error> {
        self.not_prepared("flush")?;
        let timeout = self.config.transaction_timeout;
        let live = self.live()?;
        let result = flush_producer(&live.producer, timeout);
        let error = result.err().or_else(|| live.producer.context().take());
        match error {
            None => Ok(()),
            Some(error) => Err(self.fail("flush", error)),
        }
    }

    /// `prepare_commit` for `operation` (`checkpoint` or `prepare_commit`, as its
    /// errors name it), with every wait ending at `deadline`.
    fn prepare_until(
        &mut self,
        operation: &'static str,
        checkpoint_id: u64,
        source_position: &[u8],
        deadline: Instant,
    ) -> Result<(), Error> {
        self.not_prepared(operation)?;
        if self.config.mode == DeliveryGuarantee::AtLeastOnce {
            let value = Progress::encode(&self.config.writer_id, checkpoint_id, source_position);
            self.flush()?;
            self.send_progress(operation, &value)?;
            self.flush()?;
            self.live()?.prepared = Some(checkpoint_id);
            return Ok(());
        }
        self.send_progress_in_transaction(operation, checkpoint_id, source_position)?;
        let live = self.live.as_mut().expect("built by begin");
        let flushed = flush_producer(
            &live.producer,
            deadline.saturating_duration_since(Instant::now()),
        );
        match flushed {
            Ok(()) => {}
            Err(error @ KafkaError::Flush(RDKafkaErrorCode::OperationTimedOut)) => {
                // The transaction is older than its timeout, so the broker aborts it; an abort would wait on the
                // same silent broker. A new producer's init_transactions settles it.
                self.live = None;
                return Err(Error::Fatal {
                    operation,
                    source: error,
                });
            }
            Err(error) => return Err(self.fail(operation, error)),
        }
        let live = self.live.as_mut().expect("built by begin");
        if let Some(error) = live.producer.context().take() {
            let error = transaction_error(&live.producer, error);
            return Err(self.fail(operation, error));
        }
        live.prepared = Some(checkpoint_id);
        Ok(())
    }

    /// [`commit`](Self::commit), retrying until `deadline`.
    fn commit_until(&mut self, deadline: Instant) -> Result<(), Error> {
        let mode = self.config.mode;
        let Some(live) = self.live.as_mut().filter(|live| live.prepared.is_some()) else {
            return Err(Error::CommitOrder {
                operation: "commit",
                prepared: None,
            });
        };
        if mode == DeliveryGuarantee::AtLeastOnce {
            live.prepared = None;
            return Ok(());
        }
        // Every record is acknowledged (prepare_until), so the flush rust-rdkafka's commit_transaction does first
        // (in 100 ms steps, see flush_producer) returns at once: EndTxn is the only request.
        match retry(deadline, |left| live.producer.commit_transaction(left)) {
            Ok(()) => {
                live.in_transaction = false;
                live.prepared = None;
                Ok(())
            }
            Err(error) => Err(self.fail("commit_transaction", error)),
        }
    }

    /// Exactly-once, the start of a checkpoint's commit: the transaction begun if none is open (an empty
    /// interval), the progress record of `checkpoint_id` and `source_position` sent in it, and any record already
    /// refused reported (through [`fail`](Self::fail), as `operation`).
    fn send_progress_in_transaction(
        &mut self,
        operation: &'static str,
        checkpoint_id: u64,
        source_position: &[u8],
    ) -> Result<(), Error> {
        let value = Progress::encode(&self.config.writer_id, checkpoint_id, source_position);
        self.begin(operation)?;
        self.send_progress(operation, &value)?;
        let live = self.live.as_mut().expect("built by begin");
        match live.producer.context().take() {
            Some(error) => Err(self.fail(operation, error)),
            None => Ok(()),
        }
    }

    /// [`Error::CommitOrder`] for `operation` while a prepared checkpoint waits for its commit.
    fn not_prepared(&self, operation: &'static str) -> Result<(), Error> {
        match self.live.as_ref().and_then(|live| live.prepared) {
            None => Ok(()),
            prepared => Err(Error::CommitOrder {
                operation,
                prepared,
            }),
        }
    }

    /// The producer, built (with `init_transactions`) if there is none.
    fn live(&mut self) -> Result<&mut Live, Error> {
        if self.live.is_none() {
            self.live = Some(self.build()?);
        }
        Ok(self.live.as_mut().expect("just built"))
    }

    fn build(&self) -> Result<Live, Error> {
        let config = &self.config;
        let mut client = ClientConfig::new();
        for (key, value) in &config.producer_properties {
            client.set(key, value);
        }
        let timeout_ms = config.transaction_timeout.as_millis().to_string();
        client
            .set("bootstrap.servers", &config.bootstrap_servers)
            .set("enable.idempotence", "true")
            .set("allow.auto.create.topics", "false");
        if config.mode == DeliveryGuarantee::ExactlyOnce {
            client
                .set("transactional.id", config.transactional_id())
                .set("transaction.timeout.ms", &timeout_ms);
        }
        let producer: BaseProducer<DeliveryErrors> = client
            .create_with_context(DeliveryErrors::default())
            .map_err(|source| Error::Kafka {
                operation: "create producer",
                source,
            })?;
        if config.mode == DeliveryGuarantee::ExactlyOnce {
            let deadline = Instant::now() + config.transaction_timeout;
            retry(deadline, |left| producer.init_transactions(left)).map_err(|source| {
                self.unauthorized("init_transactions", source)
                    .unwrap_or_else(|source| Error::Fatal {
                        operation: "init_transactions",
                        source,
                    })
            })?;
        }
        let topic_partitions = partition_count(
            &producer,
            &config.topic,
            "WRITE",
            config.transaction_timeout,
        )?;
        let partitions = match config.partitioning {
            Partitioning::KeyHash => topic_partitions,
            Partitioning::RoundRobin { partitions } if partitions <= topic_partitions => partitions,
            Partitioning::RoundRobin { partitions } => {
                return Err(Error::Config(format!(
                    "RoundRobin over {partitions} partitions, but {} has {topic_partitions}",
                    config.topic
                )))
            }
        };
        let progress_partitions = partition_count(
            &producer,
            &config.progress_topic,
            "READ and WRITE",
            config.transaction_timeout,
        )?;
        Ok(Live {
            producer,
            partitions,
            progress_partition: partition_for_key(config.writer_id.as_bytes(), progress_partitions),
            in_transaction: false,
            prepared: None,
        })
    }

    /// Waits until a broker answers (at most the transaction timeout), and fails at once when it refuses the
    /// sink's credentials: the first request after this one goes through rust-rdkafka's admin client, which
    /// would only time out (`kafka_util::check_broker`).
    fn check_broker(&self) -> Result<(), Error> {
        let bootstrap = &self.config.bootstrap_servers;
        kafka_util::check_broker(
            &connection(&self.config),
            bootstrap,
            self.config.transaction_timeout,
        )
        .map_err(|error| match error {
            kafka_util::Error::Unauthenticated { code, reason, .. } => Error::Unauthenticated {
                bootstrap: bootstrap.clone(),
                code,
                reason,
            },
            other => Error::Kafka {
                operation: "connect",
                source: other.into_kafka_error(),
            },
        })
    }

    /// Creates the progress topic (compacted, one partition, the broker's replication factor) unless it exists.
    fn create_progress_topic(&self) -> Result<(), Error> {
        let spec = TopicSpec {
            name: &self.config.progress_topic,
            partitions: 1,
            replication: -1,
            configs: &[("cleanup.policy", "compact")],
        };
        let operation = "create the progress topic";
        let topics = Topics::new(&connection(&self.config), self.config.transaction_timeout)
            .map_err(|error| Error::Kafka {
                operation,
                source: error.into_kafka_error(),
            })?;
        // A progress topic the operator made beforehand needs no CREATE (`Topics::create`).
        match topics.create(&spec) {
            Ok(_created) => Ok(()),
            Err(error) => Err(self
                .unauthorized(operation, error.into_kafka_error())
                .unwrap_or_else(|source| Error::Kafka { operation, source })),
        }
    }

    /// [`Error::Unauthorized`] naming what the sink needs for `operation` when `source` is an authorisation
    /// failure; `Err(source)` otherwise.
    fn unauthorized(
        &self,
        operation: &'static str,
        source: KafkaError,
    ) -> Result<Error, KafkaError> {
        let Some(code) = authorization_failure(&source) else {
            return Err(source);
        };
        let config = &self.config;
        let (permission, resource) = match code {
            RDKafkaErrorCode::TransactionalIdAuthorizationFailed => (
                "WRITE",
                format!("TransactionalId:{}", config.transactional_id()),
            ),
            RDKafkaErrorCode::ClusterAuthorizationFailed => {
                ("IDEMPOTENT_WRITE", "Cluster:kafka-cluster".to_owned())
            }
            RDKafkaErrorCode::GroupAuthorizationFailed => (
                "DESCRIBE",
                format!(
                    "Group:{}",
                    self.consumer_config.get("group.id").unwrap_or_default()
                ),
            ),
            _ => match operation {
                "create the progress topic" => {
                    ("CREATE", format!("Topic:{}", config.progress_topic))
                }
                "read progress" => ("READ", format!("Topic:{}", config.progress_topic)),
                "write" => ("WRITE", format!("Topic:{}", config.topic)),
                // A checkpoint's records go to both topics, and the broker's refusal does not say which.
                _ => (
                    "WRITE",
                    format!("Topic:{} and Topic:{}", config.topic, config.progress_topic),
                ),
            },
        };
        Ok(Error::Unauthorized {
            operation,
            permission,
            resource: resource.into(),
            source: Box::new(source),
        })
    }

    /// Exactly-once: begins a transaction unless one is open. Builds the producer if needed.
    fn begin(&mut self, operation: &'static str) -> Result<(), Error> {
        let exactly_once = self.config.mode == DeliveryGuarantee::ExactlyOnce;
        let live = self.live()?;
        if exactly_once && !live.in_transaction {
            if let Err(source) = live.producer.begin_transaction() {
                // Only a fenced or otherwise broken producer refuses to begin.
                self.live = None;
                return Err(Error::Fatal { operation, source });
            }
            live.in_transaction = true;
        }
        Ok(())
    }

    fn send_progress(&mut self, operation: &'static str, value: &[u8]) -> Result<(), Error> {
        self.live()?;
        let live = self.live.as_ref().expect("just built");
        let record = BaseRecord::<[u8], [u8]>::to(&self.config.progress_topic)
            .partition(live.progress_partition)
            .key(self.config.writer_id.as_bytes())
            .payload(value);
        match send(&live.producer, record) {
            Ok(()) => Ok(()),
            Err(error) => Err(self.fail(operation, error)),
        }
    }

    /// Aborts the open transaction (retrying retriable failures up to the transaction timeout). A failure to
    /// abort drops the producer.
    fn abort(&mut self, operation: &'static str) -> Result<(), Error> {
        let deadline = Instant::now() + self.config.transaction_timeout;
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        match retry(deadline, |left| live.producer.abort_transaction(left)) {
            Ok(()) => {
                live.in_transaction = false;
                live.prepared = None;
                live.producer.context().take();
                Ok(())
            }
            Err(source) => {
                self.live = None;
                Err(Error::Fatal { operation, source })
            }
        }
    }

    /// Classifies `error` from `operation` and leaves the sink in the state the error's variant documents.
    fn fail(&mut self, operation: &'static str, error: KafkaError) -> Error {
        // A producer that is gone or broken cannot go on: it is dropped.
        let fatal = self.live.as_ref().is_none_or(|live| {
            matches!(&error, KafkaError::Transaction(e) if e.is_fatal())
                || live.producer.client().fatal_error().is_some()
        });
        if fatal {
            self.live = None;
        }
        if authorization_failure(&error).is_some() {
            // Not retried: abort what is open (nothing of it becomes visible), then name the missing ACL. A
            // failed abort drops the producer; the refusal is still what the caller must see.
            let in_transaction = self.live.as_ref().is_some_and(|live| live.in_transaction);
            if self.config.mode == DeliveryGuarantee::ExactlyOnce && in_transaction {
                let _ = self.abort(operation);
            }
            return self
                .unauthorized(operation, error)
                .expect("an authorisation failure");
        }
        if fatal {
            return Error::Fatal {
                operation,
                source: error,
            };
        }
        match self.config.mode {
            DeliveryGuarantee::AtLeastOnce => Error::Delivery(error),
            DeliveryGuarantee::ExactlyOnce => {
                let abortable =
                    matches!(&error, KafkaError::Transaction(e) if e.txn_requires_abort());
                if !abortable && operation == "commit_transaction" {
                    // Neither committed nor known to need an abort within the transaction timeout: the outcome
                    // is unknown. A new producer's init_transactions settles it; recover() reads which.
                    self.live = None;
                    return Error::Fatal {
                        operation,
                        source: error,
                    };
                }
                match self.abort(operation) {
                    Ok(()) => Error::Aborted {
                        operation,
                        source: error,
                    },
                    Err(fatal) => fatal,
                }
            }
        }
    }

    fn read_progress(&self, partition: i32) -> Result<Option<Progress>, Error> {
        let topic = self.config.progress_topic.as_str();
        let deadline = Instant::now() + self.config.transaction_timeout;
        let failed = |error: kafka_util::Error| {
            self.unauthorized("read progress", error.into_kafka_error())
                .unwrap_or_else(|source| Error::Kafka {
                    operation: "read progress",
                    source,
                })
        };
        let mut committed = self.consumer_config.clone();
        committed.set("isolation.level", "read_committed");
        let partitions = [partition];
        let options = OpenOptions {
            partitions: Some(&partitions),
            ends: Ends::HighWatermark,
            metadata_timeout: self.config.transaction_timeout,
            watermark_timeout: self.config.transaction_timeout,
        };
        let reader = TopicReader::open(&committed, &self.config.bootstrap_servers, topic, &options)
            .map_err(failed)?;
        if reader.ranges().iter().all(|range| range.end <= range.low) {
            return Ok(None);
        }
        // The last record is read only once no transaction below the captured end is open.
        reader.wait_until_stable(deadline).map_err(failed)?;
        let key = self.config.writer_id.as_bytes();
        let mut latest: Option<(i64, Vec<u8>)> = None;
        reader
            .read(Stop::until(deadline), |message| {
                if message.key() == Some(key) {
                    latest = message.payload().map(|v| (message.offset(), v.to_vec()));
                }
                ControlFlow::Continue(())
            })
            .map_err(failed)?;
        latest
            .map(|(offset, value)| {
                Progress::decode(&value).map_err(|reason| Error::CorruptProgress { offset, reason })
            })
            .transpose()
    }
}

/// Settings of the admin client and the progress readers: `bootstrap.servers` and the connection properties
/// among [`SinkConfig::producer_properties`] (`security.*`, `sasl.*`, `ssl.*`, `client.id`), so a secured
/// cluster is reached the same way as by the producer.
fn connection(config: &SinkConfig) -> ClientConfig {
    let mut client = ClientConfig::new();
    for (key, value) in &config.producer_properties {
        if ["security.", "sasl.", "ssl."]
            .iter()
            .any(|prefix| key.starts_with(prefix))
            || key == "client.id"
        {
            client.set(key, value);
        }
    }
    client.set("bootstrap.servers", &config.bootstrap_servers);
    client
}

/// Sends every `(key, value)` to `topic`; returns the first send error (the rest are not sent).
fn send_all<'a>(
    producer: &BaseProducer<DeliveryErrors>,
    topic: &str,
    partitioning: Partitioning,
    partitions: i32,
    round_robin: &mut u32,
    records: impl Iterator<Item = (Option<&'a [u8]>, Option<&'a [u8]>)>,
) -> Option<KafkaError> {
    for (key, value) in records {
        let partition = match (partitioning, key) {
            (Partitioning::KeyHash, Some(key)) => partition_for_key(key, partitions),
            _ => {
                let slot = *round_robin % partitions as u32;
                *round_robin = round_robin.wrapping_add(1);
                slot as i32
            }
        };
        let mut record = BaseRecord::<[u8], [u8]>::to(topic).partition(partition);
        if let Some(key) = key {
            record = record.key(key);
        }
        if let Some(value) = value {
            record = record.payload(value);
        }
        if let Err(error) = send(producer, record) {
            return Some(error);
        }
    }
    producer.poll(Duration::ZERO);
    None
}

/// Waits until no record of `producer` is in flight, serving its delivery reports meanwhile, for at most
/// `timeout` (then `KafkaError::Flush(OperationTimedOut)`).
///
/// rust-rdkafka's `BaseProducer::flush` (0.39) serves the reports with `poll` steps of 100 ms that always run
/// their full length, so a flush that was not complete at once took at least 100 ms: at least once, with two
/// flushes per checkpoint and a checkpoint a second, that was a fifth of the wall time (docs/benchmarks.md);
/// its `commit_transaction` flushes the same way before committing. This checks every [`FLUSH_STEP`] instead,
/// with `rd_kafka_flush(0)` (through `flush(ZERO)`). Like the 100 ms steps, it does not cut `linger.ms` short
/// (a zero-timeout flush clears its flushing flag before the brokers' threads look at it).
fn flush_producer(producer: &BaseProducer<DeliveryErrors>, timeout: Duration) -> KafkaResult<()> {
    let deadline = Instant::now() + timeout;
    loop {
        match producer.flush(Duration::ZERO) {
            Err(KafkaError::Flush(RDKafkaErrorCode::OperationTimedOut))
                if Instant::now() < deadline =>
            {
                producer.poll(FLUSH_STEP);
            }
            result => return result,
        }
    }
}

/// Calls `call` with the time left until `deadline`, again while it fails with a retriable transaction error
/// (librdkafka `is_retriable`) and time is left.
fn retry(deadline: Instant, mut call: impl FnMut(Timeout) -> KafkaResult<()>) -> KafkaResult<()> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match call(Timeout::After(left)) {
            Err(KafkaError::Transaction(error))
                if error.is_retriable() && Instant::now() < deadline =>
            {
                std::thread::sleep(BACKOFF);
            }
            result => return result,
        }
    }
}

/// The partition count of `topic`. Each metadata request may take up to `timeout` (a broker that does not
/// answer is an [`Error::Kafka`]); a topic the broker does not know yet is asked for again for up to
/// [`TOPIC_APPEARS`] (a topic created just before may take a moment to reach every broker's metadata). A topic
/// this principal may not see is [`Error::Unauthorized`] at once, naming `permission` (what the sink needs on
/// it, which implies the `DESCRIBE` the metadata request lacked).
fn partition_count(
    producer: &BaseProducer<DeliveryErrors>,
    topic: &str,
    permission: &'static str,
    timeout: Duration,
) -> Result<i32, Error> {
    let give_up = Instant::now() + TOPIC_APPEARS;
    loop {
        let metadata = producer
            .client()
            .fetch_metadata(Some(topic), timeout)
            .map_err(|source| Error::Kafka {
                operation: "fetch metadata",
                source,
            })?;
        let entry = metadata.topics().iter().find(|t| t.name() == topic);
        if let Some(code) = entry
            .and_then(|t| t.error())
            .map(RDKafkaErrorCode::from)
            .filter(|&code| code == RDKafkaErrorCode::TopicAuthorizationFailed)
        {
            return Err(Error::Unauthorized {
                operation: "fetch metadata",
                permission,
                resource: format!("Topic:{topic}").into(),
                source: Box::new(KafkaError::MetadataFetch(code)),
            });
        }
        let count = entry
            .filter(|t| t.error().is_none())
            .map_or(0, |t| t.partitions().len());
        if count > 0 {
            return Ok(count as i32);
        }
        if Instant::now() >= give_up {
            return Err(Error::UnknownTopic {
                topic: topic.to_owned(),
            });
        }
        std::thread::sleep(BACKOFF);
    }
}

/// The error to report for a transaction whose record failed with `delivery`: the transaction's own error when
/// `delivery` only says the record was purged. librdkafka purges every queued record when a transaction fails
/// (`rd_kafka_txn_set_abortable_error`), e.g. when the broker refuses to add a partition to it for lack of `WRITE`
/// on its topic, so the purged record's report (`PurgeQueue`, `PurgeInflight`) hides the cause. The cause is what
/// librdkafka's next transactional call returns in that state: `begin_transaction`, which needs no open
/// transaction, changes nothing in any other state (it returns `__STATE` while one is open) and so serves as the
/// probe; `commit_transaction` returns the same error, which is how a refusal used to surface before the
/// checkpoint waited for every record itself.
fn transaction_error(producer: &BaseProducer<DeliveryErrors>, delivery: KafkaError) -> KafkaError {
    let purged = matches!(
        delivery.rdkafka_error_code(),
        Some(RDKafkaErrorCode::PurgeQueue | RDKafkaErrorCode::PurgeInflight)
    );
    if !purged {
        return delivery;
    }
    match producer.begin_transaction() {
        Err(KafkaError::Transaction(error)) if error.txn_requires_abort() || error.is_fatal() => {
            KafkaError::Transaction(error)
        }
        _ => delivery,
    }
}

/// The authorisation failure `error` reports (Kafka's `TOPIC_`, `GROUP_`, `CLUSTER_` or
/// `TRANSACTIONAL_ID_AUTHORIZATION_FAILED`), if it is one.
fn authorization_failure(error: &KafkaError) -> Option<RDKafkaErrorCode> {
    let code = match error {
        KafkaError::AdminOp(code) => Some(*code),
        other => other.rdkafka_error_code(),
    }?;
    matches!(
        code,
        RDKafkaErrorCode::TopicAuthorizationFailed
            | RDKafkaErrorCode::GroupAuthorizationFailed
            | RDKafkaErrorCode::ClusterAuthorizationFailed
            | RDKafkaErrorCode::TransactionalIdAuthorizationFailed
    )
    .then_some(code)
}

/// A checkpoint's two phases, apart: for tests that must time a fault between them (a node killed while the
/// commit's `EndTxn` is the only request in flight). Not part of the sink's API: librdkafka cannot resume a
/// prepared transaction in another producer, so unlike Flink's two-phase sinks a prepared checkpoint lives and
/// dies with this `Sink`, and [`checkpoint`](Sink::checkpoint) is the call to use.
#[cfg(feature = "fault-injection")]
impl Sink {
    /// The first phase of a checkpoint: everything but the commit. Flink's two-phase sinks split a checkpoint
    /// the same way: this is the writer's `flush` and `prepareCommit` (`TwoPhaseCommittingSink`'s
    /// `PrecommittingSinkWriter`; Flink's `KafkaSink` flushes its producer there and hands the open transaction
    /// to its committer), and [`commit`](Self::commit) is the committer's `commit`.
    ///
    /// Exactly-once: sends the progress record of `checkpoint_id` and `source_position` (as
    /// [`checkpoint`](Self::checkpoint) does) inside the open transaction (one is begun for an empty interval),
    /// then waits, up to the transaction timeout, until every record of the transaction (the interval's and the
    /// progress record) is acknowledged by the broker (`acks=all`). Nothing is committed: `read_committed`
    /// readers see none of the interval until [`commit`](Self::commit) returns `Ok`, and the transaction's only
    /// request left is `EndTxn`. At-least-once: what [`checkpoint`](Self::checkpoint) does (the data flushed
    /// and checked, the progress record written and flushed); the progress is then already visible.
    ///
    /// Until [`commit`](Self::commit) (or [`recover`](Self::recover), which aborts the prepared transaction),
    /// [`prepared_checkpoint`](Self::prepared_checkpoint) returns `Some(checkpoint_id)` and [`write`](Self::write),
    /// [`flush`](Self::flush), `prepare_commit` and [`checkpoint`](Self::checkpoint) fail with
    /// [`Error::CommitOrder`]: a prepared transaction takes no more records.
    ///
    /// Unlike Flink's committer, only this `Sink` can commit what it prepared: librdkafka cannot resume a
    /// transaction in another producer. If the writer dies between the two phases, the next instance's
    /// `init_transactions` aborts the prepared transaction and [`recover`](Self::recover) returns the previous
    /// checkpoint, so the interval is replayed; nothing is lost or duplicated, but an external checkpoint that
    /// counted this one as done must not be trusted over [`recover`](Self::recover).
    ///
    /// # Errors
    /// [`Error::Aborted`] when a record was refused or the transaction must abort (the sink aborted; replay the
    /// interval); [`Error::Fatal`] when fenced, on a fatal error, or when the records are still not all
    /// acknowledged at the transaction timeout (the producer is dropped; the broker aborts the transaction at its
    /// timeout; recover and replay); [`Error::Delivery`] (at-least-once) when a record was not acknowledged;
    /// [`Error::Unauthorized`] (after an abort) when a record was refused for lack of `WRITE` on the data or the
    /// progress topic; [`Error::CommitOrder`] when a checkpoint is prepared already.
    pub fn prepare_commit(
        &mut self,
        checkpoint_id: u64,
        source_position: &[u8],
    ) -> Result<(), Error> {
        let deadline = Instant::now() + self.config.transaction_timeout;
        self.prepare_until("prepare_commit", checkpoint_id, source_position, deadline)
    }

    /// The second phase of a checkpoint: commits the transaction [`prepare_commit`](Self::prepare_commit)
    /// prepared. Flink's `Committer::commit` (Flink's `KafkaCommitter` calls `commitTransaction` there).
    ///
    /// Exactly-once: `commit_transaction` (`EndTxn` to the transaction coordinator, which then writes the
    /// commit markers to every partition of the transaction), retrying retriable failures up to the transaction
    /// timeout, as [`checkpoint`](Self::checkpoint) does. On success the interval's records and its progress are
    /// visible to `read_committed` readers together, and [`prepared_checkpoint`](Self::prepared_checkpoint) is
    /// `None` again. At-least-once: nothing to do (the progress was written by `prepare_commit`); it only ends
    /// the prepared state.
    ///
    /// # Errors
    /// [`Error::CommitOrder`] when no checkpoint is prepared (nothing is sent; the sink is unchanged);
    /// [`Error::Aborted`] when the commit needs an abort (the sink aborted; replay the interval);
    /// [`Error::Fatal`] when fenced, on a fatal error, or when the commit's outcome is still unknown at the
    /// transaction timeout (the producer is dropped; [`recover`](Self::recover) tells whether it committed).
    pub fn commit(&mut self) -> Result<(), Error> {
        let deadline = Instant::now() + self.config.transaction_timeout;
        self.commit_until(deadline)
    }

    /// The checkpoint id [`prepare_commit`](Self::prepare_commit) prepared and [`commit`](Self::commit) has not
    /// committed yet; `None` when no checkpoint waits for its commit (also after a failed `prepare_commit` or
    /// `commit`, which abort or drop the transaction).
    pub fn prepared_checkpoint(&self) -> Option<u64> {
        self.live.as_ref().and_then(|live| live.prepared)
    }
}
