//! Helpers shared by the broker tests: the broker's address, unique topic names, running the
//! `streamfusion` binary. Each test file uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::process::{Command, Output};
use std::time::{SystemTime, UNIX_EPOCH};

/// `KAFKA_BOOTSTRAP_SERVERS`, or the local broker (`kafka/broker start`).
pub fn bootstrap() -> String {
    std::env::var("KAFKA_BOOTSTRAP_SERVERS").unwrap_or_else(|_| "127.0.0.1:19092".into())
}

/// A name no other test or run uses: `streamfusion-cli-test-NAME-PID-NANOS`.
pub fn unique_topic(name: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "streamfusion-cli-test-{name}-{}-{nanos}",
        std::process::id()
    )
}

/// Runs the `streamfusion` binary built for these tests.
pub fn streamfusion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_streamfusion"))
        .args(args)
        .output()
        .expect("run the streamfusion binary")
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
