//! The command line: `streamfusion produce`, `consume`, `verify` and `encode`.
//!
//! Exit status: 0 success (for `verify`: the committed records are exactly the expected ones); 1 an error (no
//! broker, a sink failure, a file that cannot be read); 2 bad arguments; 3 `verify` finished but the records
//! read back differ from those expected (the counts are still printed).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use kafka_util::args::KafkaArgs;

use crate::bids::{BidOptions, DEFAULT_BASE_TIME_MS};
use crate::encode::{self, EncodeOptions};
use crate::produce::{self, ProduceOptions};
use crate::progress::Progress;
use crate::read::{self, Isolation};
use crate::source::{FileFormat, Input, JsonMode};
use crate::Error;

/// Exit status of a `verify` that found the topic different from what was expected (and of a benchmark run
/// whose records read back differ from those sent).
pub const EXIT_NOT_VERIFIED: u8 = 3;

/// `streamfusion`: rows to Flink JSON records in Kafka, exactly once, and back.
#[derive(Debug, Parser)]
#[command(name = "streamfusion", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate Nexmark bids (or read an Arrow IPC / CSV file), encode them as Flink JSON
    /// and produce them through the exactly-once (or at-least-once) sink; resumes after
    /// the last committed checkpoint.
    Produce(ProduceArgs),
    /// Read a topic from the beginning to the end offsets captured at the start; print
    /// the records or count them.
    Consume(ConsumeArgs),
    /// Check that a topic holds exactly the records `produce` writes for the same
    /// options: nothing missing, no duplicates (exit 3 otherwise).
    Verify(VerifyArgs),
    /// Encode the rows `produce` would write (bids, or an Arrow IPC / CSV file) as JSON
    /// lines on stdout or in a file, in Flink or plain mode, without a broker.
    Encode(EncodeArgs),
}

/// The sink's delivery guarantee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Guarantee {
    /// Idempotent producer; a restart may write the last interval again.
    AtLeastOnce,
    /// Transactions: each checkpoint interval commits with its progress record.
    ExactlyOnce,
}

impl Guarantee {
    /// The sink's mode.
    #[must_use]
    pub fn sink_mode(self) -> streamfusion_sink::DeliveryGuarantee {
        match self {
            Guarantee::AtLeastOnce => streamfusion_sink::DeliveryGuarantee::AtLeastOnce,
            Guarantee::ExactlyOnce => streamfusion_sink::DeliveryGuarantee::ExactlyOnce,
        }
    }
}

/// What decides the records: shared by `produce` and `verify`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Bids in all; `_` separators allowed.
    #[arg(long, default_value = "100000", value_parser = parse_count)]
    pub events: usize,
    /// `key.fields` of the Flink JSON encoder (`;`-separated columns; empty: null keys).
    #[arg(long, default_value = "auction")]
    pub key_fields: String,
    /// Base time of the bids' `dateTime` in Unix milliseconds (the generator's seed: the
    /// same value gives the same bids).
    #[arg(long, default_value_t = DEFAULT_BASE_TIME_MS)]
    pub base_time_ms: u64,
    /// Every row of this Arrow IPC (`.arrow`, `.arrows`, `.ipc`, `.feather`: file or
    /// stream format) or CSV file (`.csv`, with a header row) instead of generated bids.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["events", "base_time_ms"])]
    pub input: Option<PathBuf>,
    /// The format of `--input` when its extension does not say.
    #[arg(long, value_enum, requires = "input")]
    pub input_format: Option<FileFormat>,
}

impl InputArgs {
    fn input(&self) -> Result<Input, Error> {
        match &self.input {
            Some(path) => Input::file(path.clone(), self.input_format, self.key_fields.clone()),
            None => Ok(Input::Bids {
                options: BidOptions {
                    base_time_ms: self.base_time_ms,
                    key_fields: self.key_fields.clone(),
                },
                events: self.events as u64,
            }),
        }
    }
}

/// Arguments of `streamfusion produce`.
#[derive(Debug, Args)]
pub struct ProduceArgs {
    /// The data topic (created when missing).
    #[arg(long)]
    pub topic: String,
    /// The sink's compacted progress topic (default: TOPIC-progress).
    #[arg(long)]
    pub progress_topic: Option<String>,
    /// The sink's writer id: keep it across restarts (default: produce-TOPIC).
    #[arg(long)]
    pub writer_id: Option<String>,
    /// Partitions of the data topic when it is created.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..))]
    pub partitions: i32,
    /// Delivery guarantee.
    #[arg(long, value_enum, default_value_t = Guarantee::ExactlyOnce)]
    pub mode: Guarantee,
    /// Minimum time between checkpoints (one transaction per interval exactly once).
    #[arg(long, default_value_t = 1000)]
    pub checkpoint_interval_ms: u64,
    /// The sink's transaction timeout (must not exceed the broker's
    /// transaction.max.timeout.ms).
    #[arg(long, default_value_t = 60_000)]
    pub transaction_timeout_ms: u64,
    /// Rows per Arrow batch (at most: a file's own batches may be smaller).
    #[arg(long, default_value = "4096", value_parser = parse_count)]
    pub batch_rows: usize,
    /// The rows.
    #[command(flatten)]
    pub source: InputArgs,
    /// The cluster and the producer's extra properties (`-X linger.ms=20`).
    #[command(flatten)]
    pub kafka: KafkaArgs,
    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub ci: bool,
}

impl ProduceArgs {
    /// The run these arguments describe.
    ///
    /// # Errors
    /// [`Error::Input`] when `--input` names a file of unknown type.
    pub fn options(&self) -> Result<ProduceOptions, Error> {
        Ok(ProduceOptions {
            bootstrap_servers: self.kafka.bootstrap_servers.clone(),
            topic: self.topic.clone(),
            partitions: self.partitions,
            progress_topic: self
                .progress_topic
                .clone()
                .unwrap_or_else(|| format!("{}-progress", self.topic)),
            writer_id: self
                .writer_id
                .clone()
                .unwrap_or_else(|| format!("produce-{}", self.topic)),
            mode: self.mode.sink_mode(),
            checkpoint_interval: Duration::from_millis(self.checkpoint_interval_ms),
            transaction_timeout: Duration::from_millis(self.transaction_timeout_ms),
            input: self.source.input()?,
            batch_rows: self.batch_rows,
            producer_properties: self.kafka.all_properties(),
        })
    }
}

/// Arguments of `streamfusion consume`.
#[derive(Debug, Args)]
pub struct ConsumeArgs {
    /// The topic to read.
    #[arg(long)]
    pub topic: String,
    /// The consumer's isolation level.
    #[arg(long, value_enum, default_value_t = Isolation::ReadCommitted)]
    pub isolation: Isolation,
    /// Print every record as KEY<TAB>VALUE (a null key or value as `null`) instead of
    /// only the counts.
    #[arg(long)]
    pub print: bool,
    /// The cluster.
    #[command(flatten)]
    pub kafka: KafkaArgs,
    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub ci: bool,
}

/// Arguments of `streamfusion verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The topic to check.
    #[arg(long)]
    pub topic: String,
    /// The rows `produce` was given.
    #[command(flatten)]
    pub source: InputArgs,
    /// The cluster.
    #[command(flatten)]
    pub kafka: KafkaArgs,
    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub ci: bool,
}

/// Arguments of `streamfusion encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The rows (the same options as `produce`).
    #[command(flatten)]
    pub source: InputArgs,
    /// Flink's `json` format with the Kafka connector's layout, or arrow-json's lines.
    #[arg(long, value_enum, default_value_t = JsonMode::Flink)]
    pub mode: JsonMode,
    /// Write KEY<TAB>VALUE per record (as `consume --print` does) instead of the value only.
    #[arg(long)]
    pub keys: bool,
    /// Write to this file instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn parse_count(text: &str) -> Result<usize, String> {
    match text.replace('_', "").parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number of at least 1, got '{text}'"
        )),
    }
}

/// Runs a parsed command line; returns the process exit status.
///
/// # Errors
/// Whatever the command fails with ([`Error`]); the caller prints it and exits 1.
pub fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.command {
        Command::Produce(args) => {
            let options = args.options()?;
            let mut progress = Progress::new(args.ci);
            let summary = produce::run(&options, &mut progress)?;
            drop(progress);
            println!("{}", summary.line());
            Ok(ExitCode::SUCCESS)
        }
        Command::Consume(args) => {
            let mut progress = Progress::new(args.ci || args.print);
            let mut out = BufWriter::new(std::io::stdout().lock());
            let mut failed = None;
            let counts = read::read_topic(
                &args.kafka,
                &args.topic,
                args.isolation,
                &mut progress,
                |key, value| {
                    if args.print && failed.is_none() {
                        if let Err(error) = encode::write_record(&mut out, true, key, value) {
                            failed = Some(error);
                        }
                    }
                },
            )?;
            drop(progress);
            let written = std::io::Write::flush(&mut out);
            match failed.or(written.err()) {
                // `streamfusion consume --print | head`: the reader left; not an error.
                Some(source) if source.kind() == std::io::ErrorKind::BrokenPipe => {
                    return Ok(ExitCode::SUCCESS)
                }
                Some(source) => {
                    return Err(Error::Io {
                        path: PathBuf::from("<stdout>"),
                        source,
                    })
                }
                None => {}
            }
            drop(out);
            let line = format!(
                "consume: topic {}, isolation {}, partitions {}, records {}, tombstones {}, bytes {}",
                args.topic,
                args.isolation,
                counts.partitions,
                counts.records,
                counts.tombstones,
                counts.bytes
            );
            if args.print {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(args) => {
            let mut progress = Progress::new(args.ci);
            let result = read::verify(
                &args.kafka,
                &args.topic,
                &args.source.input()?,
                &mut progress,
            )?;
            drop(progress);
            println!("{}", result.line());
            Ok(if result.exact() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_NOT_VERIFIED)
            })
        }
        Command::Encode(args) => {
            let options = EncodeOptions {
                input: args.source.input()?,
                mode: args.mode,
                keys: args.keys,
            };
            let summary = match &args.output {
                Some(path) => {
                    let file = File::create(path).map_err(|source| Error::Io {
                        path: path.clone(),
                        source,
                    })?;
                    encode::run(&options, &mut BufWriter::new(file)).map_err(
                        |error| match error {
                            Error::Io { source, .. } => Error::Io {
                                path: path.clone(),
                                source,
                            },
                            other => other,
                        },
                    )?
                }
                None => {
                    match encode::run(&options, &mut BufWriter::new(std::io::stdout().lock())) {
                        // `streamfusion encode | head`: the reader left; not an error.
                        Err(Error::Io { source, .. })
                            if source.kind() == std::io::ErrorKind::BrokenPipe =>
                        {
                            return Ok(ExitCode::SUCCESS)
                        }
                        other => other?,
                    }
                }
            };
            eprintln!(
                "encode: {} records, {} bytes ({} mode)",
                summary.records,
                summary.bytes,
                args.mode.name()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
