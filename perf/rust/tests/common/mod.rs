//! Helpers shared by the broker tests: the broker's address, unique topic names, running the
//! `streamfusion-bench` binary. Each test file uses a subset, hence the allowances.
#![allow(dead_code, unused_imports)]

use std::process::{Command, Output};

pub use kafka_util::bootstrap_from_env as bootstrap;

/// A name no other test or run uses: `streamfusion-bench-test-NAME-PID-NANOS`.
pub fn unique_topic(name: &str) -> String {
    kafka_util::unique_name("streamfusion-bench-test", name)
}

/// Runs the `streamfusion-bench` binary built for these tests.
pub fn streamfusion_bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_streamfusion-bench"))
        .args(args)
        .output()
        .expect("run the streamfusion-bench binary")
}

/// The one non-empty line on stdout (panics, showing stderr, when there is not exactly one).
pub fn stdout_line(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "exactly one result line on stdout, got {stdout:?}; stderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    lines[0].to_owned()
}
