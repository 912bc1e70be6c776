//! `streamfusion-bench bench-json` against the real local broker (`kafka/broker start`; another one
//! through `KAFKA_BOOTSTRAP_SERVERS`). Without a broker these tests fail, they do not skip.

mod common;

use common::{bootstrap, stdout_line, streamfusion_bench, unique_topic};

#[test]
fn table_of_every_encoder_and_guarantee_for_20000_bids_all_verified() {
    let bootstrap = bootstrap();
    let prefix = unique_topic("bench-json");
    let output = streamfusion_bench(&[
        "bench-json",
        "--events",
        "20_000",
        "--iterations",
        "1",
        "--compression",
        "none",
        "--checkpoint-interval-ms",
        "100",
        "--topic-prefix",
        &prefix,
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "streamfusion-bench bench-json failed ({}); is the broker up at {bootstrap}? run `kafka/broker start`.\n\
         stdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        2 + 6,
        "header, rule, 3 encoders x 2 guarantees:\n{stdout}"
    );
    let header: Vec<&str> = lines[0]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        [
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
            "verified"
        ],
        "{stdout}"
    );
    assert!(lines[1].starts_with("------"), "{stdout}");
    let order = [
        ("streamfusion-flink", "at-least-once"),
        ("streamfusion-plain", "at-least-once"),
        ("arrow-json-per-row", "at-least-once"),
        ("streamfusion-flink", "exactly-once"),
        ("streamfusion-plain", "exactly-once"),
        ("arrow-json-per-row", "exactly-once"),
    ];
    for (line, (encoder, guarantee)) in lines[2..].iter().zip(order) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells.len(), 13, "{line}");
        assert_eq!(cells[..3], [encoder, guarantee, "none"], "{line}");
        assert!(
            cells[3]
                .replace(',', "")
                .parse::<f64>()
                .is_ok_and(|r| r > 0.0),
            "records/s in {line}"
        );
        // Every encoder writes the same bids; Flink's timestamp text has the length of arrow-json's here.
        assert!(
            cells[5]
                .parse::<f64>()
                .is_ok_and(|b| (200.0..400.0).contains(&b)),
            "bytes/record in {line}"
        );
        for share in &cells[7..11] {
            assert!(share.ends_with('%'), "{line}");
        }
        assert!(cells[11].ends_with('x'), "{line}");
        assert_eq!(cells[12], "true", "{line}");
    }
    assert!(
        lines[4].contains(" 1.00x "),
        "arrow-json per row is its own baseline:\n{stdout}"
    );
    assert_eq!(
        stderr.matches("verified=true").count(),
        6,
        "stderr:\n{stderr}"
    );
    assert!(
        stderr.contains("batch.size=524288 linger.ms=20"),
        "stderr:\n{stderr}"
    );
}

#[test]
fn json_line_of_one_exactly_once_zstd_run_with_a_checkpoint_per_batch() {
    let bootstrap = bootstrap();
    let prefix = unique_topic("bench-json-eos");
    let output = streamfusion_bench(&[
        "bench-json",
        "--events",
        "5000",
        "--batch-rows",
        "1000",
        "--iterations",
        "1",
        "--encoder",
        "streamfusion-flink",
        "--mode",
        "exactly-once",
        "--compression",
        "zstd",
        "--checkpoint-interval-ms",
        "0",
        "--format",
        "json",
        "--topic-prefix",
        &prefix,
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ]);
    assert!(
        output.status.success(),
        "streamfusion-bench bench-json failed ({}); is the broker up at {bootstrap}?\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout_line(&output);
    let result: serde_json::Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("result line is not JSON ({e}): {line}"));
    assert_eq!(result["encoder"], "streamfusion-flink", "{line}");
    assert_eq!(result["guarantee"], "exactly-once", "{line}");
    assert_eq!(result["compression"], "zstd", "{line}");
    assert_eq!(result["events"], 5000, "{line}");
    assert_eq!(result["verified"], true, "{line}");
    assert_eq!(result["problem"], serde_json::Value::Null, "{line}");
    assert_eq!(
        result["ratio_vs_arrow_json_per_row"],
        serde_json::Value::Null,
        "no baseline in this run: {line}"
    );
    assert!(
        result["topic"]
            .as_str()
            .is_some_and(|t| t.starts_with(&prefix)),
        "{line}"
    );
    let passes = result["passes"].as_array().expect("passes");
    assert_eq!(passes.len(), 1, "{line}");
    assert_eq!(passes[0]["records"], 5000, "{line}");
    assert_eq!(
        passes[0]["checkpoints"], 5,
        "one transaction per batch: {line}"
    );
    let share = result["median_encode_cpu_share"].as_f64().expect("a share");
    assert!(share > 0.0 && share < 1.0, "{line}");
}

#[test]
fn bench_json_says_clearly_when_no_broker_answers() {
    let output = streamfusion_bench(&[
        "bench-json",
        "--events",
        "10",
        "--ci",
        "--bootstrap-servers",
        "127.0.0.1:9",
    ]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "exit status without a broker"
    );
    assert!(output.stdout.is_empty(), "no table without a broker");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no Kafka broker answered at 127.0.0.1:9"),
        "stderr:\n{stderr}"
    );
}
