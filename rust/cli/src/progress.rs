//! Progress on stderr, so stdout keeps only the machine-readable result.
//!
//! On a terminal each run gets an `indicatif` bar (passes, then records verified) that
//! is replaced by the run's summary line. In plain mode (`--ci`, or stderr is not a
//! terminal, e.g. when `compare-benchmarks.sh` runs under CI) every pass and the
//! summary are printed as ordinary lines, like the Java side's `--ci` output.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Where progress goes: animated bars or plain lines.
#[derive(Debug)]
pub struct Progress {
    plain: bool,
    bar: Option<ProgressBar>,
    label: String,
}

impl Progress {
    /// Plain lines when `ci` is set or stderr is not a terminal; bars otherwise.
    #[must_use]
    pub fn new(ci: bool) -> Self {
        Self {
            plain: ci || !std::io::stderr().is_terminal(),
            bar: None,
            label: String::new(),
        }
    }

    /// True when progress is printed as plain lines.
    #[must_use]
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    fn bar(&mut self, len: u64, template: &str, label: &str) {
        self.clear();
        if self.plain {
            return;
        }
        let bar = ProgressBar::new(len);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(label.to_owned());
        bar.enable_steady_tick(Duration::from_millis(100));
        self.bar = Some(bar);
    }

    /// Starts a bar of `len` steps drawn with the indicatif `template` and prefixed by `label`, which also
    /// becomes the [`label`](Self::label) of what follows. Nothing is drawn in plain mode.
    pub fn start_bar(&mut self, label: &str, len: u64, template: &str) {
        label.clone_into(&mut self.label);
        self.bar(len, template, label);
    }

    /// The label of the current task or bar.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The current bar; `None` in plain mode or when none was started.
    #[must_use]
    pub fn current_bar(&self) -> Option<&ProgressBar> {
        self.bar.as_ref()
    }

    /// A task of `total` units (`what`, e.g. `bids`) starts under `label`: a bar, or one
    /// plain line. `None`: the total is not known in advance (a counter instead of a bar).
    pub fn start_task(&mut self, label: &str, total: Option<u64>, what: &str) {
        label.clone_into(&mut self.label);
        if self.plain {
            match total {
                Some(total) => eprintln!("{label}: {} {what}", grouped(total as f64)),
                None => eprintln!("{label}: {what}"),
            }
        }
        let template = match total {
            Some(_) => {
                format!("{{prefix}} [{{bar:20}}] {{human_pos}}/{{human_len}} {what} {{per_sec}}")
            }
            None => format!("{{prefix}} {{spinner}} {{human_pos}} {what} {{per_sec}}"),
        };
        self.bar(total.unwrap_or(0), &template, label);
    }

    /// The current task has reached `done` units.
    pub fn position(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// A run ends with its summary line.
    pub fn done(&mut self, summary: &str) {
        self.clear();
        eprintln!("{summary}");
    }

    /// A message on its own line.
    pub fn message(&mut self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `1234567.8` as `1,234,568`; `-` for NaN.
#[must_use]
pub fn grouped(value: f64) -> String {
    if !value.is_finite() {
        return "-".to_owned();
    }
    let digits = format!("{:.0}", value.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if value < -0.5 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0.0), "0");
        assert_eq!(grouped(999.4), "999");
        assert_eq!(grouped(1_000.0), "1,000");
        assert_eq!(grouped(1_234_567.8), "1,234,568");
        assert_eq!(grouped(f64::NAN), "-");
    }
}
