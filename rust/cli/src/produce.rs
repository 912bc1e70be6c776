//! `streamfusion produce`: Nexmark bids or the rows of an Arrow IPC / CSV file → Arrow
//! batches → Flink JSON records → Kafka through [`streamfusion_sink::Sink`], at least once
//! or exactly once.
//!
//! The source position recorded with every checkpoint is the number of rows produced so
//! far (8 bytes, big-endian). On start the sink's `recover()` returns the last committed
//! position, and the run continues with the row after it: the bids are regenerated
//! deterministically ([`crate::bids`]) and a file is read in the same order
//! ([`crate::source`]), so a restarted run writes exactly the remaining ones. A checkpoint is taken when `checkpoint_interval` has passed since the last one
//! (checked after each batch) and once at the end. When the sink asks for a replay
//! (an aborted transaction, a fenced or failed producer, a failed delivery) the run
//! recovers and continues from the recovered position, up to [`MAX_REPLAYS`] times.

use std::time::{Duration, Instant};

use kafka_util::topics::TopicSpec;
use kafka_util::Topics;
use rdkafka::config::ClientConfig;
use streamfusion_json::EncodedRecords;
use streamfusion_sink::{DeliveryGuarantee, Sink, SinkConfig};

use crate::progress::{grouped, Progress};
use crate::source::{Input, RowSource};
use crate::Error;

/// How many times one run recovers and replays after a sink error before giving up.
pub const MAX_REPLAYS: u32 = 5;

/// Timeout of admin calls and metadata requests.
const TIMEOUT: Duration = Duration::from_secs(30);

/// What to produce, where and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProduceOptions {
    /// Kafka bootstrap servers.
    pub bootstrap_servers: String,
    /// The data topic (created when missing).
    pub topic: String,
    /// Partitions of the data topic when it is created.
    pub partitions: i32,
    /// The sink's compacted progress topic.
    pub progress_topic: String,
    /// The sink's writer id.
    pub writer_id: String,
    /// At least once or exactly once.
    pub mode: DeliveryGuarantee,
    /// Minimum time between two checkpoints.
    pub checkpoint_interval: Duration,
    /// The sink's transaction timeout.
    pub transaction_timeout: Duration,
    /// The rows and their keys (a restarted run produces the ones not yet committed).
    pub input: Input,
    /// Rows per Arrow batch (at most; a file's batches may be smaller).
    pub batch_rows: usize,
    /// Extra librdkafka properties of the producer and of the admin client that makes the topic
    /// (`--command-config`, then each `-X`): security settings, `linger.ms`, ...
    pub producer_properties: kafka_util::Properties,
}

/// What a `produce` run did.
#[derive(Debug, Clone, PartialEq)]
pub struct ProduceSummary {
    /// Rows committed before this run started (the recovered position).
    pub resumed_at: u64,
    /// Rows (bids) produced by this run (each counted once, replays excluded).
    pub events: u64,
    /// Records written by this run, replayed ones included.
    pub records: u64,
    /// Key and value bytes of those records.
    pub bytes: u64,
    /// Checkpoints committed.
    pub checkpoints: u64,
    /// Replays after sink errors.
    pub replays: u32,
    /// Wall-clock seconds from the first batch to the last checkpoint.
    pub seconds: f64,
}

impl ProduceSummary {
    /// The summary line printed on stdout.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "produce: events {}, records {}, bytes {}, seconds {:.3}, records/s {} \
             (resumed at {}, checkpoints {}, replays {})",
            self.events,
            self.records,
            self.bytes,
            self.seconds,
            grouped(self.records as f64 / self.seconds.max(1e-9)),
            self.resumed_at,
            self.checkpoints,
            self.replays
        )
    }
}

/// The 8-byte source position of `events` rows.
#[must_use]
pub fn encode_position(events: u64) -> [u8; 8] {
    events.to_be_bytes()
}

/// Parses a source position written by [`encode_position`]; `None` when it is not 8 bytes.
#[must_use]
pub fn decode_position(bytes: &[u8]) -> Option<u64> {
    <[u8; 8]>::try_from(bytes).ok().map(u64::from_be_bytes)
}

/// Checks that a broker answers at `bootstrap` (a short wait) and returns its admin client, made with the
/// command's client `properties` (`--command-config`, `-X`: the security settings among them).
pub(crate) fn connect(
    bootstrap: &str,
    properties: &[(String, String)],
    role: &str,
) -> Result<Topics, Error> {
    let mut config = ClientConfig::new();
    config
        .set("client.id", format!("streamfusion-{role}"))
        .set("socket.connection.setup.timeout.ms", "5000");
    for (key, value) in properties {
        config.set(key, value);
    }
    config.set("bootstrap.servers", bootstrap);
    Ok(Topics::connect(&config, bootstrap, TIMEOUT)?.0)
}

/// Runs `produce` (see the module docs).
///
/// # Errors
/// [`Error::Kafka`] when no broker answers or the topic cannot be created; [`Error::Sink`] when the sink fails to start or fails more than
/// [`MAX_REPLAYS`] times; [`Error::Encode`] for bad key fields or a column that cannot
/// be encoded; [`Error::Io`] or [`Error::Input`] for an input file that cannot be read.
pub fn run(options: &ProduceOptions, progress: &mut Progress) -> Result<ProduceSummary, Error> {
    let mut source = RowSource::open(&options.input)?;
    let topics = connect(
        &options.bootstrap_servers,
        &options.producer_properties,
        "produce-admin",
    )?;
    if topics.ensure(&TopicSpec::new(&options.topic, options.partitions))? {
        progress.message(&format!(
            "created topic {} ({} partitions)",
            options.topic, options.partitions
        ));
    }
    drop(topics);
    let mut config = SinkConfig::new(
        options.bootstrap_servers.as_str(),
        options.topic.as_str(),
        options.progress_topic.as_str(),
        options.writer_id.as_str(),
    )
    .with_mode(options.mode)
    .with_transaction_timeout(options.transaction_timeout);
    for (key, value) in &options.producer_properties {
        config = config.with_property(key, value);
    }
    let mut sink = Sink::new(config)?;
    let (mut next_id, resumed_at) = recover(&mut sink)?;
    let mut summary = ProduceSummary {
        resumed_at,
        events: 0,
        records: 0,
        bytes: 0,
        checkpoints: 0,
        replays: 0,
        seconds: 0.0,
    };
    if resumed_at > 0 {
        progress.message(&format!(
            "{}: resuming after {resumed_at} committed rows (checkpoint {})",
            options.writer_id,
            next_id.saturating_sub(1)
        ));
    }
    let started = Instant::now();
    progress.start_task("produce", source.total(), &options.input.describe());
    progress.position(resumed_at);
    let mut produced = resumed_at;
    let mut records = EncodedRecords::new();
    let mut last_checkpoint = Instant::now();
    let mut exhausted = false;
    let mut dirty = false;
    while !exhausted || dirty {
        let step = (|| -> Result<(), Error> {
            if !exhausted {
                let rows = source.encode_into(produced, options.batch_rows, &mut records)?;
                if rows == 0 {
                    exhausted = true;
                } else {
                    sink.write(&records)?;
                    produced += rows as u64;
                    dirty = true;
                    summary.records += records.len() as u64;
                    summary.bytes += (records.keys().len() + records.values().len()) as u64;
                }
            }
            if dirty && (exhausted || last_checkpoint.elapsed() >= options.checkpoint_interval) {
                sink.checkpoint(next_id, &encode_position(produced))?;
                next_id += 1;
                dirty = false;
                summary.checkpoints += 1;
                last_checkpoint = Instant::now();
                progress.position(produced);
            }
            Ok(())
        })();
        match step {
            Ok(()) => {}
            Err(Error::Sink(error)) if error.requires_replay() => {
                summary.replays += 1;
                if summary.replays > MAX_REPLAYS {
                    return Err(Error::Sink(error));
                }
                progress.message(&format!("replaying after: {error}"));
                let (id, position) = recover(&mut sink)?;
                next_id = id;
                produced = position;
                exhausted = false;
                dirty = false;
            }
            Err(error) => return Err(error),
        }
    }
    summary.events = produced - resumed_at;
    summary.seconds = started.elapsed().as_secs_f64();
    progress.done(&format!(
        "produced {} rows ({} already committed) in {:.3} s",
        summary.events, resumed_at, summary.seconds
    ));
    Ok(summary)
}

/// The next checkpoint id and the committed position.
fn recover(sink: &mut Sink) -> Result<(u64, u64), Error> {
    Ok(match sink.recover()? {
        None => (0, 0),
        Some(progress) => {
            let position = decode_position(&progress.source_position).ok_or_else(|| {
                Error::Recover {
                    topic: sink.config().progress_topic.clone(),
                    reason: format!(
                        "writer {}: a source position of {} bytes, not the 8 bytes `produce` writes \
                         (another program's writer id?)",
                        progress.writer_id,
                        progress.source_position.len()
                    ),
                }
            })?;
            (progress.checkpoint_id + 1, position)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        assert_eq!(decode_position(&encode_position(20_000)), Some(20_000));
        assert_eq!(decode_position(b"short"), None);
    }
}
