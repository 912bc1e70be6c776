//! `streamfusion consume` and `streamfusion verify`: reading a topic to the end offsets
//! captured when the read starts.
//!
//! Every partition of the topic is read from its beginning. The end of a partition is its
//! high watermark when the read starts; the partition is done when the consumer's
//! position reaches it. The position, not the offset of the last record seen, decides:
//! a committed transaction ends with a marker that occupies an offset but is no record,
//! and `read_committed` skips aborted records, so the last record's offset may be far
//! below the end. Records at or past the captured end are ignored. A `read_committed`
//! read waits while a transaction below the end is still open (up to [`IDLE_TIMEOUT`]).
//!
//! `verify` regenerates the records `produce` wrote for the same input
//! ([`crate::source`]: bids or a file) and compares them with the topic as multisets of (key, value) bytes.

use std::collections::HashMap;
use std::fmt;
use std::ops::ControlFlow;
use std::time::Duration;

use kafka_util::args::KafkaArgs;
use kafka_util::{OpenOptions, PartitionRange, Stop, TopicReader};
use rdkafka::message::Message;
use streamfusion_json::EncodedRecords;

use crate::progress::Progress;
use crate::source::{Input, RowSource};
use crate::Error;

/// A read that makes no progress for this long fails ([`kafka_util::Error::Stalled`]).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// The consumer's `isolation.level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Isolation {
    /// Only records of committed transactions (and non-transactional ones).
    ReadCommitted,
    /// Every record in the log, aborted and open transactions included.
    ReadUncommitted,
}

impl Isolation {
    /// The librdkafka value.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Isolation::ReadCommitted => "read_committed",
            Isolation::ReadUncommitted => "read_uncommitted",
        }
    }
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one read saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadCounts {
    /// Records read.
    pub records: u64,
    /// Records with a null value (tombstones).
    pub tombstones: u64,
    /// Key and value bytes read.
    pub bytes: u64,
    /// Partitions of the topic.
    pub partitions: usize,
    /// Sum over partitions of (end offset − low watermark): records plus markers and gaps.
    pub offsets: u64,
}

/// The prefix of the consumer group of `consume` and `verify` (`streamfusion-read-<pid>`): the reads assign
/// their partitions and commit nothing, but librdkafka asks for the group's coordinator, so on a cluster with
/// ACLs the principal needs `DESCRIBE` on the groups of this prefix (`--resource-pattern-type prefixed`).
pub const READ_GROUP_PREFIX: &str = "streamfusion-read-";

/// Reads every partition of `topic` from the beginning to the end offsets captured at the
/// start, calling `each(key, value)` per record.
///
/// # Errors
/// [`Error::Kafka`]: no broker answers ([`kafka_util::Error::NoBroker`]), it refuses the credentials
/// ([`kafka_util::Error::Unauthenticated`]), the topic does not exist
/// ([`kafka_util::Error::Topic`]), consuming fails, or a partition makes no progress for
/// [`IDLE_TIMEOUT`] ([`kafka_util::Error::Stalled`]).
pub fn read_topic(
    kafka: &KafkaArgs,
    topic: &str,
    isolation: Isolation,
    progress: &mut Progress,
    mut each: impl FnMut(Option<&[u8]>, Option<&[u8]>),
) -> Result<ReadCounts, Error> {
    let bootstrap = kafka.bootstrap_servers.as_str();
    let mut config = kafka_util::consumer_config(bootstrap, isolation.name());
    for (key, value) in kafka.all_properties() {
        config.set(key, value);
    }
    config
        .set("client.id", format!("streamfusion-read-{isolation}"))
        .set("socket.connection.setup.timeout.ms", "5000")
        .set(
            "group.id",
            format!("{READ_GROUP_PREFIX}{}", std::process::id()),
        );
    // The reader's own metadata request would retry a refused handshake until it times out.
    kafka_util::check_broker(&config, bootstrap, kafka_util::BROKER_WAIT)?;
    let reader = TopicReader::open(&config, bootstrap, topic, &OpenOptions::default())?;
    let mut counts = ReadCounts {
        partitions: reader.ranges().len(),
        offsets: reader.ranges().iter().map(PartitionRange::offsets).sum(),
        ..ReadCounts::default()
    };
    progress.start_task(
        &format!("read {isolation}"),
        Some(counts.offsets),
        "offsets",
    );
    reader.read(Stop::idle(IDLE_TIMEOUT), |message| {
        counts.records += 1;
        counts.bytes += (message.key_len() + message.payload_len()) as u64;
        if message.payload().is_none() {
            counts.tombstones += 1;
        }
        each(message.key(), message.payload());
        if counts.records.is_multiple_of(4096) {
            progress.position(counts.records);
        }
        ControlFlow::Continue(())
    })?;
    progress.position(counts.records);
    Ok(counts)
}

/// The result of `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Verification {
    /// Records `produce` writes for the input.
    pub expected: u64,
    /// Records read with `read_committed`.
    pub committed: u64,
    /// Expected records not found (counted with multiplicity).
    pub missing: u64,
    /// Expected records found more often than expected (the surplus).
    pub duplicates: u64,
    /// Records found that are not expected at all.
    pub unexpected: u64,
    /// Records read with `read_uncommitted` beyond those read with `read_committed`:
    /// data of aborted or still open transactions.
    pub aborted_or_uncommitted: u64,
}

impl Verification {
    /// True when the committed records are exactly the expected ones.
    #[must_use]
    pub fn exact(&self) -> bool {
        self.missing == 0
            && self.duplicates == 0
            && self.unexpected == 0
            && self.committed == self.expected
    }

    /// The result line printed on stdout.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "verify: expected {}, committed {}, missing {}, duplicates {}, unexpected {}, \
             aborted-or-uncommitted {}",
            self.expected,
            self.committed,
            self.missing,
            self.duplicates,
            self.unexpected,
            self.aborted_or_uncommitted
        )
    }
}

/// One record as a map key: presence and length of key and value, then the bytes.
fn record_key(key: Option<&[u8]>, value: Option<&[u8]>) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(10 + key.map_or(0, <[u8]>::len) + value.map_or(0, <[u8]>::len));
    for part in [key, value] {
        match part {
            None => out.push(0),
            Some(bytes) => {
                out.push(1);
                out.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
                out.extend_from_slice(bytes);
            }
        }
    }
    out
}

/// Regenerates the records `produce` writes for `input` and checks `topic` against them.
///
/// # Errors
/// As [`read_topic`]; [`Error::Encode`] for bad key fields; [`Error::Io`] or
/// [`Error::Input`] for an input file that cannot be read.
pub fn verify(
    kafka: &KafkaArgs,
    topic: &str,
    input: &Input,
    progress: &mut Progress,
) -> Result<Verification, Error> {
    crate::produce::connect(
        &kafka.bootstrap_servers,
        &kafka.all_properties(),
        "verify-admin",
    )?;
    // (expected count, committed count) per record.
    let mut counts: HashMap<Vec<u8>, (u64, u64)> = HashMap::new();
    let mut source = RowSource::open(input)?;
    let mut records = EncodedRecords::new();
    let mut expected = 0_u64;
    loop {
        let rows = source.encode_into(expected, 8192, &mut records)?;
        if rows == 0 {
            break;
        }
        for (key, value) in records.iter() {
            counts.entry(record_key(key, value)).or_default().0 += 1;
        }
        expected += rows as u64;
    }
    let committed = read_topic(
        kafka,
        topic,
        Isolation::ReadCommitted,
        progress,
        |key, value| counts.entry(record_key(key, value)).or_default().1 += 1,
    )?;
    let uncommitted = read_topic(
        kafka,
        topic,
        Isolation::ReadUncommitted,
        progress,
        |_, _| {},
    )?;
    let mut result = Verification {
        expected,
        committed: committed.records,
        aborted_or_uncommitted: uncommitted.records.saturating_sub(committed.records),
        ..Verification::default()
    };
    for &(want, got) in counts.values() {
        if want == 0 {
            result.unexpected += got;
        } else {
            result.missing += want.saturating_sub(got);
            result.duplicates += got.saturating_sub(want);
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_keys_tell_null_from_empty() {
        assert_ne!(record_key(None, Some(b"")), record_key(Some(b""), None));
        assert_ne!(
            record_key(Some(b"a"), Some(b"bc")),
            record_key(Some(b"ab"), Some(b"c"))
        );
    }

    #[test]
    fn exact_needs_every_count_right() {
        let mut v = Verification {
            expected: 3,
            committed: 3,
            ..Verification::default()
        };
        assert!(v.exact());
        v.aborted_or_uncommitted = 7;
        assert!(v.exact(), "aborted data is not an error");
        v.duplicates = 1;
        assert!(!v.exact());
    }
}
