//! The command line: `streamfusion produce`, `consume`, `verify`, `bench`, `bench-json` and
//! `chart`.
//!
//! Exit status: 0 success (for `bench` and `bench-json`: every run was verified; for
//! `verify`: the committed records are exactly the expected ones); 1 an error (no broker, a
//! sink failure, a file that cannot be read); 2 bad arguments; 3 `bench`, `bench-json` or
//! `verify` finished but the records read back differ from those expected (the results are
//! still printed).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand, ValueEnum};

use std::time::Duration;

use crate::bench::{self, BenchOptions, Compression, Mode};
use crate::bench_json::{self, BenchJsonOptions, Encoder};
use crate::bids::{BidOptions, DEFAULT_BASE_TIME_MS};
use crate::chart;
use crate::distribution::{Distribution, DEFAULT_SEED};
use crate::produce::{self, ProduceOptions};
use crate::progress::Progress;
use crate::read::{self, Isolation};
use crate::source::{FileFormat, Input};
use crate::Error;

/// Exit status of a `bench` or `bench-json` run that was not verified, and of a `verify` that found the
/// topic different from what was expected.
pub const EXIT_NOT_VERIFIED: u8 = 3;

/// `streamfusion`: Kafka producer benchmarks and charts for bijou64 and StreamFusion.
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
    /// Produce N values per pass to a new topic, time the passes, read everything back,
    /// print one result line on stdout.
    Bench(BenchArgs),
    /// Throughput of the JSON sink: Nexmark bids encoded by StreamFusion (Flink and plain
    /// mode) and by arrow-json per row, written through the exactly-once / at-least-once
    /// sink, every run read back; prints a table.
    BenchJson(BenchJsonArgs),
    /// Draw the PNG chart of a producer comparison results CSV.
    Chart(ChartArgs),
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
    pub fn sink_mode(self) -> streamfusion_sink::Mode {
        match self {
            Guarantee::AtLeastOnce => streamfusion_sink::Mode::AtLeastOnce,
            Guarantee::ExactlyOnce => streamfusion_sink::Mode::ExactlyOnce,
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
    /// Kafka bootstrap servers.
    #[arg(long, default_value = "127.0.0.1:19092")]
    pub bootstrap_servers: String,
    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub ci: bool,
    /// An extra librdkafka producer property, e.g. `-X linger.ms=20` (repeatable).
    #[arg(short = 'X', long = "producer-property", value_name = "KEY=VALUE", value_parser = parse_property)]
    pub producer_properties: Vec<(String, String)>,
}

impl ProduceArgs {
    /// The run these arguments describe.
    ///
    /// # Errors
    /// [`Error::Input`] when `--input` names a file of unknown type.
    pub fn options(&self) -> Result<ProduceOptions, Error> {
        Ok(ProduceOptions {
            bootstrap_servers: self.bootstrap_servers.clone(),
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
            producer_properties: self.producer_properties.clone(),
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
    /// Kafka bootstrap servers.
    #[arg(long, default_value = "127.0.0.1:19092")]
    pub bootstrap_servers: String,
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
    /// Kafka bootstrap servers.
    #[arg(long, default_value = "127.0.0.1:19092")]
    pub bootstrap_servers: String,
    /// Plain progress lines on stderr instead of a progress bar.
    #[arg(long)]
    pub ci: bool,
}

/// The output format of the `bench` result line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object with every field (rates of each iteration, topic, seed, problem).
    Json,
    /// One row of the producer comparison CSV (its 12 columns, `ratio_vs_long` empty).
    Csv,
}

/// Arguments of `streamfusion bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How values become record bytes: `long` (8 big-endian bytes, like Kafka's
    /// LongSerializer) or `bijou` (bijou64, unsigned mapping, one slab per pass).
    #[arg(long, value_enum)]
    pub mode: Mode,
    /// Which values are sent (the same generators and seed as perf/kafka's Java side).
    #[arg(long, value_enum, default_value_t = Distribution::Sequential)]
    pub distribution: Distribution,
    /// Records per pass (N); `_` separators allowed.
    #[arg(long, default_value = "50000", value_parser = parse_count)]
    pub messages: usize,
    /// Measured passes; one warm-up pass runs first and is discarded.
    #[arg(long, default_value = "5", value_parser = parse_count)]
    pub iterations: usize,
    /// Producer compression.type.
    #[arg(long, value_enum, default_value_t = Compression::None)]
    pub compression: Compression,
    /// The topic to create, produce to and delete (default:
    /// streamfusion-bench-DISTRIBUTION-MODE-COMPRESSION-UNIXMILLIS).
    #[arg(long)]
    pub topic: Option<String>,
    /// Kafka bootstrap servers.
    #[arg(long, default_value = "127.0.0.1:19092")]
    pub bootstrap_servers: String,
    /// Seed of the uniform and mixed distributions.
    #[arg(long, default_value_t = DEFAULT_SEED, allow_negative_numbers = true)]
    pub seed: i64,
    /// Leave the topic in place after the run.
    #[arg(long)]
    pub keep_topic: bool,
    /// Plain progress lines on stderr instead of progress bars (also when stderr is
    /// not a terminal).
    #[arg(long)]
    pub ci: bool,
    /// Format of the result line on stdout.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// An extra or overriding librdkafka producer property, e.g. `-X batch.num.messages=10000`
    /// (repeatable; for experiments: the comparison uses the defaults).
    #[arg(short = 'X', long = "producer-property", value_name = "KEY=VALUE", value_parser = parse_property)]
    pub producer_properties: Vec<(String, String)>,
}

/// The output of `bench-json` on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// An aligned table, one row per run.
    Table,
    /// One JSON object per run (every figure, each measured pass).
    Json,
    /// A header and one CSV row per run.
    Csv,
}

/// Arguments of `streamfusion bench-json`.
#[derive(Debug, Args)]
pub struct BenchJsonArgs {
    /// Bids per pass; `_` separators allowed.
    #[arg(long, default_value = "1_000_000", value_parser = parse_count)]
    pub events: usize,
    /// Rows per Arrow batch (one encode call and one sink write each).
    #[arg(long, default_value = "4096", value_parser = parse_count)]
    pub batch_rows: usize,
    /// Measured passes per run; one warm-up pass runs first and is discarded.
    #[arg(long, default_value = "3", value_parser = parse_count)]
    pub iterations: usize,
    /// The encoders, comma-separated.
    #[arg(long = "encoder", value_enum, value_delimiter = ',',
          default_values_t = [Encoder::StreamfusionFlink, Encoder::StreamfusionPlain, Encoder::ArrowJsonPerRow])]
    pub encoders: Vec<Encoder>,
    /// The sink's guarantees, comma-separated.
    #[arg(long = "mode", value_enum, value_delimiter = ',',
          default_values_t = [Guarantee::AtLeastOnce, Guarantee::ExactlyOnce])]
    pub modes: Vec<Guarantee>,
    /// Producer compression.type values, comma-separated.
    #[arg(long = "compression", value_enum, value_delimiter = ',',
          default_values_t = [Compression::None, Compression::Zstd])]
    pub compressions: Vec<Compression>,
    /// Minimum time between checkpoints (exactly once: one transaction per interval).
    #[arg(long, default_value_t = 1000)]
    pub checkpoint_interval_ms: u64,
    /// The sink's transaction timeout.
    #[arg(long, default_value_t = 60_000)]
    pub transaction_timeout_ms: u64,
    /// `key.fields` of every encoder (`;`-separated columns; empty: null keys).
    #[arg(long, default_value = "auction")]
    pub key_fields: String,
    /// Base time of the bids' `dateTime` in Unix milliseconds.
    #[arg(long, default_value_t = DEFAULT_BASE_TIME_MS)]
    pub base_time_ms: u64,
    /// Topics are PREFIX-ENCODER-GUARANTEE-COMPRESSION-UNIXMILLIS (and ...-progress).
    #[arg(long, default_value = "streamfusion-bench-json")]
    pub topic_prefix: String,
    /// Leave the topics in place after each run.
    #[arg(long)]
    pub keep_topics: bool,
    /// Kafka bootstrap servers.
    #[arg(long, default_value = "127.0.0.1:19092")]
    pub bootstrap_servers: String,
    /// Plain progress lines on stderr instead of progress bars.
    #[arg(long)]
    pub ci: bool,
    /// What stdout gets.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// An extra or overriding librdkafka producer property (repeatable; for experiments).
    #[arg(short = 'X', long = "producer-property", value_name = "KEY=VALUE", value_parser = parse_property)]
    pub producer_properties: Vec<(String, String)>,
}

impl BenchJsonArgs {
    /// The runs these arguments describe.
    #[must_use]
    pub fn options(&self) -> BenchJsonOptions {
        BenchJsonOptions {
            bootstrap_servers: self.bootstrap_servers.clone(),
            events: self.events,
            batch_rows: self.batch_rows,
            iterations: self.iterations,
            encoders: self.encoders.clone(),
            modes: self.modes.iter().map(|g| g.sink_mode()).collect(),
            compressions: self.compressions.clone(),
            checkpoint_interval: Duration::from_millis(self.checkpoint_interval_ms),
            transaction_timeout: Duration::from_millis(self.transaction_timeout_ms),
            bids: BidOptions {
                base_time_ms: self.base_time_ms,
                key_fields: self.key_fields.clone(),
            },
            topic_prefix: self.topic_prefix.clone(),
            keep_topics: self.keep_topics,
            producer_properties: self.producer_properties.clone(),
        }
    }
}

/// Arguments of `streamfusion chart`.
#[derive(Debug, Args)]
pub struct ChartArgs {
    /// A results CSV written by perf/kafka/compare-benchmarks.sh.
    #[arg(long)]
    pub csv: PathBuf,
    /// The PNG to write (default: the CSV's path with .png).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The chart's title (default: "Kafka producer comparison, CSV-FILE-NAME").
    #[arg(long)]
    pub title: Option<String>,
}

fn parse_property(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            Ok((key.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("expected KEY=VALUE, got '{text}'")),
    }
}

fn parse_count(text: &str) -> Result<usize, String> {
    match text.replace('_', "").parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number of at least 1, got '{text}'"
        )),
    }
}

impl BenchArgs {
    /// The run these arguments describe.
    #[must_use]
    pub fn options(&self) -> BenchOptions {
        let topic = self.topic.clone().unwrap_or_else(|| {
            let millis = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis());
            format!(
                "streamfusion-bench-{}-{}-{}-{millis}",
                self.distribution,
                self.mode.comparison_name(),
                self.compression
            )
        });
        BenchOptions {
            mode: self.mode,
            distribution: self.distribution,
            messages: self.messages,
            iterations: self.iterations,
            compression: self.compression,
            topic,
            bootstrap_servers: self.bootstrap_servers.clone(),
            seed: self.seed,
            keep_topic: self.keep_topic,
            producer_properties: self.producer_properties.clone(),
        }
    }
}

/// Runs a parsed command line; returns the process exit status.
///
/// # Errors
/// Whatever the command fails with ([`Error`]); the caller prints it and exits 1.
pub fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.command {
        Command::Bench(args) => {
            let options = args.options();
            let mut progress = Progress::new(args.ci);
            progress.message(&format!(
                "{} producer: {}",
                options.label(),
                options.settings_line()
            ));
            let result = bench::run(&options, &mut progress)?;
            drop(progress);
            match args.format {
                Format::Json => println!("{}", result.json_line()),
                Format::Csv => println!("{}", result.csv_row()),
            }
            Ok(if result.verified {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_NOT_VERIFIED)
            })
        }
        Command::BenchJson(args) => {
            let options = args.options();
            let mut progress = Progress::new(args.ci);
            let results = bench_json::run(&options, &mut progress)?;
            drop(progress);
            match args.format {
                TableFormat::Table => print!("{}", bench_json::table(&results)),
                TableFormat::Json => {
                    for run in &results {
                        println!("{}", bench_json::json_line(&results, run));
                    }
                }
                TableFormat::Csv => {
                    println!("{}", bench_json::CSV_HEADER);
                    for run in &results {
                        println!("{}", bench_json::csv_row(&results, run));
                    }
                }
            }
            Ok(if results.iter().all(|run| run.verified) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_NOT_VERIFIED)
            })
        }
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
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut failed = None;
            let counts = read::read_topic(
                &args.bootstrap_servers,
                &args.topic,
                args.isolation,
                &mut progress,
                |key, value| {
                    if args.print && failed.is_none() {
                        if let Err(error) = print_record(&mut out, key, value) {
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
                &args.bootstrap_servers,
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
        Command::Chart(args) => {
            let rows = chart::read_results(&args.csv)?;
            let out = args.out.unwrap_or_else(|| chart::png_beside(&args.csv));
            let title = args.title.unwrap_or_else(|| {
                let name = args
                    .csv
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                format!("Kafka producer comparison, {name}")
            });
            chart::draw(&rows, &title, &out)?;
            eprintln!("chart: {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn print_record(
    out: &mut impl std::io::Write,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> std::io::Result<()> {
    out.write_all(key.unwrap_or(b"null"))?;
    out.write_all(b"\t")?;
    out.write_all(value.unwrap_or(b"null"))?;
    out.write_all(b"\n")
}
