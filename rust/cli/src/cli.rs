//! The command line: `streamfusion bench` and `streamfusion chart`.
//!
//! Exit status: 0 success (for `bench`: the run was verified); 1 an error (no broker,
//! a file that cannot be read); 2 bad arguments; 3 `bench` finished but the records read
//! back differ from those sent (the result line is still printed).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::{self, BenchOptions, Compression, Mode};
use crate::chart;
use crate::distribution::{Distribution, DEFAULT_SEED};
use crate::progress::Progress;
use crate::Error;

/// Exit status of a `bench` run that was not verified.
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
    /// Draw the PNG chart of a producer comparison results CSV.
    Chart(ChartArgs),
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
