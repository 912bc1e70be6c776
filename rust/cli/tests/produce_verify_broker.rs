//! `streamfusion produce`, `consume` and `verify` against the real local broker
//! (`kafka/broker start`; another one through `KAFKA_BOOTSTRAP_SERVERS`). Without a broker
//! these tests fail, they do not skip.

mod common;

use common::{bootstrap, stdout_line, streamfusion, unique_topic};

fn produce(topic: &str, events: &str, extra: &[&str]) -> String {
    let bootstrap = bootstrap();
    let mut args = vec![
        "produce",
        "--topic",
        topic,
        "--events",
        events,
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ];
    args.extend_from_slice(extra);
    let output = streamfusion(&args);
    assert!(
        output.status.success(),
        "streamfusion produce failed ({}); is the broker up at {bootstrap}? run `kafka/broker start`.\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout_line(&output)
}

fn verify(topic: &str, events: &str) -> (Option<i32>, String) {
    let bootstrap = bootstrap();
    let output = streamfusion(&[
        "verify",
        "--topic",
        topic,
        "--events",
        events,
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ]);
    (output.status.code(), stdout_line(&output))
}

#[test]
fn exactly_once_20000_bids_verify_exactly() {
    let topic = unique_topic("eos");
    let line = produce(
        &topic,
        "20000",
        &[
            "--mode",
            "exactly-once",
            "--checkpoint-interval-ms",
            "50",
            "--batch-rows",
            "1000",
            "--partitions",
            "3",
        ],
    );
    assert!(
        line.starts_with("produce: events 20000, records 20000, bytes "),
        "{line}"
    );
    assert!(line.contains("(resumed at 0, checkpoints "), "{line}");

    let (code, line) = verify(&topic, "20000");
    assert_eq!(
        line,
        "verify: expected 20000, committed 20000, missing 0, duplicates 0, unexpected 0, \
         aborted-or-uncommitted 0"
    );
    assert_eq!(code, Some(0), "{line}");

    let bootstrap = bootstrap();
    let output = streamfusion(&[
        "consume",
        "--topic",
        &topic,
        "--isolation",
        "read-uncommitted",
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ]);
    assert!(output.status.success(), "{output:?}");
    let line = stdout_line(&output);
    assert!(
        line.contains("partitions 3, records 20000, tombstones 0"),
        "{line}"
    );
}

#[test]
fn a_second_run_resumes_after_the_committed_bids_and_missing_records_exit_3() {
    let topic = unique_topic("resume");
    let line = produce(&topic, "3000", &["--checkpoint-interval-ms", "20"]);
    assert!(
        line.starts_with("produce: events 3000, records 3000,"),
        "{line}"
    );
    // The same writer again with more events: only the bids not yet committed.
    let line = produce(&topic, "4000", &["--batch-rows", "512"]);
    assert!(
        line.starts_with("produce: events 1000, records 1000,"),
        "{line}"
    );
    assert!(line.contains("(resumed at 3000,"), "{line}");
    let (code, line) = verify(&topic, "4000");
    assert_eq!(code, Some(0), "{line}");
    assert!(
        line.contains("missing 0, duplicates 0, unexpected 0"),
        "{line}"
    );

    // Expecting more bids than were produced: 500 are missing.
    let (code, line) = verify(&topic, "4500");
    assert_eq!(
        line,
        "verify: expected 4500, committed 4000, missing 500, duplicates 0, unexpected 0, \
         aborted-or-uncommitted 0"
    );
    assert_eq!(code, Some(3), "{line}");

    // Expecting fewer: the surplus is unexpected, nothing missing.
    let (code, line) = verify(&topic, "3500");
    assert!(
        line.contains("missing 0, duplicates 0, unexpected 500"),
        "{line}"
    );
    assert_eq!(code, Some(3), "{line}");
}

#[test]
fn at_least_once_replayed_records_count_as_duplicates() {
    let topic = unique_topic("alo");
    let line = produce(&topic, "2000", &["--mode", "at-least-once"]);
    assert!(
        line.starts_with("produce: events 2000, records 2000,"),
        "{line}"
    );
    // A different writer id does not find the first one's progress: all 2000 again.
    let line = produce(
        &topic,
        "2000",
        &["--mode", "at-least-once", "--writer-id", "another"],
    );
    assert!(line.starts_with("produce: events 2000,"), "{line}");
    let (code, line) = verify(&topic, "2000");
    assert!(
        line.contains("committed 4000, missing 0, duplicates 2000, unexpected 0"),
        "{line}"
    );
    assert_eq!(code, Some(3), "{line}");
}

/// `--input FILE`: the rows of a CSV file produced exactly once, verified against the
/// same file; a second run of the same writer resumes at the end and writes nothing; a
/// file with one more row finds that row missing.
#[test]
fn csv_file_rows_verify_exactly_and_resume_at_the_end() {
    let dir = std::env::temp_dir().join(unique_topic("csv"));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("orders.csv");
    let mut text = String::from("order_id,customer,amount,note\n");
    for i in 0..3000 {
        let note = if i % 7 == 0 { "" } else { "\"gift, wrapped\"" };
        text.push_str(&format!("{i},c{},{}.25,{note}\n", i % 113, i * 3));
    }
    std::fs::write(&csv, &text).unwrap();
    let csv_arg = csv.to_str().unwrap();
    let topic = unique_topic("csv");
    let bootstrap = bootstrap();
    let produce = |extra: &[&str]| {
        let mut args = vec![
            "produce",
            "--topic",
            &topic,
            "--input",
            csv_arg,
            "--key-fields",
            "order_id",
            "--batch-rows",
            "500",
            "--checkpoint-interval-ms",
            "0",
            "--partitions",
            "2",
            "--bootstrap-servers",
            &bootstrap,
            "--ci",
        ];
        args.extend_from_slice(extra);
        let output = streamfusion(&args);
        assert!(output.status.success(), "{output:?}");
        stdout_line(&output)
    };
    let line = produce(&[]);
    assert!(
        line.starts_with("produce: events 3000, records 3000, bytes "),
        "{line}"
    );
    assert!(
        line.contains("(resumed at 0, checkpoints 6, replays 0)"),
        "{line}"
    );
    let line = produce(&[]);
    assert!(
        line.starts_with("produce: events 0, records 0, bytes 0,"),
        "{line}"
    );
    assert!(
        line.contains("(resumed at 3000, checkpoints 0, replays 0)"),
        "{line}"
    );

    let verify = |path: &str| {
        let output = streamfusion(&[
            "verify",
            "--topic",
            &topic,
            "--input",
            path,
            "--key-fields",
            "order_id",
            "--bootstrap-servers",
            &bootstrap,
            "--ci",
        ]);
        (output.status.code(), stdout_line(&output))
    };
    assert_eq!(
        verify(csv_arg),
        (
            Some(0),
            "verify: expected 3000, committed 3000, missing 0, duplicates 0, unexpected 0, \
             aborted-or-uncommitted 0"
                .to_owned()
        )
    );
    let longer = dir.join("orders-longer.csv");
    std::fs::write(&longer, format!("{text}3000,c0,1.25,\n")).unwrap();
    assert_eq!(
        verify(longer.to_str().unwrap()),
        (
            Some(3),
            "verify: expected 3001, committed 3000, missing 1, duplicates 0, unexpected 0, \
             aborted-or-uncommitted 0"
                .to_owned()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn input_conflicts_with_generated_bids() {
    let output = streamfusion(&[
        "produce", "--topic", "t", "--input", "x.csv", "--events", "5",
    ]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

/// `encode --keys` writes, without a broker, exactly the lines `consume --print` reads back from a topic that
/// `produce` wrote from the same CSV file: the same records, byte for byte (one partition, so in order).
#[test]
fn encode_prints_what_produce_writes_and_consume_reads() {
    let dir = std::env::temp_dir().join(unique_topic("encode-csv"));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("orders.csv");
    let mut text = String::from("order_id,customer,amount,note\n");
    for i in 0..2500 {
        text.push_str(&format!(
            "{i},customer-{},{}.{:02},\"line \"\"{i}\"\", é\"\n",
            i % 7,
            i * 3,
            i % 100
        ));
    }
    std::fs::write(&csv, text).unwrap();
    let csv = csv.to_str().unwrap();
    let topic = unique_topic("encode");
    let bootstrap = bootstrap();
    let produced = streamfusion(&[
        "produce",
        "--topic",
        &topic,
        "--input",
        csv,
        "--key-fields",
        "order_id",
        "--bootstrap-servers",
        &bootstrap,
        "--ci",
    ]);
    assert!(produced.status.success(), "{produced:?}");
    let line = stdout_line(&produced);
    assert!(
        line.starts_with("produce: events 2500, records 2500,"),
        "{line}"
    );

    let encoded = streamfusion(&[
        "encode",
        "--input",
        csv,
        "--key-fields",
        "order_id",
        "--keys",
    ]);
    assert!(encoded.status.success(), "{encoded:?}");
    let consumed = streamfusion(&[
        "consume",
        "--topic",
        &topic,
        "--print",
        "--bootstrap-servers",
        &bootstrap,
    ]);
    assert!(consumed.status.success(), "{consumed:?}");
    let encoded = String::from_utf8(encoded.stdout).unwrap();
    let consumed = String::from_utf8(consumed.stdout).unwrap();
    assert_eq!(encoded.lines().count(), 2500);
    assert_eq!(
        encoded.lines().next(),
        Some("{\"order_id\":0}\t{\"order_id\":0,\"customer\":\"customer-0\",\"amount\":0.0,\"note\":\"line \\\"0\\\", é\"}"),
        "the first record, as Flink's json format writes it"
    );
    assert_eq!(
        encoded, consumed,
        "encode --keys and consume --print differ"
    );

    // --output writes the same bytes to a file.
    let out = dir.join("orders.jsonl");
    let status = streamfusion(&[
        "encode",
        "--input",
        csv,
        "--key-fields",
        "order_id",
        "--keys",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(status.status.success(), "{status:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), encoded);
    std::fs::remove_dir_all(&dir).ok();
}
