//! `streamfusion-bench bench` against the real local broker (`kafka/broker start`; another one
//! through `KAFKA_BOOTSTRAP_SERVERS`). Without a broker these tests fail, they do not skip:
//! the benchmark is only meaningful against a real Kafka.

mod common;

use common::{bootstrap, stdout_line, streamfusion_bench, unique_topic};

#[test]
fn bench_json_line_for_2000_sequential_bijou_values() {
    let topic = unique_topic("bijou");
    let bootstrap = bootstrap();
    let output = streamfusion_bench(&[
        "bench",
        "--messages",
        "2000",
        "--iterations",
        "1",
        "--mode",
        "bijou",
        "--ci",
        "--topic",
        &topic,
        "--bootstrap-servers",
        &bootstrap,
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "streamfusion-bench bench failed ({}); is the broker up at {bootstrap}? run `kafka/broker start`.\nstderr:\n{stderr}",
        output.status
    );
    let line = stdout_line(&output);
    let result: serde_json::Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("result line is not JSON ({e}): {line}"));
    assert_eq!(result["mode"], "rust-bijou", "{line}");
    assert_eq!(result["implementation"], "RUST", "{line}");
    assert_eq!(result["distribution"], "sequential", "{line}");
    assert_eq!(result["compression"], "none", "{line}");
    assert_eq!(result["messages"], 2000, "{line}");
    assert_eq!(result["iterations"], 1, "{line}");
    assert_eq!(result["verified"], true, "{line}");
    assert_eq!(result["problem"], serde_json::Value::Null, "{line}");
    assert_eq!(result["topic"], topic.as_str(), "{line}");
    // 1..=2000: 247 one-byte, 256 two-byte and 1497 three-byte values.
    assert_eq!(result["avg_payload_bytes"], 2.625, "{line}");
    let median = result["median_msgs_per_s"].as_f64().expect("a median");
    assert!(median > 0.0, "{line}");
    assert_eq!(result["rates_msgs_per_s"].as_array().map(Vec::len), Some(1));
    // Progress went to stderr, plain lines under --ci.
    assert!(stderr.contains("iteration 1/1"), "stderr:\n{stderr}");
    assert!(stderr.contains("verified=true"), "stderr:\n{stderr}");
}

#[test]
fn bench_csv_row_for_long_values_with_zstd() {
    let topic = unique_topic("long");
    let bootstrap = bootstrap();
    let output = streamfusion_bench(&[
        "bench",
        "--messages",
        "2000",
        "--iterations",
        "1",
        "--mode",
        "long",
        "--distribution",
        "mixed",
        "--compression",
        "zstd",
        "--format",
        "csv",
        "--ci",
        "--topic",
        &topic,
        "--bootstrap-servers",
        &bootstrap,
    ]);
    assert!(
        output.status.success(),
        "streamfusion-bench bench failed ({}); is the broker up at {bootstrap}?\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // The results schema's header, then the run's row.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    let header = reader.headers().expect("a header").clone();
    assert_eq!(
        header.iter().collect::<Vec<_>>().join(","),
        streamfusion_bench::common::results_header(),
        "{stdout}"
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    let cell = |name: &str| {
        let at = header.iter().position(|h| h == name).unwrap();
        rows[0][at].to_owned()
    };
    for (column, value) in [
        ("benchmark", "bijou64-producer"),
        ("mode", "rust-long"),
        ("compression", "zstd"),
        ("workload", "mixed"),
        ("records", "2000"),
        ("iterations", "1"),
        ("value_bytes_per_record", "8.000"),
        ("verified", "true"),
        ("implementation", "RUST"),
        ("ratio_vs_baseline", ""),
        ("problem", ""),
    ] {
        assert_eq!(cell(column), value, "{column} in {stdout}");
    }
    assert!(
        cell("median_records_per_s")
            .parse::<f64>()
            .is_ok_and(|m| m > 0.0),
        "{stdout}"
    );
}

#[test]
fn bench_says_clearly_when_no_broker_answers() {
    // Port 9 (discard) on loopback: nothing listens there.
    let output = streamfusion_bench(&[
        "bench",
        "--messages",
        "10",
        "--iterations",
        "1",
        "--mode",
        "long",
        "--ci",
        "--bootstrap-servers",
        "127.0.0.1:9",
    ]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "exit status without a broker"
    );
    assert!(output.stdout.is_empty(), "no result line without a broker");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no Kafka broker answered at 127.0.0.1:9")
            && stderr.contains("kafka/broker start"),
        "stderr:\n{stderr}"
    );
}
