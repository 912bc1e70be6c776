//! `streamfusion-bench bench`: the Rust side of the Kafka producer comparison.
//!
//! # The model
//!
//! One run = one mode, one distribution, one compression, its own topic (1 partition,
//! RF 1, created here and deleted afterwards) and its own producer, set up exactly like
//! the Java comparison's ([`producer_settings`], from `perf/common/producer.properties`). The producer is created and given the
//! topic's metadata before any clock starts. Then:
//!
//! 1. one warm-up pass (discarded: it opens the connections and obtains the idempotent
//!    producer id) and `iterations` measured passes. A pass sends the N values once, in
//!    order, to partition 0 with a null key. Its clock runs from the first send (for
//!    `bijou`: from encoding the slab, since the Java client serializes inside `send()`)
//!    until the flush has returned and every delivery report succeeded;
//! 2. the topic is read back (`bench/verify.rs`): every record must decode to the
//!    value sent at its position, in order, (iterations + 1) x N records in all;
//! 3. one [`BenchResult`]: median, min and max msgs/s over the measured passes, the mean
//!    value size, and `verified`.
//!
//! # Modes
//!
//! * `long` (`rust-long` in the comparison): 8 big-endian bytes per value, what Kafka's
//!   `LongSerializer` writes; made on the stack per record.
//! * `bijou` (`rust-bijou`): bijou64, unsigned mapping. The pass encodes all N values
//!   with [`bijou64_kafka::encode_slab_into`] into one reused slab and sends slices of
//!   it: no allocation per record on our side (librdkafka copies each payload into its
//!   own message, for both modes alike).

mod producer;
mod result;
mod verify;

use std::fmt;
use std::time::Duration;

use bijou64_kafka::EncodedSlab;
use rdkafka::config::ClientConfig;

pub use result::{median, BenchResult, IMPLEMENTATION};

pub use crate::common::{producer_settings, settings_line};

use kafka_util::topics::TopicSpec;
use kafka_util::Topics;
use rdkafka::error::RDKafkaErrorCode;
use streamfusion_cli::progress::{grouped, Progress};

use crate::distribution::Distribution;
use crate::progress::RunProgress;
use crate::Error;
use producer::TimedProducer;

/// librdkafka-only settings, printed with the shared ones. The Java client has no
/// message-count limits, only memory (`buffer.memory`, 32 MiB: about 64 batches of
/// `batch.size`), so librdkafka's send-queue limit of 100,000 messages is raised to
/// stay out of the way. `batch.num.messages` keeps librdkafka's default of 10,000
/// messages per batch: a batch closes at 10,000 records or 512 KiB, whichever comes
/// first (the Java client closes it at 512 KiB only). With tiny records that default
/// lets the first batches leave while a pass is still sending; raising it to 1,000,000
/// made each 50,000-record pass wait for one or two large batches at its end, and
/// penalised the smaller bijou records most (they fill 512 KiB later).
pub const LIBRDKAFKA_SETTINGS: [(&str, &str); 2] = [
    ("batch.num.messages", "10000"),
    ("queue.buffering.max.messages", "10000000"),
];

/// Timeout of admin calls, metadata requests, the flush and the end-offset query.
const TIMEOUT: Duration = Duration::from_secs(30);

/// How a value becomes record bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum ValueCodec {
    /// 8 big-endian bytes, like Kafka's `LongSerializer`.
    #[value(alias = "rust-long")]
    Long,
    /// bijou64 (unsigned mapping) through `bijou64_kafka::encode_slab_into`.
    #[value(alias = "rust-bijou")]
    Bijou,
}

impl ValueCodec {
    /// The mode's name in the producer comparison's table and CSV.
    #[must_use]
    pub fn comparison_name(self) -> &'static str {
        match self {
            ValueCodec::Long => "rust-long",
            ValueCodec::Bijou => "rust-bijou",
        }
    }
}

/// The producer `compression.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Compression {
    /// No compression.
    None,
    /// gzip.
    Gzip,
    /// Snappy.
    Snappy,
    /// LZ4.
    Lz4,
    /// Zstandard.
    Zstd,
}

impl Compression {
    /// The `compression.type` value.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchOptions {
    /// How values become bytes.
    pub mode: ValueCodec,
    /// Which values.
    pub distribution: Distribution,
    /// Records per pass (N), at least 1.
    pub messages: usize,
    /// Measured passes after the warm-up, at least 1.
    pub iterations: usize,
    /// The producer `compression.type`.
    pub compression: Compression,
    /// The run's topic; it must not exist yet.
    pub topic: String,
    /// Kafka bootstrap servers.
    pub bootstrap_servers: String,
    /// Seed of the `uniform` and `mixed` distributions.
    pub seed: i64,
    /// Leave the topic in place after the run.
    pub keep_topic: bool,
    /// Producer properties added to (or overriding) [`producer_settings`] and
    /// [`LIBRDKAFKA_SETTINGS`]; empty for the comparison.
    pub producer_properties: kafka_util::Properties,
}

impl BenchOptions {
    /// `[distribution compression mode]`, the prefix of progress lines.
    #[must_use]
    pub fn label(&self) -> String {
        format!(
            "[{} {} {}]",
            self.distribution,
            self.compression,
            self.mode.comparison_name()
        )
    }

    /// The producer configuration of the run.
    #[must_use]
    pub fn producer_config(&self) -> ClientConfig {
        let mut config = self.client_config("producer");
        for (key, value) in producer_settings() {
            config.set(key, value);
        }
        for (key, value) in LIBRDKAFKA_SETTINGS {
            config.set(key, value);
        }
        config.set("compression.type", self.compression.name());
        for (key, value) in &self.producer_properties {
            config.set(key, value);
        }
        config
    }

    /// A one-line description of the producer settings, for headers.
    #[must_use]
    pub fn settings_line(&self) -> String {
        let mut line = format!(
            "{} compression.type={}, key=null, partition 0 of 1 (RF 1); librdkafka only: {}",
            settings_line(producer_settings()),
            self.compression,
            settings_line(&LIBRDKAFKA_SETTINGS)
        );
        if !self.producer_properties.is_empty() {
            // Display hides secrets (`sasl.password=[hidden]`): this line goes to the terminal and the results.
            line.push_str(&format!("; overridden: {}", self.producer_properties));
        }
        line
    }

    fn client_config(&self, role: &str) -> ClientConfig {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.bootstrap_servers)
            .set(
                "client.id",
                format!("streamfusion-bench-{}-{role}", self.mode.comparison_name()),
            )
            // Without this, librdkafka retries a refused connection for minutes.
            .set("socket.connection.setup.timeout.ms", "10000");
        config
    }
}

/// The librdkafka version string, e.g. `2.12.1`.
#[must_use]
pub fn librdkafka_version() -> String {
    rdkafka::util::get_rdkafka_version().1
}

/// Runs one benchmark (see the module docs).
///
/// # Errors
/// [`Error::NoBroker`] when no broker answers; [`Error::Topic`] or [`Error::Kafka`]
/// when the topic or the clients cannot be set up. A failure after that (a send, a
/// delivery, the read-back) gives a result with `verified = false` and the reason
/// instead.
pub fn run(options: &BenchOptions, progress: &mut Progress) -> Result<BenchResult, Error> {
    let values = options
        .distribution
        .generate(options.messages, options.seed);
    let (topics, cluster_id) = Topics::connect(
        &options.client_config("admin"),
        &options.bootstrap_servers,
        TIMEOUT,
    )?;
    progress.message(&format!(
        "{} librdkafka {}, broker {} (cluster {}), topic {}",
        options.label(),
        librdkafka_version(),
        options.bootstrap_servers,
        cluster_id.as_deref().unwrap_or("?"),
        options.topic
    ));
    create_run_topic(&topics, &options.topic)?;
    let outcome = measure_and_verify(options, &values, progress);
    if !options.keep_topic {
        if let Err(error) = topics.delete(&options.topic) {
            progress.message(&format!("warning: {error}"));
        }
    }
    outcome
}

/// Creates a run's own topic (1 partition, one replica) and waits for its leader; a topic of that name that
/// exists already is an error (runs create and delete their own).
///
/// # Errors
/// [`kafka_util::Error::Topic`] when the topic exists or cannot be created.
pub(crate) fn create_run_topic(topics: &Topics, topic: &str) -> Result<(), Error> {
    if !topics.create(&TopicSpec::new(topic, 1))? {
        let code = RDKafkaErrorCode::TopicAlreadyExists;
        return Err(kafka_util::Error::Topic {
            topic: topic.to_owned(),
            operation: "create",
            reason: format!("{code}: pass another --topic (the bench creates and deletes its own)"),
            code: Some(code),
        }
        .into());
    }
    topics.wait_for_leaders(topic)?;
    Ok(())
}

fn measure_and_verify(
    options: &BenchOptions,
    values: &[i64],
    progress: &mut Progress,
) -> Result<BenchResult, Error> {
    let label = options.label();
    let producer = TimedProducer::new(&options.producer_config(), &options.topic, TIMEOUT)?;
    let mut slab = EncodedSlab::new();
    let mut rates = Vec::with_capacity(options.iterations);
    let mut produced_bytes = 0_u64;
    let mut passes_done = 0_usize;
    let mut problem = None;
    progress.start_run(&label, options.iterations as u64 + 1);
    for pass in 0..=options.iterations {
        match producer.pass(options.mode, values, &mut slab) {
            Ok(done) => {
                let seconds = done.elapsed.as_secs_f64();
                let rate = values.len() as f64 / seconds;
                produced_bytes += done.value_bytes;
                passes_done += 1;
                if pass > 0 {
                    rates.push(rate);
                }
                progress.pass(pass, options.iterations, rate, seconds);
            }
            Err(error) => {
                progress.message(&format!("{label} FAILED: {error}"));
                problem = Some(error.to_string());
                break;
            }
        }
    }
    drop(producer);

    if problem.is_none() {
        let check = verify::verify(
            &options.client_config("verify"),
            &options.topic,
            options.mode,
            values,
            passes_done,
            TIMEOUT,
            progress,
        );
        problem = match check {
            Ok(found) if found.problem.is_some() => found.problem,
            Ok(found) if found.value_bytes != produced_bytes => Some(format!(
                "consumer read {} value bytes, the delivery reports gave {produced_bytes}",
                found.value_bytes
            )),
            Ok(_) => None,
            Err(error) => Some(error.to_string()),
        };
    }
    if passes_done != options.iterations + 1 {
        rates.clear();
    }
    let avg_payload_bytes =
        (passes_done > 0).then(|| produced_bytes as f64 / (passes_done * values.len()) as f64);
    let result = BenchResult::new(
        options.mode,
        options.compression,
        options.distribution,
        values.len(),
        rates,
        avg_payload_bytes,
        problem,
        options.topic.clone(),
        options.seed,
    );
    progress.done(&format!(
        "{label} verified={}, {} bytes/value, median {} msgs/s{}",
        result.verified,
        result
            .avg_payload_bytes
            .map_or_else(|| "-".to_owned(), |b| format!("{b:.3}")),
        grouped(result.median_msgs_per_s.unwrap_or(f64::NAN)),
        result
            .problem
            .as_deref()
            .map_or_else(String::new, |p| format!(": {p}"))
    ));
    Ok(result)
}
