//! Produce bijou records to the real local broker through rdkafka (the workspace's `kafka-util`) and read
//! them back, decoding each record strictly.
//! Needs a broker at `KAFKA_BOOTSTRAP_SERVERS` (default 127.0.0.1:19092; start it with
//! `kafka/broker start`).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use bijou64_kafka::{decode, encode_slab, BijouValue, Mapping};
use kafka_util::{DeliveryErrors, OpenOptions, Stop, TopicReader};
use rdkafka::config::ClientConfig;
use rdkafka::message::Message;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};

fn config() -> ClientConfig {
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", kafka_util::bootstrap_from_env())
        .set("socket.timeout.ms", "10000");
    config
}

/// Why a read-back failed: the client, or a record that is not exactly one bijou value.
#[derive(Debug)]
enum ReadError {
    Kafka(kafka_util::Error),
    Decode(bijou64_kafka::Error),
}

/// Produces `values` to `topic`, one record per value (encoded in one slab, null keys); returns after every
/// record is acknowledged, or with the first delivery error.
fn produce_values<T: BijouValue>(
    topic: &str,
    values: &[T],
    mapping: Mapping,
) -> Result<(), String> {
    // Idempotent, so a send retried while the broker auto-creates the topic keeps its place: the tests compare
    // the values in send order (a clean-clone CI run once read the first value last).
    let producer: BaseProducer<DeliveryErrors> = config()
        .set("enable.idempotence", "true")
        .create_with_context(DeliveryErrors::default())
        .map_err(|e| e.to_string())?;
    let slab = encode_slab(values, mapping).map_err(|e| e.to_string())?;
    for payload in slab.iter() {
        kafka_util::delivery::send(
            &producer,
            BaseRecord::<(), [u8]>::to(topic).payload(payload),
        )
        .map_err(|e| e.to_string())?;
        producer.poll(Duration::ZERO);
    }
    producer
        .flush(Duration::from_secs(60))
        .map_err(|e| e.to_string())?;
    producer
        .context()
        .take()
        .map_or(Ok(()), |e| Err(e.to_string()))
}

/// Every record of `topic` to the end offsets captured at the start, decoded strictly, partition by
/// partition in offset order (`None` for a tombstone).
fn read_values<T: BijouValue>(topic: &str, mapping: Mapping) -> Result<Vec<Option<T>>, ReadError> {
    let bootstrap = kafka_util::bootstrap_from_env();
    let consumer = kafka_util::consumer_config(&bootstrap, "read_committed");
    let reader = TopicReader::open(&consumer, &bootstrap, topic, &OpenOptions::default())
        .map_err(ReadError::Kafka)?;
    let mut by_partition: Vec<(i32, i64, Option<T>)> = Vec::new();
    let mut failed = None;
    reader
        .read(
            Stop::until(Instant::now() + Duration::from_secs(60)),
            |message| {
                match message
                    .payload()
                    .map(|bytes| decode(bytes, mapping))
                    .transpose()
                {
                    Ok(value) => by_partition.push((message.partition(), message.offset(), value)),
                    Err(error) => {
                        failed = Some(error);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            },
        )
        .map_err(ReadError::Kafka)?;
    if let Some(error) = failed {
        return Err(ReadError::Decode(error));
    }
    by_partition.sort_by_key(|&(partition, offset, _)| (partition, offset));
    Ok(by_partition
        .into_iter()
        .map(|(_, _, value)| value)
        .collect())
}

fn unique_topic(name: &str) -> String {
    kafka_util::unique_name("bijou64-rs", name)
}

#[test]
fn longs_round_trip_through_the_broker() {
    let mut values: Vec<i64> = (1..=20_000).collect();
    values.extend([
        0,
        247,
        248,
        503,
        504,
        66_039,
        66_040,
        1_700_000_000_000,
        i64::MAX,
        i64::MIN,
        -1,
    ]);
    for mapping in [Mapping::Unsigned, Mapping::Zigzag] {
        let topic = unique_topic(mapping.as_str());
        produce_values(&topic, &values, mapping).unwrap_or_else(|e| {
            panic!("produce to {topic} failed (is the broker up? run `kafka/broker start`): {e}")
        });
        let read: Vec<Option<i64>> = read_values(&topic, mapping).unwrap();
        let expected: Vec<Option<i64>> = values.iter().copied().map(Some).collect();
        assert_eq!(
            read.len(),
            expected.len(),
            "record count read back from {topic}"
        );
        assert_eq!(
            read, expected,
            "values read back from {topic} under {mapping}"
        );
    }
}

#[test]
fn ints_round_trip_through_the_broker() {
    let values: Vec<i32> = vec![
        0,
        251,
        252,
        507,
        508,
        66_043,
        66_044,
        i32::MAX,
        i32::MIN,
        -1,
        42,
    ];
    let topic = unique_topic("int");
    produce_values(&topic, &values, Mapping::Unsigned).unwrap();
    let read: Vec<Option<i32>> = read_values(&topic, Mapping::Unsigned).unwrap();
    assert_eq!(read, values.into_iter().map(Some).collect::<Vec<_>>());
}

#[test]
fn long_serializer_bytes_are_rejected_not_misread() {
    // A topic written with Kafka's LongSerializer (8 big-endian bytes) read as bijou64.
    let topic = unique_topic("longserializer");
    let producer: BaseProducer = config().create().unwrap();
    producer
        .send(BaseRecord::<(), [u8]>::to(&topic).payload(&42_i64.to_be_bytes()[..]))
        .map_err(|(e, _)| e)
        .unwrap();
    producer.flush(Duration::from_secs(30)).unwrap();
    match read_values::<i64>(&topic, Mapping::Unsigned) {
        Err(ReadError::Decode(error)) => assert_eq!(
            error.kind(),
            bijou64_kafka::ErrorKind::TrailingBytes,
            "{error}"
        ),
        other => panic!("expected a trailing-bytes decode error, got {other:?}"),
    }
}

#[test]
fn a_missing_topic_is_an_error_not_an_empty_read() {
    let topic = unique_topic("never-created");
    match read_values::<i64>(&topic, Mapping::Unsigned) {
        Err(ReadError::Kafka(kafka_util::Error::Topic {
            operation: "read",
            reason,
            ..
        })) => assert_eq!(reason, "the topic does not exist or has no partitions"),
        other => panic!("expected the missing topic to be an error, got {other:?}"),
    }
}
