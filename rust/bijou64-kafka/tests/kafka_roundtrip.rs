//! Produce bijou records to the real local broker through rdkafka and read them back.
//! Needs a broker at `KAFKA_BOOTSTRAP_SERVERS` (default 127.0.0.1:19092; start it with
//! `kafka/broker start`).

use std::time::Duration;

use bijou64_kafka::kafka::{produce_values, read_values};
use bijou64_kafka::Mapping;
use rdkafka::config::ClientConfig;

fn config() -> ClientConfig {
    let bootstrap =
        std::env::var("KAFKA_BOOTSTRAP_SERVERS").unwrap_or_else(|_| "127.0.0.1:19092".into());
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", bootstrap)
        .set("socket.timeout.ms", "10000");
    config
}

fn unique_topic(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("bijou64-rs-{name}-{}-{nanos}", std::process::id())
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
        produce_values(&config(), &topic, &values, mapping, Duration::from_secs(60))
            .unwrap_or_else(|e| {
                panic!(
                    "produce to {topic} failed (is the broker up? run `kafka/broker start`): {e}"
                )
            });
        let read: Vec<Option<i64>> =
            read_values(&config(), &topic, mapping, Duration::from_secs(60)).unwrap();
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
    produce_values(
        &config(),
        &topic,
        &values,
        Mapping::Unsigned,
        Duration::from_secs(60),
    )
    .unwrap();
    let read: Vec<Option<i32>> = read_values(
        &config(),
        &topic,
        Mapping::Unsigned,
        Duration::from_secs(60),
    )
    .unwrap();
    assert_eq!(read, values.into_iter().map(Some).collect::<Vec<_>>());
}

#[test]
fn long_serializer_bytes_are_rejected_not_misread() {
    // A topic written with Kafka's LongSerializer (8 big-endian bytes) read as bijou64.
    use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
    let topic = unique_topic("longserializer");
    let producer: BaseProducer = config().create().unwrap();
    producer
        .send(BaseRecord::<(), [u8]>::to(&topic).payload(&42_i64.to_be_bytes()[..]))
        .map_err(|(e, _)| e)
        .unwrap();
    producer.flush(Duration::from_secs(30)).unwrap();
    let error = read_values::<i64>(
        &config(),
        &topic,
        Mapping::Unsigned,
        Duration::from_secs(60),
    )
    .unwrap_err();
    assert_eq!(
        error.kind(),
        bijou64_kafka::ErrorKind::TrailingBytes,
        "{error}"
    );
}

#[test]
fn a_missing_topic_is_an_error_not_an_empty_read() {
    let topic = unique_topic("never-created");
    let error = read_values::<i64>(
        &config(),
        &topic,
        Mapping::Unsigned,
        Duration::from_secs(30),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("UnknownTopicOrPartition")
            || error.to_string().contains("Unknown topic"),
        "{error}"
    );
}
