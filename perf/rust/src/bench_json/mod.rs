//! `streamfusion-bench bench-json`: throughput of the JSON sink, Nexmark bids → Kafka JSON records →
//! [`streamfusion_sink::Sink`], against the same records encoded row by row with arrow-json.
//!
//! A subcommand of its own rather than a mode of `bench`: `bench` is one run of the bijou64 Long comparison,
//! with its own required `--mode long|bijou`, one CSV row and a contract with `perf/kafka/compare-benchmarks.sh`;
//! this one is a matrix of runs (encoder × guarantee × compression) through the sink, with a table. Making
//! `bench` take subcommands would have broken `streamfusion-bench bench --mode bijou`.
//!
//! # The model
//!
//! The bids come from [`streamfusion_cli::bids`] (the generator `produce` uses), `events` of them, as Arrow batches of
//! `batch_rows` built once before any clock starts and shared by every run, so every contender encodes the
//! same rows and generation is never measured. The contenders ([`Encoder`], [`BatchEncoder`]):
//! StreamFusion in Flink mode (the product), StreamFusion in plain mode (arrow-json's bytes, one call per batch),
//! and arrow-json once per row, the way a per-record sink serializes.
//!
//! One *run* = one encoder, one guarantee, one compression, its own topic (1 partition, RF 1) and progress
//! topic, its own [`Sink`] with a fresh writer id, built (producer, `init_transactions`, `recover`) before any
//! clock starts. Producer settings: those of the producer comparison ([`producer_settings`], `perf/common/producer.properties`: 512 KiB
//! `batch.size`, 20 ms `linger.ms`, `acks=all`, idempotence; [`LIBRDKAFKA_SETTINGS`]) plus the run's
//! `compression.type`. Runs go guarantee by guarantee, compression by compression, the encoders next to each
//! other, so the ratios compare runs minutes apart at most.
//!
//! A run makes one warm-up pass (discarded) and `iterations` measured passes. A *pass* writes all events once:
//! per batch, encode into one reused [`EncodedRecords`], `Sink::write`; after a batch, when
//! `checkpoint_interval` has passed since the last checkpoint (or the pass start), `Sink::checkpoint` (exactly
//! once: commit the interval's transaction; at least once: wait for every acknowledgement); a last checkpoint
//! ends the pass. The pass's clock runs from its first encode to that checkpoint's return. Checkpoint ids and
//! source positions (records written, as `produce` writes them) run on across passes.
//!
//! # What is reported
//!
//! Per pass: records/s, MB/s (key + value bytes, 10^6 per MB) and where the CPU went, read from two CPU clocks
//! (`cpu`): the writing thread's (`CLOCK_THREAD_CPUTIME_ID`) around each encode call, the same thread's in
//! all, and the whole process's (`CLOCK_PROCESS_CPUTIME_ID`, every thread). Shares are of the process CPU time
//! of the pass:
//!
//! * **encode**: the writing thread inside the encoder;
//! * **sink calls**: the writing thread outside the encoder, i.e. inside `Sink::write` (librdkafka's
//!   `produce` copying each record into its queue, partitioning, serving delivery reports) and
//!   `Sink::checkpoint`;
//! * **librdkafka**: all other threads of the process, which are librdkafka's (its broker thread builds the
//!   batches, compresses them and does the network I/O).
//!
//! And one wall-clock figure: the share of the pass spent inside `Sink::checkpoint` (waiting for
//! acknowledgements or the commit; meanwhile the writing thread encodes and sends nothing).
//!
//! Waiting (a blocked commit) is no CPU time, so the shares say where the process *worked*, not where the pass's
//! wall time went. The broker runs in another process and its CPU is not counted. A [`RunResult`] holds the
//! measured passes; its figures are medians over them.
//!
//! # Verification
//!
//! The warm-up pass also fingerprints every record it writes (count, bytes, and a sum of per-record 64-bit
//! SipHash values: a multiset digest); all passes write the same records. After the passes the topic is read
//! back `read_committed` to the end offsets ([`streamfusion_cli::read::read_topic`]): it must hold exactly
//! `events × passes` records whose digest is the warm-up's `passes` times. A run that fails (a sink error: no
//! replays in a benchmark) or does not read back exactly is reported with `verified = false`.

mod cpu;
mod encoders;
mod report;

use std::hash::{DefaultHasher, Hasher};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use arrow_array::RecordBatch;
use kafka_util::args::KafkaArgs;
use kafka_util::Topics;
use rdkafka::config::ClientConfig;
use streamfusion_cli::bids::{schema, BidOptions, BidSource};
use streamfusion_cli::produce::encode_position;
use streamfusion_cli::progress::{grouped, Progress};
use streamfusion_cli::read::{read_topic, Isolation};
use streamfusion_json::EncodedRecords;
use streamfusion_sink::{DeliveryGuarantee, Sink, SinkConfig};

pub use encoders::{BatchEncoder, Encoder};
pub use report::{json_line, mode_name, result_row, table, Pass, RunResult, BENCHMARK, COLUMNS};

use crate::bench::{create_run_topic, librdkafka_version, Compression, LIBRDKAFKA_SETTINGS};
use crate::common::{producer_settings, settings_line};
use crate::progress::RunProgress;
use crate::Error;

/// Timeout of admin calls and metadata requests.
const TIMEOUT: Duration = Duration::from_secs(30);

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchJsonOptions {
    /// Kafka bootstrap servers.
    pub bootstrap_servers: String,
    /// Bids per pass, at least 1.
    pub events: usize,
    /// Rows per Arrow batch (one encode call and one `Sink::write` each), at least 1.
    pub batch_rows: usize,
    /// Measured passes per run after the warm-up, at least 1.
    pub iterations: usize,
    /// The contenders, run in this order within each guarantee and compression.
    pub encoders: Vec<Encoder>,
    /// The guarantees.
    pub modes: Vec<DeliveryGuarantee>,
    /// The producer compressions.
    pub compressions: Vec<Compression>,
    /// Minimum time between two checkpoints within a pass.
    pub checkpoint_interval: Duration,
    /// The sink's transaction timeout.
    pub transaction_timeout: Duration,
    /// The bids' base time and the key fields of every encoder.
    pub bids: BidOptions,
    /// Topics are named `PREFIX-ENCODER-GUARANTEE-COMPRESSION-UNIXMILLIS` (and `...-progress`).
    pub topic_prefix: String,
    /// Leave the topics in place after each run.
    pub keep_topics: bool,
    /// librdkafka producer properties added to (or overriding) the comparison's settings.
    pub producer_properties: kafka_util::Properties,
}

impl BenchJsonOptions {
    /// The producer settings every run uses, `compression.type` aside, as one line for headers.
    #[must_use]
    pub fn settings_line(&self) -> String {
        let mut line = format!(
            "{} (librdkafka only: {}); checkpoint every {} ms; {} bids per pass in batches of {} rows; \
             key.fields={}; 1 partition",
            settings_line(producer_settings()),
            settings_line(&LIBRDKAFKA_SETTINGS),
            self.checkpoint_interval.as_millis(),
            grouped(self.events as f64),
            self.batch_rows,
            self.bids.key_fields
        );
        if !self.producer_properties.is_empty() {
            // Display hides secrets (`sasl.password=[hidden]`): this line goes to the terminal and the results.
            line.push_str(&format!("; overridden: {}", self.producer_properties));
        }
        line
    }
}

/// The system's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), when the system has them.
#[must_use]
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    (fields.len() == 3).then(|| fields.join(" "))
}

/// Runs every encoder × guarantee × compression (see the module docs) and returns one result per run.
///
/// # Errors
/// [`Error::NoBroker`] when no broker answers; [`Error::Encode`] or [`Error::ArrowJson`] for key fields that
/// are not bid columns; [`Error::Topic`], [`Error::Kafka`] or [`Error::Sink`] when a run's topic or sink cannot be
/// set up. A failure after that (a write, a checkpoint, the read-back) gives a result with `verified = false`.
pub fn run(options: &BenchJsonOptions, progress: &mut Progress) -> Result<Vec<RunResult>, Error> {
    let mut admin = ClientConfig::new();
    admin
        .set("bootstrap.servers", &options.bootstrap_servers)
        .set("client.id", "streamfusion-bench-json-admin")
        .set("socket.connection.setup.timeout.ms", "10000");
    let (topics, cluster_id) = Topics::connect(&admin, &options.bootstrap_servers, TIMEOUT)?;
    progress.message(&format!(
        "bench-json: librdkafka {}, broker {} (cluster {}), load average {}",
        librdkafka_version(),
        options.bootstrap_servers,
        cluster_id.as_deref().unwrap_or("?"),
        load_average().as_deref().unwrap_or("?")
    ));
    progress.message(&format!("bench-json producer: {}", options.settings_line()));
    for encoder in &options.encoders {
        // Refuse bad key fields before generating anything.
        BatchEncoder::new(*encoder, &schema(), &options.bids.key_fields)?;
    }
    let batches = generate(options, progress)?;
    let mut results = Vec::new();
    for &mode in &options.modes {
        for &compression in &options.compressions {
            for &encoder in &options.encoders {
                let millis = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis());
                let topic = format!(
                    "{}-{}-{}-{compression}-{millis}",
                    options.topic_prefix,
                    encoder.name(),
                    mode_name(mode)
                );
                create_run_topic(&topics, &topic)?;
                let run = Run {
                    options,
                    encoder,
                    mode,
                    compression,
                    topic: &topic,
                };
                let outcome = run.measure_and_verify(&batches, progress);
                if !options.keep_topics {
                    for name in [topic.clone(), run.progress_topic()] {
                        if let Err(error) = topics.delete(&name) {
                            progress.message(&format!("warning: {error}"));
                        }
                    }
                }
                results.push(outcome?);
            }
        }
    }
    Ok(results)
}

/// The bids as Arrow batches of `batch_rows`.
fn generate(
    options: &BenchJsonOptions,
    progress: &mut Progress,
) -> Result<Vec<RecordBatch>, Error> {
    let source = BidSource::new(&options.bids)?;
    let events = options.events as u64;
    progress.start_task("generate", Some(events), "bids");
    let mut batches = Vec::with_capacity(options.events.div_ceil(options.batch_rows));
    let mut done = 0_u64;
    while done < events {
        let rows = (events - done).min(options.batch_rows as u64) as usize;
        batches.push(source.batch(done, rows)?);
        done += rows as u64;
        progress.position(done);
    }
    progress.done(&format!(
        "generated {} bids in {} batches",
        grouped(events as f64),
        batches.len()
    ));
    Ok(batches)
}

/// An order-independent digest of a multiset of records: count, bytes, and the wrapping sum of a 64-bit hash
/// of each record (presence and length of key and value, then their bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Digest {
    records: u64,
    bytes: u64,
    sum: u64,
}

impl Digest {
    fn add(&mut self, key: Option<&[u8]>, value: Option<&[u8]>) {
        // SipHash with fixed keys: the same in the writer and the reader of one process.
        let mut hasher = DefaultHasher::new();
        for part in [key, value] {
            match part {
                None => hasher.write_u8(0),
                Some(bytes) => {
                    hasher.write_u8(1);
                    hasher.write_usize(bytes.len());
                    hasher.write(bytes);
                }
            }
        }
        self.records += 1;
        self.bytes += (key.map_or(0, <[u8]>::len) + value.map_or(0, <[u8]>::len)) as u64;
        self.sum = self.sum.wrapping_add(hasher.finish());
    }

    /// The digest of `times` copies of this multiset.
    fn times(self, times: u64) -> Self {
        Self {
            records: self.records * times,
            bytes: self.bytes * times,
            sum: self.sum.wrapping_mul(times),
        }
    }
}

/// One run being measured.
struct Run<'a> {
    options: &'a BenchJsonOptions,
    encoder: Encoder,
    mode: DeliveryGuarantee,
    compression: Compression,
    topic: &'a str,
}

/// Where the checkpoints of a run stand, carried from pass to pass.
struct Checkpoints {
    next_id: u64,
    position: u64,
}

impl Run<'_> {
    fn label(&self) -> String {
        format!(
            "[{} {} {}]",
            self.encoder.name(),
            mode_name(self.mode),
            self.compression
        )
    }

    fn progress_topic(&self) -> String {
        format!("{}-progress", self.topic)
    }

    fn sink_config(&self) -> SinkConfig {
        let mut config = SinkConfig::new(
            self.options.bootstrap_servers.as_str(),
            self.topic,
            self.progress_topic(),
            self.topic,
        )
        .with_mode(self.mode)
        .with_transaction_timeout(self.options.transaction_timeout)
        .with_property(
            "client.id",
            format!("streamfusion-bench-json-{}", self.encoder.name()),
        );
        for (key, value) in producer_settings() {
            config = config.with_property(key, value);
        }
        for (key, value) in LIBRDKAFKA_SETTINGS {
            config = config.with_property(key, value);
        }
        config = config.with_property("compression.type", self.compression.name());
        for (key, value) in &self.options.producer_properties {
            config = config.with_property(key, value);
        }
        config
    }

    fn measure_and_verify(
        &self,
        batches: &[RecordBatch],
        progress: &mut Progress,
    ) -> Result<RunResult, Error> {
        let label = self.label();
        let mut encoder =
            BatchEncoder::new(self.encoder, &schema(), &self.options.bids.key_fields)?;
        let mut sink = Sink::new(self.sink_config())?;
        if let Some(found) = sink.recover()? {
            return Err(kafka_util::Error::Topic {
                topic: self.progress_topic(),
                operation: "recover",
                reason: format!(
                    "writer {} already has checkpoint {}: not a fresh run",
                    found.writer_id, found.checkpoint_id
                ),
                code: None,
            }
            .into());
        }
        let mut records = EncodedRecords::new();
        let mut checkpoints = Checkpoints {
            next_id: 0,
            position: 0,
        };
        let mut one_pass = Digest::default();
        let mut passes = Vec::with_capacity(self.options.iterations);
        let mut passes_done = 0_u64;
        let mut problem = None;
        progress.start_run(&label, self.options.iterations as u64 + 1);
        for pass in 0..=self.options.iterations {
            let digest = (pass == 0).then_some(&mut one_pass);
            match self.pass(
                &mut sink,
                &mut encoder,
                batches,
                &mut records,
                &mut checkpoints,
                digest,
            ) {
                Ok(figures) => {
                    passes_done += 1;
                    progress.pass(
                        pass,
                        self.options.iterations,
                        figures.records_per_s(),
                        figures.seconds,
                    );
                    if pass > 0 {
                        passes.push(figures);
                    }
                }
                Err(error) => {
                    progress.message(&format!("{label} FAILED: {error}"));
                    problem = Some(error.to_string());
                    break;
                }
            }
        }
        drop(sink);
        let load = load_average();
        if problem.is_none() {
            problem = self.verify(one_pass.times(passes_done), progress);
        }
        if passes_done != self.options.iterations as u64 + 1 {
            passes.clear();
        }
        let result = RunResult {
            encoder: self.encoder,
            mode: self.mode,
            compression: self.compression,
            events: self.options.events,
            passes,
            verified: problem.is_none(),
            problem,
            topic: self.topic.to_owned(),
        };
        progress.done(&format!(
            "{label} verified={}, median {} records/s, {} MB/s, encode {} of the CPU (load {}){}",
            result.verified,
            grouped(result.median_records_per_s().unwrap_or(f64::NAN)),
            result
                .median_mb_per_s()
                .map_or_else(|| "-".to_owned(), |v| format!("{v:.1}")),
            result
                .median_encode_share()
                .map_or_else(|| "-".to_owned(), |v| format!("{:.0}%", v * 100.0)),
            load.as_deref().unwrap_or("?"),
            result
                .problem
                .as_deref()
                .map_or_else(String::new, |p| format!(": {p}"))
        ));
        Ok(result)
    }

    /// One pass over every batch (see the module docs); `digest`, when given, receives every record.
    fn pass(
        &self,
        sink: &mut Sink,
        encoder: &mut BatchEncoder,
        batches: &[RecordBatch],
        records: &mut EncodedRecords,
        checkpoints: &mut Checkpoints,
        mut digest: Option<&mut Digest>,
    ) -> Result<Pass, Error> {
        let started = Instant::now();
        let process_start = cpu::process_cpu()?;
        let thread_start = cpu::thread_cpu()?;
        let mut encode_cpu = Duration::ZERO;
        let (mut written, mut bytes, mut taken) = (0_u64, 0_u64, 0_u64);
        let mut last_checkpoint = started;
        let mut in_checkpoints = Duration::ZERO;
        for (index, batch) in batches.iter().enumerate() {
            let before = cpu::thread_cpu()?;
            encoder.encode_into(batch, records)?;
            encode_cpu += cpu::thread_cpu()?.saturating_sub(before);
            if let Some(digest) = digest.as_deref_mut() {
                for (key, value) in records.iter() {
                    digest.add(key, value);
                }
            }
            sink.write(records)?;
            written += records.len() as u64;
            bytes += (records.keys().len() + records.values().len()) as u64;
            checkpoints.position += records.len() as u64;
            let last = index + 1 == batches.len();
            if last || last_checkpoint.elapsed() >= self.options.checkpoint_interval {
                let checkpoint_start = Instant::now();
                sink.checkpoint(checkpoints.next_id, &encode_position(checkpoints.position))?;
                last_checkpoint = Instant::now();
                in_checkpoints += last_checkpoint - checkpoint_start;
                checkpoints.next_id += 1;
                taken += 1;
            }
        }
        let thread_cpu = cpu::thread_cpu()?.saturating_sub(thread_start);
        let process_cpu = cpu::process_cpu()?.saturating_sub(process_start);
        Ok(Pass {
            seconds: started.elapsed().as_secs_f64(),
            records: written,
            bytes,
            encode_cpu_s: encode_cpu.as_secs_f64(),
            sink_calls_cpu_s: thread_cpu.saturating_sub(encode_cpu).as_secs_f64(),
            other_threads_cpu_s: process_cpu.saturating_sub(thread_cpu).as_secs_f64(),
            checkpoints: taken,
            checkpoint_s: in_checkpoints.as_secs_f64(),
        })
    }

    /// Reads the topic back `read_committed`; `None` when it holds exactly the `expected` records.
    fn verify(&self, expected: Digest, progress: &mut Progress) -> Option<String> {
        let mut found = Digest::default();
        let cluster = KafkaArgs {
            properties: self.options.producer_properties.to_vec(),
            ..KafkaArgs::new(&self.options.bootstrap_servers)
        };
        let read = read_topic(
            &cluster,
            self.topic,
            Isolation::ReadCommitted,
            progress,
            |key, value| found.add(key, value),
        );
        match read {
            Err(error) => Some(format!("reading back: {error}")),
            Ok(_) if found == expected => None,
            Ok(_) if found.records != expected.records => Some(format!(
                "read {} records back ({}), wrote {}",
                found.records,
                Isolation::ReadCommitted,
                expected.records
            )),
            Ok(_) if found.bytes != expected.bytes => Some(format!(
                "read {} key and value bytes back, wrote {}",
                found.bytes, expected.bytes
            )),
            Ok(_) => Some(format!(
                "the {} records read back are not those written (digest {:#x}, expected {:#x})",
                found.records, found.sum, expected.sum
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_ignores_order_and_counts_copies() {
        let mut forward = Digest::default();
        forward.add(Some(b"k1"), Some(b"v1"));
        forward.add(None, Some(b"v2"));
        let mut backward = Digest::default();
        backward.add(None, Some(b"v2"));
        backward.add(Some(b"k1"), Some(b"v1"));
        assert_eq!(forward, backward);
        let mut twice = forward;
        twice.add(Some(b"k1"), Some(b"v1"));
        twice.add(None, Some(b"v2"));
        assert_eq!(twice, forward.times(2));
        let mut moved = Digest::default();
        moved.add(Some(b"k"), Some(b"1v1"));
        moved.add(None, Some(b"v2"));
        assert_ne!(moved, forward, "a byte moved from key to value");
    }
}
