//! A run's outcome and its one-line output (JSON or a producer comparison CSV row).

use serde::Serialize;

use super::{Compression, ValueCodec};
use streamfusion_cli::progress::fixed;

use crate::distribution::Distribution;

/// The columns of `perf/kafka`'s results CSV, in order; [`BenchResult::csv_row`] writes
/// them (`ratio_vs_long` empty: the script's table computes it).
pub const CSV_HEADER: &str = "mode,compression,distribution,messages,iterations,median_msgs_per_s,\
min_msgs_per_s,max_msgs_per_s,avg_payload_bytes,verified,implementation,ratio_vs_long";

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

    /// One row of the comparison CSV ([`CSV_HEADER`]).
    #[must_use]
    pub fn csv_row(&self) -> String {
        let plain =
            |v: Option<f64>, decimals: usize| v.map(|v| fixed(v, decimals)).unwrap_or_default();
        [
            self.mode.to_owned(),
            self.compression.to_owned(),
            self.distribution.to_owned(),
            self.messages.to_string(),
            self.iterations.to_string(),
            plain(self.median_msgs_per_s, 0),
            plain(self.min_msgs_per_s, 0),
            plain(self.max_msgs_per_s, 0),
            plain(self.avg_payload_bytes, 3),
            self.verified.to_string(),
            self.implementation.to_owned(),
            String::new(),
        ]
        .join(",")
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
    fn rounds_ties_half_up_like_java() {
        assert_eq!(
            fixed(2.9625, 3),
            "2.963",
            "1..20,000: 59,250 bytes / 20,000"
        );
        assert_eq!(fixed(2.9624, 3), "2.962");
        assert_eq!(fixed(2.985, 3), "2.985");
        assert_eq!(fixed(1_100_000.5, 0), "1100001");
        assert_eq!(fixed(1_100_001.5, 0), "1100002");
        assert_eq!(fixed(0.125, 2), "0.13");
        assert_eq!(fixed(8.0, 3), "8.000");
        assert_eq!(fixed(-2.5, 0), "-3");
        assert_eq!(fixed(999.9996, 3), "1000.000");
        assert_eq!(fixed(0.0, 3), "0.000");
        assert_eq!(fixed(1e21, 0), "1000000000000000000000");
    }

    #[test]
    fn median_like_the_java_side() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0]), Some(2.5));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
    }

    #[test]
    fn csv_row_has_the_comparison_columns() {
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
        assert_eq!(
            result.csv_row(),
            "rust-bijou,zstd,sequential,50000,2,1100001,1000000,1200001,2.985,true,RUST,"
        );
        assert_eq!(
            result.csv_row().split(',').count(),
            CSV_HEADER.split(',').count()
        );
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
        assert_eq!(
            result.csv_row(),
            "rust-long,none,mixed,10,0,,,,,false,RUST,"
        );
    }
}
