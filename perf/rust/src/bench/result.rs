//! A run's outcome and its output: one JSON line, or a row of the results schema (`perf/common`).

use serde::Serialize;

use super::{Compression, ValueCodec};
use crate::common::ResultRow;
use crate::distribution::Distribution;

/// The `benchmark` column of the producer comparison's rows.
pub const BENCHMARK: &str = "bijou64-producer";

/// The `implementation` column of every Rust run.
pub const IMPLEMENTATION: &str = "RUST";

/// The outcome of one `streamfusion-bench bench` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchResult {
    /// The comparison's name of the mode: `rust-long` or `rust-bijou`.
    pub mode: &'static str,
    /// Always [`IMPLEMENTATION`].
    pub implementation: &'static str,
    /// The producer `compression.type`.
    pub compression: &'static str,
    /// The value distribution.
    pub distribution: &'static str,
    /// Records per pass (N).
    pub messages: usize,
    /// Measured iterations; 0 when the run failed before finishing them.
    pub iterations: usize,
    /// Median rate (mean of the two middle rates for an even count); `None` without
    /// measured iterations.
    pub median_msgs_per_s: Option<f64>,
    /// Lowest rate.
    pub min_msgs_per_s: Option<f64>,
    /// Highest rate.
    pub max_msgs_per_s: Option<f64>,
    /// Every measured rate, in order (the warm-up excluded).
    pub rates_msgs_per_s: Vec<f64>,
    /// Mean value size over every record produced (warm-up included), as the delivery
    /// reports gave it; `None` when nothing was delivered.
    pub avg_payload_bytes: Option<f64>,
    /// Every record was read back, in order, equal to what was sent.
    pub verified: bool,
    /// Why the run is not verified.
    pub problem: Option<String>,
    /// The topic the run produced to.
    pub topic: String,
    /// The seed of the random distributions.
    pub seed: i64,
}

impl BenchResult {
    /// A result with the summary statistics of `rates`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        mode: ValueCodec,
        compression: Compression,
        distribution: Distribution,
        messages: usize,
        rates: Vec<f64>,
        avg_payload_bytes: Option<f64>,
        problem: Option<String>,
        topic: String,
        seed: i64,
    ) -> Self {
        Self {
            mode: mode.comparison_name(),
            implementation: IMPLEMENTATION,
            compression: compression.name(),
            distribution: distribution.name(),
            messages,
            iterations: rates.len(),
            median_msgs_per_s: median(&rates),
            min_msgs_per_s: rates.iter().copied().reduce(f64::min),
            max_msgs_per_s: rates.iter().copied().reduce(f64::max),
            rates_msgs_per_s: rates,
            avg_payload_bytes,
            verified: problem.is_none(),
            problem,
            topic,
            seed,
        }
    }

    /// One JSON object on one line.
    #[must_use]
    pub fn json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The run as a row of the results schema (`perf/common/results-schema.csv`); the ratio columns stay
    /// empty (the comparison computes them against its baseline).
    #[must_use]
    pub fn result_row(&self) -> ResultRow {
        ResultRow::new()
            .text("benchmark", BENCHMARK)
            .text("workload", self.distribution)
            .text("mode", self.mode)
            .text("implementation", self.implementation)
            .text("compression", self.compression)
            .count("records", self.messages as u64)
            .count("iterations", self.iterations as u64)
            .number("median_records_per_s", self.median_msgs_per_s)
            .number("min_records_per_s", self.min_msgs_per_s)
            .number("max_records_per_s", self.max_msgs_per_s)
            .number("value_bytes_per_record", self.avg_payload_bytes)
            .flag("verified", self.verified)
            .text("problem", self.problem.as_deref().unwrap_or_default())
    }
}

/// The median (mean of the two middle values for an even count), `None` if empty.
#[must_use]
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[mid]),
        _ => Some((sorted[mid - 1] + sorted[mid]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_like_the_java_side() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0]), Some(2.5));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
    }

    #[test]
    fn the_result_row_fills_the_schema_columns() {
        let result = BenchResult::new(
            ValueCodec::Bijou,
            Compression::Zstd,
            Distribution::Sequential,
            50_000,
            vec![1_000_000.4, 1_200_000.6],
            Some(2.98512),
            None,
            "t".into(),
            1,
        );
        let row = result.result_row();
        for (column, cell) in [
            ("benchmark", "bijou64-producer"),
            ("workload", "sequential"),
            ("mode", "rust-bijou"),
            ("implementation", "RUST"),
            ("compression", "zstd"),
            ("records", "50000"),
            ("iterations", "2"),
            ("median_records_per_s", "1100000"),
            ("min_records_per_s", "1000000"),
            ("max_records_per_s", "1200001"),
            ("value_bytes_per_record", "2.985"),
            ("verified", "true"),
            ("ratio_vs_baseline", ""),
            ("problem", ""),
        ] {
            assert_eq!(row.get(column), cell, "{column}");
        }
        let json: serde_json::Value = serde_json::from_str(&result.json_line()).unwrap();
        assert_eq!(json["mode"], "rust-bijou");
        assert_eq!(json["verified"], true);
        assert_eq!(json["iterations"], 2);
    }

    #[test]
    fn a_failed_run_has_empty_rates() {
        let result = BenchResult::new(
            ValueCodec::Long,
            Compression::None,
            Distribution::Mixed,
            10,
            vec![],
            None,
            Some("send failed".into()),
            "t".into(),
            1,
        );
        assert!(!result.verified);
        let row = result.result_row();
        assert_eq!(row.get("iterations"), "0");
        assert_eq!(row.get("median_records_per_s"), "");
        assert_eq!(row.get("verified"), "false");
        assert_eq!(row.get("problem"), "send failed");
    }
}
