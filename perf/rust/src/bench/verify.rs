//! Reading a run's topic back and checking every value, in order.
//!
//! The end offset is captured after the producer has finished (`read_committed`: the
//! last stable offset; no transactions are used here, so it equals the high
//! watermark). A consumer then reads partition 0 from the beginning up to that offset
//! ([`kafka_util::TopicReader`], the workspace's one read-to-end loop), stopping at the first problem.
//! Record `i` must decode, with the mode's strict decoder, to `values[i % n]`: the
//! values were sent once per pass, warm-up included. Offsets are allowed to have gaps
//! (a transaction marker is not a record), the record count must be exact.

use std::ops::ControlFlow;
use std::time::Duration;

use bijou64_kafka::{decode, Mapping};
use kafka_util::{OpenOptions, Stop, TopicReader};
use rdkafka::config::ClientConfig;
use rdkafka::message::Message;

use super::ValueCodec;
use streamfusion_cli::progress::Progress;

use crate::progress::RunProgress;
use crate::Error;

/// A read that receives nothing for this long gives up.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// What the read-back found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReadBack {
    /// Records read (up to the first problem).
    pub(crate) records: u64,
    /// Sum of their value sizes.
    pub(crate) value_bytes: u64,
    /// Why the topic does not hold exactly what was sent, or `None`.
    pub(crate) problem: Option<String>,
}

/// Decodes one record value as `mode` wrote it.
pub(crate) fn decode_value(mode: ValueCodec, payload: Option<&[u8]>) -> Result<i64, String> {
    let bytes = payload.ok_or_else(|| "null value (tombstone)".to_owned())?;
    match mode {
        ValueCodec::Long => <[u8; 8]>::try_from(bytes)
            .map(i64::from_be_bytes)
            .map_err(|_| format!("{} bytes, a long takes 8", bytes.len())),
        ValueCodec::Bijou => decode::<i64>(bytes, Mapping::Unsigned).map_err(|e| e.to_string()),
    }
}

/// Reads `topic` back and compares it with `passes` repetitions of `values`.
pub(crate) fn verify(
    config: &ClientConfig,
    topic: &str,
    mode: ValueCodec,
    values: &[i64],
    passes: usize,
    timeout: Duration,
    progress: &mut Progress,
) -> Result<ReadBack, Error> {
    let mut config = config.clone();
    config
        .set(
            "group.id",
            format!("streamfusion-bench-verify-{}", std::process::id()),
        )
        .set("isolation.level", "read_committed")
        .set("enable.auto.commit", "false")
        .set("enable.auto.offset.store", "false")
        .set("auto.offset.reset", "earliest")
        .set("max.partition.fetch.bytes", (16 << 20).to_string())
        .set("fetch.max.bytes", (64 << 20).to_string());
    let options = OpenOptions {
        partitions: Some(&[0]),
        watermark_timeout: timeout,
        ..OpenOptions::default()
    };
    let bootstrap = config
        .get("bootstrap.servers")
        .unwrap_or_default()
        .to_owned();
    let reader = TopicReader::open(&config, &bootstrap, topic, &options)?;
    let end = reader.ranges().first().map_or(0, |range| range.end);
    let expected = (values.len() * passes) as u64;
    let mut found = ReadBack {
        records: 0,
        value_bytes: 0,
        problem: None,
    };
    progress.start_verify(expected);
    let read = reader.read(Stop::idle(IDLE_TIMEOUT), |message| {
        if found.records >= expected {
            found.problem = Some(format!(
                "more records than the {expected} produced (offset {})",
                message.offset()
            ));
            return ControlFlow::Break(());
        }
        let want = values[(found.records % values.len() as u64) as usize];
        let problem = match decode_value(mode, message.payload()) {
            Ok(got) if got == want => None,
            Ok(got) => Some(format!(
                "record {} (offset {}): sent {want}, read back {got}",
                found.records,
                message.offset()
            )),
            Err(reason) => Some(format!(
                "record {} (offset {}): sent {want}, cannot decode: {reason}",
                found.records,
                message.offset()
            )),
        };
        if problem.is_some() {
            found.problem = problem;
            return ControlFlow::Break(());
        }
        found.value_bytes += message.payload_len() as u64;
        found.records += 1;
        if found.records.is_multiple_of(8192) {
            progress.verified(found.records);
        }
        ControlFlow::Continue(())
    });
    match read {
        Ok(()) => {}
        Err(kafka_util::Error::Stalled { position, .. }) => {
            found.problem = Some(format!(
                "no records for {} s at offset {position} of {end}",
                IDLE_TIMEOUT.as_secs()
            ));
            return Ok(found);
        }
        Err(error) => return Err(error.into()),
    }
    if found.problem.is_some() {
        return Ok(found);
    }
    progress.verified(found.records);
    if found.records != expected {
        found.problem = Some(format!(
            "read {} records up to end offset {end}, produced {expected}",
            found.records
        ));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_need_exactly_eight_bytes() {
        assert_eq!(
            decode_value(ValueCodec::Long, Some(&42_i64.to_be_bytes())),
            Ok(42)
        );
        assert!(decode_value(ValueCodec::Long, Some(&[0x2a])).is_err());
        assert!(decode_value(ValueCodec::Long, None).is_err());
    }

    #[test]
    fn bijou_values_are_decoded_strictly() {
        assert_eq!(decode_value(ValueCodec::Bijou, Some(&[0x2a])), Ok(42));
        // LongSerializer's bytes of 42 are 0 followed by 7 trailing bytes: refused.
        assert!(decode_value(ValueCodec::Bijou, Some(&42_i64.to_be_bytes())).is_err());
        assert!(decode_value(ValueCodec::Bijou, Some(&[])).is_err());
    }
}
