//! Helpers for the broker tests: the broker address, unique names, topic creation, records to write, and a
//! reader that reads a topic to the end offsets captured when it starts. The `*_at` forms take the bootstrap
//! address (the dedicated broker of `broker_faults_broker.rs`); the others use [`bootstrap`].
#![allow(dead_code)] // each test binary uses a part

#[cfg(feature = "fault-injection")]
pub mod helper;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{Int64Array, RecordBatch, StringArray};
use kafka_util::topics::TopicSpec;
use kafka_util::{Record, Topics};
use rdkafka::config::ClientConfig;
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};
use streamfusion_sink::{DeliveryGuarantee, SinkConfig};

/// Bound on every wait in these tests.
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub use kafka_util::bootstrap_from_env as bootstrap;

/// A name no other test run uses: `sf-sink-NAME-PID-NANOS`.
pub fn unique(name: &str) -> String {
    kafka_util::unique_name("sf-sink", name)
}

/// Creates `topic` with `partitions` partitions and one replica; fails the test when the broker does not answer.
pub fn create_topic(topic: &str, partitions: i32) {
    create_topic_at(&bootstrap(), topic, partitions);
}

/// [`create_topic`] on the broker at `bootstrap`.
pub fn create_topic_at(bootstrap: &str, topic: &str, partitions: i32) {
    let mut config = ClientConfig::new();
    config.set("bootstrap.servers", bootstrap);
    let created = Topics::new(&config, TIMEOUT)
        .and_then(|topics| topics.create(&TopicSpec::new(topic, partitions)))
        .unwrap_or_else(|e| {
            panic!("create topic {topic} (is the broker up? run `kafka/broker start`): {e}")
        });
    assert!(created, "create topic {topic}: it exists already");
}

/// A sink configuration for this test: unique topics and writer id are the caller's; 60 s transactions, so a
/// commit outlives a stall of this shared VM (a CI run once saw the broker silent for 10 s, long enough for
/// its own controller to fence it, and two commits with 10 s transactions timed out; another saw a
/// checkpoint's flush of eight tests' first transactions on a fresh broker take more than 30 s). Tests of the
/// timeout itself set their own.
pub fn config(topic: &str, progress: &str, writer: &str) -> SinkConfig {
    SinkConfig::new(bootstrap(), topic, progress, writer)
        .with_mode(DeliveryGuarantee::ExactlyOnce)
        .with_transaction_timeout(Duration::from_secs(60))
        .with_property("linger.ms", "5")
}

/// Rows `first .. first + count` encoded as Flink JSON with key `{"id":n}` and value `{"id":n,"name":"row-n"}`.
pub fn records(first: i64, count: i64) -> EncodedRecords {
    let ids: Vec<i64> = (first..first + count).collect();
    let names: Vec<String> = ids.iter().map(|i| format!("row-{i}")).collect();
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(Int64Array::from(ids)) as _),
        ("name", Arc::new(StringArray::from(names)) as _),
    ])
    .unwrap();
    let options = EncoderOptions::from_pairs([("key.fields", "id")]).unwrap();
    JsonEncoder::new(options).unwrap().encode(&batch).unwrap()
}

/// The value bytes `records(first, count)` produces for row `id`.
pub fn value_of(id: i64) -> Vec<u8> {
    format!("{{\"id\":{id},\"name\":\"row-{id}\"}}").into_bytes()
}

/// Every record of `topic` under `isolation` (`read_committed` or `read_uncommitted`), sorted by partition and
/// offset, up to the high watermarks captured when it starts ([`kafka_util::read_settled`]).
pub fn read_all(topic: &str, isolation: &str) -> Vec<Record> {
    read_all_at(&bootstrap(), topic, isolation)
}

/// Every record of `topic` under `isolation`, sorted by partition and offset, up to the ends that isolation
/// answers now (the high watermark for `read_uncommitted`, the last stable offset for `read_committed`),
/// without waiting for open transactions as [`read_all`] does: what a reader sees while a transaction is open.
pub fn read_now(topic: &str, isolation: &str) -> Vec<Record> {
    use kafka_util::{OpenOptions, Stop, TopicReader};
    use rdkafka::Message;
    let bootstrap = bootstrap();
    let mut config = kafka_util::consumer_config(&bootstrap, isolation);
    config
        .set("group.id", unique("read-now"))
        .set("fetch.wait.max.ms", "50");
    let reader = TopicReader::open(&config, &bootstrap, topic, &OpenOptions::default())
        .unwrap_or_else(|e| panic!("read {topic}: {e}"));
    let mut records = Vec::new();
    reader
        .read(Stop::until(Instant::now() + TIMEOUT), |message| {
            records.push(Record {
                partition: message.partition(),
                offset: message.offset(),
                key: message.key().map(<[u8]>::to_vec),
                value: message.payload().map(<[u8]>::to_vec),
            });
            std::ops::ControlFlow::Continue(())
        })
        .unwrap_or_else(|e| panic!("read {topic}: {e}"));
    records.sort_by_key(|r| (r.partition, r.offset));
    records
}

/// [`read_all`] on the broker at `bootstrap`.
pub fn read_all_at(bootstrap: &str, topic: &str, isolation: &str) -> Vec<Record> {
    kafka_util::read_settled(bootstrap, topic, isolation, Instant::now() + TIMEOUT)
        .unwrap_or_else(|e| panic!("read {topic}: {e}"))
}

/// The `verify` check of the fault tests: reads `topic` with `read_committed` to the end offsets captured when
/// it starts ([`read_all`]) and asserts that the committed records are exactly rows `expected` of
/// [`records`] — every value once (zero duplicates), none missing, nothing else — with every record in the
/// partition its key hashes to (`partitions` partitions) and each partition in ascending id order (the order
/// the rows were written). Returns how many records it read.
pub fn verify_exactly_once(
    topic: &str,
    partitions: i32,
    expected: impl IntoIterator<Item = i64>,
) -> usize {
    verify_exactly_once_at(&bootstrap(), topic, partitions, expected)
}

/// [`verify_exactly_once`] on the broker at `bootstrap`.
pub fn verify_exactly_once_at(
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    expected: impl IntoIterator<Item = i64>,
) -> usize {
    use std::collections::HashMap;
    let committed = read_all_at(bootstrap, topic, "read_committed");
    let mut counts: HashMap<Vec<u8>, usize> = HashMap::new();
    for r in &committed {
        let key = r.key.as_deref().expect("every record is keyed");
        assert_eq!(
            r.partition,
            streamfusion_sink::partition_for_key(key, partitions),
            "{topic}: record at {}@{} is not where its key hashes",
            r.partition,
            r.offset
        );
        *counts
            .entry(r.value.clone().expect("no tombstones written"))
            .or_default() += 1;
    }
    let expected: Vec<i64> = expected.into_iter().collect();
    let missing: Vec<i64> = expected
        .iter()
        .copied()
        .filter(|&id| !counts.contains_key(&value_of(id)))
        .collect();
    let duplicates: Vec<String> = counts
        .iter()
        .filter(|(_, &n)| n > 1)
        .map(|(v, n)| format!("{} x{n}", String::from_utf8_lossy(v)))
        .collect();
    let wanted: HashSet<Vec<u8>> = expected.iter().map(|&id| value_of(id)).collect();
    let unexpected: Vec<String> = counts
        .keys()
        .filter(|v| !wanted.contains(*v))
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect();
    assert!(
        missing.is_empty() && duplicates.is_empty() && unexpected.is_empty(),
        "{topic}: read_committed read {} records for {} expected: {} missing {:?}, {} duplicated {:?}, {} unexpected {:?}",
        committed.len(),
        expected.len(),
        missing.len(),
        missing.iter().take(10).collect::<Vec<_>>(),
        duplicates.len(),
        duplicates.iter().take(10).collect::<Vec<_>>(),
        unexpected.len(),
        unexpected.iter().take(10).collect::<Vec<_>>(),
    );
    assert_eq!(committed.len(), expected.len(), "{topic}: record count");
    // In write order per partition: ids ascend within each partition.
    for pair in committed.windows(2) {
        if pair[0].partition == pair[1].partition {
            let id = |r: &Record| {
                let v = String::from_utf8_lossy(r.value.as_deref().unwrap()).into_owned();
                v.trim_start_matches("{\"id\":")
                    .split(',')
                    .next()
                    .unwrap()
                    .parse::<i64>()
                    .unwrap()
            };
            assert!(
                id(&pair[0]) < id(&pair[1]),
                "{topic}[{}]: offsets {} and {} out of write order",
                pair[0].partition,
                pair[0].offset,
                pair[1].offset
            );
        }
    }
    committed.len()
}
