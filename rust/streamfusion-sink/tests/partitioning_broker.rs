//! Partition choice and the at-least-once mode against the real broker: the key hash puts every keyed record
//! where librdkafka's Java-compatible `murmur2` partitioner (Kafka's default for keyed records) puts it, and
//! round robin spreads records evenly. Needs a broker at `KAFKA_BOOTSTRAP_SERVERS` (default 127.0.0.1:19092).

mod common;

use std::time::Duration;

use common::{bootstrap, config, create_topic, read_all, records, unique, TIMEOUT};
use rdkafka::config::ClientConfig;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
use streamfusion_sink::{partition_for_key, DeliveryGuarantee, Partitioning, Sink};

#[test]
fn key_hash_matches_kafkas_default_partitioner_on_the_broker() {
    const PARTITIONS: i32 = 7;
    let topic = unique("murmur2");
    create_topic(&topic, PARTITIONS);
    // librdkafka's `murmur2` partitioner is documented as Java-producer compatible; let it choose.
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .set("partitioner", "murmur2")
        .create()
        .expect("producer");
    let keys: Vec<String> = (0..300).map(|i| format!("key-{i}")).collect();
    for key in &keys {
        producer
            .send(BaseRecord::<str, str>::to(&topic).key(key).payload(key))
            .expect("send");
    }
    producer.flush(TIMEOUT).expect("flush");
    let read = read_all(&topic, "read_uncommitted");
    assert_eq!(read.len(), keys.len(), "records read back");
    for r in &read {
        let key = r.key.as_deref().unwrap();
        assert_eq!(
            partition_for_key(key, PARTITIONS),
            r.partition,
            "partition of key {}",
            String::from_utf8_lossy(key)
        );
    }
}

#[test]
fn at_least_once_round_robin_spreads_evenly_and_checkpoints() {
    const PARTITIONS: i32 = 4;
    let (topic, progress_topic, writer) = (unique("alo"), unique("alo-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let config = config(&topic, &progress_topic, &writer)
        .with_mode(DeliveryGuarantee::AtLeastOnce)
        .with_partitioning(Partitioning::RoundRobin {
            partitions: PARTITIONS,
        })
        .with_transaction_timeout(Duration::from_secs(10));
    let mut sink = Sink::new(config.clone()).expect("Sink::new");
    sink.write(&records(0, 400)).unwrap();
    sink.checkpoint(1, b"400").unwrap();
    drop(sink);
    let read = read_all(&topic, "read_committed");
    assert_eq!(read.len(), 400, "records read back");
    for p in 0..PARTITIONS {
        assert_eq!(
            read.iter().filter(|r| r.partition == p).count(),
            100,
            "records in partition {p}"
        );
    }
    let mut again = Sink::new(config).expect("Sink::new");
    let progress = again.recover().unwrap().expect("progress");
    assert_eq!(
        (progress.checkpoint_id, progress.source_position.as_slice()),
        (1, &b"400"[..])
    );
}

#[test]
fn round_robin_over_more_partitions_than_the_topic_has_is_refused() {
    let (topic, progress_topic, writer) = (unique("rr"), unique("rr-progress"), unique("w"));
    create_topic(&topic, 2);
    let config = config(&topic, &progress_topic, &writer)
        .with_partitioning(Partitioning::RoundRobin { partitions: 3 });
    let error = Sink::new(config).err().expect("3 partitions of 2");
    assert!(
        matches!(error, streamfusion_sink::Error::Config(_)),
        "{error:?}"
    );
}

#[test]
fn a_missing_data_topic_is_reported() {
    let config = config(
        &unique("missing"),
        &unique("missing-progress"),
        &unique("w"),
    );
    let error = Sink::new(config).err().expect("no such topic");
    assert!(
        matches!(error, streamfusion_sink::Error::UnknownTopic { .. }),
        "{error:?}"
    );
}
