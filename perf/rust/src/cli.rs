//! The command line: `streamfusion-bench bench`, `bench-json`, `chart` and `values`.
//!
//! Exit status: 0 success (for `bench` and `bench-json`: every run was verified); 1 an error (no broker, a
//! sink failure, a file that cannot be read); 2 bad arguments; 3 `bench` or `bench-json` finished but the
//! records read back differ from those expected (the results are still printed).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand, ValueEnum};
use kafka_util::args::KafkaArgs;
use streamfusion_cli::bids::{BidOptions, DEFAULT_BASE_TIME_MS};
use streamfusion_cli::cli::{Guarantee, EXIT_NOT_VERIFIED};
use streamfusion_cli::progress::Progress;

use crate::bench::{self, BenchOptions, Compression, ValueCodec};
use crate::bench_json::{self, BenchJsonOptions, Encoder};
use crate::chart;
use crate::common::results_header;
use crate::distribution::{Distribution, DEFAULT_SEED};
use crate::Error;

/// `streamfusion-bench`: Kafka producer benchmarks and charts for bijou64 and StreamFusion.
#[derive(Debug, Parser)]
#[command(name = "streamfusion-bench", version, about, long_about = None)]
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
    /// Write the values of a distribution as 8 big-endian bytes each (what Java's
    /// `DataInputStream.readLong` reads): the values the comparison's Java side sends.
    Values(ValuesArgs),
}

/// Arguments of `streamfusion-bench values`.
#[derive(Debug, Args)]
pub struct ValuesArgs {
    /// Which values.
    #[arg(long, value_enum, default_value_t = Distribution::Sequential)]
    pub distribution: Distribution,
    /// How many; `_` separators allowed.
    #[arg(long, default_value = "50000", value_parser = parse_count)]
    pub messages: usize,
    /// Seed of the uniform and mixed distributions.
    #[arg(long, default_value_t = DEFAULT_SEED, allow_negative_numbers = true)]
    pub seed: i64,
    /// The file to write (default: stdout).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// The output format of the `bench` result line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object with every field (rates of each iteration, topic, seed, problem).
    Json,
    /// The results schema's header and the run's row (`perf/common/results-schema.csv`; the ratio
    /// columns empty).
    Csv,
}

/// Arguments of `streamfusion-bench bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How values become record bytes: `long` (8 big-endian bytes, like Kafka's
    /// LongSerializer) or `bijou` (bijou64, unsigned mapping, one slab per pass).
    #[arg(long, value_enum)]
    pub mode: ValueCodec,
    /// Which values are sent (the generator whose output perf/kafka's Java side sends too).
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
    /// The cluster and the producer's extra or overriding properties (`-X key=value`, for experiments:
    /// the comparison uses the defaults).
    #[command(flatten)]
    pub kafka: KafkaArgs,
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

/// Arguments of `streamfusion-bench bench-json`.
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
    /// The cluster and the producer's extra or overriding properties (`-X key=value`, for experiments:
    /// the comparison uses the defaults).
    #[command(flatten)]
    pub kafka: KafkaArgs,
    /// Plain progress lines on stderr instead of progress bars.
    #[arg(long)]
    pub ci: bool,
    /// What stdout gets.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

impl BenchJsonArgs {
    /// The runs these arguments describe.
    #[must_use]
    pub fn options(&self) -> BenchJsonOptions {
        BenchJsonOptions {
            bootstrap_servers: self.kafka.bootstrap_servers.clone(),
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
            producer_properties: self.kafka.all_properties(),
        }
    }
}

/// Arguments of `streamfusion-bench chart`.
#[derive(Debug, Args)]
pub struct ChartArgs {
    /// A results CSV written by perf/kafka/compare-benchmarks.sh or perf/nexmark/run.sh.
    #[arg(long)]
    pub csv: PathBuf,
    /// The PNG to write (default: the CSV's path with .png).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The chart's title (default: "Kafka producer comparison, CSV-FILE-NAME").
    #[arg(long)]
    pub title: Option<String>,
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
            bootstrap_servers: self.kafka.bootstrap_servers.clone(),
            seed: self.seed,
            keep_topic: self.keep_topic,
            producer_properties: self.kafka.all_properties(),
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
                Format::Csv => {
                    println!("{}", results_header());
                    println!("{}", result.result_row().csv_line());
                }
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
                    println!("{}", results_header());
                    for run in &results {
                        println!("{}", bench_json::result_row(&results, run).csv_line());
                    }
                }
            }
            Ok(if results.iter().all(|run| run.verified) {
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
        Command::Values(args) => {
            let bytes = Distribution::big_endian_bytes(
                &args.distribution.generate(args.messages, args.seed),
            );
            let written = match &args.output {
                Some(path) => std::fs::write(path, &bytes).map_err(|source| (path.clone(), source)),
                None => std::io::stdout()
                    .lock()
                    .write_all(&bytes)
                    .and_then(|()| std::io::stdout().lock().flush())
                    .map_err(|source| (PathBuf::from("stdout"), source)),
            };
            written.map_err(|(path, source)| Error::Io { path, source })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
