//! Small rdkafka helpers: produce values as bijou records and read them back.
//!
//! Values travel as Kafka record values (keys are left null); a tombstone (null value)
//! reads back as `None`. These helpers are what the crate's broker tests and simple
//! tools need; a production sink brings its own producer loop.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::{DeliveryResult, Message};
use rdkafka::producer::{BaseProducer, BaseRecord, Producer, ProducerContext};
use rdkafka::{ClientContext, Offset, TopicPartitionList};

use crate::{encode_slab, BijouValue, Error, Mapping};

/// Decodes a message's value strictly ([`crate::decode`]); `Ok(None)` for a tombstone.
///
/// # Errors
/// The decode errors of [`crate::decode`].
pub fn value_of<T: BijouValue, M: Message>(
    message: &M,
    mapping: Mapping,
) -> Result<Option<T>, Error> {
    message
        .payload()
        .map(|bytes| crate::decode(bytes, mapping))
        .transpose()
}

/// Decodes a message's key strictly; `Ok(None)` for a null key.
///
/// # Errors
/// The decode errors of [`crate::decode`].
pub fn key_of<T: BijouValue, M: Message>(
    message: &M,
    mapping: Mapping,
) -> Result<Option<T>, Error> {
    message
        .key()
        .map(|bytes| crate::decode(bytes, mapping))
        .transpose()
}

/// Remembers the first failed delivery.
#[derive(Default)]
struct DeliveryErrors(Mutex<Option<KafkaError>>);

impl ClientContext for DeliveryErrors {}

impl ProducerContext for DeliveryErrors {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((error, _)) = result {
            let mut first = self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            first.get_or_insert_with(|| error.clone());
        }
    }
}

/// Produces `values` to `topic` (partition chosen by the producer), one record per
/// value, encoded in one slab; returns after every record is acknowledged.
///
/// `config` holds the producer settings (`bootstrap.servers` at least).
///
/// # Errors
/// [`Error::Kafka`] when the producer cannot be created, a send fails for a reason
/// other than a full queue, a delivery fails, or the flush does not finish within
/// `timeout`.
pub fn produce_values<T: BijouValue>(
    config: &ClientConfig,
    topic: &str,
    values: &[T],
    mapping: Mapping,
    timeout: Duration,
) -> Result<(), Error> {
    let producer: BaseProducer<DeliveryErrors> =
        config.create_with_context(DeliveryErrors::default())?;
    let slab = encode_slab(values, mapping)?;
    for payload in slab.iter() {
        let mut record = BaseRecord::<(), [u8]>::to(topic).payload(payload);
        loop {
            match producer.send(record) {
                Ok(()) => break,
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), back)) => {
                    record = back;
                    producer.poll(Duration::from_millis(10));
                }
                Err((error, _)) => return Err(error.into()),
            }
        }
        producer.poll(Duration::ZERO);
    }
    producer.flush(timeout)?;
    let first_error = producer
        .context()
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    first_error.map_or(Ok(()), |e| Err(e.into()))
}

/// Reads every record of `topic` from the beginning up to the end offsets captured
/// when it starts, decoding each value; returns them partition by partition in offset
/// order (`None` for tombstones).
///
/// `config` holds the consumer settings (`bootstrap.servers` at least; `group.id` is
/// set to a throw-away value when absent; offsets are never committed). Transaction
/// markers and offset gaps are tolerated: a partition is done when the consumer's
/// position reaches its captured end offset or it reports end of partition there.
///
/// # Errors
/// [`Error::Kafka`] for client failures, a topic that does not exist
/// (`UnknownTopicOrPartition`), or when `timeout` passes before the end;
/// the decode errors of [`crate::decode`] for a record that is not one bijou value.
pub fn read_values<T: BijouValue>(
    config: &ClientConfig,
    topic: &str,
    mapping: Mapping,
    timeout: Duration,
) -> Result<Vec<Option<T>>, Error> {
    let mut config = config.clone();
    if config.get("group.id").is_none() {
        config.set("group.id", format!("bijou64-read-{}", std::process::id()));
    }
    config
        .set("enable.auto.commit", "false")
        .set("enable.partition.eof", "true");
    let consumer: BaseConsumer = config.create()?;
    let deadline = Instant::now() + timeout;

    let metadata = consumer.fetch_metadata(Some(topic), timeout)?;
    let unknown = KafkaError::MetadataFetch(RDKafkaErrorCode::UnknownTopicOrPartition);
    let topic_metadata = metadata.topics().first().ok_or_else(|| unknown.clone())?;
    if let Some(code) = topic_metadata.error() {
        return Err(KafkaError::MetadataFetch(code.into()).into());
    }
    let partitions: Vec<i32> = topic_metadata.partitions().iter().map(|p| p.id()).collect();
    if partitions.is_empty() {
        return Err(unknown.into());
    }
    let mut ends = Vec::with_capacity(partitions.len());
    let mut assignment = TopicPartitionList::new();
    for &partition in &partitions {
        let (low, high) = consumer.fetch_watermarks(topic, partition, timeout)?;
        if high > low {
            ends.push((partition, high));
            assignment.add_partition_offset(topic, partition, Offset::Beginning)?;
        }
    }
    let mut by_partition: Vec<(i32, Vec<Option<T>>)> =
        ends.iter().map(|&(p, _)| (p, Vec::new())).collect();
    let mut open = ends.clone();
    if !open.is_empty() {
        consumer.assign(&assignment)?;
    }
    while !open.is_empty() {
        if Instant::now() > deadline {
            return Err(KafkaError::MessageConsumption(RDKafkaErrorCode::OperationTimedOut).into());
        }
        match consumer.poll(Duration::from_millis(100)) {
            None | Some(Err(KafkaError::PartitionEOF(_))) => {}
            Some(Err(error)) => return Err(error.into()),
            Some(Ok(message)) => {
                let (partition, offset) = (message.partition(), message.offset());
                if let Some((_, end)) = ends.iter().find(|(p, _)| *p == partition) {
                    if offset < *end {
                        let value = value_of(&message, mapping)?;
                        if let Some((_, values)) =
                            by_partition.iter_mut().find(|(p, _)| *p == partition)
                        {
                            values.push(value);
                        }
                    }
                }
            }
        }
        let position = consumer.position()?;
        open.retain(|&(partition, end)| {
            !matches!(
                position.find_partition(topic, partition).map(|e| e.offset()),
                Some(Offset::Offset(at)) if at >= end
            )
        });
    }
    Ok(by_partition
        .into_iter()
        .flat_map(|(_, values)| values)
        .collect())
}
