//! The benchmarks' progress lines: timed passes and the read-back, on top of the `streamfusion` command's
//! [`Progress`] (a bar on a terminal, plain lines with `--ci` or when stderr is not a terminal, like the Java
//! side's `--ci` output).

use streamfusion_cli::progress::{grouped, Progress};

/// Progress of one benchmark run: its passes, then the records verified.
pub trait RunProgress {
    /// A run starts: `passes` timed passes (warm-up included) follow. `label` (e.g.
    /// `[sequential none rust-bijou]`) prefixes its lines.
    fn start_run(&mut self, label: &str, passes: u64);
    /// One pass finished; pass 0 is the warm-up.
    fn pass(&mut self, pass: usize, iterations: usize, rate: f64, seconds: f64);
    /// Verification starts: `records` records will be read back.
    fn start_verify(&mut self, records: u64);
    /// `records` records have been verified so far.
    fn verified(&self, records: u64);
}

impl RunProgress for Progress {
    fn start_run(&mut self, label: &str, passes: u64) {
        self.start_bar(label, passes, "{prefix} {spinner} [{bar:20}] {msg}");
    }

    fn pass(&mut self, pass: usize, iterations: usize, rate: f64, seconds: f64) {
        let what = if pass == 0 {
            "warm-up".to_owned()
        } else {
            format!("iteration {pass}/{iterations}")
        };
        match self.current_bar() {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(format!("{what}: {} msgs/s", grouped(rate)));
            }
            None => eprintln!(
                "{} {what}: {} msgs/s ({seconds:.3} s)",
                self.label(),
                grouped(rate)
            ),
        }
    }

    fn start_verify(&mut self, records: u64) {
        let label = self.label().to_owned();
        if self.is_plain() {
            eprintln!("{label} verifying {} records", grouped(records as f64));
        }
        self.start_bar(
            &label,
            records,
            "{prefix} verify [{bar:20}] {human_pos}/{human_len} records",
        );
    }

    fn verified(&self, records: u64) {
        if let Some(bar) = self.current_bar() {
            bar.set_position(records);
        }
    }
}
