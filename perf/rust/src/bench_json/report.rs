//! The figures of one run and their three renderings: a table for people, JSON lines and CSV for scripts.

use serde::Serialize;
use std::fmt::Write as _;

use super::encoders::Encoder;
use streamfusion_cli::progress::grouped;

use crate::common::ResultRow;

use crate::bench::{median, Compression};

/// One measured pass: all events encoded and written once, ending when the last checkpoint returned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pass {
    /// Wall-clock seconds from the first encode to the last checkpoint's return.
    pub seconds: f64,
    /// Records written.
    pub records: u64,
    /// Key and value bytes written.
    pub bytes: u64,
    /// CPU seconds of the writing thread inside the encoder.
    pub encode_cpu_s: f64,
    /// CPU seconds of the writing thread inside `Sink::write` and `Sink::checkpoint` (the thread's CPU time
    /// minus the encoding; the loop around the calls is in it, and is negligible).
    pub sink_calls_cpu_s: f64,
    /// CPU seconds of every other thread of the process: librdkafka's broker and main threads (batching,
    /// compression, the network), the only other threads running.
    pub other_threads_cpu_s: f64,
    /// Checkpoints taken (commits, exactly once; acknowledged flushes, at least once).
    pub checkpoints: u64,
    /// Wall-clock seconds inside `Sink::checkpoint` (exactly once: the commit, which first waits for the
    /// interval's records; at least once: a flush, the progress record, a second flush).
    pub checkpoint_s: f64,
}

impl Pass {
    /// Records per second.
    #[must_use]
    pub fn records_per_s(&self) -> f64 {
        self.records as f64 / self.seconds
    }

    /// Key and value megabytes (10^6 bytes) per second.
    #[must_use]
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 / self.seconds / 1e6
    }

    /// CPU seconds of the whole process.
    #[must_use]
    pub fn process_cpu_s(&self) -> f64 {
        self.encode_cpu_s + self.sink_calls_cpu_s + self.other_threads_cpu_s
    }

    /// Encoding's share of the process CPU time, 0..1.
    #[must_use]
    pub fn encode_share(&self) -> f64 {
        self.encode_cpu_s / self.process_cpu_s()
    }

    /// The sink calls' share of the process CPU time, 0..1.
    #[must_use]
    pub fn sink_calls_share(&self) -> f64 {
        self.sink_calls_cpu_s / self.process_cpu_s()
    }

    /// librdkafka's threads' share of the process CPU time, 0..1.
    #[must_use]
    pub fn other_threads_share(&self) -> f64 {
        self.other_threads_cpu_s / self.process_cpu_s()
    }

    /// The share of the pass's wall-clock time spent inside `Sink::checkpoint`, 0..1.
    #[must_use]
    pub fn checkpoint_share(&self) -> f64 {
        self.checkpoint_s / self.seconds
    }

    /// Process CPU microseconds per record.
    #[must_use]
    pub fn cpu_us_per_record(&self) -> f64 {
        self.process_cpu_s() * 1e6 / self.records as f64
    }
}

/// The outcome of one run (one encoder, guarantee and compression).
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    /// The contender.
    pub encoder: Encoder,
    /// The sink's guarantee.
    pub mode: streamfusion_sink::DeliveryGuarantee,
    /// The producer's compression.
    pub compression: Compression,
    /// Records per pass.
    pub events: usize,
    /// The measured passes (empty when the run failed before finishing them).
    pub passes: Vec<Pass>,
    /// True when every pass finished and the topic read back holds exactly what was written.
    pub verified: bool,
    /// Why the run is not verified.
    pub problem: Option<String>,
    /// The run's data topic.
    pub topic: String,
}

/// `at-least-once` or `exactly-once`.
#[must_use]
pub fn mode_name(mode: streamfusion_sink::DeliveryGuarantee) -> &'static str {
    match mode {
        streamfusion_sink::DeliveryGuarantee::AtLeastOnce => "at-least-once",
        streamfusion_sink::DeliveryGuarantee::ExactlyOnce => "exactly-once",
    }
}

impl RunResult {
    fn median_of(&self, figure: impl Fn(&Pass) -> f64) -> Option<f64> {
        median(&self.passes.iter().map(figure).collect::<Vec<_>>())
    }

    /// Median records per second over the measured passes.
    #[must_use]
    pub fn median_records_per_s(&self) -> Option<f64> {
        self.median_of(Pass::records_per_s)
    }

    /// Median MB/s (10^6 bytes of keys and values).
    #[must_use]
    pub fn median_mb_per_s(&self) -> Option<f64> {
        self.median_of(Pass::mb_per_s)
    }

    /// Median encoding share of the process CPU.
    #[must_use]
    pub fn median_encode_share(&self) -> Option<f64> {
        self.median_of(Pass::encode_share)
    }

    /// Median share of the sink calls on the writing thread.
    #[must_use]
    pub fn median_sink_calls_share(&self) -> Option<f64> {
        self.median_of(Pass::sink_calls_share)
    }

    /// Median share of librdkafka's threads.
    #[must_use]
    pub fn median_other_threads_share(&self) -> Option<f64> {
        self.median_of(Pass::other_threads_share)
    }

    /// Median share of the wall-clock time inside `Sink::checkpoint`.
    #[must_use]
    pub fn median_checkpoint_share(&self) -> Option<f64> {
        self.median_of(Pass::checkpoint_share)
    }

    /// Median process CPU microseconds per record.
    #[must_use]
    pub fn median_cpu_us_per_record(&self) -> Option<f64> {
        self.median_of(Pass::cpu_us_per_record)
    }

    /// Mean key + value bytes per record.
    #[must_use]
    pub fn bytes_per_record(&self) -> Option<f64> {
        let (bytes, records) = self
            .passes
            .iter()
            .fold((0, 0), |(b, r), p| (b + p.bytes, r + p.records));
        (records > 0).then(|| bytes as f64 / records as f64)
    }

    /// The run's records/s median divided by `baseline`'s, when both have one.
    #[must_use]
    pub fn ratio_to(&self, baseline: Option<&RunResult>) -> Option<f64> {
        Some(self.median_records_per_s()? / baseline?.median_records_per_s()?)
    }
}

/// The arrow-json-per-row run with the same guarantee and compression as `run`, if any.
fn baseline<'a>(results: &'a [RunResult], run: &RunResult) -> Option<&'a RunResult> {
    results.iter().find(|other| {
        other.encoder == Encoder::ArrowJsonPerRow
            && other.mode == run.mode
            && other.compression == run.compression
    })
}

fn or_dash(value: Option<f64>, render: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "-".to_owned(), render)
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// Column names of the table and the CSV, in order.
pub const COLUMNS: [&str; 13] = [
    "encoder",
    "guarantee",
    "compression",
    "records/s",
    "MB/s",
    "bytes/record",
    "CPU us/record",
    "encode CPU",
    "sink calls CPU",
    "librdkafka CPU",
    "checkpoint wall",
    "vs arrow-json per row",
    "verified",
];

/// The cells of one table row.
fn cells(results: &[RunResult], run: &RunResult) -> [String; 13] {
    [
        run.encoder.name().to_owned(),
        mode_name(run.mode).to_owned(),
        run.compression.to_string(),
        or_dash(run.median_records_per_s(), grouped),
        or_dash(run.median_mb_per_s(), |v| format!("{v:.1}")),
        or_dash(run.bytes_per_record(), |v| format!("{v:.1}")),
        or_dash(run.median_cpu_us_per_record(), |v| format!("{v:.2}")),
        or_dash(run.median_encode_share(), percent),
        or_dash(run.median_sink_calls_share(), percent),
        or_dash(run.median_other_threads_share(), percent),
        or_dash(run.median_checkpoint_share(), percent),
        or_dash(run.ratio_to(baseline(results, run)), |v| format!("{v:.2}x")),
        run.verified.to_string(),
    ]
}

/// The human table: a header, a rule, one row per run; numbers right-aligned. Shares are medians of each
/// pass's share of the process CPU; the ratio compares records/s medians with arrow-json per row in the same
/// guarantee and compression.
#[must_use]
pub fn table(results: &[RunResult]) -> String {
    let rows: Vec<[String; 13]> = results.iter().map(|run| cells(results, run)).collect();
    let mut widths = COLUMNS.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let render = |out: &mut String, row: &[String]| {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            if column > 0 {
                line.push_str("  ");
            }
            let width = widths[column];
            if column < 3 || column == COLUMNS.len() - 1 {
                let _ = write!(line, "{cell:<width$}");
            } else {
                let _ = write!(line, "{cell:>width$}");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    };
    render(&mut out, &COLUMNS.map(str::to_owned));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    render(&mut out, &rule);
    for row in &rows {
        render(&mut out, row);
    }
    out
}

/// The `benchmark` column of `bench-json`'s rows.
pub const BENCHMARK: &str = "json-sink";

/// The run as a row of the results schema (`perf/common/results-schema.csv`): the workload is `bids`, the
/// baseline arrow-json per row in the same guarantee and compression.
#[must_use]
pub fn result_row(results: &[RunResult], run: &RunResult) -> ResultRow {
    let rates: Vec<f64> = run.passes.iter().map(Pass::records_per_s).collect();
    ResultRow::new()
        .text("benchmark", BENCHMARK)
        .text("workload", "bids")
        .text("mode", run.encoder.name())
        .text("implementation", "RUST")
        .text("compression", &run.compression.to_string())
        .text("guarantee", mode_name(run.mode))
        .count("records", run.events as u64)
        .count("iterations", run.passes.len() as u64)
        .number("median_records_per_s", run.median_records_per_s())
        .number("min_records_per_s", rates.iter().copied().reduce(f64::min))
        .number("max_records_per_s", rates.iter().copied().reduce(f64::max))
        .number("median_mb_per_s", run.median_mb_per_s())
        .number("bytes_per_record", run.bytes_per_record())
        .number("cpu_us_per_record", run.median_cpu_us_per_record())
        .number("encode_cpu_share", run.median_encode_share())
        .number("sink_calls_cpu_share", run.median_sink_calls_share())
        .number("librdkafka_cpu_share", run.median_other_threads_share())
        .number("checkpoint_wall_share", run.median_checkpoint_share())
        .flag("verified", run.verified)
        .text("baseline", Encoder::ArrowJsonPerRow.name())
        .number("ratio_vs_baseline", run.ratio_to(baseline(results, run)))
        .text("problem", run.problem.as_deref().unwrap_or_default())
}

#[derive(Serialize)]
struct JsonLine<'a> {
    encoder: &'static str,
    guarantee: &'static str,
    compression: String,
    events: usize,
    iterations: usize,
    median_records_per_s: Option<f64>,
    median_mb_per_s: Option<f64>,
    bytes_per_record: Option<f64>,
    median_cpu_us_per_record: Option<f64>,
    median_encode_cpu_share: Option<f64>,
    median_sink_calls_cpu_share: Option<f64>,
    median_librdkafka_cpu_share: Option<f64>,
    median_checkpoint_wall_share: Option<f64>,
    ratio_vs_arrow_json_per_row: Option<f64>,
    passes: &'a [Pass],
    verified: bool,
    problem: Option<&'a str>,
    topic: &'a str,
}

/// One JSON object with every figure, the measured passes included.
#[must_use]
pub fn json_line(results: &[RunResult], run: &RunResult) -> String {
    let line = JsonLine {
        encoder: run.encoder.name(),
        guarantee: mode_name(run.mode),
        compression: run.compression.to_string(),
        events: run.events,
        iterations: run.passes.len(),
        median_records_per_s: run.median_records_per_s(),
        median_mb_per_s: run.median_mb_per_s(),
        bytes_per_record: run.bytes_per_record(),
        median_cpu_us_per_record: run.median_cpu_us_per_record(),
        median_encode_cpu_share: run.median_encode_share(),
        median_sink_calls_cpu_share: run.median_sink_calls_share(),
        median_librdkafka_cpu_share: run.median_other_threads_share(),
        median_checkpoint_wall_share: run.median_checkpoint_share(),
        ratio_vs_arrow_json_per_row: run.ratio_to(baseline(results, run)),
        passes: &run.passes,
        verified: run.verified,
        problem: run.problem.as_deref(),
        topic: &run.topic,
    };
    serde_json::to_string(&line).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamfusion_sink::DeliveryGuarantee;

    fn run(encoder: Encoder, seconds: f64) -> RunResult {
        let pass = Pass {
            seconds,
            records: 1_000_000,
            bytes: 261_000_000,
            encode_cpu_s: 0.2,
            sink_calls_cpu_s: 0.5,
            other_threads_cpu_s: 0.3,
            checkpoints: 2,
            checkpoint_s: seconds / 4.0,
        };
        RunResult {
            encoder,
            mode: DeliveryGuarantee::ExactlyOnce,
            compression: Compression::Zstd,
            events: 1_000_000,
            passes: vec![pass; 3],
            verified: true,
            problem: None,
            topic: "t".into(),
        }
    }

    #[test]
    fn shares_split_the_process_cpu() {
        let pass = run(Encoder::StreamfusionFlink, 2.0).passes[0];
        assert!((pass.encode_share() - 0.2).abs() < 1e-9);
        assert!((pass.sink_calls_share() - 0.5).abs() < 1e-9);
        assert!((pass.other_threads_share() - 0.3).abs() < 1e-9);
        assert!((pass.cpu_us_per_record() - 1.0).abs() < 1e-9);
        assert!((pass.mb_per_s() - 130.5).abs() < 1e-9);
        assert!((pass.checkpoint_share() - 0.25).abs() < 1e-9);
    }

    #[test]
    fn table_rows_compare_with_arrow_json_per_row_in_the_same_guarantee_and_compression() {
        let results = [
            run(Encoder::StreamfusionFlink, 2.0),
            run(Encoder::ArrowJsonPerRow, 5.0),
        ];
        let table = table(&results);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[0].starts_with("encoder "), "{table}");
        assert!(
            lines[2].contains("streamfusion-flink  exactly-once  zstd"),
            "{table}"
        );
        assert!(lines[2].contains(" 500,000 "), "{table}");
        assert!(lines[2].contains(" 2.50x "), "{table}");
        assert!(lines[3].contains(" 1.00x "), "{table}");
        assert!(lines[2].ends_with("true"), "{table}");
        let row = result_row(&results, &results[0]);
        for (column, cell) in [
            ("benchmark", "json-sink"),
            ("mode", "streamfusion-flink"),
            ("guarantee", "exactly-once"),
            ("compression", "zstd"),
            ("records", "1000000"),
            ("iterations", "3"),
            ("median_records_per_s", "500000"),
            ("median_mb_per_s", "130.500"),
            ("bytes_per_record", "261.000"),
            ("encode_cpu_share", "0.2000"),
            ("checkpoint_wall_share", "0.2500"),
            ("baseline", "arrow-json-per-row"),
            ("ratio_vs_baseline", "2.500"),
            ("verified", "true"),
        ] {
            assert_eq!(row.get(column), cell, "{column}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&json_line(&results, &results[0])).unwrap();
        assert_eq!(json["ratio_vs_arrow_json_per_row"], 2.5);
        assert_eq!(json["passes"].as_array().map(Vec::len), Some(3));
    }

    #[test]
    fn a_run_without_baseline_or_passes_shows_dashes() {
        let mut failed = run(Encoder::StreamfusionPlain, 1.0);
        failed.passes.clear();
        failed.verified = false;
        failed.problem = Some("sink: \"x\" failed".into());
        let table = table(std::slice::from_ref(&failed));
        assert!(table.lines().nth(2).unwrap().contains(" - "), "{table}");
        let row = result_row(std::slice::from_ref(&failed), &failed);
        assert_eq!(row.get("verified"), "false");
        assert_eq!(row.get("baseline"), "arrow-json-per-row");
        assert_eq!(row.get("ratio_vs_baseline"), "");
        assert!(
            row.csv_line().ends_with(",\"sink: \"\"x\"\" failed\""),
            "{}",
            row.csv_line()
        );
    }
}
