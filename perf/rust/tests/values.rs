//! `streamfusion-bench values`: the values the Java side of the producer comparison sends, as bytes.

mod common;

use common::streamfusion_bench;
use streamfusion_bench::distribution::{Distribution, DEFAULT_SEED};

fn longs(bytes: &[u8]) -> Vec<i64> {
    assert_eq!(bytes.len() % 8, 0, "{} bytes", bytes.len());
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_be_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn writes_sequential_values_big_endian_to_stdout() {
    let output = streamfusion_bench(&["values", "--distribution", "sequential", "--messages", "3"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        output.stdout,
        [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3]
    );
}

#[test]
fn writes_what_the_rust_modes_send_to_a_file() {
    let path = std::env::temp_dir().join(format!("streamfusion-values-{}.bin", std::process::id()));
    let file = path.to_string_lossy().into_owned();
    let output = streamfusion_bench(&[
        "values",
        "--distribution",
        "mixed",
        "--messages",
        "10_000",
        "--seed",
        "-7",
        "-o",
        &file,
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stdout.is_empty());
    let written = longs(&std::fs::read(&path).unwrap());
    std::fs::remove_file(&path).ok();
    assert_eq!(written, Distribution::Mixed.generate(10_000, -7));
    assert_ne!(written, Distribution::Mixed.generate(10_000, DEFAULT_SEED));
}

#[test]
fn refuses_a_bad_count_and_an_unwritable_file() {
    let output = streamfusion_bench(&["values", "--messages", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("at least 1"));
    let output = streamfusion_bench(&["values", "-o", "/nonexistent-dir/values.bin"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("/nonexistent-dir/values.bin"),
        "{output:?}"
    );
}
